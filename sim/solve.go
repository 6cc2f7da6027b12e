package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/solver"
)

// assembleContacts appends the contact rows (J, v̂, R, μ) of the step's
// contact pairs to the problem.
func (sim *Simulator) assembleContacts() error {
	w := &sim.ws
	if w.mj.staged.contacts {
		return nil // assembled at the rk4 step's stage 0 (rk4ContactVStar)
	}
	// The parameters go to Assemble as they are (no copy of 184 bytes
	// here): with no pair it returns before it would weigh the contacts
	// (Params.LoadAware), so it need not be turned off for such a step.
	w.assemble.Geometric, w.assemble.Combined = nil, nil
	if w.mj.rows {
		sim.stepRowMarks()
	}
	err := w.assemble.Assemble(sim.Model, w.kin0, w.pairs, sim.cfg.Materials, sim.cfg.DT, &sim.cfg.Contact, &w.problem)
	if err != nil {
		return fmt.Errorf("sim: step %d: %w", sim.step+1, err)
	}
	if w.mj.rows {
		sim.softRows(&w.problem, w.pairs, w.mj.staged.mats0, w.v0) // MuJoCo's rows (mujoco_rows.go)
	}
	return nil
}

// stepRowMarks gives the step's contact assembler, for a step with
// MuJoCo's rows (startMuJoCoRows), the pairs' marks (Geometric: its
// elliptic blocks or pyramids, markElliptic's; nil when no pair is
// marked) and their materials, combined by softTouching (Combined:
// combinedMaterials'), both made in one loop over the pairs, in slices
// resized in place: the two loops, their appends and the slices stored
// back were nine instruction-cache lines of assembleContacts and
// stepElliptic on half_cheetah.
func (sim *Simulator) stepRowMarks() {
	w := &sim.ws
	st := &w.mj.staged
	mats := st.mats0
	if n := len(mats); cap(st.pyr.ell) < n || cap(st.comb0) < n {
		st.growMarks(n)
	}
	st.pyr.ell, st.comb0 = st.pyr.ell[:len(mats)], st.comb0[:len(mats)] // lengths alone: no write barrier
	marks, comb := st.pyr.ell, st.comb0
	found := false
	for i := range mats {
		pm := &mats[i]
		e := ellipticPair(pm) || pyramidPair(pm)
		marks[i], comb[i] = e, &pm.mat
		found = found || e
	}
	w.assemble.Combined = comb
	if found {
		w.assemble.Geometric = marks
	}
}

// growMarks gives the step's marks and materials (stepRowMarks) room for
// n pairs, out of its line.
//
//go:noinline
func (st *rk4StageWork) growMarks(n int) {
	st.pyr.ell, st.comb0 = make([]bool, n), make([]*contact.Material, n)
}

// solveContacts runs the contact solver, warm-started from v0 (a MuJoCo
// step without acting rows takes v = v*: directSolution; a problem with no
// rows at all takes v = v* without the solver: freeSolution).
func (sim *Simulator) solveContacts() error {
	if sim.ws.mj.staged.contacts {
		return nil // solved at every stage of the rk4 step (rk4ContactVStar)
	}
	if w := &sim.ws; w.mj.direct && w.cons.set != nil {
		if w.cons.lazy && len(w.problem.Constraints) == 0 && w.problem.NR == 0 {
			// The rows wait (deferRows) and the step has no pair: with no
			// row, directSolution's answer is freeSolution's, to the bit,
			// in less code (lazyRows sets the impulses when the rows are
			// assembled).
			freeSolution(&w.problem, &w.result)
			return nil
		}
		sim.directSolution() // no row acts (scheme_mujoco.go)
		return nil
	}
	if solved, err := sim.solveMuJoCoRows(); solved || err != nil { // MuJoCo's pyramid (mujoco_rows.go)
		return err
	}
	if c := &sim.ws.cons; c.asm.FixedRPending() { // MuJoCo's PGS declined the rows (fixedRUnread)
		c.asm.FillFixedR(&sim.ws.factor, &sim.ws.problem)
	}
	p, v0, res := sim.solveTarget() // the full or the reduced problem
	if p.NR == 0 && sim.ws.freeSolve {
		freeSolution(p, res) // no row: v = v*, e_m = 0
		return nil
	}
	if err := sim.cfg.Solver.Solve(p, v0, res); err != nil {
		var re *solver.RowError
		if errors.As(err, &re) && re.Row >= 0 && re.Row < 3*len(sim.ws.pairs) { // contact i: rows [3i, 3i+3)
			return fmt.Errorf("sim: step %d: contact solver: %s (row %d of the contact's 3): %w",
				sim.step+1, contact.PairName(sim.Model, &sim.ws.pairs[re.Row/3]), re.Row%3, err)
		}
		return fmt.Errorf("sim: step %d: contact solver: %w", sim.step+1, err)
	}
	return nil
}

// fixedRUnread reports whether the step's assembly may leave the R of its
// explicit actuators' rows unset (constraint.Params.FixedRUnread): on a
// step of mujoco-euler or mujoco-implicit without pairs or eliminated
// velocities, with MuJoCo's PGS or Newton on and noslip off, the rows go
// to eulerRowsPGS, whose solvers fold those rows without their R
// (foldFixed, newtonSmooth; its statistics take their impulse lo = hi,
// which does not depend on R: solver.IntervalEval), and, where pgsSetup
// declines them, back to solveContacts, which fills R (FillFixedR) before
// the configured solver or the reduced problem reads it. (The lazy rows of
// a direct step are assembled with NoSolve, whose R is the estimate 1.)
func (sim *Simulator) fixedRUnread() bool {
	m, w := sim.scheme.Method, &sim.ws
	return (m == MuJoCoEulerRule || m == MuJoCoImplicitRule) && len(w.pairs) == 0 && !w.cons.elim.on &&
		sim.cfg.Contact.PGSIterations > 0 && sim.cfg.Contact.NoSlipIterations <= 0
}

// updatePositions sets v to the solver's velocities and
// q = q0 + δt N(q^θq) v^θvq (SAP eq. 12), renormalising quaternions; for
// MuJoCo's integrators q = q0 ⊕ δt v by the exponential map
// (scheme_mujoco.go). The θ-methods' update is out of line (thetaPositions):
// the MuJoCo integrators' path, which the robots' steps take, is then one
// straight run of code up to the time.
func (sim *Simulator) updatePositions() error {
	m, s, w, v := sim.Model, sim.State, &sim.ws, sim.ws.result.V
	if !finiteAll(v) { // the search for the culprit only when there is one
		if err := sim.notFinite(v); err != nil {
			return err
		}
	}
	if mth := sim.scheme.Method; mth == MuJoCoEulerRule || mth == RungeKutta4 || mth == MuJoCoImplicitRule { // tested first: SymplecticEuler is a θ-method
		copy(s.V, v)
		if w.mj.metric {
			if err := sim.mapVelocity(s.V); err != nil { // impulses found with M act through M + h B or M̂ (scheme_mujoco.go)
				return err
			}
		}
		if !w.mj.rk4 {
			m.IntegrateQExp(s.Q, s.V, sim.cfg.DT, s.Q) // mj_Euler: mj_integratePos with the new velocities
		} else {
			copy(s.Q, w.mj.qEnd) // mj_RungeKutta: q0 ⊕ h Σ_j b_j u_j
		}
	} else {
		sim.thetaPositions(v)
	}
	s.T = sim.t0 + float64(sim.step+1)*sim.cfg.DT // no round-off drift from repeated addition
	return nil
}

// thetaPositions is updatePositions' v and q for the θ-methods (SAP eq.
// 12; SymplecticEuler's θq = 0, θvq = 1), out of line.
//
//go:noinline
func (sim *Simulator) thetaPositions(v []float64) {
	m, s, w := sim.Model, sim.State, &sim.ws
	if sim.scheme == SymplecticEuler {
		copy(s.V, v)
		m.IntegrateQ(s.Q, s.Q, s.V, sim.cfg.DT, s.Q) // θq = 0, θvq = 1
		return
	}
	sim.midStep(v)
	copy(s.V, v)
	m.IntegrateQ(w.q0, w.qth, w.vtq, sim.cfg.DT, s.Q)
}

// notFinite returns updatePositions' error for the first entry of v that
// is not finite (v has one), out of line.
//
//go:noinline
func (sim *Simulator) notFinite(v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("sim: step %d: solver returned v[%d] = %v", sim.step+1, i, x)
		}
	}
	return nil
}

// finiteAll reports whether every element of v is finite: x − x is +0
// for a finite x and NaN for an infinite or NaN one, and a sum of +0s is
// +0 while a NaN stays NaN, so the sum is 0 exactly when all are finite
// (about half the instructions of testing each for NaN and for ±Inf).
func finiteAll(v []float64) bool {
	s := 0.0
	for _, x := range v {
		s += x - x
	}
	return s == 0
}

// freeSolution is the solution of a problem with no constraint rows: its
// cost ℓp(v) = ½ (v − v*)ᵀ A (v − v*) (SAP eq. 24 with no γ) has its
// minimum at v = v*, exactly, so the solution is v* to the last bit and
// its momentum error e_m (SAP eq. 32, numerator A(v − v*) − Jᵀγ) is 0.
// The solver would reach v* from the warm start by a Newton step, equal to
// v* up to the round-off of A⁻¹A; here it is not called at all.
func freeSolution(p *solver.Problem, res *solver.Result) {
	res.V = solver.Resize(res.V, p.NV)
	copy(res.V, p.VStar)
	res.Gamma = res.Gamma[:0]
	res.VC = res.VC[:0]
	res.Stats = solver.Stats{Status: solver.Converged}
}
