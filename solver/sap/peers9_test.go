package sap

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// TestPeers9PackLaggedOncePerSolve: a line after the first of a solve
// (carry, then packLagged rewriting v_c, Δv_c and γ(0) only) packs the
// numbers a line packed from scratch packs, bit for bit, on 200 random
// problems (all-Lagged, anchored or not, and mixed with cones and
// intervals), over three directions from two iterates; and resetLag makes
// the next line pack the problem's numbers again (n0 changed by
// SetLaggedNormal, as a re-solve does).
func TestPeers9PackLaggedOncePerSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 23))
	for trial := range 200 {
		p, s := laggedTrialSolve(t, rng, trial)
		ws := &s.ws
		var l line
		for dir := range 6 {
			if dir == 3 { // another iterate, and a re-solve's n0
				copy(ws.cur.v, p.VStar)
				ws.eval.evaluate(&ws.cur)
				for i, c := range p.Constraints {
					if c.Kind == solver.ContactLagged {
						p.SetLaggedNormal(i, rng.Float64())
					}
				}
				l.resetLag()
			}
			dvc := signedVec(rng, p.NR)
			l = l.carry()
			l.p, l.it, l.dvc = p, &ws.cur, dvc
			l.packLagged()
			fresh := line{p: p, it: &ws.cur, dvc: dvc}
			fresh.packLagged()
			if !sameBits(l.lag, fresh.lag) || l.allLagged != fresh.allLagged {
				t.Fatalf("trial %d, direction %d: packed %v (all Lagged %v), from scratch %v (%v)",
					trial, dir, l.lag, l.allLagged, fresh.lag, fresh.allLagged)
			}
		}
	}
}

// laggedTrialSolve returns trial's random problem of the Lagged line
// tests, for even trials all-Lagged (1–4 cliques, about half the blocks
// without an anchor), for odd ones peers5Problem's mix with a cone and an
// interval, and a solver that has solved it with the default parameters.
func laggedTrialSolve(t *testing.T, rng *rand.Rand, trial int) (*solver.Problem, *Solver) {
	t.Helper()
	var p *solver.Problem
	if trial%2 == 1 {
		p = peers5Problem(rng, trial)
	} else {
		p = problems.Random(rng, 1+trial%4, []solver.Kind{solver.ContactLagged, solver.ContactLagged, solver.ContactLagged}, 0.025)
		for _, c := range p.Constraints {
			if rng.IntN(2) == 0 {
				p.Params[c.Par+4] = 0
			}
		}
	}
	s := New(DefaultParams())
	var res solver.Result
	solveOK2(t, s.Solve, p, nil, &res)
	return p, s
}

// signedVec returns n numbers of pickSigned.
func signedVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = pickSigned(rng)
	}
	return v
}
