package drumwright

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/stiction-sim/stiction/solver"
)

// partition lists the bilateral rows (s.bi), the unknown rows of the cone
// program (s.vi) and sets c_eff = J v* + W_{:,F} γ_F for the fixed rows F,
// with their impulses in s.gamma.
func (s *Solver) partition(p *solver.Problem) {
	nr := p.NR
	s.bi, s.vi = s.bi[:0], s.vi[:0]
	s.gamma = solver.Resize(s.gamma, nr)
	s.ceff = solver.Resize(s.ceff, nr)
	s.pos = growInts(s.pos, nr)
	copy(s.ceff, s.c)
	for i, r := range s.rows {
		s.gamma[i] = 0
		switch r.cls {
		case classBilateral:
			s.bi = append(s.bi, i)
		case classFixed:
			s.gamma[i] = r.fixed
			if r.fixed != 0 {
				for k := range nr {
					s.ceff[k] += s.w[k*nr+i] * r.fixed
				}
			}
		default:
			s.vi = append(s.vi, i)
		}
	}
}

// eliminate removes the bilateral rows by their Schur complement (D. §4.2
// eq. 60–61 alone; with other rows, D. appendix eq. 189–192):
//
//	C = W_bb + R_b,  γ_b = C⁻¹(v̂_b − c_b) − C⁻¹W_bv γ_v = yb − X γ_v,
//	v_c,v = c'_v + W' γ_v,  W' = W_vv − W_vb X,  c' = c_v + W_vb yb.
//
// It returns false when C is not numerically positive definite.
func (s *Solver) eliminate(p *solver.Problem) bool {
	nr, nb, nvr := p.NR, len(s.bi), len(s.vi)
	s.wr = solver.Resize(s.wr, nvr*nvr)
	s.cr = solver.Resize(s.cr, nvr)
	for a, i := range s.vi {
		s.cr[a] = s.ceff[i]
		for b, j := range s.vi {
			s.wr[a*nvr+b] = s.w[i*nr+j]
		}
	}
	s.yb = solver.Resize(s.yb, nb)
	if nb == 0 {
		return true
	}
	s.cb = solver.Resize(s.cb, nb*nb)
	for a, i := range s.bi {
		s.yb[a] = p.VHat[i] - s.ceff[i]
		for b, j := range s.bi {
			s.cb[a*nb+b] = s.w[i*nr+j]
		}
		s.cb[a*nb+a] += p.R[i]
	}
	if !cholesky(nb, s.cb) {
		return false
	}
	tri := blas64.Triangular{N: nb, Stride: nb, Uplo: blas.Upper, Diag: blas.NonUnit, Data: s.cb}
	lapack64.Potrs(tri, blas64.General{Rows: nb, Cols: 1, Stride: 1, Data: s.yb})
	if nvr == 0 {
		return true
	}
	s.x = solver.Resize(s.x, nb*nvr) // X = C⁻¹ W_bv
	for a, i := range s.bi {
		for b, j := range s.vi {
			s.x[a*nvr+b] = s.w[i*nr+j]
		}
	}
	lapack64.Potrs(tri, blas64.General{Rows: nb, Cols: nvr, Stride: nvr, Data: s.x})
	for a, i := range s.vi {
		wa := s.wr[a*nvr : (a+1)*nvr]
		for k, bk := range s.bi {
			wvb := s.w[i*nr+bk]
			if wvb == 0 {
				continue
			}
			s.cr[a] += wvb * s.yb[k]
			xk := s.x[k*nvr : (k+1)*nvr]
			for b, v := range xk {
				wa[b] -= wvb * v
			}
		}
	}
	return true
}

// recoverBilateral sets γ_b = yb − X γ_v.
func (s *Solver) recoverBilateral(gv []float64) {
	nvr := len(s.vi)
	for k, i := range s.bi {
		g := s.yb[k]
		if nvr > 0 {
			xk := s.x[k*nvr : (k+1)*nvr]
			for b, v := range gv {
				g -= xk[b] * v
			}
		}
		s.gamma[i] = g
	}
}
