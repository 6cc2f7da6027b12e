package fclib

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// SweepEps returns the regularizations tried by Sweep: ε = 10^(−k/2) for
// k = 4 … 22, from 1e-2 down to 1e-11 in half decades.
func SweepEps() []float64 {
	var eps []float64
	for k := 4; k <= 22; k++ {
		eps = append(eps, math.Pow(10, -float64(k)/2))
	}
	return eps
}

// Sweep solves p (single SAP solves from the cold start v*, no refinement)
// for the decreasing ε of SweepEps with the other options of opt, and stops
// after the first ε at which SAP does not converge (round-off eventually
// prevents it: the Hessian's condition grows like 1/ε). The last solution
// returned is that failure, unless every ε converged.
func Sweep(p *Problem, opt Options) ([]*Solution, error) {
	var sols []*Solution
	for _, eps := range SweepEps() {
		o := opt
		o.Eps, o.Refine = eps, 0
		s, err := Solve(p, o)
		if err != nil {
			return sols, err
		}
		sols = append(sols, s)
		if s.Stats.Status != solver.Converged {
			break
		}
	}
	return sols, nil
}

// SmallestConverged returns the solution at the smallest ε before the first
// failure of a Sweep, or nil if SAP did not converge even at the first ε.
func SmallestConverged(sols []*Solution) *Solution {
	var last *Solution
	for _, s := range sols {
		if s.Stats.Status != solver.Converged {
			break
		}
		last = s
	}
	return last
}
