package contact

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestAssemblerCombined: with Assembler.Combined holding each pair's
// Combine of its geometries' materials, Assemble builds the problem it
// builds by combining them itself, to the bit; a Combined of another
// length is ignored; and a Combined that differs (twice the friction) is
// the one used.
func TestAssemblerCombined(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	for range 10 {
		sc := newScene(t, r)
		sc.mats = append(sc.mats, Material{Stiffness: 3e5, Dissipation: 0.02, Friction: 0.8, Spin: 0.01, Rolling: 0.001})
		sc.m.Geometries[2].Material = 1 // the ball
		sc.collide(0.5)
		comb := make([]Material, len(sc.pairs))
		for i, pr := range sc.pairs {
			comb[i] = Combine(sc.mats[sc.m.Geometries[pr.GeomA].Material], sc.mats[sc.m.Geometries[pr.GeomB].Material])
		}
		want := assembleWith(t, sc, nil)
		if got := assembleWith(t, sc, comb); !reflect.DeepEqual(got, want) {
			t.Fatal("Combined of the pairs' materials: another problem")
		}
		if got := assembleWith(t, sc, comb[:len(comb)-1]); !reflect.DeepEqual(got, want) {
			t.Fatal("Combined of the wrong length: not ignored")
		}
		for i := range comb {
			comb[i].Friction *= 2
		}
		if got := assembleWith(t, sc, comb); reflect.DeepEqual(got, want) {
			t.Fatal("Combined with twice the friction: the same problem")
		}
	}
}

// assembleWith returns the problem a fresh Assembler with Combined comb
// builds for sc's pairs with A = M.
func assembleWith(t *testing.T, sc *scene, comb []Material) solver.Problem {
	t.Helper()
	m, s := sc.m, sc.s
	var p solver.Problem
	sc.massProblem(&p)
	a := Assembler{Combined: pointersTo(comb)}
	kin := multibody.NewWorkspace(m)
	kin.Update(s.Q, s.V)
	if err := a.Assemble(m, kin, sc.pairs, sc.mats, 0.01, new(DefaultParams()), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// pointersTo returns pointers to the materials of comb, for
// Assembler.Combined (nil for nil).
func pointersTo(comb []Material) []*Material {
	if comb == nil {
		return nil
	}
	ptr := make([]*Material, len(comb))
	for i := range comb {
		ptr[i] = &comb[i]
	}
	return ptr
}
