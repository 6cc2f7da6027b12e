package contact

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// memoryStep assembles sc's pairs with a, as a step does after Recall, and
// returns a made-up solution: pair k has normal impulse gn[k], friction
// impulse slide[k] times its bound μ γ_n along t1, and contact velocity
// vc[k] (rows t1, t2, n).
func memoryStep(t *testing.T, sc *scene, a *Assembler, prm Params, gn, slide []float64, vc [][3]float64) *solver.Result {
	t.Helper()
	m, s, p := sc.m, sc.s, &sc.p
	sc.massProblem(p)
	kin := multibody.NewWorkspace(m)
	kin.Update(s.Q, s.V)
	if err := a.Assemble(m, kin, sc.pairs, sc.mats, 0.01, &prm, p); err != nil {
		t.Fatal(err)
	}
	res := &solver.Result{Gamma: make([]float64, p.NR), VC: make([]float64, p.NR)}
	for k := range sc.pairs {
		row := p.Constraints[k].Row
		res.Gamma[row+2] = gn[k]
		res.Gamma[row] = slide[k] * sc.mats[0].Friction * gn[k]
		copy(res.VC[row:row+3], vc[k][:])
	}
	return res
}

// TestMemoryRecallsWhatItRemembered: a contact's first step recalls
// nothing; after Remember, the same contact points (recalled in another
// order) have age 1, their impulse, the gap error φ0 − (φ0 + δt v_n) when
// negative, and an anchor δt v_t when they stick (projected on the tangent
// plane), cut to AnchorCap when they slide, none without a normal impulse.
// A checkpoint's copy (Memos, Restore) recalls the same; an empty memory's
// Memos is nil.
func TestMemoryRecallsWhatItRemembered(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	sc := newScene(t, r)
	sc.collide(0.5)
	n := len(sc.pairs)
	if n < 3 {
		t.Fatalf("%d pairs, want ≥ 3", n)
	}
	prm := DefaultParams()
	prm.Approximation = SAP // friction bound μ γ_n of the step's own impulse
	var mem Memory
	for i := range sc.pairs {
		sc.pairs[i].Age, sc.pairs[i].Anchored, sc.pairs[i].GapError = 5, true, -1 // stale values Recall must clear
	}
	mem.Recall(sc.pairs)
	for i, pr := range sc.pairs {
		if pr.Age != 0 || pr.Anchored || pr.GapError != 0 || pr.PrevImpulse != [3]float64{} {
			t.Fatalf("pair %d recalled from an empty memory: %+v", i, pr)
		}
	}
	if mem.Memos() != nil {
		t.Fatal("an empty memory's Memos is not nil")
	}
	gn, slide, vc := make([]float64, n), make([]float64, n), make([][3]float64, n)
	for k := range n {
		gn[k], slide[k] = 1, 0.5                                                 // sticking
		vc[k] = [3]float64{1e-3 * float64(k+1), -2e-3, 0.1 * float64(1-2*(k%2))} // v_n > 0 for even k: a gap error
	}
	gn[1] = 0      // no load: no anchor
	slide[2] = 1.2 // past the bound: sliding, anchor cut to its cap
	vc[2][0] = 10  // δt v_t = 0.1 m, far beyond the cap
	var a Assembler
	res := memoryStep(t, sc, &a, prm, gn, slide, vc)
	mem.Remember(sc.pairs, &a, &sc.p, res)
	capped := a.anchorCap(2, sc.p.FrictionBound(a.base+2, res.Gamma), &sc.p)
	if !(capped > 0 && capped < 1e-3) {
		t.Fatalf("anchor cap %g", capped)
	}
	old := slices.Clone(sc.pairs)
	saved := mem.Memos()
	check := func(what string, pairs []Pair) {
		for _, pr := range pairs {
			k := slices.IndexFunc(old, func(o Pair) bool { return o.GeomA == pr.GeomA && o.GeomB == pr.GeomB && o.Feature == pr.Feature })
			if pr.Age != 1 || pr.PrevImpulse != [3]float64{slide[k] * sc.mats[0].Friction * gn[k], 0, gn[k]} {
				t.Errorf("%s: pair %d: age %d, impulse %v", what, k, pr.Age, pr.PrevImpulse)
			}
			if want := min(0, -0.01*vc[k][2]); math.Abs(pr.GapError-want) > 1e-17 {
				t.Errorf("%s: pair %d: gap error %g, want %g", what, k, pr.GapError, want)
			}
			t1, t2 := spatial.Orthonormal(pr.Normal)
			shift := t1.Scale(0.01 * vc[k][0]).Add(t2.Scale(0.01 * vc[k][1]))
			switch {
			case k == 1:
				if pr.Anchored {
					t.Errorf("%s: unloaded pair anchored", what)
				}
			case k == 2:
				if !pr.Anchored || math.Abs(pr.AnchorShift.Norm()-capped) > 1e-15 || pr.AnchorShift.Dot(shift) <= 0 {
					t.Errorf("%s: sliding pair: anchored %v, shift %v (cap %g along %v)", what, pr.Anchored, pr.AnchorShift, capped, shift)
				}
			default:
				if !pr.Anchored || pr.AnchorShift.Sub(shift).Norm() > 1e-18 {
					t.Errorf("%s: pair %d: anchored %v, shift %v, want %v", what, k, pr.Anchored, pr.AnchorShift, shift)
				}
			}
		}
	}
	shuffled := slices.Clone(old)
	r.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	mem.Recall(shuffled)
	check("recalled", shuffled)
	var restored Memory
	slices.Reverse(saved)
	restored.Restore(saved, 0.01)
	again := slices.Clone(old)
	restored.Recall(again)
	check("restored", again)
}

// TestMemoryAllocatesNothing: once warmed up, Recall and Remember of a
// step of the same size allocate nothing.
func TestMemoryAllocatesNothing(t *testing.T) {
	sc := newScene(t, rand.New(rand.NewPCG(9, 10)))
	sc.collide(0.5)
	n := len(sc.pairs)
	gn, slide, vc := make([]float64, n), make([]float64, n), make([][3]float64, n)
	for k := range n {
		gn[k], slide[k], vc[k] = 1, 0.3, [3]float64{1e-4, 0, 0}
	}
	var a Assembler
	var mem Memory
	res := memoryStep(t, sc, &a, DefaultParams(), gn, slide, vc)
	step := func() {
		mem.Recall(sc.pairs)
		mem.Remember(sc.pairs, &a, &sc.p, res)
	}
	step()
	if allocs := testing.AllocsPerRun(20, step); allocs != 0 {
		t.Errorf("%v allocations per Recall + Remember", allocs)
	}
}
