package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// rk4StageWork is the scratch memory of an rk4 step whose constraint rows
// (and contacts) are solved at every stage (rk4ConstrainedVStar,
// rk4ContactVStar).
type rk4StageWork struct {
	res  solver.Result // the stage's constraint solve
	vc   []float64     // J v_i of the stage's rows (softRows)
	imp  []impedance   // per pair, softRows' softImpedance, which pyramidEdges reuses
	vs   []float64     // the stage's velocities v_i (world frame)
	used bool          // the last rk4 step solved constraint rows at one of its stages

	// contacts says that this step solved its contacts at every stage
	// (rk4ContactVStar): its own problem, stage 0's, is assembled and
	// solved already, and its velocities are RK4's (advance skips the
	// assembly and the solve).
	contacts bool
	// The stages' collision detection (stageContacts): the pairs at the
	// stage point, their own contact and constraint assemblers (the
	// step's keep stage 0's rows for the reports and the contact memory),
	// and the collision scratch.
	pairs []contact.Pair
	asm   contact.Assembler
	casm  constraint.Assembler
	col   collider
	// pyr is the pyramidal friction cone's problem (solvePyramid), and
	// geo marks the stage pairs that become pyramids (markPyramids).
	pyr pyramidWork
	geo []bool
	// mats0 and mats are the combined materials of the step's pairs
	// (stage 0) and of the stage's (softTouching), and comb0 and comb
	// pointers to the same materials for the contact assemblers
	// (combinedMaterials).
	mats0, mats []pairMaterial
	comb0, comb []*contact.Material
	// known is the step's pairs' combined materials as substeps found
	// them, by their entries in matCache, in the pairs' order
	// (rememberMaterial, pairmats.go), and own
	// the one a pair that substeps did not see last combined
	// (ownMaterial).
	known []pairMemo
	own   pairMaterial
	// matCache keeps the combined materials across steps (pairmats.go).
	matCache pairMatCache
}

// stagedConstraints reports whether an rk4 step that has constraint rows
// (and no contact pairs) can solve them at its stages: not when the set
// eliminates velocities (attachments, prescribed motions), whose reduced
// problem is built for the step's start only.
func (sim *Simulator) stagedConstraints() bool {
	c := &sim.ws.cons
	return c.set != nil && !c.elim.on && len(sim.ws.pairs) == 0
}

// stagedContacts reports whether an rk4 step with contact pairs can solve
// them at its stages (rk4ContactVStar): not when the constraint set
// eliminates velocities (as stagedConstraints).
func (sim *Simulator) stagedContacts() bool {
	return len(sim.ws.pairs) > 0 && !sim.ws.cons.elim.on
}

// rk4ConstrainedVStar is mj_RungeKutta (MuJoCo 2.2.2, engine_forward.c) for
// a step with constraints and no contacts: MuJoCo evaluates every stage
// with mj_forwardSkip, whose constraint solver gives the stage's
// acceleration a_i with the rows that act at the stage's (q_i, v_i)
// (limits past their bounds at q_i, equalities, friction loss, implicit
// actuators; constraint.Set.NeedsSolve). A stage without such rows is
// rk4VStar's (a_i = M⁻¹ k with the explicit actuators' forces); a stage
// with them solves its problem: the one is the one an explicit step of δt from (q_i, v_i) would solve
// (A = M(q_i), v* = v_i + δt M(q_i)⁻¹ k(q_i, v_i), the rows assembled at
// q_i with v0 = v_i), and a_i = (v − v_i)/δt from its solution v. For
// MuJoCo's soft rows (constraint.Compliance: R = (1 − d)/d · w,
// v̂ = J v_i + δt a_ref) that problem is MuJoCo's stage problem scaled by
// δt² (docs/MODELS.md, friction loss and equalities), so a_i is MuJoCo's
// qacc. The stages combine as in rk4VStar; the step's own solve is then
// direct (v = v*), its rows reported with the impulses of the step's
// start (directSolution). Stage 0 reuses the step's own linearization at
// (q0, v0) (stageZero).
func (sim *Simulator) rk4ConstrainedVStar() error {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	mw.rk4, mw.direct, mw.fallback = true, true, false
	sim.evalControls()
	if err := sim.linearize(w.vstar); err != nil { // the step's problem at q0: A = M(q0), k(q0, v0)
		return err
	}
	copy(mw.mass, w.mass)
	copy(mw.k, w.k)
	mw.turns.local(m, w.q0, w.v0, mw.v[0])
	if err := sim.stageZero(); err != nil {
		return err
	}
	for i := 1; i < 4; i++ {
		c := sim.rk4Stage(i)
		if err := sim.stageAcceleration(i, w.qth, w.vth, sim.State.T+c*dt, false); err != nil {
			return err
		}
	}
	sim.rk4Combine()
	return nil
}

// stageZero sets mw.a[0] for rk4ConstrainedVStar from the step's own
// linearization at (q0, v0), which linearize has just made: the kinematics
// kin0, k(q0, v0) in w.k and A = M(q0) (cB = 0 for an rk4 step) factored in
// w.factor. stageAcceleration at (q0, v0) would compute the same bits
// again (kinematics update, M, RNEA, the force elements and the factor;
// 15–19% of a cartpole's or acrobot's step). A stage without acting rows
// is rk4VStar's stage 0 (a_0 = M⁻¹ (k + explicit actuators)); one with
// rows solves its problem in mw.stage, whose dynamics part is copied from
// the step's (copyDynamics) and factored again. A scheme with θq or θv
// ≠ 0 (not RK4's) takes stageAcceleration.
func (sim *Simulator) stageZero() error {
	m, w, mw := sim.Model, &sim.ws, &sim.ws.mj
	if sim.scheme.ThetaQ != 0 || sim.scheme.ThetaV != 0 {
		return sim.stageAcceleration(0, w.q0, w.v0, sim.State.T, false)
	}
	st := &mw.staged
	if len(st.vs) != m.NV {
		st.vs = make([]float64, m.NV)
	}
	copy(st.vs, w.v0)
	copy(w.qth, w.q0)
	copy(w.vth, w.v0)
	sim.stageActivations(0)
	if !sim.needsSolve(w.qth) { // no row at (q0, v0): rk4VStar's stage 0
		copy(mw.a[0], w.k)
		w.cons.set.ExplicitForcesCoords(m, w.qth, w.vth, w.cons.controls, mw.a[0], nil, &w.cons.terms)
		solveCliques(&w.problem, &w.factor, mw.a[0])
		mw.turns.local(m, w.qth, mw.a[0], mw.a[0])
		return nil
	}
	copyDynamics(&mw.stage, &w.problem)
	if err := mw.factor.Factor(&mw.stage); err != nil {
		return fmt.Errorf("sim: step %d: RK4 stage 0: %w", sim.step+1, err)
	}
	mw.staged.used = true
	return sim.solveStage(0, w.kin0, false)
}

// copyDynamics sets dst's dynamics part (cliques, A, diag(M)) to src's and
// empties its rows, as linearizeAt would fill it at the same point.
func copyDynamics(dst, src *solver.Problem) {
	dst.Reset(src.NV)
	dst.Cliques = append(dst.Cliques, src.Cliques...)
	dst.A = solver.Resize(dst.A, len(src.A))
	copy(dst.A, src.A)
	copy(dst.MDiag, src.MDiag)
}

// rk4ContactVStar is mj_RungeKutta for a step with contact pairs: each of
// MuJoCo's stages runs mj_forwardSkip, collision detection and the
// constraint solver included, so each stage's acceleration has the
// contacts of its own q_i. Stage 0 is the step's own problem at (q0, v0):
// the step's pairs, assembled and solved as an undamped mujoco-euler step
// would (A = M(q0), v* = v0 + δt M⁻¹ k), a_0 = (v − v0)/δt; its impulses
// are the step's reported ones and its contact memory. Stages 1 to 3 detect
// their contacts at q_i (stageContacts) and solve them with the constraint
// rows that act there (stageAcceleration): a_i = (v − v_i)/δt. The stages
// combine as in rk4VStar, and the step's velocity is RK4's.
//
// A contact of MJCF's soft material (mujocoSoft) is MuJoCo's at every
// stage: only a touching one (φ < 0; MuJoCo has a row when dist < margin,
// φ being the gap less the standoff margin − gap) and with MuJoCo's
// reference acceleration and regularization (softRows), so that the
// stage's problem is MuJoCo's scaled by δt² and a_i its qacc, up to the
// solvers' tolerances: with contact.Params.Pyramidal (MJCF's default
// cone) the contacts (condim 1, 3, 4 and 6) are MuJoCo 2.2.2's pyramid
// (solvePyramid, solveStageZero), else its elliptic cone (elliptic.go:
// SAP's cone for condim 1 and 3, solver.ContactEllipticN for 4 and 6);
// limits with MuJoCo's solref have a row only past their bound
// (constraint.Params.MuJoCoLimits), as MuJoCo's. SAP's spring rows at the stages (v̂_n = −φ/(δt + τd),
// the near-rigid R) stop a closing contact within δt: an acceleration
// −v/δt, which RK4's four stages combine into a step that keeps 3/8 of
// the closing or slipping speed (1 + z + z²/2 + z³/6 + z⁴/24 at z = −1),
// where Euler keeps none; Gymnasium's humanoid's fastest joint from its
// reset states went from 1.10…1.81 to 1.42…1.97 times MuJoCo's (seeds 21
// to 26; with MuJoCo's rows 1.05…1.40). Other materials keep SAP's
// rows at every stage (the contact margin, Params.Margin; no speculative
// pairs at stages 1 to 3). The pairs' GapError (the correction of the
// step's linearized gap) is not used.
func (sim *Simulator) rk4ContactVStar() error {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	mw.rk4, mw.direct, mw.fallback = true, false, false
	clearGapErrors(w.pairs)
	sim.startMuJoCoRows()
	if err := sim.linearize(w.vstar); err != nil { // stage 0: A = M(q0), k(q0, v0)
		return err
	}
	copy(mw.mass, w.mass)
	copy(mw.k, w.k)
	mw.turns.local(m, w.q0, w.v0, mw.v[0])
	if w.cons.set != nil {
		sim.actuatorForces() // the controls, and the explicit actuators' forces in k
	}
	if err := sim.explicitVStar(); err != nil { // overwrites k with M⁻¹ k
		return err
	}
	prof := &sim.prof // the stages' parts go to the stage timers they are (Step laps the rest as free motion)
	prof.lap(StageFreeMotion)
	if err := sim.assembleContacts(); err != nil { // MuJoCo's rows for the soft pairs (softRows)
		return err
	}
	prof.lap(StageContactAssembly)
	if err := sim.assembleConstraints(); err != nil {
		return err
	}
	prof.lap(StageConstraintAssembly)
	if err := sim.solveContacts(); err != nil { // the pyramid where it applies (solvePyramid)
		return err
	}
	prof.lap(StageSolve)
	for j, x := range w.result.V {
		mw.a[0][j] = (x - w.v0[j]) / dt
	}
	mw.turns.local(m, w.q0, mw.a[0], mw.a[0])
	copy(w.k, mw.k)
	for i := 1; i < 4; i++ {
		c := sim.rk4Stage(i)
		if err := sim.stageAcceleration(i, w.qth, w.vth, sim.State.T+c*dt, true); err != nil {
			return err
		}
	}
	sim.rk4Combine()
	copy(w.result.V, w.problem.VStar)
	mw.staged.contacts = true
	return nil
}

// clearGapErrors clears the pairs' GapError: a correction of the step's
// linearized gap φ0 + δt v_n, which RK4's stages do not make
// (rk4ContactVStar).
func clearGapErrors(pairs []contact.Pair) {
	for i := range pairs {
		pairs[i].GapError = 0
	}
}

// stageAcceleration sets mw.a[i] = L(q) a(q, v) (MuJoCo's coordinates) with
// the constraint rows solved at the stage point (q, v) at time tm
// (rk4ConstrainedVStar), and the contacts detected there when withContacts
// (rk4ContactVStar). q and v may be w.q0, w.v0 or w.qth, w.vth.
func (sim *Simulator) stageAcceleration(i int, q, v []float64, tm float64, withContacts bool) error {
	m, w, mw := sim.Model, &sim.ws, &sim.ws.mj
	st, p := &mw.staged, &mw.stage
	if len(st.vs) != m.NV {
		st.vs = make([]float64, m.NV)
	}
	copy(st.vs, v)
	copy(w.qth, q)
	copy(w.vth, st.vs)
	sim.stageActivations(i) // a muscle's force takes the stage's activation (activation.go)
	kin := w.kin
	sim.prof.lap(StageFreeMotion)
	kin.Update(w.qth, w.vth)
	sim.prof.lap(StageKinematics)
	if err := sim.linearizeAt(kin, tm, 0, 0, 0, p, &mw.factor); err != nil {
		return fmt.Errorf("RK4 stage %d: %w", i, err)
	}
	st.pairs = st.pairs[:0]
	if withContacts {
		sim.prof.lap(StageFreeMotion)
		sim.stageContacts(kin)
	}
	if len(st.pairs) == 0 && !sim.needsSolve(w.qth) { // no row at this stage: rk4VStar's stage
		copy(mw.a[i], w.k)
		w.cons.set.ExplicitForcesCoords(m, w.qth, w.vth, w.cons.controls, mw.a[i], nil, &w.cons.terms)
		solveCliques(p, &mw.factor, mw.a[i])
		mw.turns.local(m, w.qth, mw.a[i], mw.a[i])
		return nil
	}
	mw.staged.used = true
	return sim.solveStage(i, kin, withContacts)
}

// solveStage assembles and solves the problem of stage i at the stage
// point (w.qth, st.vs), whose kinematics kin holds and whose dynamics part
// mw.stage has: v* = v_i + δt M⁻¹ k, the stage's contacts (st.pairs) and
// constraint rows; mw.a[i] = L(q_i) (v − v_i)/δt.
func (sim *Simulator) solveStage(i int, kin *multibody.Workspace, withContacts bool) error {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	st, p := &mw.staged, &mw.stage
	forces := withContacts && len(st.pairs) > 0 // as a mujoco-euler step's (actuatorForces)
	if forces {
		w.cons.set.ExplicitForcesCoords(m, w.qth, st.vs, w.cons.controls, w.k, nil, &w.cons.terms) // MuJoCo's qfrc_actuator at the stage: no rows (ActuatorForces), no entries (RowsOnly)
	}
	for _, c := range p.Cliques {
		acc := w.k[c.Offset : c.Offset+c.Size]
		mw.factor.Solve(c, acc, 1)
		for j := range c.Size {
			p.VStar[c.Offset+j] = st.vs[c.Offset+j] + dt*acc[j]
		}
	}
	prof := &sim.prof
	prof.lap(StageFreeMotion)
	casm := &w.cons.asm
	if withContacts {
		casm = &st.casm // the step's assembler keeps stage 0's rows (rk4ContactVStar)
		prm := sim.cfg.Contact
		prm.LoadAware = prm.LoadAware && len(st.pairs) > 0 // as assembleContacts
		st.asm.Factored = &mw.factor
		sim.markPyramids(st)
		st.comb = combinedMaterials(st.mats, st.comb)
		st.asm.Combined = st.comb
		if err := st.asm.Assemble(m, kin, st.pairs, sim.cfg.Materials, dt, &prm, p); err != nil {
			return sim.stageError(i, "", err)
		}
		sim.softRows(p, st.pairs, st.mats, st.vs)
		prof.lap(StageContactAssembly)
	}
	if w.cons.set != nil {
		in := &w.cons.stage // not a local: Assemble would move it to the heap
		*in = constraint.Input{Q0: w.qth, V0: st.vs, DT: dt, Controls: w.cons.controls, ThetaVQ: 1,
			KinTheta: kin, QTheta: w.qth, VLin: p.VStar}
		prm := constraint.Params{Beta: sim.cfg.Contact.Beta, MaxRecoverySpeed: sim.cfg.Contact.MaxRecoverySpeed, MuJoCoLimits: true,
			ActuatorForces: forces,       // their forces are in v* (ExplicitForces above)
			RowsOnly:       withContacts} // stages 1–3 of rk4ContactVStar, read for their velocities alone (st.casm: no reports)
		if err := casm.Assemble(m, w.cons.set, kin, in, prm, &mw.factor, p); err != nil {
			return sim.stageError(i, "", err)
		}
		prof.lap(StageConstraintAssembly)
	}
	solved, err := false, error(nil)
	w.pgs.stage = true // only res.V is read: the port's statistics leave e_m out (pgsWork.stats)
	if withContacts {
		solved, err = sim.solvePyramid(p, st.pairs, st.mats, &st.asm, kin, st.vs, &st.res, true)
	}
	if !solved && err == nil {
		solved, err = sim.solveRowsPGS(p, kin, st.vs, true, &st.res) // MuJoCo's PGS on the stage's rows (mujoco_pgs.go)
	}
	if !solved && err == nil {
		err = sim.cfg.Solver.Solve(p, st.vs, &st.res)
	}
	w.pgs.stage = false
	if err != nil {
		return sim.stageError(i, "constraint solver: ", err)
	}
	prof.lap(StageSolve)
	for j, x := range st.res.V {
		mw.a[i][j] = (x - st.vs[j]) / dt
	}
	mw.turns.local(m, w.qth, mw.a[i], mw.a[i])
	return nil
}

// stageError is solveStage's error for stage i: err after what, out of
// its line (three fmt.Errorf calls, their arguments boxed, sat in its
// code).
//
//go:noinline
func (sim *Simulator) stageError(i int, what string, err error) error {
	return fmt.Errorf("sim: step %d: RK4 stage %d: %s%w", sim.step+1, i, what, err)
}

// stageContacts sets st.pairs to the contacts at the stage point whose
// kinematics kin holds (rk4ContactVStar): the collidable geometry pairs'
// points whose gap, less their standoff (MuJoCo's margin − gap), is at
// most the contact margin (Params.Margin; no speculative pairs), or
// negative for MuJoCo's soft material (softTouching), in the broad phase's
// deterministic order, with what the contact memory knows of them
// (contact.Memory.Recall; GapError cleared).
func (sim *Simulator) stageContacts(kin *multibody.Workspace) {
	st, prof := &sim.ws.mj.staged, &sim.prof
	sim.stageBroadPhase(&st.col, kin)
	prof.lap(StageBroadPhase)
	st.pairs = sim.narrowPhase(&st.col, nil, st.pairs[:0])
	prof.lap(StageNarrowPhase)
	sim.mem.Recall(st.pairs)
	clearGapErrors(st.pairs)
	prof.lap(StageContactMemory)
	st.pairs = sim.softTouchingKnown(st.pairs, &st.mats, sim.ws.pairs, st.mats0)
	prof.lap(StageNarrowPhase)
}

// mujocoSoft returns the pair's combined material and whether it is
// MuJoCo's soft contact (an MJCF material: SlipTime, SlipStiffness and
// SlipWeight set).
func (sim *Simulator) mujocoSoft(pr *contact.Pair) (contact.Material, bool) {
	pm := sim.combinedMaterial(pr) // kept across steps (pairmats.go)
	return pm.mat, pm.soft
}

// pairMaterial is a contact pair's combined material and whether it is
// MuJoCo's soft contact (mujocoSoft).
type pairMaterial struct {
	mat  contact.Material
	soft bool
}

// softTouching drops the pairs of MuJoCo's soft contact (mujocoSoft) that
// do not touch (φ ≥ 0: MuJoCo has no row for them), in place, and sets
// *mats to the kept pairs' materials, by pair.
func (sim *Simulator) softTouching(pairs []contact.Pair, mats *[]pairMaterial) []contact.Pair {
	return sim.softTouchingKnown(pairs, mats, nil, nil)
}

// softTouchingKnown is softTouching taking the material of a pair whose
// geometries (GeomA, GeomB) are those of one of known from kmats, its
// materials (the step's own pairs and mats0 at an rk4 stage: the same
// contact.Combine of the same two materials), rather than combining them
// again.
func (sim *Simulator) softTouchingKnown(pairs []contact.Pair, mats *[]pairMaterial, known []contact.Pair, kmats []pairMaterial) []contact.Pair {
	n := 0
	if cap(*mats) < len(pairs) {
		growMaterials(mats, len(pairs))
	}
	*mats = (*mats)[:len(pairs)] // its length alone (no write barrier); cut to the kept pairs below
	ms := *mats
	if len(kmats) != len(known) {
		known = nil
	}
	for j := range pairs {
		pr := &pairs[j] // the pairs are large: read in place, moved only past a dropped one
		// The material is read in place too, and written once into its
		// slot (21 words: zeroed twice and copied four times through
		// locals and append's temporary, it took 7 of this function's
		// 24 hot code lines on half_cheetah).
		pm := stagedMaterial(known, kmats, pr)
		if pm == nil {
			if pm = sim.knownMaterial(j, pr); pm == nil {
				pm = sim.ownMaterial(pr)
			}
		}
		if pm.soft && pr.Phi >= 0 {
			continue
		}
		if n != j {
			movePair(pairs, n, j)
		}
		ms[n] = *pm
		n++
	}
	*mats = (*mats)[:n]
	return pairs[:n]
}

// growMaterials gives *mats room for n materials, its contents not kept
// (softTouchingKnown, out of its line).
//
//go:noinline
func growMaterials(mats *[]pairMaterial, n int) {
	*mats = make([]pairMaterial, n)
}

// movePair moves pairs[j] to pairs[n] (softTouchingKnown past a dropped
// pair), out of line: a pair is 27 words.
//
//go:noinline
func movePair(pairs []contact.Pair, n, j int) {
	pairs[n] = pairs[j]
}

// ownMaterial returns pair pr's combined material (mujocoSoft's), kept in
// the stage work's slot own until the next call: softTouchingKnown's pair
// that substeps did not see, out of its line.
//
//go:noinline
func (sim *Simulator) ownMaterial(pr *contact.Pair) *pairMaterial {
	st := &sim.ws.mj.staged
	st.own = *sim.combinedMaterial(pr)
	return &st.own
}

// stagedMaterial returns the material in kmats of the first pair of known
// whose geometries (GeomA, GeomB) are pr's, or nil when none is.
func stagedMaterial(known []contact.Pair, kmats []pairMaterial, pr *contact.Pair) *pairMaterial {
	for j := range known {
		if known[j].GeomA == pr.GeomA && known[j].GeomB == pr.GeomB {
			return &kmats[j]
		}
	}
	return nil
}

// softRows turns the rows of pairs (the first len(pairs) constraints of
// p), whose materials are mats (softTouching), whose material is MuJoCo's soft contact (mujocoSoft) into MuJoCo's
// rows for a stage at velocity vs (MuJoCo 2.2.2, engine_core_constraint.c:
// mj_makeImpedance, mj_referenceConstraint): MuJoCo's row force solves
// (A + R) f = aref − J a0 with aref = −B J v − K d r, which is SAP's
// problem for γ = δt f with the same R and v̂ = J v + δt aref (docs/MODELS.md,
// friction loss and equalities). So
//
//	R_n = (1 − d)/d · w,  v̂_n = (1 − δt B) v_n − δt K d φ,
//	R_t = (1 + μ²)(1 − d)/d · w,  v̂_t = (1 − δt B) v_t,
//
// with d = d(|φ|) solimp's impedance, w the pair's body_invweight0 sum
// (Material.SlipWeight), K its solref stiffness (SlipStiffness) and
// B = (1 + μ²)/SlipTime its damping; MuJoCo's elliptic contacts then take
// R_t = R_n/impratio and the cone's μ (ellipticRows). R_t is the pyramid's: a contact
// sticking under f creeps at R_t f/B, as MuJoCo's (contact/soft.go), and
// R_n gives MuJoCo's resting depth, K d |φ| = (1 − d)/d · a0.
func (sim *Simulator) softRows(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, vs []float64) {
	st, dt := &sim.ws.mj.staged, sim.cfg.DT
	st.vc = solver.Resize(st.vc, p.NR)
	p.MulJ(vs, st.vc)
	elliptic := sim.cfg.Contact.Cone != contact.Pyramidal // not Pyramidal(), whose receiver is a copy of the 22-word Params
	if cap(st.imp) < len(pairs) {
		st.growImpedances(len(pairs))
	}
	st.imp = st.imp[:len(pairs)]
	for i := range pairs {
		mat := &mats[i].mat
		im := &st.imp[i] // set field by field: one pointer store, not a struct's copy under the write barrier
		if im.set = mats[i].soft; !im.set {
			continue
		}
		row := p.Constraints[i].Row
		mu2 := mat.Friction * mat.Friction
		d, r, b, k := softImpedance(mat, pairs[i].Phi, dt)
		im.phi, im.d, im.r, im.b, im.k = pairs[i].Phi, d, r, b, k
		im.mat = mat
		rr, vh, vc := p.R[row:row+3], p.VHat[row:row+3], st.vc[row:row+3] // the three rows' bounds checked once
		// The two tangent rows written out, their factors formed once:
		// the same products as a loop's, without its counter.
		rt, damp := (1+mu2)*r, 1-dt*b
		rr[0], rr[1], rr[2] = rt, rt, r
		vh[0], vh[1] = damp*vc[0], damp*vc[1]
		if elliptic && ellipticPair(&mats[i]) {
			sim.ellipticRows(p, i, mat, r) // MuJoCo's elliptic block (elliptic.go)
		}
		vh[2] = damp*vc[2] - dt*k*d*pairs[i].Phi
	}
}

// growImpedances gives st.imp room for n pairs (softRows, out of its
// line: the allocation sat between its hot blocks).
//
//go:noinline
func (st *rk4StageWork) growImpedances(n int) {
	st.imp = make([]impedance, n)
}

// mjMinVal is MuJoCo's mjMINVAL, the floor of mj_makeImpedance's R.
const mjMinVal = 1e-15

// impedance is softImpedance's result for a pair's material and gap φ
// (softRows keeps it per pair for pyramidEdges).
type impedance struct {
	set        bool
	phi        float64
	mat        *contact.Material
	d, r, b, k float64
}

// pairImpedance returns softImpedance(mat, φ, δt) for pair i of the
// problem softRows last made, from softRows' own evaluation when it was of
// the same material and φ (the same function of the same numbers).
func (sim *Simulator) pairImpedance(i int, mat *contact.Material, phi float64) (d, r, b, k float64) {
	if imp := sim.ws.mj.staged.imp; i < len(imp) && imp[i].set && imp[i].mat == mat && math.Float64bits(imp[i].phi) == math.Float64bits(phi) {
		return imp[i].d, imp[i].r, imp[i].b, imp[i].k
	}
	return softImpedance(mat, phi, sim.cfg.DT)
}

// softImpedance returns what MuJoCo's rows of a contact of its soft
// material mat at gap φ share in a step of δt (mj_makeImpedance,
// mj_referenceConstraint): solimp's impedance d = d(|φ|), the normal row's
// R = max(mjMINVAL, (1 − d)/d · w) (w the pair's body_invweight0 sum,
// SlipWeight), and
// the damping B and stiffness K of the pair's solref (SlipRef, the two
// geoms' mixed as MuJoCo's: constraint.SolRefKB with the pair's dmax), or
// B = (1 + μ²)/SlipTime and K = SlipStiffness for a material without it.
// softRows and pyramidEdges build their rows from them.
func softImpedance(mat *contact.Material, phi, dt float64) (d, r, b, k float64) {
	if mat.SlipRef != [2]float64{} { // the solref's alone: no division by SlipTime
		k, b = constraint.SolRefKB(mat.SlipRef, mat.SlipImp[1], dt)
	} else {
		k, b = mat.SlipStiffness, (1+mat.Friction*mat.Friction)/mat.SlipTime
	}
	// min, the builtin: math.Min's results (−0 below +0, NaN kept), in
	// line, where math.Min called its assembly.
	d = constraint.ImpedanceOf(&mat.SlipImp, min(phi, 0))
	r = max(mjMinVal, (1-d)/d*mat.SlipWeight) // mj_makeImpedance's floor (a pair of weight 0: contact.Material.WeightSet)
	return d, r, b, k
}
