package lcp

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// Lemke solves the linear complementarity problem
//
//	w = M z + q,  0 ≤ z ⊥ w ≥ 0
//
// by Lemke's complementary pivoting method (Cottle, Pang and Stone, The
// Linear Complementarity Problem, §4.4) with the covering vector d = e and
// the lexicographic minimum-ratio rule, which makes every pivot strictly
// increase a lexicographic objective and so rules out cycling on
// degenerate problems. It processes every copositive-plus M (positive
// semidefinite ones, and the frictional contact LCP of Stewart and
// Trinkle): it ends with a solution or, when none exists, a secondary ray.
//
// The tableau keeps the basis inverse B⁻¹ (n×n) and q̄ = B⁻¹q, updated by a
// Gauss–Jordan step per pivot (O(n²)). At the end the basic variables are
// recomputed by an LU solve of B x_B = q, so the solution is exact to
// round-off; the nonbasic variables are exactly zero, so z_i w_i = 0 exactly.
// A Lemke's workspace is reused: a later Solve of the same size allocates
// nothing.
type Lemke struct {
	// MaxPivots bounds the pivots (0: 50 n + 100).
	MaxPivots int
	// NoLexicographic replaces the lexicographic ratio test by the plain
	// minimum ratio (first row on ties), to measure degeneracy: it can cycle.
	NoLexicographic bool

	n              int
	m              *mat.Dense
	q              []float64
	binv, qbar     []float64
	col, abar      []float64
	basis, pos     []int
	bmat           []float64
	ipiv           []int
	z, w           []float64
	res            Result
	scaleQ, scaleM float64
}

// Variable ids: w_i = i, z_i = n + i, z₀ = 2n.
func (l *Lemke) complement(v int) int {
	if v < l.n {
		return v + l.n
	}
	return v - l.n
}

func (l *Lemke) setup(n int) {
	if l.n == n && l.binv != nil {
		return
	}
	l.n = n
	l.binv, l.qbar = make([]float64, n*n), make([]float64, n)
	l.col, l.abar = make([]float64, n), make([]float64, n)
	l.basis, l.pos = make([]int, n), make([]int, 2*n+1)
	l.bmat, l.ipiv = make([]float64, n*n), make([]int, n)
	l.z, l.w = make([]float64, n), make([]float64, n)
	l.res.Z, l.res.W = l.z, l.w
}

// Solve solves the LCP (M, q). Bad dimensions or non-finite entries give
// an error.
func (l *Lemke) Solve(m *mat.Dense, q []float64) (Result, error) {
	n, err := checkLCP(m, q)
	if err != nil {
		return Result{}, err
	}
	l.setup(n)
	l.m, l.q = m, q
	l.scaleQ = 1 + floats.Norm(q, math.Inf(1))
	l.scaleM = 1 + mat.Norm(m, math.Inf(1))
	l.res.Pivots, l.res.Columns = 0, 0
	l.res.Status = l.run()
	l.extract()
	return l.res, nil
}

// run performs the pivots and returns the status.
func (l *Lemke) run() Status {
	n := l.n
	clear(l.binv)
	for i := range n {
		l.binv[i*n+i] = 1
		l.basis[i] = i
		l.pos[i], l.pos[n+i] = i, -1
	}
	l.pos[2*n] = -1
	copy(l.qbar, l.q)
	if floats.Min(l.q) >= 0 {
		return Solved
	}
	maxPiv := l.MaxPivots
	if maxPiv <= 0 {
		maxPiv = 50*n + 100
	}
	// First pivot: z₀ enters at the row of the most negative q_i (ties
	// broken lexicographically), after which q̄ ≥ 0.
	enter := 2 * n
	l.column(enter)
	r := l.firstRow()
	for {
		leave := l.basis[r]
		l.pivot(r, enter)
		l.res.Pivots++
		if leave == 2*n {
			return Solved
		}
		if l.res.Pivots >= maxPiv {
			return MaxPivots
		}
		enter = l.complement(leave)
		l.column(enter)
		if r = l.ratioTest(); r < 0 {
			return RayTermination
		}
	}
}

// column sets abar = B⁻¹ a_v for variable v's column a_v of [I −M −e].
func (l *Lemke) column(v int) {
	n := l.n
	l.rawColumn(v)
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: n, Cols: n, Stride: n, Data: l.binv},
		blas64.Vector{N: n, Inc: 1, Data: l.col}, 0, blas64.Vector{N: n, Inc: 1, Data: l.abar})
}

// rawColumn sets col = a_v.
func (l *Lemke) rawColumn(v int) {
	n := l.n
	switch {
	case v < n:
		clear(l.col)
		l.col[v] = 1
	case v < 2*n:
		for i := range n {
			l.col[i] = -l.m.At(i, v-n)
		}
	default:
		for i := range l.col {
			l.col[i] = -1
		}
	}
}

// firstRow returns the row where z₀ enters: the minimum of q_i (d = e),
// ties broken by the lexicographic rule.
func (l *Lemke) firstRow() int {
	r := 0
	for i := 1; i < l.n; i++ {
		if l.qbar[i] < l.qbar[r] || (l.qbar[i] == l.qbar[r] && !l.NoLexicographic && l.lexLess(r, i, -1, -1)) {
			r = i
		}
	}
	return r
}

// ratioTest returns the leaving row for the entering column abar: the
// lexicographic minimum of (q̄_i, B⁻¹_i·)/ā_i over ā_i > 0, preferring z₀'s
// row on ties (which ends the method); −1 when no ā_i is positive.
func (l *Lemke) ratioTest() int {
	tol := 1e-12 * l.scaleM
	r := -1
	for i := range l.n {
		if l.abar[i] <= tol {
			continue
		}
		if r < 0 {
			r = i
			continue
		}
		ri, rr := l.qbar[i]/l.abar[i], l.qbar[r]/l.abar[r]
		eq := math.Abs(ri-rr) <= 1e-13*(1+math.Abs(ri)+math.Abs(rr))*l.scaleQ
		switch {
		case !eq && ri < rr:
			r = i
		case !eq:
		case l.basis[i] == 2*l.n:
			r = i
		case l.basis[r] == 2*l.n || l.NoLexicographic:
		case l.lexLess(i, r, l.abar[i], l.abar[r]):
			r = i
		}
	}
	return r
}

// lexLess reports whether row i's B⁻¹ row divided by ai is lexicographically
// smaller than row r's divided by ar (ai, ar = −1 compare the rows of
// −B⁻¹, the first pivot's ordering).
func (l *Lemke) lexLess(i, r int, ai, ar float64) bool {
	n := l.n
	for j := range n {
		a, b := l.binv[i*n+j]/ai, l.binv[r*n+j]/ar
		if math.Abs(a-b) > 1e-13*(1+math.Abs(a)+math.Abs(b)) {
			return a < b
		}
	}
	return false
}

// pivot makes variable enter basic in row r (abar is its column).
func (l *Lemke) pivot(r, enter int) {
	n := l.n
	p := l.abar[r]
	row := l.binv[r*n : (r+1)*n]
	floats.Scale(1/p, row)
	l.qbar[r] /= p
	for i := range n {
		if f := l.abar[i]; i != r && f != 0 {
			floats.AddScaled(l.binv[i*n:(i+1)*n], -f, row)
			l.qbar[i] -= f * l.qbar[r]
		}
	}
	l.pos[l.basis[r]] = -1
	l.basis[r] = enter
	l.pos[enter] = r
}

// extract sets z and w: the basic variables recomputed from B x_B = q by LU
// (falling back to q̄ if B is singular), the nonbasic ones exactly zero.
func (l *Lemke) extract() {
	n := l.n
	clear(l.z)
	clear(l.w)
	if l.res.Status != Solved {
		return
	}
	for r, v := range l.basis { // B's columns, row-major storage of B
		l.rawColumn(v)
		for i := range n {
			l.bmat[i*n+r] = l.col[i]
		}
	}
	xb := l.abar
	copy(xb, l.q)
	var impl gonumlapack.Implementation
	if impl.Dgetf2(n, n, l.bmat, n, l.ipiv) {
		impl.Dgetrs(blas.NoTrans, n, 1, l.bmat, n, l.ipiv, xb, 1)
	} else {
		copy(xb, l.qbar)
	}
	tiny := 1e-14 * l.scaleQ
	for r, v := range l.basis {
		x := xb[r]
		if x < 0 && x >= -tiny {
			x = 0 // round-off below a degenerate zero
		}
		switch {
		case v < n:
			l.w[v] = x
		case v < 2*n:
			l.z[v-n] = x
		}
	}
}
