package drumwright

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// lapackImpl is gonum's pure-Go LAPACK (unblocked LU keeps solves free of
// allocations, as in opt/socp).
var lapackImpl gonumlapack.Implementation

// cholesky factors the n×n symmetric matrix a (row-major, upper triangle
// used) as UᵀU in place and reports whether it is positive definite. It
// is gonum's unblocked Dpotf2: the blocked Dpotrf runs its matrix
// products on goroutines from about 64×64 on (the 900-element foundation's
// pivoting matrix), which allocates on every step.
func cholesky(n int, a []float64) bool { return lapackImpl.Dpotf2(blas.Upper, n, a, max(n, 1)) }

// normalFastPath tries the active set "every unilateral row pushes" for the
// normal stage built in s.cp (friction held): with G = W'_uu + R_u (SPD) the
// rows' spring laws give γ = −G⁻¹o, and this is the QP's minimizer (D. eq.
// 83–85) when γ > 0 and the multipliers of a_u ≥ 0, proportional to
// G⁻¹γ, are non-negative (the KKT conditions ζγ = G z, z ≥ 0). It reports
// whether it succeeded, with γ written into s.gv.
func (s *Solver) normalFastPath() bool {
	n := len(s.sel)
	nvr := len(s.vi)
	s.fk = growFloats(s.fk, n*n)
	s.fx = growFloats(s.fx, n)
	for k, a := range s.sel {
		i := s.vi[a]
		for l, b := range s.sel {
			s.fk[k*n+l] = s.wr[a*nvr+b]
		}
		s.fk[k*n+k] += s.r[i]
		// Row 2k of the built program is a_u·sc ≥ 0 with b = o·sc,
		// sc = 1/(R + W'_aa).
		s.fx[k] = -s.b[2*k] * (s.r[i] + s.wr[a*nvr+a])
	}
	if !cholesky(n, s.fk) {
		return false
	}
	tri := blas64.Triangular{N: n, Stride: n, Uplo: blas.Upper, Diag: blas.NonUnit, Data: s.fk}
	rhs := blas64.General{Rows: n, Cols: 1, Stride: 1, Data: s.fx}
	lapack64.Potrs(tri, rhs) // γ = −G⁻¹o
	for k, a := range s.sel {
		if !(s.fx[k] > 0) {
			return false
		}
		s.gv[a] = s.fx[k]
	}
	lapack64.Potrs(tri, rhs) // G⁻¹γ
	for _, z := range s.fx {
		if z < 0 {
			return false
		}
	}
	return true
}

// jointFastPath solves the joint stage built in s.cp with its equality rows
// only, K [x; y] = [−q; b_E] with K = [P A_Eᵀ; A_E 0], and keeps the
// solution when it satisfies every orthant and cone constraint: the
// inequalities are then inactive and (x, y, 0) meets the KKT conditions of
// the convex program. It reports whether it succeeded, with x written into
// s.gv.
func (s *Solver) jointFastPath() bool {
	n, ne := len(s.sel), s.cp.Cones.Zero
	d := n + ne
	s.fk = growFloats(s.fk, d*d)
	s.fx = growFloats(s.fx, d)
	s.piv = growInts(s.piv, d)
	clear(s.fk)
	for k := range n {
		copy(s.fk[k*d:k*d+n], s.pd[k*n:(k+1)*n])
		s.fx[k] = -s.q[k]
	}
	for r := range ne {
		row := s.ad[r*n : (r+1)*n]
		copy(s.fk[(n+r)*d:(n+r)*d+n], row)
		for k, v := range row {
			s.fk[k*d+n+r] = v
		}
		s.fx[n+r] = s.b[r]
	}
	if d == 0 || !lapackImpl.Dgetf2(d, d, s.fk, d, s.piv) {
		return false
	}
	lapackImpl.Dgetrs(blas.NoTrans, d, 1, s.fk, d, s.piv, s.fx, 1)
	m := len(s.b)
	s.fs = growFloats(s.fs, m)
	for r := ne; r < m; r++ {
		v := s.b[r]
		row := s.ad[r*n : (r+1)*n]
		for k, a := range row {
			v -= a * s.fx[k]
		}
		s.fs[r] = v
	}
	nn := s.cp.Cones.NonNeg
	for r := ne; r < ne+nn; r++ {
		if !(s.fs[r] >= 0) {
			return false
		}
	}
	for r := ne + nn; r < m; r += 3 {
		if !(s.fs[r] >= math.Hypot(s.fs[r+1], s.fs[r+2])) {
			return false
		}
	}
	for k, a := range s.sel {
		if math.IsNaN(s.fx[k]) {
			return false
		}
		s.gv[a] = s.fx[k]
	}
	return true
}

// growFloats returns s with length n.
func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, 2*n)
	}
	return s[:n]
}
