package sap

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// iterate is ℓp and everything derived from it at one v (SAP §IV-A).
type iterate struct {
	v     []float64 // generalized velocities, NV
	vc    []float64 // constraint velocities J v, NR
	gamma []float64 // γ_i = −∂ℓ_i/∂v_c,i (SAP eq. 23 for contact cones), NR
	g     []float64 // G_i = ∂²ℓ_i/∂v_c,i² (SAP App. D), Size_i² per constraint, row-major
	ci    []float64 // ℓ_i, the cost of each constraint
	r     []float64 // A(v − v*), NV
	jc    []float64 // j_c = Jᵀγ, generalized constraint impulse (SAP eq. 25), NV
	grad  []float64 // ∇ℓp = A(v − v*) − Jᵀγ (SAP §IV-A), NV

	cost  float64 // ℓp(v), SAP eq. (24)
	costC float64 // Σ_i ℓ_i, the constraint part of ℓp (ℓ_R of eq. 24 for contact cones)

	gradNorm float64 // ‖D ∇ℓp‖, SAP eq. (25)–(26)
	pNorm    float64 // ‖D p‖ with p = A v, SAP eq. (25)
	jcNorm   float64 // ‖D j_c‖, SAP eq. (25)
}

// resize sizes the iterate for nv velocities, nr constraint rows, nc
// constraints and ng entries of the G blocks.
func (it *iterate) resize(nv, nr, nc, ng int) {
	it.v = solver.Resize(it.v, nv)
	it.vc = solver.Resize(it.vc, nr)
	it.gamma = solver.Resize(it.gamma, nr)
	it.g = solver.Resize(it.g, ng)
	it.ci = solver.Resize(it.ci, nc)
	it.r = solver.Resize(it.r, nv)
	it.jc = solver.Resize(it.jc, nv)
	it.grad = solver.Resize(it.grad, nv)
}

// evaluator evaluates iterates of one problem. It holds the problem
// constants reused by every evaluation.
type evaluator struct {
	p     *solver.Problem
	avs   []float64 // A v*, to form p = A v = A(v − v*) + A v*
	dinv  []float64 // D = diag(M)^(−1/2), SAP eq. (25)
	tmpNV []float64 // scratch, NV
	// cols, once Solve has set it up for p (denseSystem.setup), holds
	// J's non-zero columns, over which
	// evaluate forms J v for a finite v (mulJ); nil before.
	cols    *denseSystem
	goff    []int // offset of constraint i's G block in iterate.g; goff[nc] = total
	maxSize int   // the largest constraint size
	lagged  bool  // whether a constraint is solver.ContactLagged (the only kind with a stick branch)
}

// reset prepares the evaluator for problem p.
func (e *evaluator) reset(p *solver.Problem) {
	e.p, e.cols = p, nil
	e.avs = solver.Resize(e.avs, p.NV)
	e.dinv = solver.Resize(e.dinv, p.NV)
	e.tmpNV = solver.Resize(e.tmpNV, p.NV)
	p.MulA(p.VStar, e.avs)
	for i, m := range p.MDiag {
		e.dinv[i] = 1 / math.Sqrt(m)
	}
	n := len(p.Constraints)
	if cap(e.goff) < n+1 {
		e.goff = make([]int, n+1, max(n+1, 2*cap(e.goff)))
	}
	e.goff = e.goff[:n+1]
	off := 0
	e.maxSize = 0
	e.lagged = false
	for i, c := range p.Constraints {
		e.goff[i] = off
		off += c.Size * c.Size
		e.maxSize = max(e.maxSize, c.Size)
		e.lagged = e.lagged || c.Kind == solver.ContactLagged
	}
	e.goff[n] = off
}

// gBlock returns constraint i's G block in g.
func (e *evaluator) gBlock(g []float64, i int) []float64 { return g[e.goff[i]:e.goff[i+1]] }

// evaluate fills it from it.v: v_c, γ, G, ℓp, ∇ℓp and the norms of the
// stopping criterion. It reports whether every number is finite.
func (e *evaluator) evaluate(it *iterate) bool {
	p := e.p
	if e.cols != nil && allFinite(it.v) {
		mulJ(p, e.cols, it.v, it.vc) // the same bits over J's non-zero columns
	} else {
		p.MulJ(it.v, it.vc)
	}
	diff := e.tmpNV
	for i, x := range it.v {
		diff[i] = x - p.VStar[i]
	}
	p.MulA(diff, it.r)
	costA := 0.5 * dot(diff, it.r) // ½‖v − v*‖²_A
	it.costC = 0
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		// γ_i, G_i and ℓ_i of the constraint's kind (SAP §V-A, eq. 37 for contact cones).
		switch c.Kind {
		case solver.Interval: // one row (limits, pyramid edges): Eval without its slices
			it.ci[i], it.gamma[lo], it.g[e.goff[i]] = solver.IntervalEval(p.Params[c.Par], p.Params[c.Par+1], p.R[lo], p.VHat[lo], it.vc[lo])
		case solver.ContactLagged: // Eval on scalars, the same bits
			it.ci[i] = e.lagged3(i, lo, it)
		default:
			it.ci[i] = p.Eval(i, it.vc[lo:hi], it.gamma[lo:hi], e.gBlock(it.g, i))
		}
		it.costC += it.ci[i]
	}
	it.cost = costA + it.costC // SAP eq. (24)
	if e.cols != nil && allFinite(it.gamma) {
		mulJT(p, e.cols, it.gamma, it.jc) // the same bits over J's non-zero columns
	} else {
		p.MulJT(it.gamma, it.jc)
	}
	for i := range it.grad {
		it.grad[i] = it.r[i] - it.jc[i] // SAP §IV-A
		diff[i] = it.r[i] + e.avs[i]    // p = A v
	}
	it.gradNorm = scaledNorm(e.dinv, it.grad)
	it.pNorm = scaledNorm(e.dinv, diff)
	it.jcNorm = scaledNorm(e.dinv, it.jc)
	return isFinite(it.cost) && isFinite(it.gradNorm) && isFinite(it.pNorm) && isFinite(it.jcNorm)
}

// lagged3 evaluates ContactLagged constraint i (rows lo, lo+1, lo+2) at
// it.vc into it.gamma and its G block, as Problem.Eval would, and returns
// its cost.
func (e *evaluator) lagged3(i, lo int, it *iterate) float64 {
	var b solver.LaggedBlock
	vc := it.vc[lo : lo+3]
	cost := e.p.LaggedEval(i, vc[0], vc[1], vc[2], &b)
	b.Put(it.gamma[lo:lo+3], it.g[e.goff[i]:e.goff[i]+9])
	return cost
}

// dot returns xᵀy.
func dot(x, y []float64) float64 {
	s := 0.0
	for i, xi := range x {
		s += xi * y[i]
	}
	return s
}

// scaledNorm returns ‖D x‖ for D = diag(d).
func scaledNorm(d, x []float64) float64 {
	s := 0.0
	for i, xi := range x {
		s += (d[i] * xi) * (d[i] * xi)
	}
	return math.Sqrt(s)
}

// isFinite reports whether x is neither NaN nor infinite.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// allFinite reports whether every element of x is finite.
func allFinite(x []float64) bool {
	for _, xi := range x {
		if !isFinite(xi) {
			return false
		}
	}
	return true
}

// Evaluation is ℓp and its derivatives at one v, for tests and
// diagnostics. Solve uses the same code.
type Evaluation struct {
	Cost     float64   // ℓp(v), SAP eq. (24)
	Gradient []float64 // ∇ℓp = A(v − v*) − Jᵀγ (SAP §IV-A), NV
	Gamma    []float64 // γ_i = −∂ℓ_i/∂v_c,i (SAP eq. 23 for contact cones), NR
	VC       []float64 // v_c = J v, NR
	// G holds the blocks G_i = −∂γ_i/∂v_c,i (SAP App. D), row-major,
	// Size_i² per constraint, in constraint order.
	G []float64
	// Hessian is H = A + JᵀGJ (SAP §IV-A), dense row-major NV×NV.
	Hessian []float64
}

// Evaluate returns ℓp, ∇ℓp, γ and H at v for problem p. It allocates. It
// returns an error if p is malformed (see solver.Problem.Validate) or
// len(v) ≠ NV.
func Evaluate(p *solver.Problem, v []float64) (*Evaluation, error) {
	if err := checkProblem(p, nil); err != nil {
		return nil, err
	}
	if len(v) != p.NV {
		return nil, fmt.Errorf("sap: len(v) = %d, want NV = %d", len(v), p.NV)
	}
	var e evaluator
	var it iterate
	e.reset(p)
	it.resize(p.NV, p.NR, len(p.Constraints), e.goff[len(p.Constraints)])
	copy(it.v, v)
	e.evaluate(&it)
	var sys denseSystem
	sys.assemble(p, it.g, e.goff)
	return &Evaluation{Cost: it.cost, Gradient: it.grad, Gamma: it.gamma, VC: it.vc, G: it.g, Hessian: sys.h}, nil
}

// checkProblem validates p (solver.Problem.Validate, which also checks each
// kind's conditions, such as R_i = diag(Rt, Rt, Rn) for contact cones,
// SAP §V-A), its structure through sh when sh is not nil (shape.validate).
func checkProblem(p *solver.Problem, sh *shape) error {
	if p == nil {
		return fmt.Errorf("sap: nil problem")
	}
	if err := sh.validate(p); err != nil {
		return fmt.Errorf("sap: malformed problem: %w", err)
	}
	return nil
}
