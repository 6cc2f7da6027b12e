package sap

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// tolerance returns the right side of SAP eq. (26),
// εa + εr max(‖D p‖, ‖D j_c‖), with p = A v the generalized momentum.
func (s *Solver) tolerance(it *iterate) float64 {
	return s.params.AbsTolerance + s.params.RelTolerance*max(it.pNorm, it.jcNorm)
}

// optimal reports whether it satisfies SAP eq. (26):
// ‖D ∇ℓp‖ < εa + εr max(‖D p‖, ‖D j_c‖).
func (s *Solver) optimal(it *iterate) bool { return it.gradNorm < s.tolerance(it) }

// stalled reports the cost-stall criterion between consecutive costs:
// |ℓ_m − ℓ_{m+1}| < CostAbsTolerance + CostRelTolerance·|ℓ_m|.
func (s *Solver) stalled(prev, cur float64) bool {
	return math.Abs(prev-cur) < s.params.CostAbsTolerance+s.params.CostRelTolerance*math.Abs(prev)
}

// roundoff reports whether cur differs from prev by no more than the
// round-off of evaluating ℓp, taken as 64 machine epsilons of |ℓ| (ℓp sums
// many terms) or CostAbsTolerance.
func (s *Solver) roundoff(prev, cur float64) bool {
	return math.Abs(prev-cur) <= s.params.CostAbsTolerance+64*epsMachine*max(math.Abs(prev), math.Abs(cur))
}

// epsMachine is the float64 machine epsilon, 2⁻⁵².
const epsMachine = 0x1p-52

// momentumError is e_m, SAP eq. (32): ‖D ∇ℓp‖ / max(‖D p‖, ‖D j_c‖). It is
// 0 when the numerator is 0 and +Inf when only the denominator is.
func momentumError(it *iterate) float64 {
	den := max(it.pNorm, it.jcNorm)
	if it.gradNorm == 0 {
		return 0
	}
	return it.gradNorm / den
}

// complementarityError is e_μ, SAP eq. (33), over the contact-cone
// constraints (solver.ComplementarityError).
func complementarityError(p *solver.Problem, it *iterate) float64 {
	return solver.ComplementarityError(p, it.vc, it.gamma, it.cost)
}
