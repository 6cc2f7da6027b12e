package contact

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestFixedcostAssembleNoPairs: Assemble with no pair appends nothing to
// the problem and leaves the assembler as a call with pairs would need it:
// the problem of pairs assembled after it (with rolling and spin rows, the
// memory remembering them) is the one a fresh assembler builds, to the
// bit, and Remember after the empty call remembers nothing.
func TestFixedcostAssembleNoPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 49))
	tried, extra := 0, 0
	for range 10 {
		sc := newScene(t, r)
		sc.mats = append(sc.mats, Material{Stiffness: 3e5, Dissipation: 0.02, Friction: 0.8, Spin: 0.01, Rolling: 0.001})
		sc.m.Geometries[2].Material = 1 // the ball: rolling and spin rows (Combine's harmonic means need both)
		sc.mats[0].Spin, sc.mats[0].Rolling = 0.02, 0.002
		sc.collide(0.5)
		if len(sc.pairs) == 0 {
			continue
		}
		want := assembleWith(t, sc, nil)
		tried++
		if len(want.Constraints) > len(sc.pairs) {
			extra++
		}
		var a Assembler
		kin := multibody.NewWorkspace(sc.m)
		kin.Update(sc.s.Q, sc.s.V)
		assemble := func(pairs []Pair) solver.Problem {
			var p solver.Problem
			sc.massProblem(&p)
			if err := a.Assemble(sc.m, kin, pairs, sc.mats, 0.01, new(DefaultParams()), &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		if got := assemble(sc.pairs); !reflect.DeepEqual(got, want) {
			t.Fatal("first Assemble: another problem than a fresh assembler's")
		}
		var empty solver.Problem
		sc.massProblem(&empty)
		if got := assemble(nil); !reflect.DeepEqual(got, empty) {
			t.Fatal("Assemble with no pair changed the problem")
		}
		var mem Memory
		res := solver.Result{}
		mem.Remember(nil, &a, &empty, &res)
		if len(mem.Memos()) != 0 {
			t.Fatalf("Remember after no pair: %d memos", len(mem.Memos()))
		}
		if a.base != len(empty.Constraints) || len(a.extra) != 0 || len(a.per) != 0 || a.last.valid {
			t.Fatalf("assembler after no pair: base %d, %d extra rows, %d pair states, last valid %v",
				a.base, len(a.extra), len(a.per), a.last.valid)
		}
		if got := assemble(sc.pairs); !reflect.DeepEqual(got, want) {
			t.Fatal("Assemble after one with no pair: another problem than a fresh assembler's")
		}
	}
	if tried == 0 || extra == 0 {
		t.Fatalf("%d scenes with pairs, %d with rolling or spin rows: the test saw too little", tried, extra)
	}
}
