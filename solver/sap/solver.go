package sap

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// Solver is the SAP contact solver (SAP Algorithm 2). It holds its
// parameters and a workspace that is reused across solves: after a first
// solve of a given size, Solve does not allocate (unless Params.Trace is
// set). A Solver is not safe for concurrent use.
type Solver struct {
	params   Params
	paramErr error
	ws       workspace
	shape    shape // the structure of the last problem validated
	// last is the problem of the last Solve that passed check (nil after
	// one that did not): Resolve may reuse what Solve derived from it.
	last *solver.Problem
	// Over the solver's life: factorizations of H for Newton directions,
	// of H̃ for stick predictions, and predicted directions taken.
	factorizations, predicted, predictedTaken int
}

// workspace holds the storage of one solve.
type workspace struct {
	eval      evaluator
	cur, next iterate      // v_m and v_{m+1}
	dv        []float64    // Newton direction Δv, NV
	dp        []float64    // Δp = A Δv, NV
	dvc       []float64    // Δv_c = J Δv, NR
	lvc       []float64    // line search scratch: one constraint's v_c(α)
	lgamma    []float64    // … its γ(α)
	lg        []float64    // … its G(α)
	sys       newtonSystem // H = A + JᵀGJ and its factorization: &dense or &sparse; nil until the first Newton step of a solve
	dense     denseSystem
	sparse    sparseSystem
	line      line
	gpred     []float64 // G̃ of the stick prediction (predict.go)
	dgamma    []float64 // γ − γ̃ of the stick prediction, NR
	dvp       []float64 // the predicted direction Δṽ, NV
	dvcp      []float64 // J Δṽ, NR
	dpp       []float64 // A Δṽ, NV
	linep     line      // the line search along Δṽ
	gabs      []float64 // |A| |v − v*| + |J|ᵀ |γ|, NV (stopping.go's gradientFloor)
}

// New returns a solver with parameters p. Invalid parameters are reported
// by every call to Solve.
func New(p Params) *Solver {
	s := &Solver{params: p}
	s.ws.sparse.f.Kernels = p.Kernels
	s.ws.dense.upper = true // factor reads H's upper triangle only
	if err := p.Validate(); err != nil {
		s.paramErr = fmt.Errorf("sap: invalid parameters: %w", err)
	}
	return s
}

// Params returns the solver's parameters.
func (s *Solver) Params() Params { return s.params }

var _ solver.Solver = (*Solver)(nil)

// Solve implements solver.Solver: it minimises ℓp (SAP eq. 24) with SAP
// Algorithm 2 from the warm start v0 (nil means v0 = v*), and writes v,
// γ = P_F(y(v)) and v_c = J v at the returned iterate, with statistics, into
// res.
//
// It returns an error, leaving res untouched, only if p is malformed
// (solver.Problem.Validate, or a contact whose two tangential
// regularizations differ), v0 has the wrong length or is not finite, res is
// nil, or the parameters are invalid. Otherwise the status says how the
// solve ended (solver.Converged, Stalled, MaxIterations or Failed) and res
// holds the last accepted iterate, which is always finite. Every accepted
// step decreases ℓp, except that a step whose end point satisfies eq. (26)
// is accepted even if round-off made ℓp rise; a step that raises ℓp
// otherwise is rejected and the status is Stalled. Stats.Iterations counts
// the Newton directions computed or attempted (a failed factorization
// counts). In the degenerate case where ℓp is not even finite at v0
// (overflow), res.V = v0, γ and v_c are zero, the status is Failed and
// Cost, InitialCost and MomentumError are +Inf.
func (s *Solver) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	// The workspace keeps its sizes when the last Solve passed its checks
	// (and so sized it) and p has that solve's structure.
	sized := s.last != nil
	s.last = nil
	if err := s.check(p, v0, res); err != nil {
		return err
	}
	s.last = p
	ws := &s.ws
	ws.reset(p, sized && s.shape.hit)
	// J's non-zero columns, read once per solve (it does not fail): every
	// product with J or Jᵀ of the solve, from the warm start's evaluation
	// on, runs over them (mulJ, mulJT, the dense Newton system).
	ws.dense.setup(p)
	ws.eval.cols = &ws.dense
	s.solveFrom(p, v0, res, false)
	return nil
}

// Resolve implements solver.Resolver: p must be the problem of the last
// Solve, changed since only by Problem.SetLaggedNormal (finite n0 ≥ 0, as
// solver.LaggedRefiner sets them). It skips what Solve derives from the
// problem's structure and data other than the lagged impulses, which did
// not change: the validation of p, the evaluator's A v* and scaling, J's
// packed columns and the Newton system's path and pattern. The result is
// Solve's, bit for bit (TestResolveMatchesSolve). Otherwise it is Solve.
func (s *Solver) Resolve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if p == nil || p != s.last || s.ws.eval.p != p {
		return s.Solve(p, v0, res)
	}
	if err := checkWarm(p, v0, res); err != nil {
		return err
	}
	s.solveFrom(p, v0, res, true)
	return nil
}

// solveFrom runs SAP Algorithm 2 on p, for which the workspace is set up
// (Solve), from the warm start v0 (nil: v*) and writes the result; again
// (Resolve) lets the warm start's evaluation reuse the last returned
// iterate's (evaluateWarm).
func (s *Solver) solveFrom(p *solver.Problem, v0 []float64, res *solver.Result, again bool) {
	ws := &s.ws
	if v0 == nil {
		v0 = p.VStar
	}
	if s.params.Trace != nil {
		s.params.Trace.reset()
	}
	res.Stats = solver.Stats{}
	ws.line.resetLag() // the problem (or a re-solve's n0) may have changed
	ws.linep.resetLag()
	if !ws.eval.evaluateWarm(&ws.cur, v0, again) {
		s.failAtStart(p, res)
		return
	}
	res.Stats.InitialCost = ws.cur.cost
	res.Stats.Status = s.run(p, &res.Stats)
	s.finish(p, res)
	if st := res.Stats.Status; st == solver.Stalled || st == solver.MaxIterations {
		s.classifyFloor(p, &res.Stats) // stopping.go
	}
}

// prepareSystem chooses the Newton-system path for p and runs its setup
// (for the sparse path, the block pattern and the symbolic analysis; the
// dense system's, J's non-zero columns, ran at the start of Solve). It is
// called at the first Newton step of a solve, so that a solve whose warm
// start already meets eq. (26) costs one evaluation of ℓp and one read of
// J's columns only.
func (s *Solver) prepareSystem(p *solver.Problem) {
	ws := &s.ws
	ws.sys = &ws.dense
	if s.useSparse(p) {
		if err := ws.sparse.setup(p); err == nil {
			ws.sys = &ws.sparse
		}
	}
}

// useSparse reports whether the solve of p takes the sparse path.
func (s *Solver) useSparse(p *solver.Problem) bool {
	switch s.params.Linear {
	case SparseLinear:
		return true
	case DenseLinear:
		return false
	}
	return len(p.Cliques) >= AutoSparseCliques
}

// SymbolicStats returns how many symbolic analyses the sparse path has run
// and how many solves reused the cached one (the contact graph had the same
// block pattern as the previous sparse solve).
func (s *Solver) SymbolicStats() (analyses, reuses int) {
	return s.ws.sparse.cache.Analyses(), s.ws.sparse.cache.Hits()
}

// Factorizations returns, over the solver's life, how many Newton systems
// H it has factored, how many stick-predicted systems H̃
// (Params.StickPrediction) and how many predicted directions it took.
func (s *Solver) Factorizations() (newton, predicted, taken int) {
	return s.factorizations, s.predicted, s.predictedTaken
}

// check returns an error for a malformed call.
func (s *Solver) check(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if s.paramErr != nil {
		return s.paramErr
	}
	if err := checkProblem(p, &s.shape); err != nil { // the structure only when it changed (shape.go)
		return err
	}
	return checkWarm(p, v0, res)
}

// checkWarm returns an error for a nil result or a warm start v0 of the
// wrong length or not finite, formed by warmError out of line: the checks
// alone run at every solve.
func checkWarm(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if res == nil || v0 != nil && len(v0) != p.NV {
		return warmError(p, v0, res)
	}
	for _, x := range v0 {
		if !isFinite(x) {
			return warmError(p, v0, res)
		}
	}
	return nil
}

// warmError is checkWarm's error, for a call that has one.
//
//go:noinline
func warmError(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if res == nil {
		return errors.New("sap: nil result")
	}
	if v0 != nil && len(v0) != p.NV {
		return fmt.Errorf("sap: len(v0) = %d, want NV = %d", len(v0), p.NV)
	}
	for i, x := range v0 {
		if !isFinite(x) {
			return fmt.Errorf("sap: v0[%d] = %v is not finite", i, x)
		}
	}
	return nil
}

// reset prepares the workspace for p. sized says that it was last reset
// for a problem of p's structure (shape.same), whose sizes it keeps: only
// the evaluator's constants are computed again.
func (ws *workspace) reset(p *solver.Problem, sized bool) {
	ws.sys = nil
	if !sized {
		ws.size(p)
	}
	ws.eval.load(p)
}

// size sizes the workspace for p's structure.
//
//go:noinline
func (ws *workspace) size(p *solver.Problem) {
	ws.eval.size(p)
	nc, ng, k := len(p.Constraints), ws.eval.goff[len(p.Constraints)], ws.eval.maxSize
	ws.cur.resize(p.NV, p.NR, nc, ng)
	ws.next.resize(p.NV, p.NR, nc, ng)
	ws.dv = solver.Resize(ws.dv, p.NV)
	ws.dp = solver.Resize(ws.dp, p.NV)
	ws.dvc = solver.Resize(ws.dvc, p.NR)
	ws.lvc = solver.Resize(ws.lvc, k)
	ws.lgamma = solver.Resize(ws.lgamma, k)
	ws.lg = solver.Resize(ws.lg, k*k)
}

// run performs the Newton iterations of SAP Algorithm 2 on ws.cur and
// returns the final status; ws.cur is the iterate to return.
//
// Close to the optimum the cost ℓp stops resolving progress before the
// gradient does: along stiff directions (near-rigid or very stiff
// contacts, G ~ 1/R) a Newton step lowers ℓp by about ½ gᵀH⁻¹g, which can
// fall below the round-off of ℓp while the momentum error e_m is still
// above εr. So a step counts as progress, and the iteration goes on, when
// it lowers the cost or the scaled gradient norm ‖D∇ℓp‖ (eq. 25), and a
// stall is declared only when the cost has stopped changing and the
// gradient norm has not decreased either. (With the cost test alone, one
// hour of `clutter` with the paper's contact model ended 127 steps
// "stalled" after one Newton iteration with e_m of 1.4–1.7e-6 against
// εr = 1e-6.) Likewise a step whose cost rises by no more than the
// cost's round-off (roundoff) is accepted: the exact line search's
// derivative, not the cost, decides descent there, and a step across the
// edge of a friction disk can raise both the evaluated cost by round-off
// and the gradient norm before the next step, with the Hessian of the
// right side, converges (TestNoFalseStallAcrossKink). For the same reason
// a stall is declared only after maxIdle consecutive steps without
// progress: the first step across the edge may leave the cost unchanged
// to round-off and the gradient larger (TestNoFalseStallAfterKink).
func (s *Solver) run(p *solver.Problem, st *solver.Stats) solver.Status {
	ws := &s.ws
	prevCost, prevGrad := 0.0, 0.0
	idle := 0 // consecutive steps without progress
	for m := 0; ; m++ {
		s.traceIterate(&ws.cur)
		if m > 0 && s.stalled(prevCost, ws.cur.cost) && !(ws.cur.gradNorm < prevGrad) {
			idle++
		} else {
			idle = 0
		}
		switch {
		case s.optimal(&ws.cur): // SAP eq. (26), also at the warm start
			return solver.Converged
		case idle >= maxIdle:
			return solver.Stalled
		case st.Iterations >= s.params.MaxIterations:
			return solver.MaxIterations
		}
		st.Iterations++
		ls, ok := s.newtonStep(p)
		st.LineSearchIterations += ls.iters
		s.traceStep(ls)
		switch {
		case !ok || ls.nonFinite:
			return solver.Failed
		case ls.alpha == 0: // no descent along Δv at round-off level
			return solver.Stalled
		}
		// SAP Algorithm 2, line 5: v_{m+1} = v_m + α_m Δv_m.
		for i, x := range ws.cur.v {
			ws.next.v[i] = x + ls.alpha*ws.dv[i]
		}
		if !ws.eval.evaluate(&ws.next) {
			return solver.Failed
		}
		// A rise of the evaluated cost after an exact line search on a
		// convex ℓp is evaluation error: the step is kept when the rise is
		// within round-off or the gradient norm fell (on
		// internal/problems/testdata/sap_tight_stall.gob the last step
		// raises ℓ ≈ 8.55 by 5e-13 and lowers ‖D∇ℓp‖ from 3.2e-5 to 9.4e-12,
		// TestCostRiseWithGradientFall). Otherwise keep the better iterate.
		if ws.next.cost > ws.cur.cost && !s.optimal(&ws.next) && !s.roundoff(ws.cur.cost, ws.next.cost) && !(ws.next.gradNorm < ws.cur.gradNorm) {
			return solver.Stalled
		}
		prevCost, prevGrad = ws.cur.cost, ws.cur.gradNorm
		ws.cur, ws.next = ws.next, ws.cur
	}
}

// newtonStep computes the Newton direction Δv = −H⁻¹∇ℓp (SAP Algorithm 2,
// line 3) at ws.cur and runs the line search (line 4). It reports false if
// H could not be factored or Δv is not finite.
func (s *Solver) newtonStep(p *solver.Problem) (lsResult, bool) {
	ws := &s.ws
	cur := &ws.cur
	ws.line = ws.line.carry() // its packed blocks kept (linesearch.go)
	if ws.sys == nil {
		s.prepareSystem(p)
	}
	ws.sys.assemble(p, cur.g, ws.eval.goff) // H = A + JᵀGJ, SAP §IV-A
	if !ws.sys.factor() {
		return lsResult{}, false
	}
	for i, g := range cur.grad {
		ws.dv[i] = -g
	}
	ws.sys.solve(ws.dv)
	if !allFinite(ws.dv) {
		return lsResult{}, false
	}
	mulJ(p, &ws.dense, ws.dv, ws.dvc) // Δv_c = J Δv, SAP §IV-C (dv is finite; the dense system holds J's columns on either path)
	s.factorizations++
	ls, ok := s.search(p, &ws.line, ws.dv, ws.dvc, ws.dp)
	if ok && !ls.nonFinite && s.params.StickPrediction {
		return s.predictStick(p, ls), true // predict.go
	}
	return ls, ok
}

// search runs the line search (SAP Algorithm 2, line 4) from ws.cur along
// dv, with dvc = J dv, computing dp = A dv, and leaves its line in l. It
// reports false if a number is not finite; a direction that is not a
// descent direction (round-off) gives α = 0.
func (s *Solver) search(p *solver.Problem, l *line, dv, dvc, dp []float64) (lsResult, bool) {
	cur := &s.ws.cur
	p.MulA(dv, dp) // Δp = A Δv, SAP §IV-C
	*l = l.carry() // the packed Lagged blocks kept (linesearch.go)
	l.p, l.it, l.dvc = p, cur, dvc
	l.f0, l.b, l.c2 = dot(dv, cur.grad), dot(dv, cur.r), dot(dv, dp)
	l.vc, l.gamma, l.g = s.ws.lvc, s.ws.lgamma, s.ws.lg
	switch {
	case !isFinite(l.f0) || !isFinite(l.b) || !isFinite(l.c2):
		return lsResult{}, false
	case !(l.f0 < 0): // not a descent direction (round-off): no step
		return lsResult{}, true
	case s.params.LineSearch == BacktrackingLineSearch:
		return l.backtracking(&s.params), true
	default:
		return l.exact(&s.params), true
	}
}

// maxIdle is the number of consecutive steps without progress (cost
// stalled and gradient norm not decreased) after which a solve is Stalled.
const maxIdle = 2

// finish writes the returned iterate ws.cur and its statistics into res.
func (s *Solver) finish(p *solver.Problem, res *solver.Result) {
	cur := &s.ws.cur
	res.V = solver.Resize(res.V, p.NV)
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
	copy(res.V, cur.v)
	copy(res.Gamma, cur.gamma)
	copy(res.VC, cur.vc)
	res.Stats.Cost = cur.cost
	res.Stats.MomentumError = momentumError(cur)
	res.Stats.ComplementarityError = complementarityError(p, cur)
}

// failAtStart fills res when ℓp is not finite at the warm start.
func (s *Solver) failAtStart(p *solver.Problem, res *solver.Result) {
	res.V = solver.Resize(res.V, p.NV)
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
	copy(res.V, s.ws.cur.v)
	clear(res.Gamma)
	clear(res.VC)
	inf := math.Inf(1)
	res.Stats = solver.Stats{Status: solver.Failed, Cost: inf, InitialCost: inf, MomentumError: inf}
}

// traceIterate records iterate it when tracing is on.
func (s *Solver) traceIterate(it *iterate) {
	if t := s.params.Trace; t != nil {
		t.record(TraceEntry{Cost: it.cost, GradNorm: it.gradNorm, Tolerance: s.tolerance(it)}, it.v)
	}
}

// traceStep records the step taken from the last traced iterate.
func (s *Solver) traceStep(ls lsResult) {
	t := s.params.Trace
	if t == nil {
		return
	}
	e := t.last()
	e.Alpha, e.LineSearchIterations, e.BracketCollapsed = ls.alpha, ls.iters, ls.collapsed
	e.DCost0 = s.ws.line.f0
	e.DCostAlpha = ls.dAlpha
	if s.params.LineSearch == BacktrackingLineSearch && ls.alpha > 0 {
		e.DCostAlpha, _ = s.ws.line.derivs(ls.alpha)
	}
}
