package lcp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// Columns supplies the matrix M of an LCP one column at a time, so that a
// solver can build only the columns it pivots on (mechanics notes §0.8).
type Columns interface {
	// Size returns n (M is n×n).
	Size() int
	// Column writes column j of M into dst (length n).
	Column(j int, dst []float64)
}

// DenseColumns serves the columns of a dense matrix.
type DenseColumns struct{ M *mat.Dense }

// Size returns the order of M.
func (d DenseColumns) Size() int { r, _ := d.M.Dims(); return r }

// Column copies column j of M.
func (d DenseColumns) Column(j int, dst []float64) { mat.Col(dst, j, d.M) }

// PrincipalPivoting solves the LCP w = Mz + q, 0 ≤ z ⊥ w ≥ 0 for a
// P-matrix M (positive definite, for instance: contact without redundant
// constraints) by Murty's least-index principal pivoting method (Murty,
// "Note on a Bard-type scheme for solving the complementarity problem",
// 1974; finite for P-matrices), with the columns of M built on demand as
// §0.8 of the mechanics notes describes.
//
// The basic set α holds the indices with z basic; at each step
//
//	z_α = −M_αα⁻¹ q_α,   w_β = q_β + M_βα z_α     (notes eq. 0.4: q′),
//
// and the smallest index whose basic value is negative changes sides. Only
// the columns j ∈ α of M are needed (M_αα and M_βα); column j is computed
// the first time z_j becomes basic and kept, so an LCP in which few
// constraints are active costs few columns (Result.Columns). M_αα is
// refactored by LU at each pivot (O(|α|³)). The nonbasic variables are
// exactly zero, so z_i w_i = 0 exactly. A workspace is reused: a later
// Solve of the same size allocates nothing.
type PrincipalPivoting struct {
	// MaxPivots bounds the pivots (0: 10 n + 100).
	MaxPivots int

	n        int
	cols     []float64 // column j at cols[j*n : (j+1)*n]
	have     []bool
	inAlpha  []bool
	alpha    []int
	mAA      []float64
	ipiv     []int
	rhs      []float64
	z, w     []float64
	res      Result
	scaleTol float64
}

func (p *PrincipalPivoting) setup(n int) {
	if p.n == n && p.cols != nil {
		return
	}
	p.n = n
	p.cols, p.have, p.inAlpha = make([]float64, n*n), make([]bool, n), make([]bool, n)
	p.alpha = make([]int, 0, n)
	p.mAA, p.ipiv, p.rhs = make([]float64, n*n), make([]int, n), make([]float64, n)
	p.z, p.w = make([]float64, n), make([]float64, n)
	p.res.Z, p.res.W = p.z, p.w
}

// Solve solves the LCP (M, q) with M given by its columns.
func (p *PrincipalPivoting) Solve(m Columns, q []float64) (Result, error) {
	n := m.Size()
	if len(q) != n {
		return Result{}, fmt.Errorf("lcp: q has length %d, M is %d×%d", len(q), n, n)
	}
	if i := firstNonFinite(q); i >= 0 {
		return Result{}, fmt.Errorf("lcp: q[%d] = %v", i, q[i])
	}
	p.setup(n)
	clear(p.have)
	clear(p.inAlpha)
	p.alpha = p.alpha[:0]
	p.res.Pivots, p.res.Columns = 0, 0
	p.scaleTol = 1e-13 * (1 + floats.Norm(q, math.Inf(1)))
	maxPiv := p.MaxPivots
	if maxPiv <= 0 {
		maxPiv = 10*n + 100
	}
	for {
		if !p.basicSolution(m, q) {
			p.res.Status = Singular
			return p.res, nil
		}
		j := p.leastInfeasible()
		if j < 0 {
			for i := range p.z { // round-off below a degenerate zero
				p.z[i], p.w[i] = max(p.z[i], 0), max(p.w[i], 0)
			}
			p.res.Status = Solved
			return p.res, nil
		}
		if p.res.Pivots >= maxPiv {
			p.res.Status = MaxPivots
			return p.res, nil
		}
		p.toggle(m, j)
		p.res.Pivots++
	}
}

// toggle moves index j between α and β, computing column j of M the first
// time z_j becomes basic.
func (p *PrincipalPivoting) toggle(m Columns, j int) {
	if p.inAlpha[j] {
		p.inAlpha[j] = false
		for k, a := range p.alpha {
			if a == j {
				p.alpha = append(p.alpha[:k], p.alpha[k+1:]...)
				break
			}
		}
		return
	}
	if !p.have[j] {
		col := p.cols[j*p.n : (j+1)*p.n]
		m.Column(j, col)
		if i := firstNonFinite(col); i >= 0 {
			col[i] = math.NaN() // reported as Singular by the solve
		}
		p.have[j] = true
		p.res.Columns++
	}
	p.inAlpha[j] = true
	p.alpha = append(p.alpha, j)
}

// basicSolution computes z_α = −M_αα⁻¹q_α, z_β = 0, w_α = 0 and
// w_β = q_β + M_βα z_α; it returns false if M_αα is singular.
func (p *PrincipalPivoting) basicSolution(m Columns, q []float64) bool {
	n, k := p.n, len(p.alpha)
	clear(p.z)
	if k > 0 {
		a := p.mAA[:k*k]
		for r, i := range p.alpha {
			for c, j := range p.alpha {
				a[r*k+c] = p.cols[j*n+i]
			}
			p.rhs[r] = -q[i]
		}
		var impl gonumlapack.Implementation
		if !impl.Dgetf2(k, k, a, k, p.ipiv[:k]) {
			return false
		}
		impl.Dgetrs(blas.NoTrans, k, 1, a, k, p.ipiv[:k], p.rhs[:k], 1)
		if firstNonFinite(p.rhs[:k]) >= 0 {
			return false
		}
		for r, i := range p.alpha {
			p.z[i] = p.rhs[r]
		}
	}
	copy(p.w, q)
	for _, j := range p.alpha {
		floats.AddScaled(p.w, p.z[j], p.cols[j*n:(j+1)*n])
	}
	for _, i := range p.alpha {
		p.w[i] = 0 // nonbasic: exactly zero
	}
	return true
}

// leastInfeasible returns the smallest index whose basic variable is
// negative (z_j for j ∈ α, w_j for j ∈ β), or −1.
func (p *PrincipalPivoting) leastInfeasible() int {
	for j := range p.n {
		v := p.w[j]
		if p.inAlpha[j] {
			v = p.z[j]
		}
		if v < -p.scaleTol {
			return j
		}
	}
	return -1
}

func firstNonFinite(x []float64) int {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i
		}
	}
	return -1
}
