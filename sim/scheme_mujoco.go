package sim

import (
	"fmt"
	"slices"

	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo's integrators, as MuJoCo 2.2.2 implements them
// (src/engine/engine_forward.c: mj_Euler, mj_RungeKutta; positions by
// mj_integratePos in engine_support.c). MuJoCo's constraint forces come
// from its own solver; here contacts and constraints go through the contact
// solve (SAP) on the free motion v* that these integrators compute, as with
// every other scheme.

// mujocoWork is the scratch memory of MuJoCo's integrators.
type mujocoWork struct {
	damp     []float64 // B: the joints' damping per velocity (MuJoCo's dof_damping)
	damped   bool      // some B_i > 0: mj_Euler makes the damping implicit
	rk4      bool      // this step is a Runge–Kutta step
	direct   bool      // no contact or constraint row acts in this step: v = v* (directSolution)
	lazyRows bool      // a direct step of mujocoEulerVStar: its constraint rows wait until read (deferRows)
	rows     bool      // this step's MJCF soft contacts are MuJoCo's rows (startMuJoCoRows)
	fallback bool      // this rk4 step had acting rows and eliminated velocities, and was taken with mujoco-euler
	forces   bool      // this solved step's explicit actuators are forces in k, its controls evaluated (actuatorForces)
	k        []float64 // k(q0, v0) of stage 0 (mass), or of a metric step (mujocoMetricVStar)

	// MuJoCo's constraint metric (mujocoMetricVStar): with damping, the
	// step's impulses are found with A = M and act through (M + h B)⁻¹.
	metric bool                // this step maps the solver's v (mapVelocity)
	vB, vM []float64           // v0 + h (M + h B)⁻¹ k and v0 + h M⁻¹ k
	dampF  solver.CliqueFactor // M + h B factored
	tmp    []float64
	diff   []float64        // v − v*_M (mapVelocity)
	mpat   []treeMulPattern // per clique: M's pattern for M (v − v*_M) (mapVelocity)
	aHat   []float64        // mujoco-implicit: A = M + h D, to which M̂ adds h ∂C/∂v (implicitMetricVStar)

	undamped []bool // per tree (clique): B = 0 on it, so M + h B = M there (metricVStarM)

	turns angularTurns // u = L(q) v and back, the angular blocks kept (scheme_turn.go)

	// RK4 stages, in MuJoCo's coordinates (rk4VStar), after the fields an
	// mj_Euler step reads, so that such a step touches fewer lines
	stage  solver.Problem      // the dynamics part at a stage point
	factor solver.CliqueFactor // its A = M(q_i) factored
	v, a   [4][]float64        // u_i = L(q_i) v_i and F_i = L(q_i) a_i
	dq, dv []float64           // Σ_j A_ij u_j, Σ_j A_ij F_j
	qEnd   []float64           // q0 ⊕ h Σ_j b_j u_j, the step's positions
	mass   []float64           // M(q0) blocks of stage 0, which the stages overwrite in the workspace and are put back (with k above)

	staged rk4StageWork // rk4 steps with constraint rows solved at every stage (scheme_rk4c.go)

	gyro gyroJacobian // mujoco-implicit: ∂C/∂v and the LU solve with M̂ (scheme_implicit.go)
}

// init sizes mw for scheme sc: the joint damping B for both integrators,
// the stages for RK4.
func (mw *mujocoWork) init(m *multibody.Model, sc Scheme, elems []forces.Element, kin *multibody.Workspace) {
	if sc.Method == MuJoCoImplicitRule { // implicitMetricVStar (scheme_implicit.go)
		mw.vB, mw.vM, mw.tmp, mw.diff, mw.k = make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV)
		return
	}
	if sc.Method != MuJoCoEulerRule && sc.Method != RungeKutta4 {
		return
	}
	mw.damp = jointDamping(m, elems, kin)
	for _, b := range mw.damp {
		mw.damped = mw.damped || b > 0
	}
	if mw.damped {
		mw.vB, mw.vM, mw.tmp, mw.diff, mw.k = make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV)
		mw.undamped = undampedTrees(m, mw.damp)
	}
	if sc.Method != RungeKutta4 {
		return
	}
	for i := range 4 {
		mw.v[i], mw.a[i] = make([]float64, m.NV), make([]float64, m.NV)
	}
	mw.qEnd = make([]float64, m.NQ)
	mw.dq, mw.dv, mw.k = make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV)
	n := 0
	for _, t := range m.Trees {
		n += t.NV * t.NV
	}
	mw.mass = make([]float64, n)
}

// jointDamping returns B, the damping of the joints' spring–dampers
// (forces.JointSpringDamper, from the model or Config.Forces) per velocity:
// MuJoCo's dof_damping. Their D = d I is constant (package forces), so it
// is read once; other elements' damping (paths, bushings) stays explicit,
// as tendon damping does in MuJoCo's Euler.
func jointDamping(m *multibody.Model, elems []forces.Element, kin *multibody.Workspace) []float64 {
	out := forces.NewOutput(m)
	out.Jacobians = true
	ctx := forces.Context{Model: m, WS: kin, Q: make([]float64, m.NQ), V: make([]float64, m.NV)}
	for _, e := range elems {
		if jd, ok := e.(*forces.JointSpringDamper); ok {
			jd.Apply(&ctx, out)
		}
	}
	b := make([]float64, m.NV)
	for t, tr := range m.Trees {
		for i := range tr.NV {
			b[tr.VOffset+i] = out.D[out.Off[t]+i*(tr.NV+1)]
		}
	}
	return b
}

// dampingWeight returns cB, the weight of the joint damping B in
// A = M + cB B: δt for MuJoCo's Euler (and an rk4 step that falls back to
// it), 0 otherwise.
func (sim *Simulator) dampingWeight() float64 {
	switch sim.scheme.Method {
	case MuJoCoEulerRule:
		return sim.cfg.DT
	case RungeKutta4:
		if !sim.ws.mj.rk4 {
			return sim.cfg.DT
		}
	}
	return 0
}

// mujocoEulerVStar is mj_Euler's velocity update (MuJoCo 2.2.2,
// engine_forward.c, mj_EulerSkip): with B = diag(dof_damping) ≠ 0,
//
//	qacc = (M + h B)⁻¹ (qfrc_smooth + qfrc_constraint),  v = v0 + h qacc,
//
// qfrc_smooth = passive (springs, −B v0) + applied + actuation − bias, all
// at (q0, v0); with B = 0, qacc = M⁻¹ (…) (the same formula). Armature is
// in M. So (M + h B)(v − v0) = h k(q0, v0): the damping alone is implicit,
// (M + h B) v = M v0 + h (k + B v0). Here v* = v0 + h (M + h B)⁻¹ k is the
// free motion, and A = M + h B the dynamics part of the contact problem:
// the constraint impulses enter as v = v* + A⁻¹ Jᵀγ (MuJoCo computes
// qfrc_constraint with M and then applies (M + h B)⁻¹ to it; the two agree
// without contact or constraints, and differ by O(h B M⁻¹) in the impulse's
// effect otherwise).
//
// Without contact pairs and with no constraint row acting
// (constraint.Set.NeedsSolve false: explicit actuators, limits within
// their bounds), the actuators' forces at (q0, v0) join k, as MuJoCo's
// qfrc_actuator, and the step needs no solve (directSolution). With
// contact pairs, the explicit actuators' forces join k all the same
// (actuatorForces), and only the other constraints are rows.
func (sim *Simulator) mujocoEulerVStar() error {
	w := &sim.ws
	w.mj.lazyRows = false
	if sim.eulerRows() {
		sim.startMuJoCoRows() // MuJoCo's contacts and rows (mujoco_rows.go)
	}
	set := w.cons.set
	w.mj.direct = set != nil && len(w.pairs) == 0 && !sim.needsSolve(w.q0)
	metric := w.mj.damped && !w.mj.direct && (len(w.pairs) > 0 || set != nil)
	f := &w.factor
	if metric {
		f = &w.mj.dampF // A = M + δt B's factor, which mujocoMetricVStar keeps for mapVelocity
	}
	if err := sim.linearizeInto(w.vstar, f); err != nil { // θq = θv = 0: M(q0), k(q0, v0), A = M + δt B
		return err
	}
	w.mj.metric = false
	if w.mj.direct {
		sim.directForces()
	} else if set != nil && len(w.pairs) > 0 {
		sim.actuatorForces()
	}
	if metric {
		return sim.mujocoMetricVStar()
	}
	return sim.explicitVStar()
}

// directForces evaluates a direct step's controls and adds its explicit
// actuators' forces at (q0, v0) to k (mujocoEulerVStar), its rows waiting
// until read (deferRows). Out of line: its call's eleven arguments sat
// between the hot blocks of a step with contacts.
//
//go:noinline
func (sim *Simulator) directForces() {
	w := &sim.ws
	w.mj.lazyRows = true
	sim.evalControls()
	w.cons.set.ExplicitForcesCoords(sim.Model, w.q0, w.v0, w.cons.controls, w.k, nil, &w.cons.terms)
}

// actuatorForces evaluates the step's controls and adds the forces of the
// explicit actuators on joints and fixed tendons at (q0, v0) to k
// (constraint.Set.ExplicitForces), for a step of MuJoCo's integrators that
// solves contacts (mujocoEulerVStar, stage 0 of rk4ContactVStar): MuJoCo
// 2.2.2 adds qfrc_actuator to qfrc_smooth (engine_forward.c,
// mj_fwdActuation, mj_fwdAcceleration), where they were rows with impulse
// bounds lo = hi = δt f, which act as the same force through A⁻¹ Jᵀ. The
// assembly then gives them no row (constraint.Params.ActuatorForces) and
// reports their impulse δt f.
//
// A step whose rows are only limits, equalities or friction loss keeps
// the actuators' rows: SAP's stopping criterion (eq. 26) is relative to
// max(‖D A v‖, ‖D Jᵀγ‖), and a joint held at rest on its limit by its
// motor has limit and motor impulses that cancel in Jᵀγ, so that the solve
// runs to the round-off floor; with the motor a force, ‖Jᵀγ‖ is the
// limit's impulse alone and the solve stops at εr of it: dm finger pressed
// on its limits (TestEllipticSuiteMuJoCo, steps 210 to 275) then parted
// from MuJoCo 2.2.2 by 1.9e-9 over 3000 steps, against 5e-15 with the
// rows. Such steps are small (no contact rows), the contact steps are
// where the rows cost.
func (sim *Simulator) actuatorForces() {
	w := &sim.ws
	sim.evalControls()
	w.cons.set.ExplicitForcesCoords(sim.Model, w.q0, w.v0, w.cons.controls, w.k, w.cons.forces, &w.cons.terms) // kept for the assembly
	w.mj.forces = true
}

// mujocoMetricVStar sets up a damped mj_Euler step that has contacts or
// constraints as MuJoCo solves it: MuJoCo finds the constraint forces
// from the unconstrained acceleration M⁻¹ k and the Delassus matrix
// J M⁻¹ Jᵀ, then applies (M + h B)⁻¹ to k + Jᵀ f. So the contact problem
// gets A = M and v*_M = v0 + h M⁻¹ k; its solution v = v*_M + M⁻¹ Jᵀ γ
// gives Jᵀ γ = M (v − v*_M), and the step's velocity is
// v0 + h (M + h B)⁻¹ k + (M + h B)⁻¹ Jᵀ γ (mapVelocity).
func (sim *Simulator) mujocoMetricVStar() error {
	w, mw, p := &sim.ws, &sim.ws.mj, &sim.ws.problem
	copy(mw.k, w.k) // explicitVStar overwrites k
	// v*_B with the factor of A = M + h B that linearize made into dampF
	// (mujocoEulerVStar), which mapVelocity reads; w.factor's is M's.
	if err := sim.explicitVStarBy(&mw.dampF); err != nil {
		return err
	}
	copy(mw.vB, p.VStar)
	copy(p.A, w.mass[:len(p.A)])
	same := mw.undamped
	if w.fout.Jacobians || sim.cfg.DT-sim.cfg.DT != 0 { // A has K, D terms, or h·0 is NaN
		same = nil
	}
	if err := w.factor.FactorTreeMassReusing(p, &mw.dampF, same); err != nil { // A = M
		return stepError(sim.step+1, "M", err)
	}
	if same == nil {
		copy(w.k, mw.k)
		if err := sim.explicitVStar(); err != nil { // v*_M on every clique
			return err
		}
	} else {
		sim.metricVStarM(same)
	}
	copy(mw.vM, p.VStar)
	mw.metric = true
	return nil
}

// mapVelocity turns the solution v of a mujocoMetricVStar step into
// v0 + h (M + h B)⁻¹ k + (M + h B)⁻¹ M (v − v*_M), in place (the state's
// velocity; the solver's result, which the step's statistics check, is
// kept); for mujoco-implicit (implicitMetricVStar) M̂ in place of M + h B.
// M (v − v*_M) is the one that the step's e_m formed (pgsWork.stats'
// pgsMomentum.momentum: A = M, the same bits as the clique's
// linalg.MulVec) when it was formed for this v − v*_M
// (pgsMomentum.productsFor), else massTimesDiff's.
func (sim *Simulator) mapVelocity(v []float64) error {
	w, mw := &sim.ws, &sim.ws.mj
	x := w.pgs.em.productsFor(w.problem.A, v[:len(mw.diff)], mw.vM)
	if x == nil {
		x = sim.massTimesDiff(v)
	}
	if sim.scheme.Method == MuJoCoImplicitRule {
		if err := sim.solveImplicitAll(x); err != nil {
			return err
		}
	} else {
		for _, q := range w.problem.Cliques { // q by value: Solve takes it so
			mw.dampF.Solve(q, x[q.Offset:q.Offset+q.Size], 1)
		}
	}
	// v = v_B + x in one pass: the cliques, one per tree, tile the
	// velocities (multibody.Model.layout), so x holds every clique's part.
	vB, vs := mw.vB[:len(mw.diff)], v[:len(mw.diff)]
	for i, xi := range x[:len(vs)] {
		vs[i] = vB[i] + xi
	}
	return nil
}

// massTimesDiff sets mw.diff = v − v*_M and mw.tmp = M (v − v*_M) on each
// clique, each row's sum from +0 in column order (treeMulPattern.mul), and
// returns mw.tmp (mapVelocity when the step's e_m did not form it; out of
// line).
//
//go:noinline
func (sim *Simulator) massTimesDiff(v []float64) []float64 {
	w, mw := &sim.ws, &sim.ws.mj
	vM := mw.vM[:len(mw.diff)]
	for i, x := range v[:len(mw.diff)] {
		mw.diff[i] = x - vM[i] // v − v*_M, once per entry
	}
	if len(mw.mpat) < len(w.problem.Cliques) {
		mw.growPatterns(len(w.problem.Cliques))
	}
	for c, q := range w.problem.Cliques {
		blk := w.mass[q.AOff : q.AOff+q.Size*q.Size]
		mw.mpat[c].mul(q.Parent, blk, mw.diff[q.Offset:q.Offset+q.Size], mw.tmp[q.Offset:q.Offset+q.Size])
	}
	return mw.tmp[:len(mw.diff)]
}

// solveImplicitAll solves M̂ x = r in place on each of the step's cliques
// (mujoco-implicit's mapVelocity). It is out of line: inlined, this
// loop and its error sat between mapVelocity's hot blocks on the
// mujoco-euler steps of robots, whose loop then tested the method on
// every clique.
//
//go:noinline
func (sim *Simulator) solveImplicitAll(x []float64) error {
	mw := &sim.ws.mj
	for _, q := range sim.ws.problem.Cliques {
		if err := mw.gyro.solveWith(mw.aHat, q, sim.cfg.DT, x[q.Offset:q.Offset+q.Size]); err != nil {
			return stepError(sim.step+1, "mujoco-implicit", err)
		}
	}
	return nil
}

// growPatterns makes room for n cliques' patterns (mapVelocity), out of
// line: it runs at the first metric step only.
//
//go:noinline
func (mw *mujocoWork) growPatterns(n int) {
	mw.mpat = append(mw.mpat, make([]treeMulPattern, n-len(mw.mpat))...)
}

// treeMulPattern is the pattern of a tree's mass matrix block, for M x on
// its entries alone, two rows at a time as linalg.MulVec: M_rc = 0 unless
// r or c is an ancestor of the other along the velocities' parents
// (multibody.Model.TreeVelocityParents; MassMatrix clears the block and
// writes those entries only). Rows 2i and 2i+1 are summed over the union
// of their patterns, whose columns, increasing, are pairs[i].cols and then
// the run pairs[i].lo ≤ c < pairs[i].hi (on a tree numbered in pre-order,
// the rows' ancestors, then a row and its subtree); a column of the union
// off one row's pattern, or of the run off both, adds that row's zero.
type treeMulPattern struct {
	parent []int      // the parents it was built for (nil: not built)
	pairs  []treePair // per pair of rows (the last one alone when n is odd)
	sparse bool       // the pairs' terms are at most two thirds of n² (holds)
}

// treePair is the columns of a pair of rows of treeMulPattern.
type treePair struct {
	cols   []int // the columns below the run
	lo, hi int   // the run of consecutive columns
}

// mul sets out = a x for the n×n row-major block a of the tree parent
// (nil: not a tree) with linalg.MulVec's bits: on pt's pattern when it
// holds and every x_j is finite (a zero of a times ±Inf or NaN is NaN,
// which the pattern would skip), else by MulVec.
func (pt *treeMulPattern) mul(parent []int, a, x, out []float64) {
	if pt.holds(parent) && finiteAll(x) {
		pt.mulVec(a, x, out)
		return
	}
	linalg.MulVec(len(x), a, x, out)
}

// holds reports whether pt is the pattern of the tree parent, building it
// when it was built for another one; false for no tree (nil) or one
// whose pairs' terms are more than two thirds of the block (M x is then
// linalg.MulVec's dense loop, which costs less a term: dm humanoid's 27
// velocities, at 0.74 of the block, took 4 553 instructions by the
// pattern against MulVec's 4 387).
func (pt *treeMulPattern) holds(parent []int) bool {
	if len(parent) == 0 {
		return false
	}
	if len(pt.parent) != len(parent) || &pt.parent[0] != &parent[0] {
		pt.build(parent)
	}
	return pt.sparse
}

// build sets pt to the pattern of the tree parent (parent[i] < i).
func (pt *treeMulPattern) build(parent []int) {
	n := len(parent)
	pt.parent = parent
	on := make([]bool, n*n)
	for i := range n {
		for j := i; j >= 0; j = parent[j] {
			on[i*n+j], on[j*n+i] = true, true
		}
	}
	pt.pairs = make([]treePair, (n+1)/2)
	terms := 0
	for i := range pt.pairs {
		r := 2 * i
		union := slices.Clone(on[r*n : r*n+n])
		if r+1 < n {
			for c, b := range on[(r+1)*n : (r+1)*n+n] {
				union[c] = union[c] || b
			}
		}
		g := &pt.pairs[i]
		g.hi = n
		for !union[g.hi-1] { // union[r] is on
			g.hi--
		}
		g.lo = r
		for g.lo > 0 && union[g.lo-1] {
			g.lo--
		}
		for c := range g.lo {
			if union[c] {
				g.cols = append(g.cols, c)
			}
		}
		terms += 2 * (len(g.cols) + g.hi - g.lo)
	}
	pt.sparse = 3*terms <= 2*n*n
}

// mulVec sets out = a x for the n×n row-major block a on pt's pattern:
// each row's sum from +0 over its pair's columns in increasing order. For
// finite x these are linalg.MulVec's bits: an entry off the row's pattern
// is ±0, its term ±0, and adding ±0 leaves a sum from +0 as it is (such a
// sum is never −0).
func (pt *treeMulPattern) mulVec(a, x, out []float64) {
	n := len(x)
	a, out = a[:n*n], out[:n]
	for i := range pt.pairs {
		g := &pt.pairs[i]
		r := 2 * i
		r0 := a[r*n : r*n+n]
		xs := x[g.lo:g.hi]
		u0 := r0[g.lo:g.hi][:len(xs)]
		if r+1 == n {
			s := 0.0
			for _, c := range g.cols {
				s += r0[c] * x[c]
			}
			for j, xj := range xs {
				s += u0[j] * xj
			}
			out[r] = s
			break
		}
		r1 := a[r*n+n : r*n+2*n][:len(r0)]
		u1 := r1[g.lo:g.hi][:len(xs)]
		s0, s1 := 0.0, 0.0
		for _, c := range g.cols {
			xc := x[c]
			s0 += r0[c] * xc
			s1 += r1[c] * xc
		}
		for j, xj := range xs {
			s0 += u0[j] * xj
			s1 += u1[j] * xj
		}
		out[r], out[r+1] = s0, s1
	}
}

// The RK4 tableau of mj_RungeKutta (MuJoCo 2.2.2, RK4_A and RK4_B); the
// stage times are t + c_i h with c_i the row sums of A.
var (
	rk4A = [3][3]float64{{0.5, 0, 0}, {0, 0.5, 0}, {0, 0, 1}}
	rk4B = [4]float64{1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0}
)

// rk4VStar is mj_RungeKutta with N = 4 (MuJoCo 2.2.2, engine_forward.c),
// in MuJoCo's coordinates u = L(q) v (free and ball joints' angular
// velocities in their moving frame; multibody.LocalVelocity), whose time
// derivative is L(q) a: X_0 = (q0, u0), F_0 = L(q0) a(q0, v0, t); for
// i = 1…3,
//
//	q_i = q0 ⊕ h Σ_j A_ij u_j,  u_i = u0 + h Σ_j A_ij F_j,  F_i = L(q_i) a(q_i, L(q_i)⁻¹ u_i, t + c_i h),
//
// with a(q, v, t) = M(q)⁻¹ k(q, v, t) (all forces explicit, the damping
// too) and q ⊕ δ the exponential map of mj_integratePos (q ⊗ exp(δ) with
// δ in the moving frame); then q1 = q0 ⊕ h Σ_j b_j u_j (kept in mw.qEnd
// for updatePositions), u1 = u0 + h Σ_j b_j F_j and v* = L(q1)⁻¹ u1.
// Combining the stages' angular velocities in the moving frames, as
// MuJoCo does, rather than in F changes free and ball joints' results at
// O(h³) per step; for the other joints L is the identity.
//
// Explicit actuators (motors, general actuators with explicit bias) are
// forces here, not constraints, as MuJoCo's qfrc_actuator: their force
// enters k at every stage, with the stage's state
// (constraint.Set.ExplicitForces), and directSolution gives their rows the
// impulse they had at the start of the step, for the reports.
//
// A step with constraints that MuJoCo would make a constraint row of
// (equalities, friction loss, a limit past its bound, implicit actuators,
// …; constraint.Set.NeedsSolve) or with contact pairs solves them at every
// stage, as MuJoCo's stages do (mj_forwardSkip with collision detection
// and the constraint solver): rk4ConstrainedVStar without contact pairs,
// rk4ContactVStar with them (scheme_rk4c.go). Only a constraint set that
// eliminates velocities (attachments, prescribed motions; not MJCF's)
// makes such a step a mujoco-euler step (mw.fallback;
// StepStats.RK4Fallback): its reduced problem is built for the step's
// start only.
func (sim *Simulator) rk4VStar() error {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	mw.staged.used, mw.staged.contacts, mw.metric = false, false, false // metric: a fallback step sets it again (mujocoEulerVStar)
	if sim.stagedConstraints() {
		return sim.rk4ConstrainedVStar() // scheme_rk4c.go
	}
	if sim.stagedContacts() {
		return sim.rk4ContactVStar() // scheme_rk4c.go
	}
	mw.fallback = len(w.pairs) > 0 || sim.needsSolve(w.q0)
	if mw.fallback {
		return sim.mujocoEulerVStar()
	}
	mw.rk4, mw.direct = true, true
	if w.cons.set != nil {
		sim.evalControls()
	}
	if err := sim.linearize(w.vstar); err != nil { // stage 0: A = M(q0), k(q0, v0) in the step's problem
		return err
	}
	copy(mw.mass, w.mass)
	copy(mw.k, w.k)
	mw.turns.local(m, w.q0, w.v0, mw.v[0])
	copy(mw.a[0], w.k)
	w.cons.set.ExplicitForcesCoords(m, w.q0, w.v0, w.cons.controls, mw.a[0], nil, &w.cons.terms)
	solveCliques(&w.problem, &w.factor, mw.a[0])
	mw.turns.local(m, w.q0, mw.a[0], mw.a[0])
	for i := 1; i < 4; i++ {
		c := sim.rk4Stage(i)
		w.kin.Update(w.qth, w.vth)
		if err := sim.linearizeAt(w.kin, sim.State.T+c*dt, 0, 0, 0, &mw.stage, &mw.factor); err != nil {
			return fmt.Errorf("RK4 stage %d: %w", i, err)
		}
		copy(mw.a[i], w.k)
		sim.stageActivations(i) // a muscle's force takes the stage's activation (activation.go)
		w.cons.set.ExplicitForcesCoords(m, w.qth, w.vth, w.cons.controls, mw.a[i], nil, &w.cons.terms)
		solveCliques(&mw.stage, &mw.factor, mw.a[i])
		mw.turns.local(m, w.qth, mw.a[i], mw.a[i])
	}
	sim.rk4Combine()
	return nil
}

// rk4Combine ends an rk4 step from its four stages: q1 = q0 ⊕ h Σ_j b_j u_j
// (kept in mw.qEnd), v* = L(q1)⁻¹ (u0 + h Σ_j b_j F_j), and puts back what
// the rest of the step reads of stage 0 (M(q0), k(q0, v0), q^θ, v^θ).
func (sim *Simulator) rk4Combine() {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	sim.keepWarm(mw.a[3]) // MuJoCo's qacc_warmstart after the last stage (mujoco_pgs.go)
	rk4Sums(mw.dq, mw.dv, &mw.v, &mw.a, rk4B[:])
	mw.turns.world(m, w.q0, mw.dq, mw.dq)
	m.IntegrateQExp(w.q0, mw.dq, dt, mw.qEnd)
	rk4Velocity(mw.dv, mw.v[0], dt, mw.dv)
	mw.turns.world(m, mw.qEnd, mw.dv, w.problem.VStar)
	// Put back what the rest of the step reads of stage 0.
	copy(w.mass, mw.mass)
	copy(w.k, mw.k)
	copy(w.qth, w.q0)
	copy(w.vth, w.v0)
	w.ctx.WS = w.kin0
	sim.setActivations(sim.State.Act)
}

// directSolution is the solve of a step whose constraint rows do not act
// (mujocoEulerVStar, rk4VStar: their explicit actuators' forces are in v*
// already): v = v*; every row's impulse is 0 except an explicit
// actuator's (an Interval with lo = hi = δt f(q0, v0)), which is that
// (directImpulses; a step whose rows wait, deferRows, has none yet).
func (sim *Simulator) directSolution() {
	p, res := &sim.ws.problem, &sim.ws.result
	res.V = solver.Resize(res.V, p.NV)
	copy(res.V, p.VStar)
	sim.directImpulses()
}

// directImpulses sets the impulses and constraint velocities of a direct
// step's rows (directSolution) and its solver statistics.
func (sim *Simulator) directImpulses() {
	p, res := &sim.ws.problem, &sim.ws.result
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
	clear(res.Gamma)
	clear(res.VC)
	for i, c := range p.Constraints {
		if c.Kind != solver.Interval {
			continue
		}
		if lo, hi := p.IntervalBounds(i); lo == hi {
			res.Gamma[c.Row] = lo
		}
	}
	res.Stats = solver.Stats{Status: solver.Converged}
}

// solveCliques overwrites x with A⁻¹ x, clique by clique, for the factor f
// of p's A.
func solveCliques(p *solver.Problem, f *solver.CliqueFactor, x []float64) {
	for _, q := range p.Cliques {
		f.Solve(q, x[q.Offset:q.Offset+q.Size], 1)
	}
}

// rk4Stage sets stage i's state (i = 1, 2, 3) from the earlier stages'
// velocities and accelerations with the tableau rk4A: q_i = q0 ⊕ δt Σ_j
// a_ij v_j into ws.qth and v_i = v0 + δt Σ_j a_ij a_j into ws.mj.v[i]
// (local) and ws.vth (world). It returns the stage's time fraction c_i.
func (sim *Simulator) rk4Stage(i int) float64 {
	m, w, mw, dt := sim.Model, &sim.ws, &sim.ws.mj, sim.cfg.DT
	sim.keepWarm(mw.a[i-1]) // MuJoCo's qacc_warmstart after stage i − 1 (mujoco_pgs.go)
	c := 0.0
	for _, aij := range rk4A[i-1][:i] {
		c += aij
	}
	rk4Sums(mw.dq, mw.dv, &mw.v, &mw.a, rk4A[i-1][:i])
	mw.turns.world(m, w.q0, mw.dq, mw.dq)
	m.IntegrateQExp(w.q0, mw.dq, dt, w.qth)
	rk4Velocity(mw.v[i], mw.v[0], dt, mw.dv)
	mw.turns.world(m, w.qth, mw.v[i], w.vth)
	return c
}

// rk4Sums sets dq = Σ_j c_j v_j and dv = Σ_j c_j a_j over j < len(c),
// from zero and term by term in j's order (rk4Stage's and rk4Combine's
// sums, as MuJoCo's mju_addToScl per earlier stage in mj_RungeKutta),
// on slices cut to one length so that the loop has no bounds checks
// (BENCHMARKS.md, the seventy-third pass).
func rk4Sums(dq, dv []float64, v, a *[4][]float64, c []float64) {
	clear(dq)
	clear(dv)
	dv = dv[:len(dq)]
	for j, cj := range c {
		vj, aj := v[j][:len(dq)], a[j][:len(dq)]
		for k := range dq {
			dq[k] += cj * vj[k]
			dv[k] += cj * aj[k]
		}
	}
}

// rk4Velocity sets out = v0 + δt dv (out may be dv).
func rk4Velocity(out, v0 []float64, dt float64, dv []float64) {
	v0, dv = v0[:len(out)], dv[:len(out)]
	for k := range out {
		out[k] = v0[k] + dt*dv[k]
	}
}
