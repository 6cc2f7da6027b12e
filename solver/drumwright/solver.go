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
	cone   *socp.Solver
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
	prev      []float64 // gv at the previous outer iteration
	sel, mark []int     // the current stage's unknowns; index of each in sel or −1
	g         []float64 // scratch row g_i restricted to sel
}

// New returns a solver with parameters p (it panics on invalid parameters,
// a programming error; check them with Params.Validate).
func New(p Params) solver.Solver {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	cs := socp.NewSolver()
	cs.Settings = p.Cone
	return &Solver{params: p, cone: cs, cp: socp.Problem{P: &mat.SymDense{}, A: &mat.Dense{}}}
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
	if err := s.delassus(p); err != nil {
		return fmt.Errorf("drumwright: %w", err)
	}
	s.classify(p)
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
		if !allFinite(s.gamma) {
			st.Status = solver.Failed
			clear(s.gamma)
		}
	}
	s.finish(p, res)
	return nil
}

// solveStages alternates the normal stage (D. §5's QP for the normal and
// unilateral impulses, friction held) and the friction stage (D. §6's
// friction program, normals held) until the impulses stop changing:
// ‖Δγ‖∞ ≤ Tolerance·(1 + ‖γ‖∞) (a block fixed point in the manner of
// Anitescu and Hart, D. ref. [1]). The combined QCQP of D. eq. 109–120
// weighs normal impulses against friction deviations β through ζ, and its
// minimizer raises the normal impulse of a sliding contact until friction
// stops the slide (docs/DRUMWRIGHT.md measures it); holding the normals
// while friction is solved is the limit ζ → ∞ the paper argues for.
func (s *Solver) solveStages(p *solver.Problem, st *solver.Stats) {
	for a, i := range s.vi {
		s.pos[i] = a
	}
	s.prev = solver.Resize(s.prev, len(s.vi))
	st.Status = solver.MaxIterations
	for it := 0; it < s.params.MaxOuter; it++ {
		copy(s.prev, s.gv)
		for _, sg := range [2]stage{stageNormal, stageFriction} {
			if !s.buildStage(p, sg) {
				continue
			}
			ok, fatal := s.solveCone(st)
			if fatal {
				st.Status = solver.Failed
				return
			}
			if !ok {
				st.Status = solver.Stalled
			}
		}
		st.LineSearchIterations = it + 1
		d, g := 0.0, 0.0
		for a, v := range s.gv {
			d = math.Max(d, math.Abs(v-s.prev[a]))
			g = math.Max(g, math.Abs(v))
		}
		if d <= s.params.Tolerance*(1+g) {
			if st.Status == solver.MaxIterations {
				st.Status = solver.Converged
			}
			return
		}
	}
}

// solveCone solves the stage built in s.cp and writes its solution into
// s.gv. ok is false for an inaccurate solution (kept); fatal is true when
// there is no usable solution.
func (s *Solver) solveCone(st *solver.Stats) (ok, fatal bool) {
	r, err := s.cone.Solve(&s.cp)
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
	res.Stats.Cost = r.Cost
	res.Stats.InitialCost = r.Cost
}

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
