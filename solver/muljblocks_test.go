package solver_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// TestMulJBlocksMatchesMulJ: J v of each constraint alone (MulJBlocks over
// its run of J blocks, into a vector of other numbers) has the bits of
// MulJ's rows and leaves the other rows alone, on random problems of four
// kinds.
func TestMulJBlocksMatchesMulJ(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	kinds := []solver.Kind{solver.ContactCone, solver.ContactLagged, solver.Bilateral, solver.Interval}
	for trial := range 20 {
		p := problems.Random(rng, 1+trial%4, kinds, 0.025)
		v := make([]float64, p.NV)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		want := make([]float64, p.NR)
		p.MulJ(v, want)
		for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
			hi = lo + 1
			for hi < len(p.JBlock) && p.JBlock[hi].Constraint == p.JBlock[lo].Constraint {
				hi++
			}
			got := make([]float64, p.NR)
			for i := range got {
				got[i] = -7
			}
			p.MulJBlocks(lo, hi, v, got)
			c := p.Constraints[p.JBlock[lo].Constraint]
			for r := range got {
				in := r >= c.Row && r < c.Row+c.Size
				if in && math.Float64bits(got[r]) != math.Float64bits(want[r]) || !in && got[r] != -7 {
					t.Fatalf("trial %d, blocks [%d, %d): row %d = %v, MulJ %v (constraint rows [%d, %d))", trial, lo, hi, r, got[r], want[r], c.Row, c.Row+c.Size)
				}
			}
		}
	}
}

// TestIntervalEvalMatchesEval: IntervalEval gives Eval's ℓ, γ and G of an
// Interval row to the bit, below, inside and above its bounds.
func TestIntervalEvalMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	var p solver.Problem
	p.Reset(1)
	k := p.AddConstraint(solver.Interval, 1, -0.5, 2)
	row := p.Constraints[k].Row
	p.R[row], p.VHat[row] = 0.3, 0.1
	for range 1000 {
		vc := 3 * rng.NormFloat64()
		var gamma, g [1]float64
		cost := p.Eval(k, []float64{vc}, gamma[:], g[:])
		c2, gm2, gg2 := solver.IntervalEval(-0.5, 2, 0.3, 0.1, vc)
		if math.Float64bits(cost) != math.Float64bits(c2) || math.Float64bits(gamma[0]) != math.Float64bits(gm2) || math.Float64bits(g[0]) != math.Float64bits(gg2) {
			t.Fatalf("v_c = %v: Eval (%v, %v, %v), IntervalEval (%v, %v, %v)", vc, cost, gamma[0], g[0], c2, gm2, gg2)
		}
	}
}
