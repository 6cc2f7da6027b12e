package ipm

import (
	"fmt"

	"github.com/stiction-sim/stiction/opt/socp"
	"github.com/stiction-sim/stiction/solver"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Solver is the interior-point reference solver (see the package doc). Its
// workspace, and that of opt/socp, is reused: once it has solved a problem
// at least as large, a Solve allocates nothing, whatever the number of
// contacts (TestNoAllocsAcrossSizes).
type Solver struct {
	// Settings are opt/socp's (default socp.DefaultSettings: relative
	// residuals and gap 1e-9, then polishing).
	Settings socp.Settings
	// RelTolerance and AbsTolerance are εr and εa of SAP's optimality
	// criterion (eq. 26), which decides the status: Converged when it
	// holds at the returned v and γ(J v), whatever opt/socp's own status
	// (defaults 1e-8 and 1e-16).
	RelTolerance, AbsTolerance float64

	ip    socp.Solver
	prob  socp.Problem
	terms []term
	nt    int
	a     []float64 // A, m×n row-major (backs prob.A)
	pd    []float64 // P, n×n (backs prob.P)
	resid solver.ResidualScratch
	dims  [2]int
	av    []float64
	sym   mat.SymDense // P over pd
	dense mat.Dense    // A over a
}

var _ solver.Solver = (*Solver)(nil)

// New returns a Solver with socp.DefaultSettings, except for the gap
// tolerances: relative 1e-12 and absolute 1e-20. A relative gap δ bounds
// the velocity error only by about √δ (‖v − v_opt‖²_A ≲ δ ℓp), and the
// costs of contact problems are small in absolute terms: with opt/socp's
// defaults (1e-9 relative, 1e-12 absolute) the IPM stopped on a clutter
// step 4e-6 away from SAP's velocities (relative), with these 3e-16.
func New() *Solver {
	s := &Solver{Settings: socp.DefaultSettings(), RelTolerance: 1e-8, AbsTolerance: 1e-16}
	s.Settings.TolGapRel, s.Settings.TolGapAbs = 1e-12, 1e-20
	return s
}

// Solve implements solver.Solver. The interior-point method starts from
// its own central point; v0 is checked and otherwise unused.
func (s *Solver) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	switch {
	case p == nil || res == nil:
		return fmt.Errorf("ipm: nil problem or result")
	case v0 != nil && len(v0) != p.NV:
		return fmt.Errorf("ipm: warm start has length %d, want NV = %d", len(v0), p.NV)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("ipm: %w", err)
	}
	var err error
	if s.terms, s.nt, err = rows(p, s.terms); err != nil {
		return err
	}
	s.build(p)
	s.ip.Settings = s.Settings
	out, err := s.ip.Solve(&s.prob)
	if err != nil {
		return fmt.Errorf("ipm: %w", err)
	}
	s.finish(p, out, res)
	return nil
}

// build writes p as a cone program on x = (v, σ, t):
// P = diag(A, R, 0), q = (−A v*, 0, 1), and each term's row
// s = b − A_row x.
func (s *Solver) build(p *solver.Problem) {
	nv, nr := p.NV, p.NR
	n, m := nv+nr+s.nt, len(s.terms)
	if s.dims != [2]int{n, m} || s.prob.P == nil {
		// Another size reuses the buffers' capacity: a warmed-up solver
		// allocates nothing when the number of contacts changes.
		s.dims = [2]int{n, m}
		s.pd, s.a = solver.Resize(s.pd, n*n), solver.Resize(s.a, m*n)
		s.sym.SetRawSymmetric(blas64.Symmetric{N: n, Stride: max(n, 1), Uplo: blas.Upper, Data: s.pd})
		s.prob.P = &s.sym
		s.prob.A = nil
		if m > 0 {
			s.dense.SetRawMatrix(blas64.General{Rows: m, Cols: n, Stride: n, Data: s.a})
			s.prob.A = &s.dense
		}
		s.prob.Q, s.prob.B = solver.Resize(s.prob.Q, n), solver.Resize(s.prob.B, m)
		s.av = solver.Resize(s.av, nv)
	}
	clear(s.pd)
	for c, q := range p.Cliques {
		blk := p.ABlock(c)
		for i := range q.Size {
			copy(s.pd[(q.Offset+i)*n+q.Offset:(q.Offset+i)*n+q.Offset+q.Size], blk[i*q.Size:(i+1)*q.Size])
		}
	}
	for k, r := range p.R {
		s.pd[(nv+k)*n+nv+k] = r
	}
	p.MulA(p.VStar, s.av)
	clear(s.prob.Q)
	for i, x := range s.av {
		s.prob.Q[i] = -x
	}
	for j := range s.nt {
		s.prob.Q[nv+nr+j] = 1
	}
	s.coneRows(p, n)
}

// coneRows orders the terms zero rows first, then orthant rows, then the
// second-order cones (opt/socp's layout), and writes A and b.
func (s *Solver) coneRows(p *solver.Problem, n int) {
	nz, nn := 0, 0
	s.prob.Cones.SOC = s.prob.Cones.SOC[:0]
	for _, t := range s.terms {
		switch {
		case t.kind == zeroRow:
			nz++
		case t.kind == nonNegRow:
			nn++
		case t.socLen > 0:
			s.prob.Cones.SOC = append(s.prob.Cones.SOC, t.socLen)
		}
	}
	s.prob.Cones.Zero, s.prob.Cones.NonNeg = nz, nn
	next := [3]int{0, nz, nz + nn}
	clear(s.a)
	for _, t := range s.terms {
		row := next[t.kind]
		next[t.kind]++
		s.writeRow(p, t, row, n)
	}
}

// writeRow writes term t as row r: s = Σ α(J v + R σ − v̂) + β t, i.e.
// A_row = −Σ α [J_k, R_k e_k] − β e_t and b = −Σ α v̂_k.
func (s *Solver) writeRow(p *solver.Problem, t term, r, n int) {
	arow := s.a[r*n : (r+1)*n]
	b := 0.0
	for k, row := range t.row {
		if row < 0 || t.alpha[k] == 0 {
			continue
		}
		al := t.alpha[k]
		s.addJRow(p, row, -al, arow)
		arow[p.NV+row] -= al * p.R[row]
		b -= al * p.VHat[row]
	}
	if t.t >= 0 {
		arow[p.NV+p.NR+t.t] -= t.beta
	}
	s.prob.B[r] = b
}

// addJRow adds f times row `row` of J to dst (length ≥ NV).
func (s *Solver) addJRow(p *solver.Problem, row int, f float64, dst []float64) {
	ci := constraintOf(p, row)
	c := p.Constraints[ci]
	r := row - c.Row
	for b, blk := range p.JBlock {
		if blk.Constraint != ci {
			continue
		}
		q := p.Cliques[blk.Clique]
		d := p.JBlockData(b)[r*q.Size : (r+1)*q.Size]
		for j, x := range d {
			dst[q.Offset+j] += f * x
		}
	}
}

// constraintOf returns the constraint that owns a row (binary search: the
// rows tile [0, NR) in order).
func constraintOf(p *solver.Problem, row int) int {
	lo, hi := 0, len(p.Constraints)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.Constraints[mid].Row <= row {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// finish writes v, γ(J v), J v and the statistics into res.
func (s *Solver) finish(p *solver.Problem, out socp.Result, res *solver.Result) {
	res.V, res.Gamma, res.VC = solver.Resize(res.V, p.NV), solver.Resize(res.Gamma, p.NR), solver.Resize(res.VC, p.NR)
	copy(res.V, out.X[:p.NV])
	p.MulJ(res.V, res.VC)
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		p.Eval(i, res.VC[lo:hi], res.Gamma[lo:hi], nil)
	}
	r := s.resid.ComputeResiduals(p, res.V, res.Gamma)
	_, num, den, _ := s.resid.Momentum(p, res.V, res.Gamma)
	res.Stats = solver.Stats{
		Status: status(out.Status, num <= s.AbsTolerance+s.RelTolerance*den), Iterations: out.Stats.Iterations,
		MomentumError: r.MomentumError, ComplementarityError: r.ComplementarityError, Cost: r.Cost,
	}
}

// status returns Converged when SAP's criterion eq. 26 holds (optimal:
// ∇ℓp(v) = A(v − v*) − Jᵀγ(J v) is within the tolerances, so v is the
// minimiser to that accuracy, as for SAP and PGS), and otherwise the
// reason the cone program stopped: its iteration limit, a failure
// (infeasibility certificates, a numerical error), or a stall (including
// a cone program solved to opt/socp's tolerances whose v does not meet
// eq. 26).
func status(st socp.Status, optimal bool) solver.Status {
	switch {
	case optimal:
		return solver.Converged
	case st == socp.MaxIterations:
		return solver.MaxIterations
	case st == socp.Solved || st == socp.Inaccurate:
		return solver.Stalled
	}
	return solver.Failed
}
