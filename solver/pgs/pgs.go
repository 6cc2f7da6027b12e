package pgs

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/opt/coulomb"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Problem is a frictional contact problem in Delassus form, u = Wγ + b,
// contact vectors ordered (n, t1, t2).
type Problem struct {
	W  mat.Symmetric // 3nc×3nc, positive semidefinite
	B  []float64     // free contact velocity, length 3nc
	Mu []float64     // friction coefficient per contact, ≥ 0
	R  []float64     // diagonal regularization, length 3nc, ≥ 0; nil for none
}

// Model is the contact law PGS solves.
type Model int

const (
	// Coulomb friction with unilateral contact (De Saxcé's form).
	Coulomb Model = iota
	// Relaxed is the convex relaxation (Anitescu; SAP's problem with R).
	Relaxed
)

// Settings configure a solve.
type Settings struct {
	Model     Model
	MaxIter   int     // sweeps
	Tol       float64 // on the normalised natural-map residual
	Omega     float64 // over-relaxation ω ∈ (0, 2); 1 is plain Gauss–Seidel
	LocalIter int     // projected fixed-point steps per contact and sweep
	// History, when true, records the residual after every sweep in
	// Stats.History (capacity MaxIter, allocated once).
	History bool
}

// DefaultSettings returns Coulomb friction, 1000 sweeps, a tolerance of
// 1e-8, ω = 1 and 10 local steps.
func DefaultSettings() Settings {
	return Settings{Model: Coulomb, MaxIter: 1000, Tol: 1e-8, Omega: 1, LocalIter: 10}
}

// Status is the outcome of a solve.
type Status int

const (
	// Converged: the residual met Tol.
	Converged Status = iota
	// MaxIterations: MaxIter sweeps did not reach Tol.
	MaxIterations
	// Diverged: the iterate became infinite or NaN.
	Diverged
)

// String names the status.
func (s Status) String() string {
	return [...]string{"converged", "max iterations", "diverged"}[s]
}

// Stats describe a solve.
type Stats struct {
	Status     Status
	Iterations int       // sweeps
	Residual   float64   // normalised natural-map residual of the model
	Relaxed    float64   // the convex relaxation's residual (ũ)
	Coulomb    float64   // Coulomb's law's residual (De Saxcé)
	History    []float64 // residual after each sweep (Settings.History)
}

// Result is the outcome of Solve. Its slices belong to the Solver.
type Result struct {
	Gamma []float64 // impulses γ
	U     []float64 // u = Wγ + b (without the compliance Rγ)
	Stats
}

// Solver is projected Gauss–Seidel; see the package documentation.
type Solver struct {
	Settings Settings

	m       int
	w       []float64 // W, full row-major
	rho     []float64 // ρ_i per contact
	gamma   []float64
	u, ut   []float64 // u and ũ = u + Rγ
	res     Result
	history []float64
}

// NewSolver returns a solver with DefaultSettings.
func NewSolver() *Solver { return &Solver{Settings: DefaultSettings()} }

// check validates the problem and the settings; it returns m = 3nc.
func (s *Solver) check(p *Problem) (int, error) {
	set := s.Settings
	switch {
	case set.MaxIter < 1 || set.LocalIter < 1:
		return 0, fmt.Errorf("pgs: MaxIter = %d, LocalIter = %d (want ≥ 1)", set.MaxIter, set.LocalIter)
	case !(set.Tol >= 0):
		return 0, fmt.Errorf("pgs: Tol = %v (want ≥ 0)", set.Tol)
	case !(set.Omega > 0 && set.Omega < 2):
		return 0, fmt.Errorf("pgs: Omega = %v (want in (0, 2))", set.Omega)
	case set.Model != Coulomb && set.Model != Relaxed:
		return 0, fmt.Errorf("pgs: unknown model %d", set.Model)
	}
	if p.W == nil {
		return 0, fmt.Errorf("pgs: W is nil")
	}
	m := p.W.SymmetricDim()
	if m != 3*len(p.Mu) || len(p.B) != m || (p.R != nil && len(p.R) != m) {
		return 0, fmt.Errorf("pgs: W is %d×%d, b has length %d, R %d, %d friction coefficients (want 3 per contact)", m, m, len(p.B), len(p.R), len(p.Mu))
	}
	for i, mu := range p.Mu {
		if !(mu >= 0) || math.IsInf(mu, 0) {
			return 0, fmt.Errorf("pgs: μ[%d] = %v (want finite ≥ 0)", i, mu)
		}
	}
	for k := range m {
		if v := p.B[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("pgs: b[%d] = %v", k, v)
		}
		if p.R != nil && (!(p.R[k] >= 0) || math.IsInf(p.R[k], 0)) {
			return 0, fmt.Errorf("pgs: R[%d] = %v (want finite ≥ 0)", k, p.R[k])
		}
	}
	return m, nil
}

// setup sizes the workspace and copies W.
func (s *Solver) setup(p *Problem, m int) error {
	if s.m != m || s.w == nil {
		s.m = m
		s.w, s.rho = make([]float64, m*m), make([]float64, m/3)
		s.gamma, s.u, s.ut = make([]float64, m), make([]float64, m), make([]float64, m)
		s.res.Gamma, s.res.U = s.gamma, s.u
	}
	if s.Settings.History && cap(s.history) < s.Settings.MaxIter {
		s.history = make([]float64, 0, s.Settings.MaxIter)
	}
	for i := range m {
		for j := range m {
			v := p.W.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("pgs: W[%d][%d] = %v", i, j, v)
			}
			s.w[i*m+j] = v
		}
	}
	for c := range m / 3 {
		var g [3][3]float64
		for a := range 3 {
			for b := range 3 {
				g[a][b] = s.w[(3*c+a)*m+3*c+b]
			}
			if p.R != nil {
				g[a][a] += p.R[3*c+a]
			}
		}
		l := maxEigSym3(g)
		if !(l > 0) {
			return fmt.Errorf("pgs: contact %d has a zero block W_ii + R_i", c)
		}
		s.rho[c] = 1 / l
	}
	return nil
}

// Solve solves p from γ = 0, or from gamma0 (projected onto K) when it is
// not nil. Bad input gives an error; a solve that does not reach Tol
// reports it in the Result's Status.
func (s *Solver) Solve(p *Problem, gamma0 []float64) (Result, error) {
	m, err := s.check(p)
	if err != nil {
		return Result{}, err
	}
	if gamma0 != nil && len(gamma0) != m {
		return Result{}, fmt.Errorf("pgs: warm start has length %d, want %d", len(gamma0), m)
	}
	if err := s.setup(p, m); err != nil {
		return Result{}, err
	}
	clear(s.gamma)
	if gamma0 != nil {
		copy(s.gamma, gamma0)
		for c, mu := range p.Mu {
			project(s.gamma[3*c:3*c+3], mu)
		}
	}
	s.res.History = s.history[:0]
	s.res.Stats.Status = MaxIterations
	s.res.Iterations = 0
	s.residual(p)
	if s.res.Residual <= s.Settings.Tol {
		s.res.Stats.Status = Converged
	}
	for s.res.Stats.Status == MaxIterations && s.res.Iterations < s.Settings.MaxIter {
		s.sweep(p)
		s.res.Iterations++
		s.residual(p)
		if s.Settings.History {
			s.res.History = append(s.res.History, s.res.Residual)
		}
		switch {
		case math.IsNaN(s.res.Residual) || math.IsInf(s.res.Residual, 0):
			s.res.Stats.Status = Diverged
		case s.res.Residual <= s.Settings.Tol:
			s.res.Stats.Status = Converged
		}
	}
	return s.res, nil
}

// sweep performs one Gauss–Seidel sweep over the contacts.
func (s *Solver) sweep(p *Problem) {
	m, set := s.m, s.Settings
	for c, mu := range p.Mu {
		k := 3 * c
		g := s.gamma[k : k+3]
		old := [3]float64{g[0], g[1], g[2]}
		// ũ_c = b_c + Σ_j W_cj γ_j + R_c γ_c (latest values).
		var ut [3]float64
		for a := range 3 {
			ut[a] = p.B[k+a] + floats.Dot(s.w[(k+a)*m:(k+a+1)*m], s.gamma)
			if p.R != nil {
				ut[a] += p.R[k+a] * g[a]
			}
		}
		s.local(p, c, mu, g, &ut)
		if set.Omega != 1 {
			for a := range 3 {
				g[a] = (1-set.Omega)*old[a] + set.Omega*g[a]
			}
			project(g, mu)
		}
	}
}

// local runs the projected fixed-point steps of contact c, updating ũ_c.
func (s *Solver) local(p *Problem, c int, mu float64, g []float64, ut *[3]float64) {
	m, k, rho := s.m, 3*c, s.rho[c]
	for range s.Settings.LocalIter {
		d := *ut
		if s.Settings.Model == Coulomb {
			d = coulomb.DeSaxce(d, mu)
		}
		x := [3]float64{g[0] - rho*d[0], g[1] - rho*d[1], g[2] - rho*d[2]}
		coulomb.Project(&x, mu)
		dg := [3]float64{x[0] - g[0], x[1] - g[1], x[2] - g[2]}
		if dg == [3]float64{} {
			return
		}
		for a := range 3 {
			row := s.w[(k+a)*m+k : (k+a)*m+k+3]
			ut[a] += row[0]*dg[0] + row[1]*dg[1] + row[2]*dg[2]
			if p.R != nil {
				ut[a] += p.R[k+a] * dg[a]
			}
		}
		g[0], g[1], g[2] = x[0], x[1], x[2]
	}
}

// residual computes u = Wγ + b, ũ = u + Rγ and the residuals.
func (s *Solver) residual(p *Problem) {
	m := s.m
	for i := range m {
		s.u[i] = p.B[i] + floats.Dot(s.w[i*m:(i+1)*m], s.gamma)
		s.ut[i] = s.u[i]
		if p.R != nil {
			s.ut[i] += p.R[i] * s.gamma[i]
		}
	}
	relaxed, _, coul := coulomb.Residuals(s.gamma, s.ut, nil, p.Mu)
	s.res.Relaxed, s.res.Coulomb = relaxed, coul
	s.res.Residual = coul
	if s.Settings.Model == Relaxed {
		s.res.Residual = relaxed
	}
}

// project projects γ (n, t1, t2) onto K_μ.
func project(g []float64, mu float64) {
	x := [3]float64{g[0], g[1], g[2]}
	coulomb.Project(&x, mu)
	g[0], g[1], g[2] = x[0], x[1], x[2]
}

// maxEigSym3 returns the largest eigenvalue of a symmetric 3×3 matrix
// (Smith's trigonometric formula, Comm. ACM 4(4), 1961).
func maxEigSym3(a [3][3]float64) float64 {
	p1 := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
	q := (a[0][0] + a[1][1] + a[2][2]) / 3
	if p1 == 0 {
		return max(a[0][0], a[1][1], a[2][2])
	}
	p2 := (a[0][0]-q)*(a[0][0]-q) + (a[1][1]-q)*(a[1][1]-q) + (a[2][2]-q)*(a[2][2]-q) + 2*p1
	p := math.Sqrt(p2 / 6)
	var b [3][3]float64
	for i := range 3 {
		for j := range 3 {
			b[i][j] = a[i][j] / p
			if i == j {
				b[i][j] -= q / p
			}
		}
	}
	det := b[0][0]*(b[1][1]*b[2][2]-b[1][2]*b[2][1]) - b[0][1]*(b[1][0]*b[2][2]-b[1][2]*b[2][0]) + b[0][2]*(b[1][0]*b[2][1]-b[1][1]*b[2][0])
	r := max(-1, min(1, det/2))
	return q + 2*p*math.Cos(math.Acos(r)/3)
}
