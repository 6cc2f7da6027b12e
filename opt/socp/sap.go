package socp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SAP is the convex problem of SAP (Castro et al., "An unconstrained convex
// formulation of compliant contact", eq. 19) in dense form:
//
//	minimize   ½‖v − v*‖²_A + ½‖σ‖²_R
//	subject to g = J v − v̂ + R σ ∈ F*,
//
// with F = F₁ × … × F_nc the friction cones F_i = {‖γ_t‖ ≤ μ_i γ_n} and
// F* their dual cones {μ_i‖g_t‖ ≤ g_n}. Contact vectors are ordered
// (t1, t2, n) per contact, as SAP orders them. R is diagonal and ≥ 0: with
// R = 0 this is the rigid convex (Anitescu) contact problem
// min ½‖v − v*‖²_A s.t. J v ∈ F* (v̂ = 0), Drumwright's contact QCQP with
// the true friction cone. The impulses γ are the multipliers of the cone
// constraint (SAP eq. 21: A(v − v*) = Jᵀγ, σ = γ).
type SAP struct {
	A     *mat.SymDense // nv×nv, positive definite
	VStar []float64     // v*, length nv
	J     *mat.Dense    // 3nc×nv
	R     []float64     // diagonal of R, length 3nc, ≥ 0
	VHat  []float64     // v̂, length 3nc
	Mu    []float64     // μ per contact, ≥ 0
}

// SAPSolution is the solution of a SAP problem. Its slices belong to the
// SAPSolver and are overwritten by the next Solve.
type SAPSolution struct {
	V     []float64 // velocities
	Gamma []float64 // impulses γ ∈ F (t1, t2, n per contact)
	Vc    []float64 // contact velocities J v
	Result
}

// SAPSolver solves SAP problems with a Solver. It writes each contact's
// constraint as a second-order cone, s = (g_n, μ g_t1, μ g_t2) ∈ Q³
// (μ > 0), or an orthant row s = g_n ≥ 0 (μ = 0, γ_t = 0), on the
// variables x = (v, σ_k for the k with R_k > 0):
//
//	P = diag(A, R₊),  q = (−A v*, 0),  A_cone = −D [J  R₊],  b = −D v̂,
//
// with D the per-contact map (t1, t2, n) → (n, μ t1, μ t2); then
// γ = Dᵀz. Its workspace is reused: solving problems of the same sizes
// again allocates nothing.
type SAPSolver struct {
	Solver
	prob         Problem
	nv, nc, nsig int
	sig          []int // σ index of each contact row, −1 when R_k = 0
	socOf        []int // first cone row of each contact
	sol          SAPSolution
	a            *mat.Dense
	psym         *mat.SymDense
	vstar, av    *mat.VecDense
}

// NewSAPSolver returns a SAPSolver with DefaultSettings.
func NewSAPSolver() *SAPSolver { return &SAPSolver{Solver: *NewSolver()} }

// check validates the SAP problem's dimensions and values.
func (p *SAP) check() (nv, nc int, err error) {
	if p.A == nil || p.J == nil {
		return 0, 0, fmt.Errorf("SAP: A or J is nil")
	}
	nv, nc = p.A.SymmetricDim(), len(p.Mu)
	if r, c := p.J.Dims(); r != 3*nc || c != nv {
		return 0, 0, fmt.Errorf("SAP: J is %d×%d, want %d×%d (3 per contact × velocities)", r, c, 3*nc, nv)
	}
	if len(p.VStar) != nv || len(p.R) != 3*nc || len(p.VHat) != 3*nc {
		return 0, 0, fmt.Errorf("SAP: lengths v* %d, R %d, v̂ %d, want %d, %d, %d", len(p.VStar), len(p.R), len(p.VHat), nv, 3*nc, 3*nc)
	}
	for i, mu := range p.Mu {
		if !(mu >= 0) || math.IsInf(mu, 0) {
			return 0, 0, fmt.Errorf("SAP: μ[%d] = %v (want finite ≥ 0)", i, mu)
		}
	}
	for k, r := range p.R {
		if !(r >= 0) || math.IsInf(r, 0) {
			return 0, 0, fmt.Errorf("SAP: R[%d] = %v (want finite ≥ 0)", k, r)
		}
	}
	return nv, nc, nil
}

// Solve solves p. Bad input gives an error; the status of the cone program
// is in the solution's Result.
func (s *SAPSolver) Solve(p *SAP) (*SAPSolution, error) {
	nv, nc, err := p.check()
	if err != nil {
		return nil, err
	}
	s.build(p, nv, nc)
	res, err := s.Solver.Solve(&s.prob)
	if err != nil {
		return nil, fmt.Errorf("SAP: %w", err)
	}
	s.sol.Result = res
	s.extract(p, res)
	return &s.sol, nil
}

// layout sizes the variables and cones for p: σ for each R_k > 0, an
// orthant row per frictionless contact, then a Q³ per frictional one.
func (s *SAPSolver) layout(p *SAP, nv, nc int) {
	if cap(s.sig) < 3*nc {
		s.sig, s.socOf = make([]int, 3*nc), make([]int, nc)
	}
	s.sig, s.socOf = s.sig[:3*nc], s.socOf[:nc]
	s.nsig = 0
	for k, r := range p.R {
		s.sig[k] = -1
		if r > 0 {
			s.sig[k] = nv + s.nsig
			s.nsig++
		}
	}
	nl, nq := 0, 0
	for _, mu := range p.Mu {
		if mu == 0 {
			nl++
		} else {
			nq++
		}
	}
	row, soc := 0, nl
	for i, mu := range p.Mu {
		if mu == 0 {
			s.socOf[i], row = row, row+1
		} else {
			s.socOf[i], soc = soc, soc+3
		}
	}
	s.prob.Cones.Zero, s.prob.Cones.NonNeg = 0, nl
	s.prob.Cones.SOC = s.prob.Cones.SOC[:0]
	for range nq {
		s.prob.Cones.SOC = append(s.prob.Cones.SOC, 3)
	}
	s.nv, s.nc = nv, nc
}

// build writes p as a cone program, reusing the storage when sizes match.
func (s *SAPSolver) build(p *SAP, nv, nc int) {
	s.layout(p, nv, nc)
	n, m := nv+s.nsig, s.prob.Cones.Dim()
	if s.psym == nil || s.psym.SymmetricDim() != n || len(s.prob.B) != m || len(s.sol.V) != nv || len(s.sol.Gamma) != 3*nc {
		s.a = nil
		if m > 0 {
			s.a = mat.NewDense(m, n, nil)
		}
		s.psym = mat.NewSymDense(n, nil)
		s.prob.Q, s.prob.B = make([]float64, n), make([]float64, m)
		s.sol.V, s.sol.Gamma, s.sol.Vc = make([]float64, nv), make([]float64, 3*nc), make([]float64, 3*nc)
		s.vstar, s.av = mat.NewVecDense(nv, nil), mat.NewVecDense(nv, nil)
	}
	if s.a != nil {
		s.a.Zero()
	}
	s.psym.Zero()
	for i := range nv {
		for j := i; j < nv; j++ {
			s.psym.SetSym(i, j, p.A.At(i, j))
		}
	}
	for k, j := range s.sig {
		if j >= 0 {
			s.psym.SetSym(j, j, p.R[k])
		}
	}
	copy(s.vstar.RawVector().Data, p.VStar)
	s.av.MulVec(p.A, s.vstar)
	clear(s.prob.Q)
	for i := range nv {
		s.prob.Q[i] = -s.av.AtVec(i)
	}
	for i, mu := range p.Mu {
		s.contactRows(p, i, mu, nv)
	}
	s.prob.P, s.prob.A = s.psym, s.a
}

// contactRows writes contact i's rows: s = D g with g = J v + R σ − v̂ in
// (t1, t2, n) order and D = [0 0 1; μ 0 0; 0 μ 0] (or the single row
// (0 0 1) when μ = 0), i.e. A_cone = −D [J R] and b = −D v̂.
func (s *SAPSolver) contactRows(p *SAP, i int, mu float64, nv int) {
	r0 := s.socOf[i]
	// Cone row → (contact row k, factor).
	rows := [3][2]float64{{float64(3*i + 2), 1}, {float64(3 * i), mu}, {float64(3*i + 1), mu}}
	nr := 3
	if mu == 0 {
		nr = 1
	}
	for c := range nr {
		k, f := int(rows[c][0]), rows[c][1]
		for j := range nv {
			s.a.Set(r0+c, j, -f*p.J.At(k, j))
		}
		if j := s.sig[k]; j >= 0 {
			s.a.Set(r0+c, j, -f*p.R[k])
		}
		s.prob.B[r0+c] = -f * p.VHat[k]
	}
}

// extract maps the cone program's solution back: v, γ = Dᵀz, v_c = J v.
func (s *SAPSolver) extract(p *SAP, res Result) {
	copy(s.sol.V, res.X[:s.nv])
	for i, mu := range p.Mu {
		r0, g := s.socOf[i], s.sol.Gamma[3*i:3*i+3]
		if mu == 0 {
			g[0], g[1], g[2] = 0, 0, res.Z[r0]
		} else {
			g[0], g[1], g[2] = mu*res.Z[r0+1], mu*res.Z[r0+2], res.Z[r0]
		}
	}
	for k := range s.sol.Vc {
		vc := 0.0
		for j, v := range s.sol.V {
			vc += p.J.At(k, j) * v
		}
		s.sol.Vc[k] = vc
	}
}
