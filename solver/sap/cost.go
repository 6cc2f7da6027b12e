package sap

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// iterate is ℓp and everything derived from it at one v (SAP §IV-A).
type iterate struct {
	v     []float64 // generalized velocities, NV
	vc    []float64 // contact velocities J v, 3·NC
	gamma []float64 // γ = P_F(y(v)), SAP eq. (23), 3·NC
	g     []float64 // G_i = −∂γ_i/∂v_c,i, 9 per contact, row-major (SAP App. D)
	r     []float64 // A(v − v*), NV
	jc    []float64 // j_c = Jᵀγ, generalized contact impulse (SAP eq. 25), NV
	grad  []float64 // ∇ℓp = A(v − v*) − Jᵀγ (SAP §IV-A), NV

	cost  float64 // ℓp(v), SAP eq. (24)
	costR float64 // ℓ_R = ½‖γ‖²_R, the regularizer part of ℓp

	gradNorm float64 // ‖D ∇ℓp‖, SAP eq. (25)–(26)
	pNorm    float64 // ‖D p‖ with p = A v, SAP eq. (25)
	jcNorm   float64 // ‖D j_c‖, SAP eq. (25)
}

// resize sizes the iterate for nv velocities and nc contacts.
func (it *iterate) resize(nv, nc int) {
	it.v = solver.Resize(it.v, nv)
	it.vc = solver.Resize(it.vc, 3*nc)
	it.gamma = solver.Resize(it.gamma, 3*nc)
	it.g = solver.Resize(it.g, 9*nc)
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
}

// reset prepares the evaluator for problem p.
func (e *evaluator) reset(p *solver.Problem) {
	e.p = p
	e.avs = solver.Resize(e.avs, p.NV)
	e.dinv = solver.Resize(e.dinv, p.NV)
	e.tmpNV = solver.Resize(e.tmpNV, p.NV)
	p.MulA(p.VStar, e.avs)
	for i, m := range p.MDiag {
		e.dinv[i] = 1 / math.Sqrt(m)
	}
}

// contact returns μ, Rt and Rn of contact i.
func contact(p *solver.Problem, i int) (mu, Rt, Rn float64) {
	return p.Mu[i], p.R[3*i], p.R[3*i+2]
}

// yOf returns y_i = −R_i⁻¹(v_c,i − v̂_i) (SAP §III-B) for contact i with
// contact velocity vc.
func yOf(p *solver.Problem, i int, vc [3]float64) [3]float64 {
	var y [3]float64
	for k := range 3 {
		y[k] = -(vc[k] - p.VHat[3*i+k]) / p.R[3*i+k]
	}
	return y
}

// evaluate fills it from it.v: v_c, γ, G, ℓp, ∇ℓp and the norms of the
// stopping criterion. It reports whether every number is finite.
func (e *evaluator) evaluate(it *iterate) bool {
	p := e.p
	p.MulJ(it.v, it.vc)
	diff := e.tmpNV
	for i, x := range it.v {
		diff[i] = x - p.VStar[i]
	}
	p.MulA(diff, it.r)
	costA := 0.5 * dot(diff, it.r) // ½‖v − v*‖²_A
	it.costR = 0
	for i := range p.NC {
		mu, Rt, Rn := contact(p, i)
		y := yOf(p, i, [3]float64(it.vc[3*i:]))
		gamma, g, _ := ProjectG(y, mu, Rt, Rn) // SAP §V-A, eq. (37)
		copy(it.gamma[3*i:3*i+3], gamma[:])
		for r := range 3 {
			copy(it.g[9*i+3*r:9*i+3*r+3], g[r][:])
		}
		it.costR += regularizerCost(gamma, Rt, Rn)
	}
	it.cost = costA + it.costR // SAP eq. (24)
	p.MulJT(it.gamma, it.jc)
	for i := range it.grad {
		it.grad[i] = it.r[i] - it.jc[i] // SAP §IV-A
		diff[i] = it.r[i] + e.avs[i]    // p = A v
	}
	it.gradNorm = scaledNorm(e.dinv, it.grad)
	it.pNorm = scaledNorm(e.dinv, diff)
	it.jcNorm = scaledNorm(e.dinv, it.jc)
	return isFinite(it.cost) && isFinite(it.gradNorm) && isFinite(it.pNorm) && isFinite(it.jcNorm)
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
	Gamma    []float64 // γ = P_F(y(v)) (SAP eq. 23), 3·NC
	VC       []float64 // v_c = J v, 3·NC
	// G holds the blocks G_i = −∂γ_i/∂v_c,i (SAP App. D), row-major, 9 per
	// contact.
	G []float64
	// Hessian is H = A + JᵀGJ (SAP §IV-A), dense row-major NV×NV.
	Hessian []float64
}

// Evaluate returns ℓp, ∇ℓp, γ and H at v for problem p. It allocates. It
// returns an error if p is malformed (see solver.Problem.Validate) or
// len(v) ≠ NV.
func Evaluate(p *solver.Problem, v []float64) (*Evaluation, error) {
	if err := checkProblem(p); err != nil {
		return nil, err
	}
	if len(v) != p.NV {
		return nil, fmt.Errorf("sap: len(v) = %d, want NV = %d", len(v), p.NV)
	}
	var e evaluator
	var it iterate
	e.reset(p)
	it.resize(p.NV, p.NC)
	copy(it.v, v)
	e.evaluate(&it)
	var sys denseSystem
	sys.assemble(p, it.g)
	return &Evaluation{Cost: it.cost, Gradient: it.grad, Gamma: it.gamma, VC: it.vc, G: it.g, Hessian: sys.h}, nil
}

// checkProblem validates p for SAP: solver.Problem.Validate, and the
// regularization of every contact must have the form diag(Rt, Rt, Rn)
// (SAP §V-A).
func checkProblem(p *solver.Problem) error {
	if p == nil {
		return fmt.Errorf("sap: nil problem")
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("sap: malformed problem: %w", err)
	}
	for i := range p.NC {
		if p.R[3*i] != p.R[3*i+1] {
			return fmt.Errorf("sap: contact %d: tangential regularizations R = (%v, %v) differ; SAP needs R_i = diag(Rt, Rt, Rn)",
				i, p.R[3*i], p.R[3*i+1])
		}
	}
	return nil
}
