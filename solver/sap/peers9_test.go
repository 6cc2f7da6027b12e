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
		var p *solver.Problem
		if trial%2 == 0 {
			p = problems.Random(rng, 1+trial%4, []solver.Kind{solver.ContactLagged, solver.ContactLagged, solver.ContactLagged}, 0.025)
			for _, c := range p.Constraints {
				if rng.IntN(2) == 0 {
					p.Params[c.Par+4] = 0
				}
			}
		} else {
			p = peers5Problem(rng, trial)
		}
		s := New(DefaultParams())
		var res solver.Result
		solveOK2(t, s.Solve, p, nil, &res)
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
			dvc := make([]float64, p.NR)
			for i := range dvc {
				dvc[i] = pickSigned(rng)
			}
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
