package pgs

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// GlobalSettings configure a Global solver.
type GlobalSettings struct {
	// MaxIterations bounds the sweeps (default 10000).
	MaxIterations int
	// RelTolerance and AbsTolerance are εr and εa of SAP's optimality
	// criterion (eq. 26), tested after every sweep at v and γ(J v)
	// (defaults 1e-6 and 1e-16).
	RelTolerance, AbsTolerance float64
	// Omega is the over-relaxation factor ω ∈ (0, 2) (default 1).
	Omega float64
	// LocalIterations bounds the Newton steps of one block's solve
	// (default 20).
	LocalIterations int
}

// DefaultGlobalSettings returns the defaults documented on GlobalSettings.
func DefaultGlobalSettings() GlobalSettings {
	return GlobalSettings{MaxIterations: 10000, RelTolerance: 1e-6, AbsTolerance: 1e-16, Omega: 1, LocalIterations: 20}
}

// check validates the settings.
func (s GlobalSettings) check() error {
	switch {
	case s.MaxIterations < 1 || s.LocalIterations < 1:
		return fmt.Errorf("pgs: MaxIterations = %d, LocalIterations = %d (want ≥ 1)", s.MaxIterations, s.LocalIterations)
	case !(s.RelTolerance >= 0) || !(s.AbsTolerance >= 0):
		return fmt.Errorf("pgs: tolerances εr = %v, εa = %v (want ≥ 0)", s.RelTolerance, s.AbsTolerance)
	case !(s.Omega > 0 && s.Omega < 2):
		return fmt.Errorf("pgs: Omega = %v (want in (0, 2))", s.Omega)
	}
	return nil
}

// Global is projected Gauss–Seidel on the problem of one time step,
// solver.Problem (SAP eq. 24 with any mix of constraint kinds): block
// coordinate descent on SAP's dual (eq. 22),
//
//	min_γ ½γᵀ(W + R)γ + … = ½γᵀWγ + (J v*)ᵀγ + Σ_i ℓ_i*(−γ_i),
//
// W = J A⁻¹ Jᵀ, with v = v* + A⁻¹Jᵀγ kept up to date (SAP eq. 21). A sweep
// visits the constraint blocks in order; block i's subproblem, the others
// held at their latest values, is the fixed point
//
//	γ_i = γ_i(a_i + W_ii γ_i),   a_i = J_i v − W_ii γ_i,
//
// where γ_i(v_c) = −∂ℓ_i/∂v_c is the block's impulse (for the projection
// kinds, the projection P_C(−R⁻¹(v_c − v̂)) in the norm of R, SAP eq. 23;
// for ContactCone the exact elliptic cone of §V-A). It is solved by
// Newton's method on γ − γ_i(a + Wγ) with an Armijo line search on the
// block's dual cost ½γᵀW_iiγ + ℓ_i(a + W_iiγ) (see local.go), so every
// kind that Problem.Eval knows is supported with the regularization R of
// the problem: PGS and SAP solve the same convex problem. Over-relaxation
// replaces γ_i by γ_old + ω(γ_i − γ_old), projected onto the block's
// impulse set when ω > 1.
//
// Convergence is SAP's own criterion (eq. 26) at v and γ(J v), after
// every sweep; the statistics report sweeps as Iterations and the
// residuals of SAP eq. 32–33. Gauss–Seidel converges linearly, slowly when
// W + R is ill-conditioned (stiff stacks, TestGlobalStiffStack). After a
// first solve of a given shape, Solve does not allocate.
type Global struct {
	Settings GlobalSettings

	cf     solver.CliqueFactor
	minvJt []float64 // per J block: A_q⁻¹ J_bᵀ, CliqueSize×Size row-major, at JBlock.Off
	wdiag  []float64 // per constraint: W_ii, Size×Size row-major, at woff[i]
	woff   []int
	bstart []int // J blocks of constraint i: bstart[i] ≤ b < bstart[i+1]

	gamma, v, vc, gx, jt []float64 // dual iterate, velocities, J v, γ(J v), Jᵀγ
	loc                  local
	resid                solver.ResidualScratch
}

var _ solver.Solver = (*Global)(nil)

// NewGlobal returns a Global solver with DefaultGlobalSettings.
func NewGlobal() *Global { return &Global{Settings: DefaultGlobalSettings()} }

// Solve implements solver.Solver. The warm start v0 (nil: v*) gives the
// starting impulses γ(J v0) when they have a lower cost ℓp than γ = 0.
func (s *Global) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if err := s.check(p, v0, res); err != nil {
		return err
	}
	if err := s.setup(p); err != nil {
		return err
	}
	s.start(p, v0)
	res.Stats = solver.Stats{Status: solver.MaxIterations}
	res.Stats.InitialCost, _ = s.measure(p)
	if s.converged(p) {
		res.Stats.Status = solver.Converged
	}
	for res.Stats.Status == solver.MaxIterations && res.Stats.Iterations < s.Settings.MaxIterations {
		s.sweep(p)
		res.Stats.Iterations++
		s.velocities(p)
		cost, ok := s.measure(p)
		res.Stats.Cost = cost
		switch {
		case !ok:
			res.Stats.Status = solver.Failed
		case s.converged(p):
			res.Stats.Status = solver.Converged
		}
	}
	s.finish(p, res)
	return nil
}

// check validates the settings, the problem and the arguments.
func (s *Global) check(p *solver.Problem, v0 []float64, res *solver.Result) error {
	switch {
	case p == nil || res == nil:
		return fmt.Errorf("pgs: nil problem or result")
	case v0 != nil && len(v0) != p.NV:
		return fmt.Errorf("pgs: warm start has length %d, want NV = %d", len(v0), p.NV)
	}
	if err := s.Settings.check(); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("pgs: %w", err)
	}
	return nil
}

// setup factors A by cliques and forms A⁻¹J_bᵀ for every J block and the
// diagonal Delassus blocks W_ii = Σ_b J_b A⁻¹ J_bᵀ.
func (s *Global) setup(p *solver.Problem) error {
	if err := s.cf.Factor(p); err != nil {
		return fmt.Errorf("pgs: %w", err)
	}
	s.minvJt = solver.Resize(s.minvJt, len(p.JData))
	nc := len(p.Constraints)
	s.woff, s.bstart = resizeInt(s.woff, nc+1), resizeInt(s.bstart, nc+1)
	maxSize, nw := 0, 0
	for i, c := range p.Constraints {
		s.woff[i] = nw
		nw += c.Size * c.Size
		maxSize = max(maxSize, c.Size)
	}
	s.woff[nc] = nw
	s.wdiag = solver.Resize(s.wdiag, nw)
	clear(s.wdiag)
	b := 0
	for i, c := range p.Constraints {
		s.bstart[i] = b
		w := s.wdiag[s.woff[i]:s.woff[i+1]]
		for ; b < len(p.JBlock) && p.JBlock[b].Constraint == i; b++ {
			s.blockDelassus(p, b, c.Size, w)
		}
	}
	s.bstart[nc] = b
	s.loc.resize(maxSize)
	nv, nr := p.NV, p.NR
	s.gamma, s.gx, s.vc = solver.Resize(s.gamma, nr), solver.Resize(s.gx, nr), solver.Resize(s.vc, nr)
	s.v, s.jt = solver.Resize(s.v, nv), solver.Resize(s.jt, nv)
	return nil
}

// blockDelassus forms A_q⁻¹ J_bᵀ of J block b (k rows) and adds
// J_b A_q⁻¹ J_bᵀ to w.
func (s *Global) blockDelassus(p *solver.Problem, b, k int, w []float64) {
	blk := p.JBlock[b]
	q := p.Cliques[blk.Clique]
	n := q.Size
	jb := p.JBlockData(b)
	x := s.minvJt[blk.Off : blk.Off+n*k]
	for j := range n {
		for r := range k {
			x[j*k+r] = jb[r*n+j]
		}
	}
	s.cf.Solve(q, x, k)
	for r := range k {
		for c := range k {
			sum := 0.0
			for j := range n {
				sum += jb[r*n+j] * x[j*k+c]
			}
			w[r*k+c] += sum
		}
	}
}

// start sets the initial impulses: γ(J v0) or 0, whichever gives the
// lower cost ℓp at v = v* + A⁻¹Jᵀγ.
func (s *Global) start(p *solver.Problem, v0 []float64) {
	clear(s.gamma)
	s.velocities(p)
	if v0 == nil {
		return
	}
	zeroCost, _ := s.measure(p)
	p.MulJ(v0, s.vc)
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		p.Eval(i, s.vc[lo:hi], s.gamma[lo:hi], nil)
	}
	s.velocities(p)
	if warmCost, ok := s.measure(p); !ok || !(warmCost < zeroCost) {
		clear(s.gamma)
		s.velocities(p)
	}
}

// velocities sets v = v* + A⁻¹Jᵀγ (SAP eq. 21), clique by clique.
func (s *Global) velocities(p *solver.Problem) {
	p.MulJT(s.gamma, s.jt)
	for _, q := range p.Cliques {
		s.cf.Solve(q, s.jt[q.Offset:q.Offset+q.Size], 1)
	}
	for i, x := range p.VStar {
		s.v[i] = x + s.jt[i]
	}
}

// measure sets v_c = J v and γ(v_c) and returns ℓp(v), and false when a
// number is not finite.
func (s *Global) measure(p *solver.Problem) (float64, bool) {
	p.MulJ(s.v, s.vc)
	_, _, _, cost := s.resid.Momentum(p, s.v, s.gamma)
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		cost += p.Eval(i, s.vc[lo:hi], s.gx[lo:hi], nil)
	}
	return cost, !math.IsNaN(cost) && !math.IsInf(cost, 0)
}

// converged tests SAP eq. 26 at v and γ(J v) (measure must have run).
func (s *Global) converged(p *solver.Problem) bool {
	_, num, den, _ := s.resid.Momentum(p, s.v, s.gx)
	return num <= s.Settings.AbsTolerance+s.Settings.RelTolerance*den
}

// finish writes v, γ(J v) and J v into res with the residuals of SAP
// eq. 32–33.
func (s *Global) finish(p *solver.Problem, res *solver.Result) {
	res.V, res.Gamma, res.VC = solver.Resize(res.V, p.NV), solver.Resize(res.Gamma, p.NR), solver.Resize(res.VC, p.NR)
	copy(res.V, s.v)
	copy(res.Gamma, s.gx)
	copy(res.VC, s.vc)
	r := s.resid.ComputeResiduals(p, res.V, res.Gamma)
	res.Stats.MomentumError, res.Stats.ComplementarityError, res.Stats.Cost = r.MomentumError, r.ComplementarityError, r.Cost
}

// sweep is one Gauss–Seidel pass over the constraint blocks.
func (s *Global) sweep(p *solver.Problem) {
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		k := c.Size
		x := s.loc.x[:k]
		s.blockVelocity(p, i, x)
		g := s.gamma[lo:hi]
		old := s.loc.old[:k]
		copy(old, g)
		w := s.wdiag[s.woff[i]:s.woff[i+1]]
		a := s.loc.a[:k]
		for r := range k { // a = x − W_ii γ_i
			a[r] = x[r] - dot(w[r*k:(r+1)*k], g)
		}
		s.loc.solve(p, i, w, a, g, s.Settings.LocalIterations)
		if om := s.Settings.Omega; om != 1 {
			for r := range k {
				g[r] = old[r] + om*(g[r]-old[r])
			}
			if om > 1 {
				projectFeasible(p, i, g)
			}
		}
		for r := range k {
			old[r] = g[r] - old[r]
		}
		s.addVelocity(p, i, old)
	}
}

// blockVelocity sets x = J_i v.
func (s *Global) blockVelocity(p *solver.Problem, i int, x []float64) {
	clear(x)
	k := len(x)
	for b := s.bstart[i]; b < s.bstart[i+1]; b++ {
		q := p.Cliques[p.JBlock[b].Clique]
		jb := p.JBlockData(b)
		vs := s.v[q.Offset : q.Offset+q.Size]
		for r := range k {
			x[r] += dot(jb[r*q.Size:(r+1)*q.Size], vs)
		}
	}
}

// addVelocity adds A⁻¹J_iᵀ d to v.
func (s *Global) addVelocity(p *solver.Problem, i int, d []float64) {
	k := len(d)
	for b := s.bstart[i]; b < s.bstart[i+1]; b++ {
		blk := p.JBlock[b]
		q := p.Cliques[blk.Clique]
		x := s.minvJt[blk.Off : blk.Off+q.Size*k]
		vs := s.v[q.Offset : q.Offset+q.Size]
		for j := range vs {
			vs[j] += dot(x[j*k:(j+1)*k], d)
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func resizeInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, max(n, 2*cap(s)))
	}
	return s[:n]
}
