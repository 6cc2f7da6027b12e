package contact

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// asm4Scene is a random newScene with rolling and spin friction on the
// ball (as TestFixedcostAssembleNoPairs), collided with a wide margin.
func asm4Scene(t *testing.T, r *rand.Rand) *scene {
	sc := newScene(t, r)
	sc.mats = append(sc.mats, Material{Stiffness: 3e5, Dissipation: 0.02, Friction: 0.8, Spin: 0.01, Rolling: 0.001})
	sc.m.Geometries[2].Material = 1
	sc.mats[0].Spin, sc.mats[0].Rolling = 0.02, 0.002
	sc.collide(0.5)
	return sc
}

// TestAsm4PairStatesReused: the pair states (frame, lever, rolling and spin
// blocks) that Assemble leaves, which it no longer clears, are those of a
// fresh assembler, bit for bit, after the same assembler has assembled
// other pairs (the pairs reversed, and each one alone), and so is the
// problem.
func TestAsm4PairStatesReused(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 136))
	tried := 0
	for range 20 {
		sc := asm4Scene(t, r)
		if len(sc.pairs) < 2 {
			continue
		}
		tried++
		kin := multibody.NewWorkspace(sc.m)
		kin.Update(sc.s.Q, sc.s.V)
		assemble := func(a *Assembler, pairs []Pair) solver.Problem {
			var p solver.Problem
			sc.massProblem(&p)
			if err := a.Assemble(sc.m, kin, pairs, sc.mats, 0.01, new(DefaultParams()), &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
		var fresh, reused Assembler
		want := assemble(&fresh, sc.pairs)
		rev := make([]Pair, len(sc.pairs))
		for i := range rev {
			rev[i] = sc.pairs[len(rev)-1-i]
		}
		assemble(&reused, rev)
		for i := range sc.pairs {
			assemble(&reused, sc.pairs[i:i+1])
		}
		if got := assemble(&reused, sc.pairs); !reflect.DeepEqual(got, want) {
			t.Fatal("reused assembler: another problem than a fresh one's")
		}
		if !reflect.DeepEqual(reused.per, fresh.per) {
			t.Fatalf("reused assembler's pair states\n%v\nnot a fresh one's\n%v", reused.per, fresh.per)
		}
		for i := range sc.pairs {
			if *reused.Frame(i, &sc.pairs[i]) != *fresh.Frame(i, &sc.pairs[i]) ||
				reused.SpinBlock(i) != fresh.SpinBlock(i) || reused.RollingBlock(i) != fresh.RollingBlock(i) {
				t.Fatalf("pair %d: reused assembler's frame or blocks differ", i)
			}
		}
	}
	if tried == 0 {
		t.Fatal("no scene with two pairs")
	}
}

// TestAsm4PairStatesAfterError: an Assemble that stops at a pair of two
// welded bodies leaves the pairs after it as not reached (zero frame and
// lever, no rolling or spin block), as the cleared slices did, however
// the assembler was used before.
func TestAsm4PairStatesAfterError(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 136))
	for range 10 {
		sc := asm4Scene(t, r)
		if len(sc.pairs) == 0 {
			continue
		}
		kin := multibody.NewWorkspace(sc.m)
		kin.Update(sc.s.Q, sc.s.V)
		var a Assembler
		var p solver.Problem
		sc.massProblem(&p)
		pairs := append(append([]Pair(nil), sc.pairs...), sc.pairs...)
		if err := a.Assemble(sc.m, kin, pairs, sc.mats, 0.01, new(DefaultParams()), &p); err != nil {
			t.Fatal(err)
		}
		welded := sc.pairs[0]
		welded.GeomA, welded.GeomB, welded.BodyA, welded.BodyB = 0, 0, sc.m.Geometries[0].Body, sc.m.Geometries[0].Body
		pairs[1] = welded
		sc.massProblem(&p)
		if err := a.Assemble(sc.m, kin, pairs, sc.mats, 0.01, new(DefaultParams()), &p); err == nil {
			t.Fatal("Assemble of a welded pair: no error")
		}
		if len(a.per) != len(pairs) {
			t.Fatalf("%d pair states, want %d", len(a.per), len(pairs))
		}
		if a.per[1].roll != -1 || a.per[1].spin != -1 || a.per[1].lever != 0 {
			t.Fatalf("the failed pair's state %v", a.per[1])
		}
		for i := 2; i < len(pairs); i++ {
			if a.per[i] != (pairState{roll: -1, spin: -1}) {
				t.Fatalf("pair %d after the error: state %v, want not reached", i, a.per[i])
			}
		}
	}
}
