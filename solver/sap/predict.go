package sap

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// Stick prediction (Params.StickPrediction).
//
// With Lagged contacts the warm start v0 puts almost every contact that
// will stick outside its tiny stiction region (‖v_t‖ ≤ μ n0 R_t, about
// 1e-5 m/s), where the Newton model sees its friction as a constant force.
// The Newton step then carries its slip across zero, the exact line search
// stops where the first contact's slip reaches the stiction region (there
// the cost's curvature jumps by 1/R_t), and each Newton iteration settles
// about one contact: 31 iterations for a step of clutter-40 with 12 such
// contacts. The prediction computes the Newton direction Δv as usual and,
// when the slip of some contacts reverses along it, solves once more with
// those contacts on their stick branch (solver.Problem.StickBranch): the
// linear model of a semismooth Newton step with the predicted regimes,
//
//	H̃ Δṽ = −g̃,  H̃ = A + JᵀG̃J,  g̃ = A(v − v*) − Jᵀγ̃ = ∇ℓp + Jᵀ(γ − γ̃),
//
// searches along both directions and keeps the one whose step lowers ℓp
// more (Newton's unless the other is better beyond round-off). The line search and the stopping criterion
// (eq. 26) use the true ℓp, so the solution is the same minimiser; only
// the path to it changes. That step of clutter-40 takes 5 iterations.

// predictStick runs the stick prediction after the Newton direction ws.dv
// was searched with result ls: when some contact's slip reverses along it,
// it computes the predicted direction Δṽ, searches along it too, and keeps
// (in ws.dv, ws.dvc, ws.dp, ws.line) whichever direction lowers ℓp more,
// so that an iteration never does worse than Newton's. It returns the kept
// search's result.
func (s *Solver) predictStick(p *solver.Problem, ls lsResult) lsResult {
	ws := &s.ws
	if !s.stickDirection(p) {
		return ls
	}
	lp, ok := s.search(p, &ws.linep, ws.dvp, ws.dvcp, ws.dpp)
	if !ok || lp.nonFinite || !(lp.alpha > 0) {
		return ls
	}
	gain := 0.0 // ℓ(α) − ℓ(0) of the Newton search
	if ls.alpha > 0 {
		gain = ws.line.costDiff(ls.alpha)
	}
	// Prefer Newton's step unless the predicted one is better beyond the
	// round-off of ℓp (near the optimum both are at round-off level, and
	// Newton's converges quadratically).
	margin := s.params.CostAbsTolerance + 64*epsMachine*math.Abs(ws.cur.cost)
	if !(ws.linep.costDiff(lp.alpha) < gain-margin) {
		return ls
	}
	ws.dv, ws.dvp = ws.dvp, ws.dv
	ws.dvc, ws.dvcp = ws.dvcp, ws.dvc
	ws.dp, ws.dpp = ws.dpp, ws.dp
	ws.line, ws.linep = ws.linep, ws.line
	s.predictedTaken++
	return lp
}

// stickDirection computes the stick-predicted direction into ws.dvp and
// ws.dvcp = J ws.dvp when some contact's slip reverses along ws.dvc and
// H̃ could be factored and Δṽ is finite. It reports whether it did.
func (s *Solver) stickDirection(p *solver.Problem) bool {
	ws := &s.ws
	cur := &ws.cur
	if !ws.eval.lagged {
		return false // solver.Problem.StickBranch is false for every other kind
	}
	if !s.stickBranches(p) {
		return false
	}
	s.predicted++
	sp, sparse := ws.sys.(*sparseSystem)
	if sparse { // H̃ = A + JᵀG̃J factored against the Newton step's factor of H
		if !sp.factorPredicted(p, ws.gpred, ws.eval.goff) {
			return false
		}
	} else {
		ws.sys.assemble(p, ws.gpred, ws.eval.goff) // H̃ = A + JᵀG̃J
		if !ws.sys.factor() {
			return false
		}
	}
	ws.dvp = solver.Resize(ws.dvp, p.NV)
	ws.dpp = solver.Resize(ws.dpp, p.NV)
	ws.dvcp = solver.Resize(ws.dvcp, p.NR)
	if allFinite(ws.dgamma) {
		mulJTOf(p, &ws.dense, ws.sparse.stuck, ws.dgamma, ws.dvp) // Jᵀ(γ − γ̃) over the predicted constraints' blocks, the same bits
	} else {
		p.MulJT(ws.dgamma, ws.dvp)
	}
	for i, g := range cur.grad {
		ws.dvp[i] = -(g + ws.dvp[i]) // −g̃
	}
	if sparse {
		sp.solvePredicted(ws.dvp)
	} else {
		ws.sys.solve(ws.dvp)
	}
	if !allFinite(ws.dvp) {
		return false
	}
	mulJ(p, &ws.dense, ws.dvp, ws.dvcp) // Δṽ is finite: the same bits over J's non-zero columns
	return true
}

// stickBranches fills ws.gpred with G̃ (cur.g with the predicted contacts'
// stick branches), ws.dgamma with γ − γ̃ (zero on the other rows) and
// ws.sparse.stuck with the predicted constraints (for factorPredicted), and reports whether some
// contact's slip reverses (solver.Problem.StickBranch).
// Most calls find none (clutter-40's first 300 steps: about 4 450 of
// 14 700 calls predict) and then write nothing: the copy of cur.g and the
// clearing of dgamma wait for the first predicted contact, whose branch is
// written again after them (StickBranch writes the same numbers from the
// same arguments), so G̃ and γ − γ̃ get the same bits as when copied first.
func (s *Solver) stickBranches(p *solver.Problem) bool {
	ws := &s.ws
	cur := &ws.cur
	ws.gpred = solver.Resize(ws.gpred, len(cur.g))
	ws.dgamma = solver.Resize(ws.dgamma, p.NR)
	ws.sparse.stuck = ws.sparse.stuck[:0]
	any := false
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		if !p.StickBranch(i, cur.vc[lo:hi], ws.dvc[lo:hi], ws.eval.gBlock(ws.gpred, i), ws.dgamma[lo:hi]) {
			continue
		}
		ws.sparse.stuck = append(ws.sparse.stuck, i)
		if !any {
			copy(ws.gpred, cur.g)
			clear(ws.dgamma)
			p.StickBranch(i, cur.vc[lo:hi], ws.dvc[lo:hi], ws.eval.gBlock(ws.gpred, i), ws.dgamma[lo:hi])
			any = true
		}
		// dgamma holds γ̃_t; keep γ − γ̃.
		ws.dgamma[lo] = cur.gamma[lo] - ws.dgamma[lo]
		ws.dgamma[lo+1] = cur.gamma[lo+1] - ws.dgamma[lo+1]
	}
	return any
}
