package fclib

import (
	"fmt"
	"slices"
	"time"

	"github.com/stiction-sim/stiction/opt/coulomb"
	"github.com/stiction-sim/stiction/solver"
	_ "github.com/stiction-sim/stiction/solver/all" // registers the solvers Options.Solver names
)

// Defaults of Options.
const (
	// DefaultEps is the default regularization parameter ε (R = ε w_i).
	DefaultEps = 1e-5
	// DefaultTol is the default relative tolerance εr of SAP's stopping
	// criterion (SAP eq. 26).
	DefaultTol = 1e-11
	// DefaultMaxIterations is the default limit on iterations per solve
	// (Newton iterations of SAP, interior-point iterations).
	DefaultMaxIterations = 200
	// DefaultPGSIterations is the default limit on PGS sweeps per solve.
	DefaultPGSIterations = 100000
	// DefaultSolver is the solver used when Options.Solver is empty.
	DefaultSolver = "sap"
	// DefaultRefineTol is the default target of the proximal refinement
	// for Residuals.Relaxed.
	DefaultRefineTol = 1e-10
)

// Options configure Solve. Zero fields take the defaults.
type Options struct {
	// Solver is the registered solver's name (solver.Names: sap, pgs,
	// ipm, …; default DefaultSolver).
	Solver        string
	Eps           float64 // regularization parameter ε > 0
	Tol           float64 // relative tolerance εr of SAP's criterion (eq. 26)
	MaxIterations int     // iteration limit per solve (sweeps for PGS)

	// Refine is the maximum number of proximal-point refinement passes
	// (default 0: a single SAP solve). Each pass re-solves the SAP problem
	// from the previous solution with v̂ = v̂₀ + Rγ_prev, the proximal point
	// method on SAP's dual (eq. 22): at its fixed point the compliance Rγ
	// cancels and (v, γ) solves the convex relaxation (R → 0) exactly,
	// without the ill-conditioning of a tiny ε. Passes stop once
	// Residuals.Relaxed() ≤ RefineTol or a solve does not converge.
	Refine    int
	RefineTol float64
}

func (o Options) withDefaults() Options {
	if o.Eps == 0 {
		o.Eps = DefaultEps
	}
	if o.Tol == 0 {
		o.Tol = DefaultTol
	}
	if o.Solver == "" {
		o.Solver = DefaultSolver
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = DefaultMaxIterations
		if o.Solver == "pgs" {
			o.MaxIterations = DefaultPGSIterations
		}
	}
	if o.RefineTol == 0 {
		o.RefineTol = DefaultRefineTol
	}
	return o
}

// Solution is an FCLIB problem solved by SAP's convex formulation (with
// the solver of Options.Solver), in FCLIB's order.
type Solution struct {
	V []float64 // global velocities (nil for a local problem)
	R []float64 // reactions r = Pᵀγ, (n, t1, t2) per contact
	U []float64 // local velocities u = Hᵀ v + w or W r + q
	// Compliance is the compliance velocity of the last SAP problem in
	// FCLIB order: Pᵀ Rγ for a single solve, Pᵀ R(γ − γ_prev) after
	// refinement. The regularised residual uses ũ = u + Compliance.
	Compliance []float64

	Solver     string        // the solver's registered name
	Stats      solver.Stats  // of the last solve
	Passes     int           // solves (1 + refinement passes)
	Iterations int           // the solver's iterations over all passes
	Wall       time.Duration // time spent in the solver's Solve, all passes
	Residuals  Residuals

	Stick, Slide, Separate int // contact counts by SAP's regime
	Mapping                *Mapping
}

// Solve maps p onto SAP's problem (NewMapping), solves it with the solver
// opt.Solver from the warm start v* (then refines it if opt.Refine > 0),
// maps the solution back and computes its residuals. A solve that does not
// converge is not an error: Stats.Status says so.
func Solve(p *Problem, opt Options) (*Solution, error) {
	opt = opt.withDefaults()
	m, err := NewMapping(p, opt.Eps)
	if err != nil {
		return nil, err
	}
	s, err := m.solve(opt)
	if err != nil {
		return nil, fmt.Errorf("fclib: %s: %w", p.Name, err)
	}
	return s, nil
}

// solve runs the solver and the refinement passes.
func (m *Mapping) solve(opt Options) (*Solution, error) {
	params := solver.DefaultParams()
	params.Tolerance, params.MaxIterations = opt.Tol, opt.MaxIterations
	s, err := solver.New(opt.Solver, params)
	if err != nil {
		return nil, err
	}
	p := m.SAP
	vhat0 := slices.Clone(p.VHat)
	defer copy(p.VHat, vhat0)
	var res solver.Result
	var v0 []float64
	var wall time.Duration
	iters := 0
	for pass := 1; ; pass++ {
		start := time.Now()
		if err := s.Solve(p, v0, &res); err != nil {
			return nil, err
		}
		wall += time.Since(start)
		iters += res.Stats.Iterations
		sol := m.solution(&res, vhat0)
		if pass > opt.Refine || res.Stats.Status != solver.Converged || sol.Residuals.Relaxed() <= opt.RefineTol {
			sol.Passes, sol.Iterations, sol.Wall, sol.Solver = pass, iters, wall, opt.Solver
			return sol, nil
		}
		for i := range vhat0 {
			p.VHat[i] = vhat0[i] + p.R[i]*res.Gamma[i]
		}
		v0 = append(v0[:0], res.V...)
	}
}

// solution maps SAP's result back to FCLIB's order and evaluates it; vhat0
// is the unshifted v̂ = −P w (or −P q).
func (m *Mapping) solution(res *solver.Result, vhat0 []float64) *Solution {
	p := m.SAP
	s := &Solution{Stats: res.Stats, Mapping: m, R: make([]float64, p.NR), Compliance: make([]float64, p.NR)}
	toFCLIB(res.Gamma, s.R)
	c := make([]float64, p.NR)
	for k := range c {
		c[k] = p.R[k]*res.Gamma[k] - (p.VHat[k] - vhat0[k])
	}
	toFCLIB(c, s.Compliance)
	var mu []float64
	if g := m.global; g != nil {
		s.V = make([]float64, len(m.perm))
		for k, orig := range m.perm {
			s.V[orig] = res.V[k]
		}
		s.U = make([]float64, len(g.W))
		g.H.MulTVec(s.V, s.U)
		addTo(s.U, g.W)
		s.Residuals.Equation = equationResidual(m.Sym, g.H, g.F, s.V, s.R)
		mu = g.Mu
	} else {
		s.U = make([]float64, len(m.local.Q))
		m.Sym.MulVec(s.R, s.U)
		addTo(s.U, m.local.Q)
		mu = m.local.Mu
	}
	r := &s.Residuals
	r.ConeRelaxed, r.ConeRegularized, r.ConeCoulomb = coulomb.Residuals(s.R, s.U, s.Compliance, mu)
	s.Stick, s.Slide, s.Separate = classify(res.Gamma, p.Params)
	return s
}

// addTo sets x += y.
func addTo(x, y []float64) {
	for i := range x {
		x[i] += y[i]
	}
}

// equationResidual returns ‖f + H r − M v‖ / max(‖f‖, ‖M v‖, ‖H r‖).
func equationResidual(m, h *Sparse, f, v, r []float64) float64 {
	mv := make([]float64, len(f))
	hr := make([]float64, len(f))
	m.MulVec(v, mv)
	h.MulVec(r, hr)
	d := make([]float64, len(f))
	for i := range d {
		d[i] = f[i] + hr[i] - mv[i]
	}
	return coulomb.Ratio(norm(d), max(norm(f), norm(mv), norm(hr)))
}
