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

// classifyFloor turns a Stalled or MaxIterations status into
// solver.RoundOff when the returned iterate's scaled gradient norm is
// already below its evaluation's round-off, gradientFloor, and records that
// floor in e_m units (Stats.MomentumFloor). It changes no iterate: the
// solve ran as before, only its status says why it stopped short of
// eq. (26). (dm_control's finger pressed by its motors on its joint limits
// at rest: impulses of 0.3 cancel to a net momentum of 4e-9, eq. (26)'s
// right side is 1.4e-16, and ‖D ∇ℓp‖ stays between 1.5e-16 and 2e-16 over
// 100 Newton steps, under a floor of about 8.7e-16.)
func (s *Solver) classifyFloor(p *solver.Problem, st *solver.Stats) {
	cur := &s.ws.cur
	floor := s.gradientFloor(p, cur)
	if !(cur.gradNorm <= floor) {
		return
	}
	st.Status = solver.RoundOff
	if den := max(cur.pNorm, cur.jcNorm); den > 0 {
		st.MomentumFloor = floor / den
	} else {
		st.MomentumFloor = math.Inf(1)
	}
}

// gradientFloor returns ε·‖D (|A| |v − v*| + |J|ᵀ |γ|)‖ at it: the size of
// the round-off in evaluating ∇ℓp = A (v − v*) − Jᵀγ (SAP §IV-A), one
// machine epsilon of the sum of the magnitudes of its terms (Higham,
// Accuracy and Stability of Numerical Algorithms, §3.1: the error of a
// sum is bounded by a multiple of ε Σ|terms|; the multiple is taken as 1,
// the floor's lowest estimate).
func (s *Solver) gradientFloor(p *solver.Problem, it *iterate) float64 {
	ws := &s.ws
	ws.gabs = solver.Resize(ws.gabs, p.NV)
	g := ws.gabs
	clear(g)
	for c, q := range p.Cliques {
		a := p.ABlock(c)
		for i := range q.Size {
			acc := 0.0
			for j := range q.Size {
				acc += math.Abs(a[i*q.Size+j] * (it.v[q.Offset+j] - p.VStar[q.Offset+j]))
			}
			g[q.Offset+i] += acc
		}
	}
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		c := p.Constraints[blk.Constraint]
		d := p.JBlockData(b)
		for r, gr := range it.gamma[c.Row : c.Row+c.Size] {
			for j, jij := range d[r*q.Size : (r+1)*q.Size] {
				g[q.Offset+j] += math.Abs(jij * gr)
			}
		}
	}
	return epsMachine * scaledNorm(s.ws.eval.dinv, g)
}
