package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// peers8CostDiffRef is line.costDiff's loop before the ContactLagged
// blocks were read from the packed numbers: every constraint through
// line.at (Problem.Eval).
func peers8CostDiffRef(l *line, alpha float64) float64 {
	dC := 0.0
	for i, c := range l.p.Constraints {
		cost, lo, hi := l.at(i, alpha, false)
		if c.Kind == solver.ContactCone || c.Kind == solver.ContactEllipticN {
			dC += solver.ConeCostDiffN(l.p.R[lo:hi], l.gamma[:hi-lo], l.it.gamma[lo:hi])
		} else {
			dC += cost - l.it.ci[i]
		}
	}
	return alpha*l.b + 0.5*alpha*alpha*l.c2 + dC
}

// TestPeers8CostDiff: ℓ(α) − ℓ(0) with the ContactLagged blocks' costs
// formed from their packed numbers (laggedCost) has the bits of the
// evaluation of every block through Problem.Eval, at α from 0 to 20 along
// random directions from a solve's iterate and from v*, on problems with
// anchored and unanchored Lagged blocks beside a cone and an interval
// block, whether or not derivs packed the line first.
func TestPeers8CostDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 83))
	for trial := range 200 {
		p := peers5Problem(rng, trial)
		s := New(DefaultParams())
		solveOK(t, s, p, nil)
		it := &s.ws.cur
		if trial%2 == 1 {
			copy(it.v, p.VStar)
			s.ws.eval.evaluate(it)
		}
		dv := randNormal(rng, p.NV, math.Pow(10, float64(rng.IntN(5)-3)))
		dvc := make([]float64, p.NR)
		p.MulJ(dv, dvc)
		k := s.ws.eval.maxSize
		l := line{p: p, it: it, dvc: dvc, b: rng.NormFloat64(), c2: rng.Float64(),
			vc: make([]float64, k), gamma: make([]float64, k), g: make([]float64, k*k)}
		if trial%3 == 0 {
			l.derivs(0.5)
		}
		for _, alpha := range []float64{0, 1e-6, 1e-3, 0.25, 0.5, 1, 2, 20, rng.Float64()} {
			got, want := l.costDiff(alpha), peers8CostDiffRef(&l, alpha)
			if !sameBit(got, want) {
				t.Fatalf("trial %d, α = %g: costDiff %v, through Eval %v", trial, alpha, got, want)
			}
		}
	}
}
