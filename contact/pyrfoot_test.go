package contact

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// TestGeometricCombined: pairs marked Geometric (every other one) take
// their rolling and spin blocks from Combined when it is given
// (geometricMaterial, read in place) as they do from the materials
// combined by recall, to the bit; a Combined without rolling and spin
// friction drops those blocks (it is the one read). Frame gives every
// pair the tangents spatial.Orthonormal of its normal, bit for bit.
func TestGeometricCombined(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 3))
	withExtra := 0 // scenes whose geometric pairs have rolling or spin blocks
	for range 10 {
		sc := newScene(t, r)
		sc.mats = append(sc.mats, Material{Stiffness: 3e5, Dissipation: 0.02, Friction: 0.8, Spin: 0.01, Rolling: 0.001})
		sc.m.Geometries[2].Material = 1 // the ball
		sc.mats[0].Spin, sc.mats[0].Rolling = 0.02, 0.002
		sc.collide(0.5)
		geo := make([]bool, len(sc.pairs))
		comb := make([]Material, len(sc.pairs))
		for i, pr := range sc.pairs {
			geo[i] = i%2 == 0
			comb[i] = Combine(sc.mats[sc.m.Geometries[pr.GeomA].Material], sc.mats[sc.m.Geometries[pr.GeomB].Material])
		}
		want, _ := assembleGeometric(t, sc, geo, nil)
		got, a := assembleGeometric(t, sc, geo, comb)
		if !reflect.DeepEqual(got, want) {
			t.Fatal("Combined of the pairs' materials: another problem")
		}
		for i := range sc.pairs {
			pr := &sc.pairs[i]
			f := a.Frame(i, pr)
			t1, t2 := spatial.Orthonormal(pr.Normal)
			if !sameVec(f[0], t1) || !sameVec(f[1], t2) || !sameVec(f[2], pr.Normal) {
				t.Fatalf("pair %d: Frame %v, want %v, %v, %v", i, *f, t1, t2, pr.Normal)
			}
		}
		extra := len(got.Constraints) - len(sc.pairs)
		for i := range comb {
			comb[i].Rolling, comb[i].Spin = 0, 0
		}
		if extra > 0 {
			withExtra++
			if p, _ := assembleGeometric(t, sc, geo, comb); len(p.Constraints) != len(sc.pairs) {
				t.Fatalf("Combined without rolling and spin: %d blocks, want %d", len(p.Constraints), len(sc.pairs))
			}
		}
	}
	if withExtra == 0 {
		t.Fatal("no scene with a geometric pair's rolling or spin block")
	}
}

// assembleGeometric returns the problem, and the Assembler, that a fresh
// Assembler with Geometric geo and Combined comb builds for sc's pairs
// with A = M.
func assembleGeometric(t *testing.T, sc *scene, geo []bool, comb []Material) (solver.Problem, *Assembler) {
	t.Helper()
	m, s := sc.m, sc.s
	var p solver.Problem
	sc.massProblem(&p)
	a := &Assembler{Combined: pointersTo(comb), Geometric: geo}
	kin := multibody.NewWorkspace(m)
	kin.Update(s.Q, s.V)
	if err := a.Assemble(m, kin, sc.pairs, sc.mats, 0.01, new(DefaultParams()), &p); err != nil {
		t.Fatal(err)
	}
	return p, a
}

// sameVec reports whether x and y are the same, bit for bit.
func sameVec(x, y spatial.Vec3) bool {
	for k := range 3 {
		if math.Float64bits(x[k]) != math.Float64bits(y[k]) {
			return false
		}
	}
	return true
}
