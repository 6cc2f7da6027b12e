package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// MuJoCo 2.2.2's PGS solver (<option solver="PGS">) for the problems of
// MuJoCo's rows (solvePyramid): projected Gauss–Seidel on the dual of
// MuJoCo's constraint problem, run for at most <option iterations> sweeps,
// as MuJoCo runs it, so that a step gives MuJoCo's unconverged answer
// rather than the converged one (which MuJoCo's Newton solver, and SAP,
// find). It follows engine_forward.c (mj_fwdConstraint, warmstart) and
// engine_solver.c (mj_solPGS, residual, costChange, rescale, dualFinish)
// of MuJoCo 2.2.2:
//
//	AR = J M⁻¹ Jᵀ + R                    (mj_projectConstraint, efc_AR)
//	b  = J qacc_smooth − aref             (efc_b)
//
// in MuJoCo's units (forces, accelerations): SAP's problem of MuJoCo's rows
// is MuJoCo's for γ = δt f (softRows), so b = (J v* − v̂)/δt with
// qacc_smooth = (v* − v_s)/δt and aref = (v̂ − J v_s)/δt, v_s the velocity
// the rows were made at (v0, or a stage's v_i). Rows are swept in MuJoCo's
// order: equalities, friction loss, limits, contacts (mj_makeConstraint).

// pgsClass is the class of one of MuJoCo's rows, in MuJoCo's row order
// (mj_instantiateEquality, …Friction, …Limit, …Contact).
type pgsClass int8

const (
	pgsEquality pgsClass = iota // unbounded force
	pgsFriction                 // friction loss: |f| ≤ floss
	pgsLimit                    // limit (and tendon limit): f ≥ 0
	pgsContact                  // pyramid edge: f ≥ 0
	pgsFixed                    // an explicit actuator's row (lo = hi): MuJoCo's qfrc_actuator, not a row
	pgsOther                    // a row PGS does not handle here (Disk, …)
	pgsCone                     // a row of an elliptic cone (MuJoCo's Newton and CG only; pgsWork.cones)
)

// pgsConeBlock is one of MuJoCo's elliptic contacts in MuJoCo's row order
// (mjCNSTR_CONTACT_ELLIPTIC): its rows k0 … k0+dim−1 are the normal, the
// two tangents, the torsional and the two rolling rows (dim = condim 3, 4
// or 6), fr its friction coefficients μ_1 … μ_{dim−1} (contact->friction,
// floored at mjMINMU).
type pgsConeBlock struct {
	k0, dim int
	fr      [5]float64
}

// pgsWarm is MuJoCo's d->qacc_warmstart: the acceleration of the last
// evaluation of the constraint solver (mj_fwdConstraint saves qacc after
// every solve, at every RK4 stage; a stage or step without rows saves
// qacc_smooth), in MuJoCo's coordinates (multibody.LocalVelocity), which
// the next solve's warm start reads (warmstart). It is state carried from
// step to step: Checkpoint and Restore keep it. set is false until a first
// solve has written it (MuJoCo's mj_resetData zeroes it).
type pgsWarm struct {
	qacc []float64
	set  bool
}

// keep records a (local coordinates, length NV) as the warm start of the
// next solve, when the scheme solves with PGS.
func (sim *Simulator) keepWarm(a []float64) {
	if sim.cfg.Contact.PGSIterations <= 0 {
		return
	}
	if ns := &sim.ws.noslip; ns.pending { // the main solver's, before noslip
		a, ns.pending = ns.pre, false
	}
	ws := &sim.pgsWarm
	if len(ws.qacc) != len(a) {
		ws.qacc = make([]float64, len(a))
	}
	copy(ws.qacc, a)
	ws.set = true
}

// pgsWork is the scratch memory of a PGS solve.
type pgsWork struct {
	fac    *solver.CliqueFactor // the factor of the problem's A (pgsFactor): factor, or the one the caller made
	factor solver.CliqueFactor
	perm   []int          // MuJoCo row k is row perm[k] of the pyramid problem
	class  []pgsClass     // per MuJoCo row
	bclass []pgsClass     // per block of the problem past the contacts (blockClass; order)
	floss  []float64      // friction loss bound per MuJoCo row (MuJoCo units)
	cones  []pgsConeBlock // the elliptic contacts, in row order (Newton and CG only)
	ar     []float64      // AR, n×n row-major in MuJoCo's order
	b      []float64      // efc_b, MuJoCo order
	f      []float64      // efc_force, MuJoCo order
	r      []float64      // efc_R, MuJoCo order
	arinv  []float64      // 1/AR_kk
	jx     []float64      // J x, problem order
	jvs    []float64      // J v_s, problem order
	x, y   []float64      // NV scratch
	fixed  []int          // blocks of explicit actuators' fixed impulses (foldFixed)
	ident  []pyramidBlock // a problem without contacts: every block as it is, ident[i] = {first: i}, never written (identBlocks)
	corder []int          // the pairs in MuJoCo's contact order (contactOrder)
	crank  []int          // their ranks within their geom pair
	dual   pgsDual        // the scratch of the dual build (delassus, mujoco_pgsdual.go)
	jac    pgsJac         // J's non-zeros (pgsSetup)
	gv     []float64      // γ(J v), for e_m
	scr    solver.ResidualScratch
	em     pgsMomentum // stats' e_m scratch
	// stage says that the solve is an rk4 stage's (solveStage), whose
	// caller reads res.V alone: stats leaves e_m out.
	stage bool
}

// pgsMomentum is the scratch of stats' e_m (pgsWork.stats): v − v*, A(v − v*),
// A v and Jᵀγ (nv each).
type pgsMomentum struct {
	diff, r, av, jc []float64
	// a is the A of the problem whose r = A(v − v*) momentum last formed,
	// empty when r holds none (stats empties it, a[:0], where momentum
	// does not run: a store of its length alone, where nil stored its
	// pointer too, with the write barrier's check and call in line;
	// mapVelocity clears it when it has taken r, in productsFor, whose
	// a[:0] would have taken it past the inliner's budget): a metric
	// step's mapVelocity takes M (v − v*_M) from r when A is its
	// problem's (= M) and v − v*_M is diff, bit for bit (productsFor).
	a []float64
}

// size sizes the scratch for nv velocities (out of line: the sizes change
// only with the model's).
//
//go:noinline
func (m *pgsMomentum) size(nv int) {
	m.diff, m.r, m.av, m.jc = solver.Resize(m.diff, nv), solver.Resize(m.r, nv), solver.Resize(m.av, nv), solver.Resize(m.jc, nv)
}

// pgsCall is one solve's arguments down the chain of MuJoCo's solvers
// (tryPGS, solvePGS, pgsSetup, solveNewton, newtonWork.finish, noSlip):
// the problem p (a pyramid problem of solvePyramid, whose blocks and pairs
// say where the pairs' contacts went, or a problem without contacts, whose
// blocks are identBlocks'), the kinematics kin at the stage point q (world
// coordinates: the step's start q0 or, with stage, an rk4 stage's point,
// the workspace's q^θ), the velocity vs the rows were made at, and the
// result res. Its maker keeps it on its stack and passes its address: the
// chain's functions each spilt and reloaded the 14 words of their
// argument lists around their calls.
type pgsCall struct {
	p      *solver.Problem
	blocks []pyramidBlock
	pairs  []contact.Pair
	kin    *multibody.Workspace
	q, vs  []float64
	res    *solver.Result
}

// stagePoint returns the point of a solve's rows: the step's start q0 or,
// with stage, an rk4 stage's point (the workspace's q^θ).
func (sim *Simulator) stagePoint(stage bool) []float64 {
	if stage {
		return sim.ws.qth
	}
	return sim.ws.q0
}

// solvePGS solves c.p with MuJoCo 2.2.2's PGS from the warm start
// sim.pgsWarm, into c.res (pgsCall); it reports false, having solved
// nothing, when the problem has rows PGS does not handle here (contacts
// with the elliptic cone or condim 4 and 6, rows of other kinds), which
// the configured solver then solves. With MuJoCo's Newton (the robots'
// solver) it runs solveNewton on the same rows instead.
func (sim *Simulator) solvePGS(c *pgsCall) (bool, error) {
	newton := sim.cfg.Contact.Newton
	if ok, err := sim.pgsSetup(c, newton); !ok || err != nil {
		return ok, err
	}
	if !newton {
		sim.sweepPGS(c)
		return true, nil
	}
	dt := sim.cfg.DT                // MuJoCo's Newton on the same rows (mujoco_newton.go)
	if len(sim.ws.pgs.fixed) != 0 { // newtonSmooth's test, before its call's set-up
		sim.newtonSmooth(c.p, dt)
	}
	sim.solveNewton(c, dt)
	return true, nil
}

// sweepPGS is solvePGS's PGS solve on the rows pgsSetup set: the warm
// start, mj_solPGS's sweeps, dualFinish and the statistics. Out of line:
// Newton's steps (the robots') do not run it.
//
//go:noinline
func (sim *Simulator) sweepPGS(c *pgsCall) {
	w, dt := &sim.ws.pgs, sim.cfg.DT
	p, res := c.p, c.res
	sim.warmStart(p, c.q, dt)
	iters, converged := w.sweeps(sim.cfg.Contact.PGSIterations, sim.cfg.Contact.PGSTolerance, sim.meanInertia*max(1, float64(sim.Model.NV)))
	w.finish(p, dt, res)
	w.stats(p, res, iters, converged)
}

// pgsSetup sets the dual problem of MuJoCo's rows in sim.ws.pgs for c.p
// (solvePGS; c.q is not read): the rows in MuJoCo's order (order), AR, R and 1/AR_kk
// (delassus), efc_b with the explicit actuators' rows folded in
// (foldFixed), the friction loss bounds in MuJoCo's units. It reports
// false, having set nothing usable, when p has rows PGS does not handle
// here. mj_solNoSlip (mujoco_noslip.go) reads the same problem. With
// newton (MuJoCo's Newton, mujoco_newton.go) it sets neither AR nor the
// folded rows, which Newton does not use (newtonSmooth folds the fixed
// rows into qacc_smooth).
func (sim *Simulator) pgsSetup(c *pgsCall, newton bool) (bool, error) {
	p, vs := c.p, c.vs
	w := &sim.ws.pgs
	w.contactOrder(c.pairs, sim.Model, c.kin)
	dt, noslip := sim.cfg.DT, sim.cfg.Contact.NoSlipIterations > 0
	if !w.order(p, c.blocks, len(c.pairs), newton && !noslip, dt) {
		return false, nil
	}
	if err := sim.pgsFactor(p); err != nil {
		return true, err
	}
	// efc_b = J qacc_smooth − aref, and aref = (v̂ − J v_s)/δt.
	if len(w.x) != p.NV || len(w.jvs) != p.NR { // sized together, here alone
		w.sizeDynamics(p)
	}
	x := w.x
	vstar, v0 := p.VStar[:len(x)], vs[:len(x)] // sliced once: no check and reload of p.VStar per entry
	for i := range x {
		x[i] = (vstar[i] - v0[i]) / dt
	}
	if newton && !noslip && !MuJoCoSparse(p.NV) { // dense Newton (the robots'): J's blocks in place, J v_s
		w.jac.buildWhole(p) // Newton reads aref (w.jvs = J v_s) and qacc_smooth (w.x), not efc_b
		w.jac.mul(vs, w.jvs, p.NR)
		return true, nil
	}
	w.dualSetup(p, vs, dt, newton, noslip)
	return true, nil
}

// dualSetup is pgsSetup's part for the sparse path, PGS and noslip: J's
// non-zeros (or blocks) and J v_s, AR (delassus, PGS alone; it reads
// neither), efc_b where PGS or noslip read it (setB) and PGS's folded
// rows (foldFixed; Newton's go into qacc_smooth, newtonSmooth). Out of
// line: dense Newton without noslip, the robots' solve, runs none of it.
//
//go:noinline
func (w *pgsWork) dualSetup(p *solver.Problem, vs []float64, dt float64, newton, noslip bool) {
	if MuJoCoSparse(p.NV) {
		w.jac.buildMul(p, vs, w.jvs) // J's non-zeros and J v_s in one pass (the sparse port reads them)
	} else {
		w.jac.buildWhole(p) // J's blocks in place, J v_s
		w.jac.mul(vs, w.jvs, p.NR)
	}
	if !newton {
		w.delassus(p)
	}
	if newton && !noslip {
		return
	}
	w.setB(p, dt)
	if !newton {
		w.foldFixed(dt)
	}
}

// sizeDynamics sizes pgsSetup's scratch for p's velocities and rows, and
// the scratch of stats' e_m (gv, em) and newtonSmooth's (gv), whose solves
// all run after pgsSetup on the same problem (out of line: the sizes
// change on few steps).
//
//go:noinline
func (w *pgsWork) sizeDynamics(p *solver.Problem) {
	w.x = solver.Resize(w.x, p.NV)
	w.jx = solver.Resize(w.jx, p.NR)
	w.jvs = solver.Resize(w.jvs, p.NR)
	w.gv = solver.Resize(w.gv, p.NR)
	w.em.size(p.NV)
}

// setB sets efc_b = J qacc_smooth − aref on MuJoCo's rows (pgsSetup: PGS
// and noslip read it, Newton does not; out of line).
//
//go:noinline
func (w *pgsWork) setB(p *solver.Problem, dt float64) {
	w.jac.mul(w.x, w.jx, p.NR)
	for k, row := range w.perm {
		w.b[k] = w.jx[row] - (p.VHat[row]-w.jvs[row])/dt
	}
}

// pgsFactor sets w.fac to a factor of p's A. The pyramid problem copies
// the dynamics of the problem whose factor the step has just made: an rk4
// step's own (ws.problem, ws.factor) or its stage's (ws.mj.stage,
// ws.mj.factor, linearizeAt or stageZero), a mujoco-euler or
// mujoco-implicit step's own (ws.factor: linearizeAt's of A = M, or with
// joint damping mujocoMetricVStar's or implicitMetricVStar's of A = M,
// refactored after A was set); when p's cliques and A are one of those to
// the bit, that factor is p's (the same bits; 4% of Gymnasium humanoid's
// step saved, and 3% of dm humanoid's). Otherwise w.factor factors p.
func (sim *Simulator) pgsFactor(p *solver.Problem) error {
	w, mw := &sim.ws, &sim.ws.mj
	p = sim.dynamicsOf(p) // the pyramid problem's dynamics are its source's (startProblem)
	if mw.rk4 && sameDynamics(p, &mw.stage) {
		w.pgs.fac = &mw.factor
		return nil
	}
	if sameDynamics(p, &w.problem) {
		w.pgs.fac = &w.factor
		return nil
	}
	w.pgs.fac = &w.pgs.factor
	return w.pgs.factor.Factor(p)
}

// sameDynamics reports whether p and src have the same cliques and the
// same A, bit for bit.
func sameDynamics(p, src *solver.Problem) bool {
	if p == src || len(p.A) != len(src.A) || len(p.Cliques) != len(src.Cliques) {
		return p == src
	}
	for i, q := range p.Cliques {
		r := src.Cliques[i]
		if q.Offset != r.Offset || q.Size != r.Size || q.AOff != r.AOff || !slices.Equal(q.Parent, r.Parent) {
			return false
		}
	}
	for i, x := range p.A {
		if math.Float64bits(x) != math.Float64bits(src.A[i]) {
			return false
		}
	}
	return true
}

// order sets w.perm and w.class from the pyramid problem's blocks
// (nc of them the pairs' contacts, first): the rows of the constraint set
// by class, then the contacts' pyramid edges or, with cones, their
// elliptic blocks (addCone), each class in the problem's order; explicit
// actuators' fixed rows go to w.fixed. It reports false when a block is
// of a kind not handled here (an elliptic contact without cones, a row
// of another kind). The friction loss bounds are in MuJoCo's units,
// efc_frictionloss, the bound on f = γ/δt (addClass).
//
// The contacts are checked as they are added (addContact), so that the
// classes' pass runs over the blocks past them alone.
func (w *pgsWork) order(p *solver.Problem, blocks []pyramidBlock, nc int, cones bool, dt float64) bool {
	if cap(w.perm) < p.NR || cap(w.class) < p.NR || cap(w.floss) < p.NR || cap(w.bclass) < len(blocks) || cap(w.fixed) < len(blocks) {
		w.growOrder(p.NR, len(blocks))
	}
	w.perm, w.class, w.floss = w.perm[:0], w.class[:0], w.floss[:0]
	w.fixed = w.fixed[:0] // alone: in the list above it was stored whole, with a write barrier
	w.cones = w.cones[:0]
	w.bclass = w.bclass[:len(blocks)] // in growOrder's room; the contacts' entries are not read
	// The rows before the contacts are added as their blocks are met while
	// the blocks come in class order (the assembler's: equalities, friction
	// loss, limits), which is then MuJoCo's; the fixed rows' blocks go to
	// w.fixed in the same pass. Blocks out of class order (last > cls) take
	// a pass per class (addClass) over the blocks instead.
	var present uint32 // bit cls set when a block after the contacts is of class cls
	last := pgsEquality
	for i := nc; i < len(blocks); i++ {
		blk := &blocks[i] // a pyramidBlock is 15 words: not copied per pass
		cls := pgsOther   // an absorbed block's (edges < 0): not read
		if blk.edges >= 0 {
			cls = blockClass(p, blk.first)
			present |= 1 << cls
		}
		if blk.edges == 0 && cls == pgsOther {
			return false
		}
		w.bclass[i] = cls
		switch {
		case cls == pgsFixed:
			n := len(w.fixed) // in growOrder's room: no append's growth in the loop
			w.fixed = w.fixed[:n+1]
			w.fixed[n] = blk.first
		case cls < pgsContact && last <= cls:
			w.addRows(p, blk.first, cls, dt)
			last = cls
		case cls < pgsContact:
			last = pgsContact // out of class order: the passes below
		}
	}
	if last == pgsContact {
		w.perm, w.class, w.floss = w.perm[:0], w.class[:0], w.floss[:0]
		w.classPasses(p, blocks, nc, present, dt)
	}
	for i := range nc { // the contacts, blocks 0 … nc−1 (no other block is of their class)
		if !w.addContact(p, &blocks[w.corder[i]], cones) {
			return false
		}
	}
	if n := len(w.perm); len(w.b) != n { // the five are sized together, here alone
		w.sizeRows(n)
	}
	return true
}

// growOrder gives order's lists room for nr rows (each of the problem's
// rows enters w.perm at most once) and nb blocks, so that order and add
// store in place, with no append's growth between their hot blocks (out
// of line: the sizes grow on a simulation's first steps).
//
//go:noinline
func (w *pgsWork) growOrder(nr, nb int) {
	w.perm, w.class = slices.Grow(w.perm[:0], nr), slices.Grow(w.class[:0], nr)
	w.floss, w.bclass = slices.Grow(w.floss[:0], nr), slices.Grow(w.bclass[:0], nb)
	w.fixed = slices.Grow(w.fixed[:0], nb)
}

// growCones gives w.cones room for one more cone (addCone; out of line:
// it grows on a simulation's first steps).
//
//go:noinline
func (w *pgsWork) growCones() {
	w.cones = slices.Grow(w.cones, 1)
}

// sizeRows sizes the dual problem's scratch for n rows (order; out of
// line: the row count changes on few steps).
//
//go:noinline
func (w *pgsWork) sizeRows(n int) {
	w.ar = solver.Resize(w.ar, n*n)
	w.b = solver.Resize(w.b, n)
	w.f = solver.Resize(w.f, n)
	w.r = solver.Resize(w.r, n)
	w.arinv = solver.Resize(w.arinv, n)
}

// classPasses appends the rows of the blocks after the nc contacts (of
// the classes in present) class by class, in MuJoCo's order (order, for
// blocks out of class order; out of line: the assembler's are in it).
//
//go:noinline
func (w *pgsWork) classPasses(p *solver.Problem, blocks []pyramidBlock, nc int, present uint32, dt float64) {
	for cls := pgsEquality; cls < pgsContact; cls++ {
		if present>>cls&1 != 0 { // else no block of this class: no pass over the blocks
			w.addClass(p, blocks, nc, cls, dt)
		}
	}
}

// addClass appends the rows of the blocks after the nc contacts that are
// of class cls < pgsContact (classPasses).
func (w *pgsWork) addClass(p *solver.Problem, blocks []pyramidBlock, nc int, cls pgsClass, dt float64) {
	for i := nc; i < len(blocks); i++ {
		if blk := &blocks[i]; blk.edges >= 0 && w.bclass[i] == cls { // else a spin or rolling block absorbed into its contact's edges
			w.addRows(p, blk.first, cls, dt)
		}
	}
}

// addRows appends the rows of block k of p, of class cls, each with its
// bound hi/δt (MuJoCo's efc_frictionloss for a friction loss row; +∞ for
// a limit; not read for the others).
func (w *pgsWork) addRows(p *solver.Problem, k int, cls pgsClass, dt float64) {
	c := &p.Constraints[k] // in place: not copied
	hi := 0.0
	if c.Kind == solver.Interval { // IntervalBounds' hi, its kind checked here
		hi = p.Params[c.Par+1]
	}
	for r := range c.Size {
		w.add(c.Row+r, cls, hi/dt)
	}
}

// contactOrder sets w.corder to the pairs in MuJoCo's contact order: the
// geometry package's order, but within the points of one pair of geoms
// MuJoCo's order for a plane and a capsule (+z end first,
// mjc_PlaneCapsule; the geometry package gives −z first) and for a plane
// and a box (by corner index (x > 0) + 2 (y > 0) + 4 (z > 0) in the box's
// frame, mjc_PlaneBox); other pairs keep theirs. The sort moves a pair
// only within its run of adjacent pairs of one geom pair, and reads a
// rank only there, so a pair alone in its run gets no rank (0, unread).
func (w *pgsWork) contactOrder(pairs []contact.Pair, m *multibody.Model, kin *multibody.Workspace) {
	n := len(pairs)
	if cap(w.corder) < n || cap(w.crank) < n {
		w.growContacts(n)
	}
	corder, crank := w.corder[:n], w.crank[:n]
	w.corder, w.crank = corder, crank
	for i := range pairs {
		corder[i] = i
		rank := 0
		if i > 0 && sameGeoms(&pairs[i-1], &pairs[i]) || i+1 < n && sameGeoms(&pairs[i], &pairs[i+1]) {
			rank = mujocoRank(m, kin, &pairs[i], i)
		}
		crank[i] = rank
	}
	for i := 1; i < len(pairs); i++ { // insertion sort within runs of one geom pair
		for j := i; j > 0; j-- {
			a, b := w.corder[j-1], w.corder[j]
			if !sameGeoms(&pairs[a], &pairs[b]) || w.crank[a] <= w.crank[b] {
				break
			}
			w.corder[j-1], w.corder[j] = b, a
		}
	}
}

// growContacts gives contactOrder's lists room for n pairs (out of line:
// they grow on few steps; their contents are set afresh).
//
//go:noinline
func (w *pgsWork) growContacts(n int) {
	w.corder, w.crank = slices.Grow(w.corder[:0], n), slices.Grow(w.crank[:0], n)
}

// sameGeoms reports whether a and b are points of one pair of geoms.
func sameGeoms(a, b *contact.Pair) bool {
	return a.GeomA == b.GeomA && a.GeomB == b.GeomB
}

// mujocoRank returns the rank of pair i's point among its geom pair's
// points in MuJoCo's order (contactOrder): i itself for the pairs whose
// order is the geometry package's.
func mujocoRank(m *multibody.Model, kin *multibody.Workspace, pr *contact.Pair, i int) int {
	ga, gb := &m.Geometries[pr.GeomA], &m.Geometries[pr.GeomB]
	if ga.Shape.Kind != geometry.HalfSpace {
		ga, gb = gb, ga
	}
	if ga.Shape.Kind != geometry.HalfSpace || gb.Shape.Kind != geometry.Capsule && gb.Shape.Kind != geometry.Box {
		return i
	}
	// The geom's pose X_b X_g as Compose forms it (ComposeTo, its code),
	// from the body's pose and the geom's read in place: Compose's value
	// arguments were two 56-byte copies through the stack.
	var x spatial.Pose
	spatial.ComposeTo(&x, kin.PoseOf(gb.Body), &gb.Pose, false, false)
	local := x.ApplyInv(pr.Point)
	if gb.Shape.Kind == geometry.Capsule {
		return boolInt(local[2] <= 0)
	}
	return boolInt(local[0] > 0) + 2*boolInt(local[1] > 0) + 4*boolInt(local[2] > 0)
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// add appends a row of class cls to the order; hi is its impulse bound
// (friction loss). It stores in the room order made (growOrder: a row
// enters once, so the problem's row count bounds the order's).
func (w *pgsWork) add(row int, cls pgsClass, hi float64) {
	k := len(w.perm)
	w.perm, w.class, w.floss = w.perm[:k+1], w.class[:k+1], w.floss[:k+1]
	w.perm[k], w.class[k], w.floss[k] = row, cls, hi
}

// coneContact reports whether contact block blk of an elliptic problem
// (ellipticProblem) is an elliptic cone: a solver.ContactCone or
// solver.ContactEllipticN block.
func coneContact(p *solver.Problem, blk *pyramidBlock) bool {
	if blk.edges < 0 {
		return false
	}
	k := p.Constraints[blk.first].Kind
	return k == solver.ContactCone || k == solver.ContactEllipticN
}

// addContact appends a contact's rows: its pyramid edges, or its elliptic
// block (addCone) when cones (Newton, CG) are allowed. It reports false,
// having added nothing, for a contact not handled here: an elliptic one
// without cones, or a block with no edges (order).
func (w *pgsWork) addContact(p *solver.Problem, blk *pyramidBlock, cones bool) bool {
	if coneContact(p, blk) {
		if cones {
			w.addCone(p, blk.first)
		}
		return cones
	}
	if blk.edges == 1 { // condim 1 (pusher's): the normal row alone, no room to slice
		w.add(p.Constraints[blk.first].Row, pgsContact, 0)
		return true
	}
	edges := p.Constraints[blk.first : blk.first+blk.edges] // one row each (appendEdgeRows)
	perm, class, floss := w.room(len(edges))
	for e := range edges {
		perm[e], class[e], floss[e] = edges[e].Row, pgsContact, 0
	}
	return blk.edges != 0
}

// room appends n rows to the order, in growOrder's room, and returns
// them for the caller to set: one store of the three lengths for a
// contact's rows, not one per row (add).
func (w *pgsWork) room(n int) ([]int, []pgsClass, []float64) {
	k, end := len(w.perm), len(w.perm)+n
	perm, class, floss := w.perm[:end], w.class[:end], w.floss[:end]
	w.perm, w.class, w.floss = perm, class, floss
	return perm[k:], class[k:], floss[k:]
}

// addCone appends the rows of elliptic contact block k of p in MuJoCo's
// order (mj_instantiateContact): the normal, then the friction rows. A
// solver.ContactCone block (rows t1, t2, n; μ its parameter) is condim 3,
// or with μ = 0 MuJoCo's frictionless contact (mjCNSTR_CONTACT_FRICTIONLESS:
// the normal row alone, a one-sided row); a solver.ContactEllipticN block
// (rows t1, t2, spin, roll t1, roll t2, n; μ_1 … μ_5) is condim 4 or 6.
// The cone is round in the sliding pair and in the rolling pair, so the
// contact's own tangents stand for MuJoCo's (mujocoTangents).
func (w *pgsWork) addCone(p *solver.Problem, k int) {
	if len(w.cones) == cap(w.cones) { // tested first, while few values are live
		w.growCones()
	}
	c := &p.Constraints[k] // in place: not copied, and no p.Par (its Kind switch)
	n := len(w.cones)
	if c.Kind == solver.ContactCone { // condim 3, its μ sliding twice
		mu := p.Params[c.Par]
		if !(mu > 0) {
			w.add(c.Row+2, pgsContact, 0)
			return
		}
		m := max(mjMinMu, mu)
		w.cones = w.cones[:n+1] // in growCones' room
		cb := &w.cones[n]
		cb.k0, cb.dim, cb.fr = len(w.perm), c.Size, [5]float64{m, m}
	} else {
		w.cones = w.cones[:n+1]
		w.cones[n].setN(len(w.perm), c.Size, p.Par(k))
	}
	// The normal first, then the friction rows, stored in growOrder's
	// room at once (w.add's three stores of lengths per row were most of
	// a condim-3 contact's instructions).
	perm, class, floss := w.room(c.Size)
	row := c.Row + c.Size - 1
	for j := range perm {
		perm[j], class[j], floss[j] = row, pgsCone, 0
		row = c.Row + j
	}
}

// setN sets cb to the cone of a solver.ContactEllipticN block of dim rows
// and parameters par (μ_1 … μ_5, each at least mjMINMU), its rows from
// MuJoCo row k0 (addCone; out of line: condim 4 and 6 are rare).
//
//go:noinline
func (cb *pgsConeBlock) setN(k0, dim int, par []float64) {
	cb.k0, cb.dim, cb.fr = k0, dim, [5]float64{}
	for j := range min(len(par), 5) {
		cb.fr[j] = max(mjMinMu, par[j])
	}
}

// blockClass returns the class of block k of p: a Bilateral block is
// equalities; an Interval [−h, h] friction loss, [0, ∞) a limit, [l, l]
// an explicit actuator's fixed impulse; anything else pgsOther.
func blockClass(p *solver.Problem, k int) pgsClass {
	c := &p.Constraints[k]
	switch c.Kind {
	case solver.Bilateral:
		return pgsEquality
	case solver.Interval: // its parameters [lo, hi] (Problem.IntervalBounds, the kind checked here)
		par := p.Params[c.Par : c.Par+2]
		lo, hi := par[0], par[1]
		switch {
		case lo == hi:
			return pgsFixed
		case lo == 0 && math.IsInf(hi, 1):
			return pgsLimit
		case lo == -hi && hi > 0 && !math.IsInf(hi, 1):
			return pgsFriction
		}
	}
	return pgsOther
}

// warmStart sets w.f, the PGS warm start, as MuJoCo 2.2.2's warmstart does
// for PGS (engine_forward.c): jar = J qacc_warmstart − aref, the force of
// mj_constraintUpdate at jar (f = −D jar with D = 1/R, each row's zone:
// a limit or pyramid edge with jar ≥ 0 has none, friction loss saturates
// at ±floss past ∓R floss), then zero if its dual cost
// fᵀ b + ½ fᵀ AR f is positive. qacc_warmstart is the last solve's qacc
// (sim.pgsWarm, MuJoCo's coordinates, turned to the world's at q).
func (sim *Simulator) warmStart(p *solver.Problem, q []float64, dt float64) {
	w := &sim.ws.pgs
	n := len(w.perm)
	clear(w.x)
	if sim.pgsWarm.set {
		sim.ws.mj.turns.world(sim.Model, q, sim.pgsWarm.qacc, w.x)
	}
	w.jac.mul(w.x, w.jx, p.NR)
	for k, row := range w.perm {
		aref := (p.VHat[row] - w.jvs[row]) / dt
		jar := w.jx[row] - aref
		d := 1 / w.r[k]
		f := -d * jar
		switch w.class[k] {
		case pgsFriction:
			fl := w.floss[k]
			if jar <= -w.r[k]*fl {
				f = fl
			} else if jar >= w.r[k]*fl {
				f = -fl
			}
		case pgsLimit, pgsContact:
			if jar >= 0 {
				f = 0
			}
		}
		w.f[k] = f
	}
	// PGS_warmstart = f·b + ½ f·(AR f), with mju_dot and mju_mulMatVec.
	cost := dot4(w.f, w.b)
	w.y = solver.Resize(w.y, n)
	for k := range n {
		w.y[k] = dot4(w.ar[k*n:(k+1)*n], w.f)
	}
	cost += 0.5 * dot4(w.f, w.y[:n])
	if cost > 0 {
		clear(w.f)
	}
}

// sweeps runs mj_solPGS's iterations on w.f: for each row in order,
// res = b_k + AR_k f (residual, with MuJoCo's mju_dot), f_k −= res/AR_kk,
// clamped to the row's bounds (friction loss ±floss, limits and pyramid
// edges ≥ 0); a change whose cost 0.5 δ² AR_kk + δ res exceeds 1e-10 is
// undone (costChange). After each sweep the improvement, the cost
// decrease rescaled by scale = meaninertia · max(1, nv) (rescale), below
// tol ends the solve. It returns the sweeps run and whether the
// improvement criterion ended them.
func (w *pgsWork) sweeps(maxIter int, tol, scale float64) (int, bool) {
	n := len(w.perm)
	for iter := 1; iter <= maxIter; iter++ {
		improvement := 0.0
		for k := range n {
			cls := w.class[k]
			res := w.b[k] + dot4(w.ar[k*n:(k+1)*n], w.f)
			old := w.f[k]
			f := old - res*w.arinv[k]
			switch cls {
			case pgsFriction:
				fl := w.floss[k]
				if f < -fl {
					f = -fl
				} else if f > fl {
					f = fl
				}
			case pgsLimit, pgsContact:
				if f < 0 {
					f = 0
				}
			}
			delta := f - old
			change := 0.5*delta*delta*(1/w.arinv[k]) + delta*res
			if change > 1e-10 {
				f, change = old, 0
			}
			w.f[k] = f
			improvement -= change
		}
		if improvement/scale < tol {
			return iter, true
		}
	}
	return maxIter, false
}

// dot4 is MuJoCo 2.2.2's mju_dot: four partial sums over blocks of four,
// reduced as (s0 + s2) + (s1 + s3), then the tail in order (the AVX and
// the portable code give the same sums).
func dot4(a, b []float64) float64 {
	return dotMJ(a, b) // mulRows' sums on one row (mujoco_newton.go)
}

// finish sets res from w.f (dualFinish): γ = δt f on each of MuJoCo's
// rows (the fixed rows keep their impulse), v = v* + A⁻¹ Jᵀ γ (MuJoCo's
// qacc = qacc_smooth + M⁻¹ Jᵀ f), and J v (constraintVelocities).
func (w *pgsWork) finish(p *solver.Problem, dt float64, res *solver.Result) {
	w.setGamma(p, w.f, dt, res)
	w.dualV(p, w.x, res)
	w.constraintVelocities(res, p.NR)
}

// setGamma sets res.Gamma (p.NR rows) to γ = δt f on each of MuJoCo's
// rows (f in w.perm's order), the fixed rows' their impulse (fixedGamma),
// zero elsewhere, and gives res.V its length p.NV (the solve's v, which
// its caller sets next).
func (w *pgsWork) setGamma(p *solver.Problem, f []float64, dt float64, res *solver.Result) {
	if len(res.Gamma) != p.NR || len(res.V) != p.NV {
		sizeResult(res, p.NR, p.NV)
	}
	gamma := res.Gamma
	clear(gamma)
	for k, row := range w.perm {
		gamma[row] = dt * f[k]
	}
	if len(w.fixed) != 0 {
		w.fixedGamma(p, res.Gamma)
	}
}

// sizeResult sizes res.Gamma to nr rows and res.V to nv velocities
// (setGamma; out of line: the sizes change on few steps).
//
//go:noinline
func sizeResult(res *solver.Result, nr, nv int) {
	res.Gamma = solver.Resize(res.Gamma, nr)
	res.V = solver.Resize(res.V, nv)
}

// fixedGamma sets the explicit actuators' fixed rows of gamma to their
// impulse (setGamma; out of line: few models have them).
//
//go:noinline
func (w *pgsWork) fixedGamma(p *solver.Problem, gamma []float64) {
	for _, blk := range w.fixed {
		gamma[p.Constraints[blk].Row], _ = p.IntervalBounds(blk)
	}
}

// dualV sets res.V = v* + A⁻¹ Jᵀ γ (γ = res.Gamma; x: nv of scratch, left
// holding A⁻¹ Jᵀ γ).
//
//go:noinline
func (w *pgsWork) dualV(p *solver.Problem, x []float64, res *solver.Result) {
	w.jac.mulT(res.Gamma, x, p.NV)
	solveCliques(p, w.fac, x)
	for i := range res.V {
		res.V[i] = p.VStar[i] + x[i]
	}
}

// constraintVelocities sets res.VC = J res.V (p.MulJ's sums over J's
// non-zeros, pgsSetup's pgsJac) for the nr rows, or empties it for an rk4
// stage's solve (w.stage), whose caller reads res.V alone: J v is read by
// the decoding of the step's own solve and by stats' e_m, which a stage
// leaves out.
func (w *pgsWork) constraintVelocities(res *solver.Result, nr int) {
	if w.stage {
		res.VC = res.VC[:0]
		return
	}
	if cap(res.VC) < nr {
		growVC(res, nr)
	}
	res.VC = res.VC[:nr] // its length alone: Resize's store of the whole slice had a write barrier in line
	w.jac.mul(res.V, res.VC, nr)
}

// growVC gives res.VC room for nr rows (constraintVelocities; out of
// line: the row count grows on few steps).
//
//go:noinline
func growVC(res *solver.Result, nr int) {
	res.VC = solver.Resize(res.VC, nr)
}

// stats returns the solve's statistics: Converged when MuJoCo's
// improvement criterion ended it, MaxIterations when it ran the
// <option iterations> sweeps MuJoCo would (the answer is then MuJoCo's
// unconverged one, as asked), and SAP's momentum error e_m (eq. 32) of
// the returned v with the impulses γ(J v) of the rows' costs: how far
// MuJoCo's answer is from the converged one, which can exceed εr. A
// one-row Interval block (the pyramid's edges, limits, friction loss)
// takes its γ from solver.IntervalEval, which solver.Problem.Eval calls
// for it, without the slices of Eval's general blocks: the same γ. An rk4
// stage's solve (w.stage), whose statistics nobody reads (MuJoCo keeps
// none for its stages), reports e_m as NaN, not computed: it was 2.8% of
// Gymnasium ant's step. It sets res.Stats in place (no copy of the
// struct returned).
func (w *pgsWork) stats(p *solver.Problem, res *solver.Result, iters int, converged bool) {
	st := &res.Stats
	*st = solver.Stats{Status: solver.MaxIterations, Iterations: iters, MomentumError: math.NaN()}
	if converged {
		st.Status = solver.Converged
	}
	w.em.a = w.em.a[:0] // r is set below only
	if w.stage {
		return
	}
	chk := 0.0 // Σ (γ_r − γ_r): +0 while every γ_r is finite, NaN after one is not
	for i := range p.Constraints {
		c := &p.Constraints[i]
		if c.Kind != solver.Interval {
			chk += w.evalBlock(p, i, res.VC)
			continue
		}
		par := p.Params[c.Par : c.Par+2]
		_, g, _ := solver.IntervalEval(par[0], par[1], p.R[c.Row], p.VHat[c.Row], res.VC[c.Row])
		w.gv[c.Row] = g
		chk += g - g
	}
	// e_m as solver.ResidualScratch.Momentum gives it (SAP eq. 32) at
	// (v, γ), to the bit, for the problem whose J w.jac holds (pgsSetup
	// built it from p before every solve that reports stats): Jᵀγ by
	// pgsJac.mulT (J's zeros left out: Momentum's MulJT adds their
	// products, ±0, to sums that start at +0 and so are never −0), and
	// A(v − v*) and A v in one pass over each clique's block of A
	// (pgsMomentum.momentum, which also takes the norms), each row's two
	// sums from +0 in column order as linalg.MulVec forms them. A γ that
	// is not finite takes Momentum itself (there, a zero of J times ±Inf
	// is NaN).
	if chk != 0 {
		st.MomentumError = w.momentumNonFinite(p, res.V)
		return
	}
	m := &w.em                   // sized by pgsSetup (sizeDynamics): p.NV each
	w.jac.mulT(w.gv, m.jc, p.NV) // Jᵀγ first: momentum reads it
	st.MomentumError = m.momentum(p, res.V[:p.NV])
	m.a = p.A
}

// momentumNonFinite is stats' e_m for a γ (w.gv) that is not finite:
// solver.ResidualScratch.Momentum itself (out of line).
//
//go:noinline
func (w *pgsWork) momentumNonFinite(p *solver.Problem, v []float64) float64 {
	em, _, _, _ := w.scr.Momentum(p, v, w.gv)
	return em
}

// evalBlock sets block i's γ in w.gv at J v = vc by solver.Problem.Eval
// (a solver.ContactCone block's by solver.ConeImpulse, a solver.Bilateral
// one's by solver.BilateralImpulse: without the dispatch on the kind and
// the block's cost, which stats does not read) and returns Σ (γ_r − γ_r)
// over its rows (stats: a block other than a one-row Interval, out of
// line).
//
//go:noinline
func (w *pgsWork) evalBlock(p *solver.Problem, i int, vc []float64) float64 {
	c := &p.Constraints[i]
	g := w.gv[c.Row : c.Row+c.Size]
	switch c.Kind {
	case solver.ContactCone:
		gm := solver.ConeImpulse(p.Params[c.Par], p.R[c.Row:], p.VHat[c.Row:], vc[c.Row:])
		copy(g, gm[:])
	case solver.Bilateral:
		solver.BilateralImpulse(p.R[c.Row:], p.VHat[c.Row:], vc[c.Row:], g)
	default:
		p.Eval(i, vc[c.Row:c.Row+c.Size], g, nil)
	}
	return finiteCheck(g)
}

// finiteCheck returns Σ (x_i − x_i) over x: +0 when every x_i is finite,
// NaN when one is not (x − x is NaN for ±Inf and NaN).
func finiteCheck(x []float64) float64 {
	chk := 0.0
	for _, v := range x {
		chk += v - v
	}
	return chk
}

// momentum returns stats' e_m (SAP eq. 32) at v with m.jc = Jᵀγ (stats
// forms it first): it sets m.diff = v − v*, m.r = A(v − v*) and m.av = A v
// on each of p's cliques (len(v) = p.NV, the length the scratch was
// sized to), each row's two sums from +0 in column order
// (linalg.MulVec's bits), rows two at a time reading x and v once for the
// four sums, an odd clique's last row paired with itself (one loop, no
// tail: 18 → 14 hot lines on half_cheetah, +41 Ir), then the three norms
// scaled by diag(A)^−½ in velocity order. Out of line, with its own few
// live values: inlined, the clique loop's arguments were spilt around
// every call; the norms' loop is here, not in stats, whose slicing of
// the scratch it spares.
//
//go:noinline
func (m *pgsMomentum) momentum(p *solver.Problem, v []float64) float64 {
	diff, vs := m.diff[:len(v)], p.VStar[:len(v)]
	for i, x := range v {
		diff[i] = x - vs[i]
	}
	for c := range p.Cliques {
		q := &p.Cliques[c] // in place: ABlock copied the clique to the stack
		o, n := q.Offset, q.Size
		a, x := p.A[q.AOff:q.AOff+n*n], diff[o:o+n] // p.ABlock(c)
		y, r, av := v[o : o+n][:len(x)], m.r[o : o+n][:len(x)], m.av[o : o+n][:len(x)]
		for i := 0; i < len(x); i += 2 {
			i1 := min(i+1, len(x)-1) // an odd clique's last row goes with itself
			r0, r1 := a[i*n:][:len(x)], a[i1*n:][:len(x)]
			s0, t0, s1, t1 := 0.0, 0.0, 0.0, 0.0
			for j, xj := range x {
				yj := y[j]
				s0 += r0[j] * xj
				t0 += r0[j] * yj
				s1 += r1[j] * xj
				t1 += r1[j] * yj
			}
			r[i1], av[i1] = s1, t1
			r[i], av[i] = s0, t0
		}
	}
	r, av, jc := m.r[:len(v)], m.av[:len(v)], m.jc[:len(v)]
	gn, pn, jn := 0.0, 0.0, 0.0
	for i, mi := range p.MDiag[:len(v)] {
		d := 1 / math.Sqrt(mi)
		g := d * (r[i] - jc[i])
		gn += g * g
		pn += d * av[i] * d * av[i]
		jn += d * jc[i] * d * jc[i]
	}
	if gn > 0 {
		return math.Sqrt(gn) / math.Sqrt(max(pn, jn))
	}
	return 0
}

// productsFor returns r = A d, which momentum formed, when it formed it
// with A the array a (the same entries: a shared problem's) and d = v − vs
// (len(v) entries) is its diff, bit for bit; else nil. The r it returns is
// the caller's to overwrite: it is handed out once (m.a cleared).
func (m *pgsMomentum) productsFor(a, v, vs []float64) []float64 {
	if len(m.a) == 0 || len(m.a) != len(a) || &m.a[0] != &a[0] || len(m.diff) != len(v) {
		return nil
	}
	m.a = nil
	vs = vs[:len(v)]
	for i, x := range v {
		if math.Float64bits(x-vs[i]) != math.Float64bits(m.diff[i]) {
			return nil
		}
	}
	return m.r[:len(v)]
}

// initPGS computes MuJoCo's stat.meaninertia for the stopping rules of
// PGS and noslip (mj_setConst: the mean of diag(M) at qpos0, here the model's initial
// configuration, multibody.Model.NewState) when the contact parameters
// ask for PGS or noslip.
func (sim *Simulator) initPGS() {
	m := sim.Model
	if sim.cfg.Contact.PGSIterations <= 0 && sim.cfg.Contact.NoSlipIterations <= 0 || m.NV == 0 {
		return
	}
	d := make([]float64, m.NV)
	m.MassDiagonal(m.NewState(), d)
	for _, x := range d {
		sim.meanInertia += x
	}
	sim.meanInertia /= float64(m.NV)
}

// solvePyramidProblem solves the pyramid problem pw.p (nc contacts first)
// from the warm start vs: with MuJoCo's PGS when the contact parameters
// ask for it and the problem's rows allow it (solvePGS), else with the
// configured solver. Its rows are made at vs, at the step's start (q0) or,
// with stage, at an rk4 stage's point (the workspace's q^θ).
func (sim *Simulator) solvePyramidProblem(pw *pyramidWork, pairs []contact.Pair, kin *multibody.Workspace, vs []float64, stage bool) error {
	var c pgsCall // set field by field: a literal was built in a temporary and copied (15 words)
	c.p, c.blocks, c.pairs, c.kin, c.q, c.vs, c.res = &pw.p, pw.blocks, pairs, kin, sim.stagePoint(stage), vs, &pw.res
	ok, err := sim.tryPGS(&c)
	if err != nil {
		return err
	}
	if !ok {
		if err := sim.cfg.Solver.Solve(&pw.p, vs, &pw.res); err != nil {
			return err
		}
	}
	if sim.cfg.Contact.NoSlipIterations <= 0 {
		return nil // noSlip's first test, before its call's set-up
	}
	return sim.noSlip(&c, ok) // mj_solNoSlip (mujoco_noslip.go)
}

// tryPGS solves c.p with PGS (solvePGS) when the contact parameters ask
// for it, and reports whether it did. The first solve of a
// simulator runs twice: MuJoCo's mj_forward at the initial state, which
// Gymnasium's reset and the reference tool call before mj_step, leaves its
// qacc as the first step's warm start (mj_resetData zeroes it).
func (sim *Simulator) tryPGS(c *pgsCall) (bool, error) {
	if sim.cfg.Contact.PGSIterations <= 0 {
		return false, nil
	}
	if sim.pgsWarm.set {
		return sim.solvePGS(c)
	}
	return sim.firstSolvePGS(c)
}

// firstSolvePGS is tryPGS's solve on a simulator's first solve: mj_forward's
// at the initial state, whose answer it keeps as the warm start, then the
// step's own; out of line: it runs once.
//
//go:noinline
func (sim *Simulator) firstSolvePGS(c *pgsCall) (bool, error) {
	ok, err := sim.solvePGS(c)
	if !ok || err != nil {
		return ok, err
	}
	sim.keepSolveWarm(c.q, c.res.V, c.vs)
	return sim.solvePGS(c)
}

// solveRowsPGS solves a problem without contacts (an rk4 stage's or a
// mujoco-euler step's constraint rows: limits, friction loss, equalities)
// with PGS when the contact parameters ask for it, as MuJoCo's PGS solves
// every row, then runs MuJoCo's noslip pass on its friction loss rows when
// they ask for it (after the configured solver's solve where PGS is off;
// mujoco_noslip.go), and reports whether it solved p.
func (sim *Simulator) solveRowsPGS(p *solver.Problem, kin *multibody.Workspace, vs []float64, stage bool, res *solver.Result) (bool, error) {
	pgs, noslip := sim.cfg.Contact.PGSIterations > 0, sim.cfg.Contact.NoSlipIterations > 0
	if !pgs && !noslip {
		return false, nil
	}
	var c pgsCall // field by field, as solvePyramidProblem's
	c.p, c.blocks, c.kin, c.q, c.vs, c.res = p, sim.ws.pgs.identBlocks(len(p.Constraints)), kin, sim.stagePoint(stage), vs, res
	ok := false
	if pgs {
		var err error
		if ok, err = sim.tryPGS(&c); err != nil {
			return true, err
		}
	}
	if !ok {
		if !noslip {
			return false, nil
		}
		if err := sim.cfg.Solver.Solve(p, vs, res); err != nil {
			return true, err
		}
	}
	if !noslip {
		return true, nil // noSlip's first test, before its call's set-up
	}
	return true, sim.noSlip(&c, ok) // mj_solNoSlip (mujoco_noslip.go)
}

// identBlocks returns the blocks of a problem of n blocks without
// contacts, each as it is (block i is {first: i}), for solveRowsPGS. They
// are the same in every such problem and nobody writes them, so only
// those past the longest problem so far are made (an rk4 stage's problem
// rebuilt them all, 15 words a block, at every stage).
func (w *pgsWork) identBlocks(n int) []pyramidBlock {
	if n > len(w.ident) {
		w.growIdent(n)
	}
	return w.ident[:n]
}

// growIdent appends the blocks {first: i} up to n to w.ident, out of
// line, so that identBlocks, inlined, is a test and a slice (Gymnasium
// inverted_pendulum: 20 instructions a step fewer than with the loop
// inlined).
//
//go:noinline
func (w *pgsWork) growIdent(n int) {
	for i := len(w.ident); i < n; i++ {
		w.ident = append(w.ident, pyramidBlock{first: i})
	}
}

// keepSolveWarm keeps the acceleration (v − vs)/δt of a solve at q as the
// next warm start (keepWarm, in MuJoCo's coordinates): a Newton or CG
// solve's own qacc when v is its answer (keepNewtonWarm), else keepDiffWarm.
func (sim *Simulator) keepSolveWarm(q, v, vs []float64) {
	if sim.keepNewtonWarm(v) {
		return
	}
	sim.keepDiffWarm(q, v, vs)
}

// keepDiffWarm keeps (v − vs)/δt, turned to MuJoCo's coordinates at q,
// as the next warm start (keepSolveWarm; out of line: a Newton step keeps
// its qacc as found). It is keepWarm of that acceleration, written in the
// warm start's own buffer and turned there (angularTurns.blocks, when the
// model has quaternions): no scratch copy, no second copy (point_mass, a
// step without rows: keepDiffWarm, angularTurns.local and the copies were
// 14 hot lines). When keepWarm would not keep it (no PGS, or noslip's
// pending acceleration) that is keepWarm's to do (keepPendingWarm).
//
//go:noinline
func (sim *Simulator) keepDiffWarm(q, v, vs []float64) {
	if sim.cfg.Contact.PGSIterations <= 0 || sim.ws.noslip.pending {
		sim.keepPendingWarm()
		return
	}
	ws := &sim.pgsWarm
	if len(ws.qacc) != len(v) {
		ws.size(len(v))
	}
	a, dt := ws.qacc, sim.cfg.DT
	vs = vs[:len(a)]
	for i, vi := range v[:len(a)] {
		a[i] = (vi - vs[i]) / dt
	}
	if m := sim.Model; m.NQ != m.NV {
		sim.ws.mj.turns.blocks(m, q, a, a, true)
	}
	ws.set = true
}

// keepPendingWarm is keepWarm for keepDiffWarm when keepWarm does not
// read its argument: no PGS (nothing kept), or noslip's pending
// acceleration kept (out of line, as the rarely taken part).
//
//go:noinline
func (sim *Simulator) keepPendingWarm() {
	sim.keepWarm(nil)
}

// size gives the warm start n zeroed entries (out of line: the warm
// start's length changes only with the model).
//
//go:noinline
func (ws *pgsWarm) size(n int) {
	ws.qacc = make([]float64, n)
}

// keepEulerWarm keeps a mujoco-euler step's acceleration as the next warm
// start: (v − v0)/δt of the solver's v (with joint damping, the one found
// with A = M, before mapVelocity: MuJoCo's qacc, which mj_Euler does not
// overwrite); rk4 steps keep their stages' (rk4Stage, rk4Combine). It is
// keepSolveWarm at (q0, v, v0), that layer's two calls made here.
func (sim *Simulator) keepEulerWarm() {
	w := &sim.ws
	if sim.cfg.Contact.PGSIterations <= 0 || w.mj.rk4 || len(w.result.V) != sim.Model.NV {
		return
	}
	if m := sim.scheme.Method; m != MuJoCoEulerRule && m != RungeKutta4 && m != MuJoCoImplicitRule {
		return
	}
	// A step without a Newton solve since the last keep (nw.fresh false:
	// a direct step, point_mass's every step) does not call keepNewtonWarm,
	// which would only clear fresh again.
	if !w.mjnewton.fresh || !sim.keepNewtonWarm(w.result.V) {
		sim.keepDiffWarm(w.q0, w.result.V, w.v0)
	}
}

// checkpoint returns a copy of the warm start, nil when unset.
func (ws *pgsWarm) checkpoint() []float64 {
	if !ws.set {
		return nil
	}
	return slices.Clone(ws.qacc)
}

// restore sets the warm start from a checkpoint's (nil: unset).
func (ws *pgsWarm) restore(a []float64) {
	ws.set = a != nil
	if a != nil {
		ws.qacc = append(ws.qacc[:0], a...)
	}
}

// eulerRowsPGS solves a mujoco-euler step's problem without contacts (its
// constraint rows) with PGS and noslip when asked (solveRowsPGS), and
// reports whether it did; not when the constraint set eliminates
// velocities.
func (sim *Simulator) eulerRowsPGS() (bool, error) {
	w := &sim.ws
	if m := sim.scheme.Method; m != MuJoCoEulerRule && m != MuJoCoImplicitRule && !(m == RungeKutta4 && w.mj.fallback) || w.cons.elim.on || len(w.pairs) > 0 || w.problem.NR == 0 {
		return false, nil
	}
	ok, err := sim.solveRowsPGS(&w.problem, w.kin0, w.v0, false, &w.result)
	if err != nil {
		return true, fmt.Errorf("sim: step %d: constraint solver: %w", sim.step+1, err)
	}
	return ok, nil
}
