package lcp

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// MLCP is the mixed linear complementarity problem of mechanics notes §0.7:
//
//	M x − Gᵀλ − Nᵀz = f,   G x = g,   0 ≤ z ⊥ w = N x − n ≥ 0,
//
// with M symmetric positive definite (a mass matrix, or SAP's A), G the
// bilateral constraints (full row rank, may be nil) and N the unilateral
// ones (contact normals, joint limits).
type MLCP struct {
	M     *mat.SymDense // n×n
	G     *mat.Dense    // p×n, or nil
	N     *mat.Dense    // c×n
	F     []float64     // f, length n
	Gv    []float64     // g, length p
	Nv    []float64     // n (the right-hand side of N x ≥ n), length c
	nrows int
}

// MLCPSolution is the solution of an MLCP. Its slices belong to the
// MLCPSolver and are overwritten by the next Solve.
type MLCPSolution struct {
	X, Lambda, Z, W []float64
	LCP             Result // the reduced LCP's solve (pivots, columns)
}

// Method selects the pivoting algorithm of MLCPSolver.
type Method int

const (
	// OnDemand: Murty's principal pivoting on the reduced LCP, its columns
	// N̄A⁻¹N̄ᵀ e_j built by one KKT solve each when first needed (§0.8). The
	// reduced matrix must be a P-matrix (independent active constraints).
	OnDemand Method = iota
	// LemkeMethod: Lemke's method on the reduced LCP assembled in full
	// (c + 1 KKT solves, §0.7); it also takes a merely positive
	// semidefinite reduced matrix (redundant contacts).
	LemkeMethod
)

// MLCPSolver turns an MLCP into the LCP (notes §0.7)
//
//	w = N̄A⁻¹N̄ᵀ z + N̄A⁻¹b − n,   0 ≤ z ⊥ w ≥ 0,
//
// with A = [M −Gᵀ; G 0], b = (f, g) and N̄ = [N 0], solves it by pivoting
// and back-solves (x, λ) = A⁻¹(b + N̄ᵀz). The solves with A are those of
// KKT (§0.6).
type MLCPSolver struct {
	KKT   KKT
	PPM   PrincipalPivoting
	Lemke Lemke

	cols   mlcpColumns
	dense  *mat.Dense
	q, col []float64
	rhs    []float64
	sol    MLCPSolution
	gzero  []float64
	x0, l0 []float64
}

// mlcpColumns serves the columns of N̄A⁻¹N̄ᵀ: column j is N x_j with
// (x_j, λ_j) = A⁻¹(N_jᵀ, 0).
type mlcpColumns struct {
	kkt         *KKT
	n           *mat.Dense
	x, lam, rhs []float64
	gzero       []float64
}

// Size returns the number of unilateral constraints.
func (c *mlcpColumns) Size() int { r, _ := c.n.Dims(); return r }

// Column writes column j of N̄A⁻¹N̄ᵀ: one KKT solve.
func (c *mlcpColumns) Column(j int, dst []float64) {
	mat.Row(c.rhs, j, c.n)
	c.kkt.Solve(c.x, c.lam, c.rhs, c.gzero)
	for i := range dst {
		s := 0.0
		for l, v := range c.x {
			s += c.n.At(i, l) * v
		}
		dst[i] = s
	}
}

// check validates the dimensions.
func (p *MLCP) check() (n, np, nc int, err error) {
	if p.M == nil || p.N == nil {
		return 0, 0, 0, fmt.Errorf("mlcp: M or N is nil")
	}
	n = p.M.SymmetricDim()
	nc, c := p.N.Dims()
	if c != n || len(p.F) != n || len(p.Nv) != nc {
		return 0, 0, 0, fmt.Errorf("mlcp: N is %d×%d, f has length %d, n has length %d (M is %d×%d)", nc, c, len(p.F), len(p.Nv), n, n)
	}
	if p.G != nil {
		var cg int
		np, cg = p.G.Dims()
		if cg != n || len(p.Gv) != np {
			return 0, 0, 0, fmt.Errorf("mlcp: G is %d×%d, g has length %d (M is %d×%d)", np, cg, len(p.Gv), n, n)
		}
	}
	return n, np, nc, nil
}

// Solve solves p with the given method.
func (s *MLCPSolver) Solve(p *MLCP, method Method) (*MLCPSolution, error) {
	n, np, nc, err := p.check()
	if err != nil {
		return nil, err
	}
	if err := s.KKT.Factor(p.M, p.G); err != nil {
		return nil, fmt.Errorf("mlcp: %w", err)
	}
	s.size(n, np, nc)
	// q = N̄A⁻¹b − n: one KKT solve.
	s.KKT.Solve(s.x0, s.l0, p.F, p.Gv)
	for i := range nc {
		q := -p.Nv[i]
		for l, x := range s.x0 {
			q += p.N.At(i, l) * x
		}
		s.q[i] = q
	}
	s.cols.kkt, s.cols.n = &s.KKT, p.N
	var res Result
	switch method {
	case OnDemand:
		res, err = s.PPM.Solve(&s.cols, s.q)
	default:
		res, err = s.lemkeDense(nc)
	}
	if err != nil {
		return nil, fmt.Errorf("mlcp: %w", err)
	}
	s.sol.LCP = res
	copy(s.sol.Z, res.Z)
	copy(s.sol.W, res.W)
	// (x, λ) = A⁻¹(f + Nᵀz, g).
	copy(s.rhs, p.F)
	for i := range nc {
		if z := res.Z[i]; z != 0 {
			for l := range n {
				s.rhs[l] += p.N.At(i, l) * z
			}
		}
	}
	s.KKT.Solve(s.sol.X, s.sol.Lambda, s.rhs, p.Gv)
	return &s.sol, nil
}

// lemkeDense assembles the reduced LCP matrix column by column (nc KKT
// solves) and solves it by Lemke's method.
func (s *MLCPSolver) lemkeDense(nc int) (Result, error) {
	for j := range nc {
		s.cols.Column(j, s.col)
		s.dense.SetCol(j, s.col)
	}
	res, err := s.Lemke.Solve(s.dense, s.q)
	res.Columns = nc
	return res, err
}

// size allocates the workspace for n velocities, np bilateral and nc
// unilateral constraints.
func (s *MLCPSolver) size(n, np, nc int) {
	if len(s.sol.X) == n && len(s.sol.Lambda) == np && len(s.sol.Z) == nc {
		return
	}
	s.q, s.rhs, s.col = make([]float64, nc), make([]float64, n), make([]float64, nc)
	s.sol.X, s.sol.Lambda = make([]float64, n), make([]float64, np)
	s.sol.Z, s.sol.W = make([]float64, nc), make([]float64, nc)
	s.x0, s.l0, s.gzero = make([]float64, n), make([]float64, np), make([]float64, np)
	s.cols.x, s.cols.lam, s.cols.rhs, s.cols.gzero = make([]float64, n), make([]float64, np), make([]float64, n), s.gzero
	if nc > 0 {
		s.dense = mat.NewDense(nc, nc, nil)
	}
}
