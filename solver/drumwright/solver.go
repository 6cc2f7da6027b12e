package drumwright

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/stiction-sim/stiction/opt/socp"
	"github.com/stiction-sim/stiction/solver"
)

// Solver is Drumwright's first-order constraint solver. Its workspace is
// reused across solves; a warmed-up solve of a problem of the same sizes
// does not allocate. It is not safe for concurrent use.
type Solver struct {
	params Params
	cone   [2]*socp.Solver // one per stage, so that each keeps its workspace
	cp     socp.Problem
	fac    solver.CliqueFactor
	res    solver.ResidualScratch

	y, w, c   []float64 // A⁻¹Jᵀ (NV×NR), W = J A⁻¹ Jᵀ, J v*
	rows      []rowInfo
	bi, vi    []int     // bilateral rows, unknown rows of the cone program
	pos       []int     // row → index among vi
	gamma     []float64 // impulses of every row
	ceff      []float64 // J v* + W_{:,F} γ_F
	cb, yb, x []float64 // Cholesky of C = W_bb + R_b, C⁻¹(v̂_b − c_b), C⁻¹W_bv
	wr, cr    []float64 // W' and c' of the unknown rows
	pd, ad    []float64 // P and A of the cone program
	q, b      []float64
	soc       []int
	gv        []float64 // impulses of the unknown rows (indexed like vi)
	sel, mark []int     // the current stage's unknowns; index of each in sel or −1
	mode      []uint8   // unilateral rows: modeOff, modeEq, modeIneq (indexed like vi)
	r, vhat   []float64 // the problem's R and v̂
	fk, fx    []float64 // fast paths: matrix and solution
	fs        []float64 // fast path: slacks
	piv       []int
	po        []float64 // pivoting: o of the unilateral rows
	inA       []bool    // pivoting: active set
	ai, fl    []int     // pivoting: active rows, rows to flip
	g         []float64 // scratch row g_i restricted to sel
}

// New returns a solver with parameters p (it panics on invalid parameters,
// a programming error; check them with Params.Validate).
func New(p Params) solver.Solver {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	s := &Solver{params: p, cp: socp.Problem{P: &mat.SymDense{}, A: &mat.Dense{}}}
	for k := range s.cone {
		s.cone[k] = socp.NewSolver()
		s.cone[k].Settings = p.Cone
	}
	return s
}

// Solve solves p (D. §4–6 and appendix). v0 is not used: the interior-point
// method starts from its own central point. It returns an error only for a
// malformed problem; a cone program that does not converge is reported in
// res.Stats.Status (Stalled for an inaccurate solution, MaxIterations,
// Failed), with finite values in res.
func (s *Solver) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("drumwright: %w", err)
	}
	res.V = solver.Resize(res.V, p.NV)
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
	res.Stats = solver.Stats{Status: solver.Converged}
	s.r, s.vhat = p.R, p.VHat
	s.classify(p)
	if err := s.delassus(p); err != nil {
		return fmt.Errorf("drumwright: %w", err)
	}
	s.partition(p)
	st := &res.Stats
	if !s.eliminate(p) {
		st.Status = solver.Failed
		clear(s.gamma)
	} else {
		s.gv = solver.Resize(s.gv, len(s.vi))
		clear(s.gv)
		if len(s.vi) > 0 {
			s.solveStages(p, st)
		}
		for a, i := range s.vi {
			s.gamma[i] = s.gv[a]
		}
		s.recoverBilateral(s.gv)
		if st.Status == solver.Failed || !allFinite(s.gamma) {
			st.Status = solver.Failed // no usable solution: γ = 0, v = v*
			clear(s.gamma)
		}
	}
	s.finish(p, res)
	return nil
}

// solveStages finds the active set of the unilateral rows with the normal
// stage (D. §5's QP, friction zero), then solves the joint stage (D. §6's
// QCQP with the active rows' spring law as an equality) and adds to the
// active set every inactive row whose spring would push, until none does
// (at most MaxOuter joint solves). A joint stage without a solution (an
// active row that the others would make pull) puts the active row with the
// smallest impulse back to D.'s own inequality form and tries again; each
// row moves off → equality → inequality at most once.
//
// D.'s QCQP keeps the normal spring law as an inequality γ_n ≥ s_n(γ) and
// weighs ζ‖γ_n‖² against the friction deviations ‖β‖²: its minimizer raises
// the normal impulse of a sliding contact above the spring's until friction
// stops the slide (docs/DRUMWRIGHT.md measures it). The equality on the
// active set is D. eq. 68, λ = max(0, −Kφ − Bφ̇), which the QP of eq. 83–85
// computes for a single row.
func (s *Solver) solveStages(p *solver.Problem, st *solver.Stats) {
	nvr := len(s.vi)
	for a, i := range s.vi {
		s.pos[i] = a
	}
	if cap(s.mode) < nvr {
		s.mode = make([]uint8, nvr, 2*nvr)
	}
	s.mode = s.mode[:nvr]
	clear(s.mode)
	clear(s.gv)
	stalled := false
	pivoted := s.pivotNormals()
	if !pivoted && s.buildStage(p, stageNormal) && !s.normalFastPath() {
		ok, fatal := s.solveCone(st, stageNormal)
		if fatal {
			st.Status = solver.Failed
			return
		}
		stalled = !ok
	}
	scale := 0.0
	for a, i := range s.vi {
		if s.rows[i].cls == classUnilateral {
			scale = math.Max(scale, math.Abs(s.gv[a]))
			if s.gv[a] > s.violation(a) {
				s.mode[a] = modeEq
			}
		}
	}
	tol := s.params.Tolerance * (1 + scale)
	if pivoted && !s.hasSoft() {
		st.Status = solver.Converged // the joint stage is the pivoting's linear system
		return
	}
	for range s.params.MaxOuter {
		if s.buildStage(p, stageJoint) && !s.jointFastPath() {
			ok, fatal := s.solveCone(st, stageJoint)
			if fatal {
				if !s.relaxSmallest() {
					st.Status = solver.Failed
					return
				}
				continue
			}
			stalled = stalled || !ok
		}
		changed := false
		for a, i := range s.vi {
			if s.rows[i].cls == classUnilateral && s.mode[a] == modeOff && s.violation(a) < -tol {
				s.mode[a], changed = modeEq, true
			}
		}
		if !changed {
			st.Status = solver.Converged
			if stalled {
				st.Status = solver.Stalled
			}
			return
		}
	}
	st.Status = solver.MaxIterations
}

// hasSoft reports whether the joint stage would have soft unknowns.
func (s *Solver) hasSoft() bool {
	for _, i := range s.vi {
		if s.rows[i].cls == classSoft && s.softActive(i) {
			return true
		}
	}
	return false
}

// Modes of a unilateral row in the joint stage.
const (
	modeOff  uint8 = iota // inactive: γ = 0
	modeEq                // its spring law as an equality (D. eq. 68)
	modeIneq              // D. eq. 116 as written: γ ≥ s(γ), weight ζ
)

// relaxSmallest moves the row in equality mode with the smallest impulse to
// inequality mode; it returns false when there is none.
func (s *Solver) relaxSmallest() bool {
	best := -1
	for a, md := range s.mode {
		if md == modeEq && (best < 0 || s.gv[a] < s.gv[best]) {
			best = a
		}
	}
	if best < 0 {
		return false
	}
	s.mode[best] = modeIneq
	return true
}

// solveCone solves the stage built in s.cp and writes its solution into
// s.gv. ok is false for an inaccurate solution (kept); fatal is true when
// there is no usable solution.
func (s *Solver) solveCone(st *solver.Stats, sg stage) (ok, fatal bool) {
	r, err := s.cone[sg].Solve(&s.cp)
	if err != nil { // non-finite data from an ill-conditioned elimination
		return false, true
	}
	st.Iterations += r.Stats.Iterations + r.Stats.PolishIter
	switch r.Status {
	case socp.Solved:
		ok = true
	case socp.MaxIterations, socp.Inaccurate:
	default:
		return false, true
	}
	for k, a := range s.sel {
		s.gv[a] = r.X[k]
	}
	return ok, false
}

// finish sets v = v* + A⁻¹Jᵀγ (D. eq. 37), v_c = J v and the statistics.
func (s *Solver) finish(p *solver.Problem, res *solver.Result) {
	nr := p.NR
	copy(res.Gamma, s.gamma)
	for k := range p.NV {
		v := p.VStar[k]
		if nr > 0 {
			yk := s.y[k*nr : (k+1)*nr]
			for i, g := range s.gamma {
				v += yk[i] * g
			}
		}
		res.V[k] = v
	}
	p.MulJ(res.V, res.VC)
	r := s.res.ComputeResiduals(p, res.V, res.Gamma)
	res.Stats.MomentumError = r.MomentumError
	res.Stats.ComplementarityError = r.ComplementarityError
	res.Stats.Cost = r.Cost // ℓp at v; InitialCost stays 0: there is no warm start
}

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
