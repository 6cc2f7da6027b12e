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
	costA float64 // ½‖v − v*‖²_A, the momentum part of ℓp
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

// reset prepares the evaluator for problem p: its sizes (size) and its
// constants (load).
func (e *evaluator) reset(p *solver.Problem) {
	e.size(p)
	e.load(p)
}

// load computes the problem constants of p, for which the evaluator is
// sized: A v* and the scaling D.
func (e *evaluator) load(p *solver.Problem) {
	e.p, e.cols = p, nil
	p.MulA(p.VStar, e.avs)
	for i, m := range p.MDiag {
		e.dinv[i] = 1 / math.Sqrt(m)
	}
}

// size sizes the evaluator for p's structure: its NV-long slices, the G
// blocks' offsets, the largest constraint size and whether a constraint
// is lagged.
func (e *evaluator) size(p *solver.Problem) {
	e.avs = solver.Resize(e.avs, p.NV)
	e.dinv = solver.Resize(e.dinv, p.NV)
	e.tmpNV = solver.Resize(e.tmpNV, p.NV)
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
	it.costA = 0.5 * dot(diff, it.r) // ½‖v − v*‖²_A
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
	it.cost = it.costA + it.costC // SAP eq. (24)
	e.gradient(it, true)
	return it.finite()
}

// gradient sets it's j_c = Jᵀγ, ∇ℓp = A(v − v*) − Jᵀγ (SAP §IV-A) and
// their scaled norms ‖D ∇ℓp‖, ‖D j_c‖ from it.r and it.gamma, and with
// withP also ‖D p‖, p = A v = A(v − v*) + A v*. The norms are scaledNorm's
// sums, each in its own accumulator in index order, formed in the one pass
// that forms ∇ℓp (the same bits: TestPeers5ReevaluateMatchesEvaluate and
// TestPeers5GradientNorms).
func (e *evaluator) gradient(it *iterate, withP bool) {
	p := e.p
	if e.cols != nil && allFinite(it.gamma) {
		mulJT(p, e.cols, it.gamma, it.jc) // the same bits over J's non-zero columns
	} else {
		p.MulJT(it.gamma, it.jc)
	}
	grad := it.grad
	n := len(grad)
	r, jc, d := it.r[:n], it.jc[:n], e.dinv[:n]
	sg, sj := 0.0, 0.0
	if !withP {
		for i := range grad {
			g := r[i] - jc[i] // SAP §IV-A
			grad[i] = g
			x, y := d[i]*g, d[i]*jc[i]
			sg += x * x
			sj += y * y
		}
		it.gradNorm, it.jcNorm = math.Sqrt(sg), math.Sqrt(sj)
		return
	}
	avs := e.avs[:n]
	sp := 0.0
	for i := range grad {
		g := r[i] - jc[i] // SAP §IV-A
		grad[i] = g
		x, y, z := d[i]*g, d[i]*jc[i], d[i]*(r[i]+avs[i]) // p = A v
		sg += x * x
		sj += y * y
		sp += z * z
	}
	it.gradNorm, it.jcNorm, it.pNorm = math.Sqrt(sg), math.Sqrt(sj), math.Sqrt(sp)
}

// finite reports whether ℓp and the norms of the stopping criterion are
// finite at it.
func (it *iterate) finite() bool {
	return isFinite(it.cost) && isFinite(it.gradNorm) && isFinite(it.pNorm) && isFinite(it.jcNorm)
}

// evaluateWarm sets it.v to the warm start v0 and evaluates it, as
// evaluate does. With again (a re-solve, Solver.Resolve: the problem is
// the one it was last evaluated for, changed since only in the lagged
// impulses n0 of its ContactLagged blocks) and v0 equal to it.v bit for bit
// (the refiner warm-starts a re-solve from the last solve's returned
// iterate, which is it), only what n0 enters is evaluated again
// (reevaluate).
func (e *evaluator) evaluateWarm(it *iterate, v0 []float64, again bool) bool {
	if again && identical(it.v, v0) {
		return e.reevaluate(it)
	}
	copy(it.v, v0)
	return e.evaluate(it)
}

// reevaluate is evaluate for an iterate that holds the evaluation of the
// same v for the same problem but for the lagged impulses n0 of some
// ContactLagged blocks, with the same bits. Of ℓp's terms (SAP §IV-A) n0
// enters only a ContactLagged block's γ_i, G_i and ℓ_i (lagged.go):
// v_c = J v, A(v − v*), ½‖v − v*‖²_A and ‖D p‖ are functions of v and of
// the problem's other data, computed before by the same code from the same
// numbers, and are kept. Each ContactLagged block is evaluated again at
// its kept v_c; the sum Σ ℓ_i is formed again in evaluate's order, and
// j_c, ∇ℓp and their norms again from the new γ, unless no block's γ_i,
// G_i or ℓ_i changed a bit (a block that sticks inside its friction disk
// at both radii μ n0: there γ_t = −(v_t − v̂_t)/R_t does not depend on n0,
// lagged.go), in which case the iterate is the one evaluate would give and
// stays as it is.
func (e *evaluator) reevaluate(it *iterate) bool {
	p := e.p
	changed := false
	costC := 0.0
	for i, c := range p.Constraints {
		if c.Kind == solver.ContactLagged {
			changed = e.lagged3Again(i, c.Row, it) || changed
		}
		costC += it.ci[i]
	}
	if !changed {
		return it.finite()
	}
	it.costC = costC
	it.cost = it.costA + costC // SAP eq. (24)
	e.gradient(it, false)
	return it.finite()
}

// lagged3Again evaluates ContactLagged constraint i (rows lo, lo+1, lo+2)
// at it.vc, as lagged3 does, and reports whether its γ, G or ℓ differ in a
// bit from those it holds.
func (e *evaluator) lagged3Again(i, lo int, it *iterate) bool {
	var b solver.LaggedBlock
	vc := it.vc[lo : lo+3]
	cost := e.p.LaggedEval(i, vc[0], vc[1], vc[2], &b)
	gam, g := it.gamma[lo:lo+3], it.g[e.goff[i]:e.goff[i]+9]
	if sameBit(cost, it.ci[i]) && sameBit(b.Gamma[0], gam[0]) && sameBit(b.Gamma[1], gam[1]) && sameBit(b.Gamma[2], gam[2]) &&
		sameBit(b.G00, g[0]) && sameBit(b.G01, g[1]) && sameBit(b.G11, g[4]) && sameBit(b.Gnn, g[8]) {
		return false // Put would write the same bits (its zeros are constants)
	}
	it.ci[i] = cost
	b.Put(gam, g)
	return true
}

// sameBit reports whether x and y have the same bits.
func sameBit(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// identical reports whether x and y have the same length and bits.
func identical(x, y []float64) bool {
	if len(x) != len(y) {
		return false
	}
	for i, xi := range x {
		if !sameBit(xi, y[i]) {
			return false
		}
	}
	return true
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
