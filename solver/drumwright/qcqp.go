package drumwright

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/stiction-sim/stiction/solver"
)

// stage selects one of the two programs of a solve (see solveStages).
type stage uint8

const (
	stageNormal   stage = iota // unilateral rows (normals, limits): D. §5, eq. 83–85
	stageFriction              // soft rows (friction, bounded rows): D. §6, eq. 118–120
)

// buildStage writes the program of stage st over the unknown rows it
// selects as a cone program for opt/socp,
//
//	minimize ½ xᵀPx + qᵀx subject to Ax + s = b, s ∈ R₊^k × Q³ × …,
//
// with every other row's impulse held at its current value in s.gv. For a
// row i, a_i(γ) = R_i(γ_i − s_i(γ)) = g_iᵀγ + o_i with g_i = W'_i + R_i e_i
// and o_i = c'_i − v̂_i is the velocity-scaled violation of its spring law.
//
// Normal stage (D. eq. 83–85): P = ζI, q = 0, a_u ≥ 0 (scaled by
// 1/(R_u + W'_uu), so that its slack is an impulse) and γ_u ≥ 0.
//
// Friction stage (D. eq. 118–120 with the normals known): the objective
// ½Σ_f (γ_f² + β_f²), β_f = a_f/R_f, gives P = Σ_f (e_f e_fᵀ + g_f g_fᵀ/R_f²)
// and q = Σ_f g_f o_f/R_f², both multiplied by R_min² (the smallest R_f) to
// keep P's entries of the order of W'²; the bounds of interval rows; and
// (μγ_n, γ_t1, γ_t2) ∈ Q³ per contact (D. eq. 120, γ_n known), (r, γ_1, γ_2)
// ∈ Q³ per disk. A contact whose normal impulse is zero has no friction and
// is not an unknown. It returns false when the stage has no unknowns.
func (s *Solver) buildStage(p *solver.Problem, st stage) bool {
	nvr := len(s.vi)
	s.sel = s.sel[:0]
	rmin := math.Inf(1)
	for a, i := range s.vi {
		r := s.rows[i]
		switch {
		case st == stageNormal && r.cls == classUnilateral:
			s.sel = append(s.sel, a)
		case st == stageFriction && r.cls == classSoft:
			if r.cone == 1 && !(s.gv[s.pos[i+2]]*r.mu > 0) || r.cone == 0 && s.coneHead(i) == 1 && !(s.gv[s.pos[i+1]]*s.rows[i-1].mu > 0) {
				s.gv[a] = 0 // no normal impulse, no friction
				continue
			}
			s.sel = append(s.sel, a)
			rmin = math.Min(rmin, p.R[i])
		}
	}
	n := len(s.sel)
	if n == 0 {
		return false
	}
	s.mark = growInts(s.mark, nvr)
	for a := range s.mark {
		s.mark[a] = -1
	}
	for k, a := range s.sel {
		s.mark[a] = k
	}
	m := 0
	for _, a := range s.sel {
		r := s.rows[s.vi[a]]
		switch {
		case st == stageNormal:
			m += 2
		case r.cone != 0:
			m += 3
		}
		if st == stageFriction {
			if !math.IsInf(r.lo, -1) {
				m++
			}
			if !math.IsInf(r.hi, 1) {
				m++
			}
		}
	}
	s.pd = solver.Resize(s.pd, n*n)
	s.ad = solver.Resize(s.ad, m*n)
	s.q = solver.Resize(s.q, n)
	s.b = solver.Resize(s.b, m)
	s.g = solver.Resize(s.g, n)
	clear(s.pd)
	clear(s.ad)
	clear(s.q)
	clear(s.b)
	s.soc = s.soc[:0]
	row := 0
	for k, a := range s.sel {
		i := s.vi[a]
		ri := p.R[i]
		o := s.offset(p, a)
		wa := s.wr[a*nvr : (a+1)*nvr]
		for l, b := range s.sel {
			s.g[l] = wa[b]
		}
		s.g[k] += ri
		if st == stageNormal {
			s.pd[k*n+k] = s.params.Zeta
			sc := 1 / (ri + wa[a])
			ar := s.ad[row*n : (row+1)*n]
			for l, gl := range s.g {
				ar[l] = -gl * sc
			}
			s.b[row] = o * sc
			s.ad[(row+1)*n+k] = -1
			row += 2
			continue
		}
		w := rmin * rmin / (ri * ri)
		s.pd[k*n+k] += rmin * rmin
		for l, gl := range s.g {
			if gl == 0 {
				continue
			}
			s.q[l] += gl * o * w
			pl := s.pd[l*n : (l+1)*n]
			for j, gj := range s.g {
				pl[j] += gl * gj * w
			}
		}
	}
	if st == stageFriction {
		row = s.frictionConstraints(row, n)
	}
	s.cp.P.SetRawSymmetric(blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: s.pd})
	s.cp.A.SetRawMatrix(blas64.General{Rows: m, Cols: n, Stride: n, Data: s.ad})
	s.cp.Q, s.cp.B = s.q, s.b
	s.cp.Cones.Zero, s.cp.Cones.NonNeg, s.cp.Cones.SOC = 0, m-3*len(s.soc), s.soc
	return true
}

// frictionConstraints writes the bounds (orthant rows, first) and the cones
// of the friction stage from row on and returns the next row.
func (s *Solver) frictionConstraints(row, n int) int {
	for k, a := range s.sel {
		r := s.rows[s.vi[a]]
		if !math.IsInf(r.lo, -1) {
			s.ad[row*n+k], s.b[row] = -1, -r.lo
			row++
		}
		if !math.IsInf(r.hi, 1) {
			s.ad[row*n+k], s.b[row] = 1, r.hi
			row++
		}
	}
	for k, a := range s.sel {
		i := s.vi[a]
		r := s.rows[i]
		switch r.cone {
		case 1: // (μγ_n, γ_t1, γ_t2) with γ_n known
			s.b[row] = r.mu * s.gv[s.pos[i+2]]
		case 2: // (r, γ_1, γ_2)
			s.b[row] = r.mu
		default:
			continue
		}
		s.ad[(row+1)*n+k] = -1
		s.ad[(row+2)*n+k+1] = -1
		row += 3
		s.soc = append(s.soc, 3)
	}
	return row
}

// offset returns o_a = c'_a − v̂_i + Σ_b W'_ab γ_b over the rows b that the
// current stage does not solve for.
func (s *Solver) offset(p *solver.Problem, a int) float64 {
	nvr := len(s.vi)
	o := s.cr[a] - p.VHat[s.vi[a]]
	wa := s.wr[a*nvr : (a+1)*nvr]
	for b, g := range s.gv {
		if s.mark[b] < 0 && g != 0 {
			o += wa[b] * g
		}
	}
	return o
}

// coneHead returns the cone kind headed by the row before i when i is the
// second tangent row of a contact or disk, 0 otherwise.
func (s *Solver) coneHead(i int) int {
	if i == 0 {
		return 0
	}
	return s.rows[i-1].cone
}

// growInts returns s with length n.
func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, 2*n)
	}
	return s[:n]
}
