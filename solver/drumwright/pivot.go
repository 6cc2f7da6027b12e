package drumwright

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// pivotNormals solves the unilateral rows with every other row's impulse
// held (friction at zero on the first call) as D. eq. 68 states them,
// γ_u = max(0, s_u(γ)), i.e. the linear complementarity problem
//
//	w = G γ + o ≥ 0,  γ ≥ 0,  γᵀw = 0,   G = W'_uu + R_u (SPD),
//
// by block principal pivoting (Júdice and Pires): solve G_AA γ_A = −o_A on
// the active set A, flip every row that is infeasible (γ_A < 0, or w < 0
// off A), and flip only the last infeasible row (Murty's rule) whenever the
// number of infeasible rows did not fall. With G a P-matrix it terminates
// with the solution, in a few Cholesky factorizations when the active set
// moves little. It reports whether it found the solution (written into
// s.gv) within 3n + 10 factorizations.
func (s *Solver) pivotNormals() bool {
	nvr := len(s.vi)
	s.sel = s.sel[:0]
	for a, i := range s.vi {
		if s.rows[i].cls == classUnilateral {
			s.sel = append(s.sel, a)
		}
	}
	n := len(s.sel)
	if n == 0 {
		return true
	}
	s.mark = growInts(s.mark, nvr)
	for a := range s.mark {
		s.mark[a] = -1
	}
	for k, a := range s.sel {
		s.mark[a] = k
	}
	s.po = growFloats(s.po, n)
	s.inA = growBools(s.inA, n)
	scale := 0.0
	for k, a := range s.sel {
		s.po[k] = s.offset(nil, a)
		s.inA[k] = s.po[k] < 0
		scale = math.Max(scale, math.Abs(s.po[k]))
	}
	tol := 1e-12 * (1 + scale)
	best := n + 1
	for range 3*n + 10 {
		if !s.solveActive(n) {
			return false
		}
		bad, last := 0, -1
		for k, a := range s.sel {
			if s.inA[k] {
				if s.gv[a] < 0 {
					bad, last = bad+1, k
				}
				continue
			}
			if s.slackOff(k, n) < -tol {
				bad, last = bad+1, k
			}
		}
		if bad == 0 {
			return true
		}
		if bad < best {
			best = bad
			s.fl = s.fl[:0] // flip after testing every row against the same γ
			for k, a := range s.sel {
				if s.inA[k] && s.gv[a] < 0 || !s.inA[k] && s.slackOff(k, n) < -tol {
					s.fl = append(s.fl, k)
				}
			}
			for _, k := range s.fl {
				s.flip(k)
			}
			continue
		}
		s.flip(last)
	}
	return false
}

// flip moves row k in or out of the active set.
func (s *Solver) flip(k int) { s.inA[k] = !s.inA[k] }

// solveActive sets γ_A = −G_AA⁻¹ o_A and γ = 0 off A (in s.gv). It returns
// false when G_AA is not numerically positive definite.
func (s *Solver) solveActive(n int) bool {
	nvr := len(s.vi)
	s.ai = s.ai[:0]
	for k := range n {
		if s.inA[k] {
			s.ai = append(s.ai, k)
		} else {
			s.gv[s.sel[k]] = 0
		}
	}
	m := len(s.ai)
	if m == 0 {
		return true
	}
	s.fk = growFloats(s.fk, m*m)
	s.fx = growFloats(s.fx, m)
	for r, k := range s.ai {
		a := s.sel[k]
		for c, l := range s.ai {
			s.fk[r*m+c] = s.wr[a*nvr+s.sel[l]]
		}
		s.fk[r*m+r] += s.r[s.vi[a]]
		s.fx[r] = -s.po[k]
	}
	if !cholesky(m, s.fk) {
		return false
	}
	tri := blas64.Triangular{N: m, Stride: m, Uplo: blas.Upper, Diag: blas.NonUnit, Data: s.fk}
	lapack64.Potrs(tri, blas64.General{Rows: m, Cols: 1, Stride: 1, Data: s.fx})
	for r, k := range s.ai {
		s.gv[s.sel[k]] = s.fx[r]
	}
	return true
}

// slackOff returns w_k = o_k + Σ_{l∈A} G_kl γ_l for a row k off A (no R
// term: γ_k = 0).
func (s *Solver) slackOff(k, n int) float64 {
	nvr := len(s.vi)
	a := s.sel[k]
	w := s.po[k]
	wa := s.wr[a*nvr : (a+1)*nvr]
	for _, l := range s.ai {
		w += wa[s.sel[l]] * s.gv[s.sel[l]]
	}
	return w
}

// growBools returns s with length n.
func growBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n, 2*n)
	}
	return s[:n]
}
