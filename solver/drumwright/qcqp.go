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
	// stageNormal is D. §5's QP (eq. 83–85) for the unilateral rows
	// (contact normals, limits) with every other impulse held: it finds
	// which of them push (the active set).
	stageNormal stage = iota
	// stageJoint is D. §6's QCQP (eq. 109–120) over the active unilateral
	// rows and the soft rows together, with the active rows' spring law
	// λ = −Kφ1 − Bφ̇1 (D. eq. 68 where it is positive) as an equality.
	stageJoint
)

// buildStage writes the program of stage st as a cone program for opt/socp,
//
//	minimize ½ xᵀPx + qᵀx subject to Ax + s = b, s ∈ {0}^e × R₊^k × Q³ × …,
//
// with every row it does not solve for held at its impulse in s.gv. For a
// row i, a_i(γ) = R_i(γ_i − s_i(γ)) = g_iᵀγ + o_i with g_i = W'_i + R_i e_i
// and o_i = c'_i − v̂_i is the velocity-scaled violation of its spring law;
// unilateral rows' a_i are scaled by 1/(R_i + W'_ii) so that their slack is
// an impulse.
//
// Objective (D. eq. 124): ½ζ Σ_u γ_u² in the normal stage; in the joint
// stage the γ_u of rows in equality mode are fixed by their spring law and
// only the friction part ½Σ_f (γ_f² + β_f²), β_f = a_f/R_f, and ζ of the
// rows in inequality mode remain (ζ → ∞ for the others, normals first):
// P = Σ_f (e_f e_fᵀ + g_f g_fᵀ/R_f²), q = Σ_f g_f o_f/R_f², multiplied by
// R_min², the smallest R_f, to keep its entries of the order of W'². With
// ζ finite the joint minimizer would also pick friction that lowers the
// normal impulses (measured: the box on the 15° incline with μ = 0.25 slid
// 12% too far).
//
// Constraints: normal stage, a_u ≥ 0 and γ_u ≥ 0 (D. eq. 84–85); joint
// stage, a_u = 0 for rows in equality mode, a_u ≥ 0 in inequality mode
// (D. eq. 116), γ_u ≥ 0 where no cone implies it, the
// bounds of interval rows, (μγ_n, γ_t1, γ_t2) ∈ Q³ per contact (D. eq. 120)
// and (r, γ_1, γ_2) ∈ Q³ per disk. Inactive rows and the friction of
// inactive contacts are held at zero. It returns false when the stage has
// no unknowns.
func (s *Solver) buildStage(p *solver.Problem, st stage) bool {
	n, rmin := s.selectStage(st)
	if n == 0 {
		return false
	}
	ne, nn, nc := s.countRows(st)
	m := ne + nn + 3*nc
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
	eq, nonneg, cone := 0, ne, ne+nn
	nvr := len(s.vi)
	zeta := s.params.Zeta
	if math.IsInf(rmin, 1) {
		rmin = 1
	}
	for k, a := range s.sel {
		i := s.vi[a]
		r := s.rows[i]
		ri := p.R[i]
		o := s.offset(p, a)
		wa := s.wr[a*nvr : (a+1)*nvr]
		for l, b := range s.sel {
			s.g[l] = wa[b]
		}
		s.g[k] += ri
		if r.cls == classUnilateral {
			sc := 1 / (ri + wa[a])
			row := &nonneg
			switch {
			case st == stageNormal:
				s.pd[k*n+k] = zeta
			case s.mode[a] == modeEq:
				row = &eq
			default: // D. eq. 116 as written, with its weight ζ
				s.pd[k*n+k] = zeta * rmin * rmin
			}
			ar := s.ad[*row*n : (*row+1)*n]
			for l, gl := range s.g {
				ar[l] = -gl * sc
			}
			s.b[*row] = o * sc
			*row++
			if st == stageNormal || !s.inCone(i) {
				s.ad[nonneg*n+k] = -1
				nonneg++
			}
			continue
		}
		w := rmin * rmin / (ri * ri)
		if r.friction {
			s.pd[k*n+k] += rmin * rmin
		}
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
		if !math.IsInf(r.lo, -1) {
			s.ad[nonneg*n+k], s.b[nonneg] = -1, -r.lo
			nonneg++
		}
		if !math.IsInf(r.hi, 1) {
			s.ad[nonneg*n+k], s.b[nonneg] = 1, r.hi
			nonneg++
		}
		switch r.cone {
		case 1: // (μγ_n, γ_t1, γ_t2)
			s.ad[cone*n+s.mark[s.pos[i+2]]] = -r.mu
		case 2: // (r, γ_1, γ_2)
			s.b[cone] = r.mu
		default:
			continue
		}
		s.ad[(cone+1)*n+k] = -1
		s.ad[(cone+2)*n+k+1] = -1
		cone += 3
		s.soc = append(s.soc, 3)
	}
	s.cp.P.SetRawSymmetric(blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: s.pd})
	s.cp.A.SetRawMatrix(blas64.General{Rows: m, Cols: n, Stride: n, Data: s.ad})
	s.cp.Q, s.cp.B = s.q, s.b
	s.cp.Cones.Zero, s.cp.Cones.NonNeg, s.cp.Cones.SOC = ne, nn, s.soc
	return true
}

// selectStage lists the stage's unknowns in s.sel (indices into s.vi) and
// s.mark, sets the impulses of the rows the joint stage holds at zero, and
// returns the number of unknowns and the smallest R of a soft row.
func (s *Solver) selectStage(st stage) (int, float64) {
	s.sel = s.sel[:0]
	rmin := math.Inf(1)
	for a, i := range s.vi {
		r := s.rows[i]
		switch {
		case r.cls == classUnilateral && (st == stageNormal || s.mode[a] != modeOff):
			s.sel = append(s.sel, a)
		case r.cls == classUnilateral:
			s.gv[a] = 0
		case st == stageJoint && s.softActive(i):
			s.sel = append(s.sel, a)
			rmin = math.Min(rmin, s.r[i])
		case st == stageJoint:
			s.gv[a] = 0
		}
	}
	s.mark = growInts(s.mark, len(s.vi))
	for a := range s.mark {
		s.mark[a] = -1
	}
	for k, a := range s.sel {
		s.mark[a] = k
	}
	return len(s.sel), rmin
}

// softActive reports whether soft row i is an unknown of the joint stage:
// always, except the friction rows of a contact whose normal is inactive.
func (s *Solver) softActive(i int) bool {
	switch {
	case s.rows[i].cone == 1:
		return s.mode[s.pos[i+2]] != modeOff
	case i > 0 && s.rows[i-1].cone == 1:
		return s.mode[s.pos[i+1]] != modeOff
	}
	return true
}

// countRows returns the numbers of equality, orthant and cone constraints
// of the selected stage.
func (s *Solver) countRows(st stage) (ne, nn, nc int) {
	for _, a := range s.sel {
		i := s.vi[a]
		r := s.rows[i]
		if r.cls == classUnilateral {
			if st == stageNormal {
				nn += 2
				continue
			}
			if s.mode[a] == modeEq {
				ne++
			} else {
				nn++
			}
			if !s.inCone(i) {
				nn++
			}
			continue
		}
		if !math.IsInf(r.lo, -1) {
			nn++
		}
		if !math.IsInf(r.hi, 1) {
			nn++
		}
		if r.cone != 0 {
			nc++
		}
	}
	return ne, nn, nc
}

// offset returns o_a = c'_a − v̂_i + Σ_b W'_ab γ_b over the rows b that the
// current stage does not solve for.
func (s *Solver) offset(p *solver.Problem, a int) float64 {
	nvr := len(s.vi)
	o := s.cr[a] - s.vhat[s.vi[a]]
	wa := s.wr[a*nvr : (a+1)*nvr]
	for b, g := range s.gv {
		if s.mark[b] < 0 && g != 0 {
			o += wa[b] * g
		}
	}
	return o
}

// violation returns a_a(γ)/(R_i + W'_aa) at the current impulses: the
// impulse by which unilateral row a's spring law exceeds γ_a (negative when
// the spring pushes harder than γ_a).
func (s *Solver) violation(a int) float64 {
	nvr := len(s.vi)
	i := s.vi[a]
	wa := s.wr[a*nvr : (a+1)*nvr]
	v := s.cr[a] - s.vhat[i] + s.r[i]*s.gv[a]
	for b, g := range s.gv {
		v += wa[b] * g
	}
	return v / (s.r[i] + wa[a])
}

// inCone reports whether unilateral row i is the normal of a contact with
// friction, whose cone already implies γ_n ≥ 0.
func (s *Solver) inCone(i int) bool { return i >= 2 && s.rows[i-2].cone == 1 }

// growInts returns s with length n.
func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, 2*n)
	}
	return s[:n]
}
