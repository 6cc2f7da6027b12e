package constraint

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Params are the regularization parameters shared by all constraints: the
// near-rigid parameter β of SAP eq. 29 (joint friction uses FrictionSigma),
// and the speed MaxRecoverySpeed (rad/s or m/s of the joint coordinate; 0:
// no cap) below which a violated near-rigid limit may still be undone in
// one step (limitRow).
type Params struct {
	Beta             float64
	MaxRecoverySpeed float64
	// MuJoCoLimits makes the limits with MuJoCo's compliance (solref set:
	// joint, ball-joint and tendon limits) act only past their bound, as
	// MuJoCo 2.2.2's mj_instantiateLimit has a row only where dist <
	// margin: within it they have no row (noRow; the entry reports no
	// impulse) rather than SAP's row that stops the limit at its bound
	// within the step (limitRow). sim sets it for the problems of MuJoCo's
	// integrators.
	MuJoCoLimits bool
	// NoSolve says that the problem will not be solved: the step takes
	// v = v* because none of its rows acts (Set.NeedsSolve false: explicit
	// actuators, limits within their bounds), and reads of the rows only
	// their impulse bounds (an explicit actuator's lo = hi is its impulse)
	// and what Reports reads. The Delassus estimates, which only R uses,
	// are then not computed: R and v̂ are set from the estimate 1 and mean
	// nothing, and multi-row blocks keep their world-axis rows. sim sets it
	// for the steps of MuJoCo's integrators that take v = v*.
	NoSolve bool
	// ActuatorForces says that the forces of the explicit actuators on
	// joints and fixed tendons (Actuator.IsForce) at the step's start
	// (q0, v0) are in its free motion v* already (Set.ExplicitForces added
	// to k), as MuJoCo adds qfrc_actuator to the smooth forces: they get
	// no row. A row with impulse bounds lo = hi = δt f is that force
	// applied through A⁻¹ Jᵀ, so the step is the same up to round-off.
	// Their entries keep the impulse δt f: Reports gives it as one row
	// (Active, or Saturated when the effort bound clamped f) and
	// GeneralizedForces its Jᵀ γ/δt. sim sets it for the steps of MuJoCo's
	// Euler and the stages of its RK4 that solve contacts.
	ActuatorForces bool
	// RowsOnly says that only the problem's blocks are read, never the
	// assembly's entries (Reports and GeneralizedForces must not be called
	// after it): the assembly keeps no entry, and an actuator applied as a
	// force (ActuatorForces), which has no block, is skipped. The blocks
	// are those of the same assembly without it, bit for bit. sim sets it
	// for the stages of its RK4 after the first, whose solves give only
	// their velocities.
	RowsOnly bool
	// FixedRUnread says that the step's solve reads no R of an explicit
	// actuator's row (lo = hi: MuJoCo's PGS and Newton fold such rows
	// without it) unless FillFixedR is called first: such a row on one
	// coordinate then gets R from the estimate 1 and its Delassus estimate
	// waits for FillFixedR, which sets R to the bits the assembly without
	// it gives. sim sets it for the steps whose rows only MuJoCo's solvers
	// may read, and calls FillFixedR before any other solve.
	FixedRUnread bool
}

// Control is an actuator's input for one step: the value u (a force for a
// motor, a position for position and PD actuators, a velocity for velocity
// actuators) and its rate u̇ (the target velocity of a PD actuator).
type Control struct {
	U, Rate float64
	// Act is the actuator's activation at the state the force is taken
	// at (a Stateful actuator's; the simulator fills it in).
	Act float64
}

// Input is what the assembly of one step needs besides the model and the
// kinematics: the state at the start of the step, the time step and the
// actuator controls (one per Set.Actuators entry).
type Input struct {
	Q0       []float64 // configuration at the start of the step
	V0       []float64 // velocities at the start of the step
	DT       float64
	Controls []Control
	// ThetaQ and ThetaVQ are the θ-method's θq and θvq (SAP §II-C). With
	// θq > 0 equality constraints are evaluated at the mid-step
	// configuration QTheta = q^θq(VLin) of the velocities VLin the dynamics
	// were linearized at (the free-motion velocities v*, or the previous
	// solution when the step is re-linearized), whose kinematics KinTheta
	// holds, and linearized there in v (Compliance.equality). With θq = 0:
	// SAP's form at q0.
	ThetaQ, ThetaVQ float64
	KinTheta        *multibody.Workspace
	QTheta, VLin    []float64
	// Forces, when not nil (one per Set.Actuators entry), are the forces
	// of the explicit actuators at (Q0, V0) with Controls as
	// Set.ExplicitForcesKept kept them, which an assembly with
	// Params.ActuatorForces takes instead of computing them again.
	Forces []ActuatorForce
}

// Assembler builds the constraint blocks of the discrete problem. It keeps
// its scratch memory between calls, so that assembling a problem of a size
// seen before allocates nothing.
type Assembler struct {
	jr solver.JRows // J rows of the block being built (≤ 6 rows), one block per tree (clique) it touches
	nr int          // rows in use
	// one is the column (in its tree's block) of the only non-zero entry
	// of a one-row block that a single addDOF wrote (a joint limit, an
	// actuator on one coordinate), which single then need not search
	// for; oneNone before any write, oneUnknown after any other.
	one int
	// idiag holds per velocity (A_t⁻¹)_ii, computed in this Assemble where
	// idiagGen holds its number gen: a new assembly counts one more
	// instead of marking every velocity's entry unknown (NV stores a step).
	idiag    []float64
	idiagGen []uint64
	gen      uint64
	// wSet says that w and wm are the block just emitted's: emit leaves
	// them to the first read (weight, diagonalize), so that a block whose
	// R does not depend on them (MuJoCo's soft rows with Compliance.Weight,
	// the actuators with a gain) costs no Delassus estimate.
	wSet bool
	// eagerW makes emit compute w and wm at once and every read take them,
	// as before they were computed on first read (tests compare the two).
	eagerW bool
	null   [6]bool // rows of a diagonalized block that move nothing (λ ≈ 0): J' = 0, v̂ = 0
	// rowsOnly is the last assembly's Params.RowsOnly: add keeps no entry.
	rowsOnly bool
	spare    entry       // next's entry under rowsOnly, written and not kept
	scale    float64     // δt θq θvq of the last assembly (δt when θq = 0), for Report.Allowed
	vecs     []float64   // row bases of diagonalized blocks (n×n each)
	entries  []entry     // one per Set item, in Report order
	forced   []forceTerm // the Jacobian terms of the actuators applied as forces (Params.ActuatorForces)
	// limitDOFs and actDOFs keep the joint indices (dofAt) of the limits
	// and of the actuators on a joint, by their index in the Set, across
	// assemblies (LimitCoords.kept in line, find on a miss).
	limitDOFs, actDOFs LimitCoords
	// pend lists the explicit actuator rows whose R waits for FillFixedR
	// (Params.FixedRUnread), beta the assembly's β for it.
	pend []pendingR
	beta float64

	// Scratch and Delassus blocks, last: a robot's step reads the fields
	// above (and its entries) every step, and these only for some rows.
	jac      []float64   // 3×NV_t point or angular Jacobian scratch
	tenG     []float64   // NV: a spatial tendon's Jacobian G (addPath)
	tenLocal []float64   // 3×NV: its point Jacobians' scratch
	x        []float64   // scratch: row rotation of diagonalize
	y        []float64   // scratch of the Delassus estimate: L⁻ᵀ J_tᵀ (CliqueFactor.Delassus), zero between InvDiag calls
	w        [6]float64  // Delassus diagonal of the block just emitted (eigenvalues after diagonalize), once wSet
	wm       [36]float64 // its full Delassus block W, row-major, once wSet
	ev       [6]float64  // eigenvalues scratch (a field: a local array passed to lapack would escape)
	work     []float64   // eigen-solver scratch
}

// entry links a Set item to its blocks in the problem.
//
// It fills one 64-byte cache line (a step writes every entry, and reads
// them back for its reports; at 128 bytes the entries of dm cheetah's 12
// limits and actuators were 24 lines of the step's ~890, which exceed the
// 48 KB data cache): indices are int32, the signs int8, and the number of
// blocks and whether an actuator was applied as a force are not kept but
// read off block and sign (blocks, forced).
type entry struct {
	violation float64 // |g0| (norm over rows) at the start of the step
	bound     float64 // impulse bound of actuators and friction (δt·e), +Inf if none
	input     float64 // actuator control after clamping
	act       float64 // a stateful actuator's activation (Control.Act)
	impulse   float64 // a forced actuator's δt f
	item      int32   // index in its Set list
	block     int32   // first problem constraint of the item (−1: none)
	vec       int32   // offset in Assembler.vecs of the row basis V (γ_world = V γ), −1 if none
	term      int32   // a forced actuator's first term in Assembler.forced; nterm terms
	nterm     int32
	typ       Type
	sat       bool    // a motor whose input exceeds its effort limit
	sign      [2]int8 // limits: the sign of J of each bound's block (+1 lower, −1 upper; 0: no second block)
}

// blocks returns the number of the entry's blocks: 0 without a block, 2
// for a limit with both bounds (its second sign set), else 1.
func (e *entry) blocks() int32 {
	switch {
	case e.block < 0:
		return 0
	case e.sign[1] != 0:
		return 2
	}
	return 1
}

// forced reports whether the entry is an actuator applied as a force
// (Params.ActuatorForces): no block, impulse δt f. Every other actuator's
// entry has its block.
func (e *entry) forced() bool {
	return e.typ == TypeActuator && e.block < 0
}

// addSigned records a limit side's block k with the sign of its J: the
// first becomes the entry's block.
func (e *entry) addSigned(k int, sign float64) {
	if e.block < 0 {
		e.block, e.sign[0] = int32(k), int8(sign)
		return
	}
	e.sign[1] = int8(sign)
}

// forceTerm is one non-zero of a forced actuator's Jacobian: coefficient g
// on velocity vi.
type forceTerm struct {
	vi int
	g  float64
}

// Assemble appends to p one block per constraint of set (limits, cone
// limits, tendon limits, welds, balls, distances, couplers, actuators, joint friction, in
// that order), after the blocks p already holds (contacts first). p must
// hold the cliques, A, v* and diag(M) of the step and f the Cholesky
// factors of its clique blocks; kin must hold the kinematics at q0
// (multibody.Workspace.Update with the step's q0 and v0). in is read
// during the call only; it is taken by pointer so that the assembly's
// context points at it rather than copying its 22 words at every step.
func (a *Assembler) Assemble(m *multibody.Model, set *Set, kin *multibody.Workspace, in *Input, prm Params, f *solver.CliqueFactor, p *solver.Problem) error {
	a.entries, a.vecs, a.forced, a.pend = a.entries[:0], a.vecs[:0], a.forced[:0], a.pend[:0]
	a.rowsOnly, a.beta = prm.RowsOnly, prm.Beta
	if set == nil {
		return nil
	}
	if len(a.idiag) != p.NV {
		a.resizeIDiag(p.NV)
	}
	a.gen++ // every idiag entry unknown
	if len(in.Controls) != len(set.Actuators) || in.Forces != nil && len(in.Forces) != len(set.Actuators) {
		return controlsError(in, set)
	}
	var c asmCtx // field by field: a literal is built in a temporary and copied
	c.m, c.kin, c.in, c.prm, c.f, c.p, c.q = m, kin, in, prm, f, p, in.Q0
	a.scale = in.DT
	if in.ThetaQ > 0 && in.ThetaVQ > 0 {
		a.scale = in.DT * in.ThetaQ * in.ThetaVQ
	}
	for i := range set.Limits {
		a.limit(&c, &set.Limits[i], i)
	}
	if len(set.Cones)+len(set.TendonLimits) != 0 {
		a.assembleLimits(&c, set)
	}
	if set.hasEqualities() {
		a.assembleEqualities(&c, set)
	}
	for i := range set.Actuators {
		a.actuator(&c, &set.Actuators[i], i, in.Controls[i])
	}
	for i := range set.Frictions {
		a.friction(&c, &set.Frictions[i], i)
	}
	return nil
}

// controlsError reports Assemble's input with controls or kept forces of
// another count than the set's actuators. It is out of line: inlined, the
// formatting sat between Assemble's hot blocks.
//
//go:noinline
func controlsError(in *Input, set *Set) error {
	return fmt.Errorf("constraint: %d controls and %d kept forces for %d actuators", len(in.Controls), len(in.Forces), len(set.Actuators))
}

// assembleLimits is Assemble's cone limits and tendon limits, and
// assembleEqualities its equality constraints (welds, balls, distances,
// couplers) at the mid-step configuration of a θ-method. They are out of
// line, each behind one test: robots have none of them (limits and
// actuators only), and each kind's loop inlined in Assemble put its body
// between Assemble's hot blocks; ball_in_cup's tendon limit does not run
// the equalities' loop heads.
//
//go:noinline
func (a *Assembler) assembleLimits(c *asmCtx, set *Set) {
	for i := range set.Cones {
		a.cone(c, &set.Cones[i], i)
	}
	for i := range set.TendonLimits {
		if l := &set.TendonLimits[i]; l.Path != nil {
			a.spatialLimit(c, l, i)
		} else {
			a.tendonLimit(c, l, i)
		}
	}
}

// assembleEqualities: see assembleLimits. It leaves c.kin and c.q at the
// step's start (in.Q0), as the actuators need.
//
//go:noinline
func (a *Assembler) assembleEqualities(c *asmCtx, set *Set) {
	kin, q := c.kin, c.q
	if c.in.ThetaQ > 0 { // equality constraints at the mid-step configuration
		c.kin, c.q = c.in.KinTheta, c.in.QTheta
	}
	for i := range set.Welds {
		a.weld(c, &set.Welds[i], i)
	}
	for i := range set.Balls {
		a.ball(c, &set.Balls[i], i)
	}
	for i := range set.Distances {
		a.distance(c, &set.Distances[i], i)
	}
	for i := range set.Couplers {
		a.coupler(c, &set.Couplers[i], i)
	}
	c.kin, c.q = kin, q
}

// hasEqualities reports whether s has an equality constraint
// (assembleEqualities): one test on the step for the four kinds.
func (s *Set) hasEqualities() bool {
	return len(s.Welds)+len(s.Balls)+len(s.Distances)+len(s.Couplers) != 0
}

// asmCtx bundles the arguments of one assembly.
//
// in is a pointer, and the caller's Input must not be on its stack: the
// context's contents leak for escape analysis (tendon.JacobianAt's
// parameters do), so a pointer to a local would move the local to the
// heap at every call (an allocation a step); sim passes an Input of its
// workspace.
type asmCtx struct {
	m   *multibody.Model
	kin *multibody.Workspace
	in  *Input
	prm Params
	f   *solver.CliqueFactor
	p   *solver.Problem
	q   []float64 // the configuration of kin
}

// Values of Assembler.one that are not a column.
const (
	oneNone    = -1 // nothing written to the block yet
	oneUnknown = -2 // written by other means than one addDOF
)

// begin starts a block of n rows (n ≤ 6).
func (a *Assembler) begin(n int) {
	a.jr.N, a.nr = 0, n
	a.null = [6]bool{}
	a.one = oneNone
}

// slot returns the rows of tree t, adding them (zeroed) if the block has
// none yet. A block may touch any number of trees (a tendon over joints
// of several trees, as MuJoCo's). Every write to the block goes through
// it, so it forgets the block's known non-zero column (a.one).
func (a *Assembler) slot(m *multibody.Model, t int) []float64 {
	a.one = oneUnknown
	return a.jr.Slot(t, a.nr*m.Trees[t].NV)
}

// addPoint adds sign·dᵀ J_p to row r0+k for each direction d = dirs[k],
// where J_p is the Jacobian of the velocity of body b's material point at
// world position x. The world (b = −1) and bodies welded to it add nothing.
func (a *Assembler) addPoint(c *asmCtx, b int, x spatial.Vec3, r0 int, dirs []spatial.Vec3, sign float64) {
	a.addJac(c, b, x, r0, dirs, sign, false)
}

// addAngular is addPoint for the angular velocity of body b.
func (a *Assembler) addAngular(c *asmCtx, b int, r0 int, dirs []spatial.Vec3, sign float64) {
	a.addJac(c, b, spatial.Vec3{}, r0, dirs, sign, true)
}

func (a *Assembler) addJac(c *asmCtx, b int, x spatial.Vec3, r0 int, dirs []spatial.Vec3, sign float64, angular bool) {
	if b < 0 || c.m.Bodies[b].Tree < 0 {
		return
	}
	t := c.m.Bodies[b].Tree
	n := c.m.Trees[t].NV
	a.jac = solver.Resize(a.jac, 3*n)
	if angular {
		c.kin.AngularJacobian(b, a.jac)
	} else {
		c.kin.PointJacobian(b, x, a.jac)
	}
	row := a.slot(c.m, t)
	for k, d := range dirs {
		o := (r0 + k) * n
		for j := range n {
			row[o+j] += sign * (d[0]*a.jac[j] + d[1]*a.jac[n+j] + d[2]*a.jac[2*n+j])
		}
	}
}

// addDOF adds coef to row r of the column of velocity vi (a velocity of
// body b's joint).
//
// As the first write to a one-row block with coef ≠ 0 (NaN included), it
// records the column in a.one: the block's only non-zero entry (Slot
// zeroes the rows), until another write.
func (a *Assembler) addDOF(c *asmCtx, b, vi, r int, coef float64) {
	t := c.m.Bodies[b].Tree
	tr := &c.m.Trees[t]
	first := a.one == oneNone
	a.slot(c.m, t)[r*tr.NV+vi-tr.VOffset] += coef
	if first && a.nr == 1 && coef != 0 {
		a.one = vi - tr.VOffset
	}
}

// emit appends the block built since begin to p as a constraint of the
// given kind, with its J blocks in increasing clique order, and returns
// the constraint index and its first row. The diagonal of its Delassus
// block W = Σ_t J_t A_t⁻¹ J_tᵀ (1 per row with Params.NoSolve) is
// computed when first read (weight, diagonalize): from the same J rows
// (a.jr, which nothing changes before the next begin) and the same factor,
// so with the same bits.
func (a *Assembler) emit(c *asmCtx, kind solver.Kind, params ...float64) (int, int) {
	k := c.p.AddConstraint(kind, a.nr, params...)
	a.jr.Add(c.p, k)
	a.wSet = false
	if c.prm.NoSolve {
		a.unitW() // no solve reads R (Params.NoSolve)
	} else if a.eagerW {
		a.delassus(c)
	}
	return k, c.p.Constraints[k].Row
}

// weight returns a.w[k], the Delassus estimate of row k of the block just
// emitted, computing the block's (delassus) on its first read.
func (a *Assembler) weight(c *asmCtx, k int) float64 {
	if !a.wSet {
		a.delassus(c)
	}
	return a.w[k]
}

// softWeight is weight for a row of MuJoCo's soft constraint of
// compliance cp (Compliance.soft, softAt), which reads it only without
// cp.Weight (passed as weight, not cp's eleven words): 0 (unread) when
// cp.Weight > 0.
func (a *Assembler) softWeight(c *asmCtx, weight float64, k int) float64 {
	if weight > 0 && !a.eagerW {
		return 0 // softAt takes R from cp.Weight
	}
	return a.weight(c, k)
}

// unitW sets the Delassus estimate of the block just emitted to 1 per row,
// with no off-diagonal term, for a problem that is not solved
// (Params.NoSolve).
func (a *Assembler) unitW() {
	n := a.nr
	clear(a.wm[:n*n])
	a.setW()
}

// delassus sets a.wm to W = Σ_t J_t A_t⁻¹ J_tᵀ (SAP §V-B, the per-tree
// estimate of the contact assembler) and a.w to its diagonal, with 1 for
// rows that touch no velocity (so that R stays positive). Each tree's term
// applies half of its factor to J_tᵀ (solver.CliqueFactor.Delassus); a
// single row with one non-zero J_i (a joint limit, an actuator on one
// coordinate) is J_i² (A_t⁻¹)_ii, the diagonal entry computed once per
// assembly along the velocity's path to the root (CliqueFactor.InvDiag).
func (a *Assembler) delassus(c *asmCtx) {
	n := a.nr
	clear(a.wm[:n*n])
	if n == 1 && a.jr.N == 1 && a.single(c) {
		a.setW()
		return
	}
	for b := range a.jr.N {
		q := c.p.Cliques[a.jr.Cliques[b]]
		a.y = solver.Resize(a.y, n*q.Size)
		c.f.Delassus(q, a.jr.Data[b], n, a.y, a.wm[:n*n])
	}
	a.setW()
}

// setW sets a.w to the diagonal of a.wm, with 1 for rows that touch no
// velocity, and marks them the block's (wSet).
func (a *Assembler) setW() {
	n := a.nr
	a.wSet = true
	for r := range n {
		a.w[r] = orOne(a.wm[r*n+r])
	}
}

// orOne returns w, or 1 where w is not positive (a row that touches no
// velocity, or NaN): a Delassus estimate as setW and FillFixedR take it.
func orOne(w float64) float64 {
	if !(w > 0) {
		return 1
	}
	return w
}

// single sets a.wm[0] = J_i² (A_t⁻¹)_ii and reports true when the block's
// one row has exactly one non-zero J_i (on tree a.jr.Cliques[0]): the
// column addDOF recorded (a.one), else the one a scan of the row finds.
func (a *Assembler) single(c *asmCtx) bool {
	at := a.one
	if at < 0 {
		q := c.p.Cliques[a.jr.Cliques[0]]
		if at = onlyNonzero(a.jr.Data[0][:q.Size]); at < 0 {
			return false
		}
	}
	x := a.jr.Data[0][at]
	a.wm[0] = x * x * a.invDiag(c.f, c.p, a.jr.Cliques[0], at)
	return true
}

// invDiag returns (A_t⁻¹)_ii of column at of clique k of p, computed from
// f once per assembly (a.idiag, known where a.idiagGen holds a.gen).
func (a *Assembler) invDiag(f *solver.CliqueFactor, p *solver.Problem, k, at int) float64 {
	q := p.Cliques[k]
	v := q.Offset + at
	if a.idiagGen[v] != a.gen {
		a.y = solver.Resize(a.y, q.Size)
		clear(a.y)
		a.idiag[v], a.idiagGen[v] = f.InvDiag(q, at, a.y), a.gen
	}
	return a.idiag[v]
}

// resizeIDiag gives a.idiag and a.idiagGen n entries, none known (a
// generation number below every later a.gen), out of Assemble's line: it
// runs when the number of velocities changes.
//
//go:noinline
func (a *Assembler) resizeIDiag(n int) {
	a.idiag = make([]float64, n)
	a.idiagGen = make([]uint64, n)
}

// onlyNonzero returns the index of the only non-zero entry of row (NaN
// counts as non-zero), or −1 if it has none or several.
func onlyNonzero(row []float64) int {
	at := -1
	for i, x := range row {
		if x != 0 {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// diagonalize turns the rows of constraint k (the block just emitted,
// n > 1 rows) into the eigenvectors of its Delassus block, J' = Vᵀ J with
// W = V Λ Vᵀ, so that each row is one mode of the block and the near-rigid
// regularization R_k = β² λ_k/(4π²) of SAP eq. 29 gives every mode the
// period β δt. (With world-axis rows, a point far from a light body's
// centre of mass couples a stiff translation with a soft rotation in every
// row, and the per-row estimate makes the translation soft.) It stores V
// and returns its offset in a.vecs; a.w holds the eigenvalues. Rows whose
// eigenvalue is below 10⁻¹² of the largest are directions the bodies
// cannot move in: their J' rows are zeroed and setRow gives them v̂ = 0, so
// they carry no impulse. Callers rotate g0 with rotate.
func (a *Assembler) diagonalize(c *asmCtx) int {
	if c.prm.NoSolve {
		return -1 // no Delassus block to diagonalize (Params.NoSolve)
	}
	if !a.wSet {
		a.delassus(c)
	}
	n := a.nr
	a.work = solver.Resize(a.work, 64*n)
	sym := blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: a.wm[:n*n]}
	ev := a.ev[:n]
	if !lapack64.Syev(lapack.EVCompute, sym, ev, a.work, len(a.work)) {
		return -1 // keep the world-axis rows
	}
	off := len(a.vecs)
	a.vecs = append(a.vecs, a.wm[:n*n]...) // V[r][k] = a.wm[r*n+k]: column k is eigenvector k
	v := a.vecs[off:]
	for b := range a.jr.N {
		q := &c.p.Cliques[a.jr.Cliques[b]]
		jd := c.p.JBlockData(len(c.p.JBlock) - a.jr.N + b)
		a.x = solver.Resize(a.x, n*q.Size)
		for kk := range n {
			for i := range q.Size {
				s := 0.0
				for r := range n {
					s += v[r*n+kk] * jd[r*q.Size+i]
				}
				a.x[kk*q.Size+i] = s
			}
		}
		copy(jd, a.x[:n*q.Size])
	}
	top := ev[n-1]
	for r := range n {
		a.w[r] = ev[r]
		if !(ev[r] > 1e-12*top) { // a direction the bodies cannot move in
			a.w[r], a.null[r] = max(top, 1), true
			for b := range a.jr.N {
				q := &c.p.Cliques[a.jr.Cliques[b]]
				jd := c.p.JBlockData(len(c.p.JBlock) - a.jr.N + b)
				clear(jd[r*q.Size : (r+1)*q.Size])
			}
		}
	}
	return off
}

// rotate returns Vᵀ g for the basis at offset off (n rows); g itself when
// off < 0.
func (a *Assembler) rotate(off int, g [6]float64, n int) [6]float64 {
	if off < 0 {
		return g
	}
	var out [6]float64
	v := a.vecs[off:]
	for k := range n {
		for r := range n {
			out[k] += v[r*n+k] * g[r]
		}
	}
	return out
}

// setRow sets R and v̂ of row r (absolute) from compliance cp, the
// Delassus estimate a.w[k] and the value g0.
func (a *Assembler) setRow(c *asmCtx, row, k int, cp *Compliance, g0 float64) {
	c.p.R[row], c.p.VHat[row] = cp.regularization(a.weight(c, k), g0, c.prm.Beta, c.in.DT)
	if a.null[k] {
		c.p.VHat[row] = 0
	}
}

// setEq sets R and v̂ of row k (absolute row) of an equality constraint,
// the block just emitted, for the scheme of the input (Compliance.equality).
//
// A MuJoCo soft equality (cp.SolRef set) is MuJoCo's soft constraint at
// the step's start whatever the scheme (Compliance.soft with J v0). cp is
// taken by pointer and SAP's equality (setEqSAP) is out of line: the
// eleven-word Compliance was copied to the stack for setEq and again for
// each of the two calls, and the θ-method's J v* loop sat between the soft
// row's blocks (BENCHMARKS.md, the hundred-and-sixty-fifth pass).
func (a *Assembler) setEq(c *asmCtx, row, k int, cp *Compliance, g0 float64) {
	if cp.mujoco() {
		c.p.R[row], c.p.VHat[row] = cp.soft(a.softWeight(c, cp.Weight, k), g0, a.rowVelocity(c, k), c.prm.Beta, c.in.DT)
	} else {
		a.setEqSAP(c, row, k, cp, g0)
	}
	if a.null[k] {
		c.p.VHat[row] = 0
	}
}

// setEqSAP is setEq for a row of SAP's compliance: J v0 and J v* of row
// k for a θ-method (θq > 0), 0 otherwise, and Compliance.equality.
//
//go:noinline
func (a *Assembler) setEqSAP(c *asmCtx, row, k int, cp *Compliance, g0 float64) {
	jv0, jvs := 0.0, 0.0
	if c.in.ThetaQ > 0 {
		for b := range a.jr.N {
			q := &c.p.Cliques[a.jr.Cliques[b]]
			jd := c.p.JBlockData(len(c.p.JBlock) - a.jr.N + b)
			for i := range q.Size {
				jv0 += jd[k*q.Size+i] * c.in.V0[q.Offset+i]
				jvs += jd[k*q.Size+i] * c.in.VLin[q.Offset+i]
			}
		}
	}
	c.p.R[row], c.p.VHat[row] = cp.equality(a.weight(c, k), g0, jv0, jvs, c.prm.Beta, c.in.DT, c.in.ThetaQ, c.in.ThetaVQ)
}

// add records the entry of an item. It is out of line: inlined, its
// append (the entry's copy and the growth) sat in each of its fourteen
// callers' hot code (BENCHMARKS.md, the hundred-and-forty-fourth pass).
//
//go:noinline
func (a *Assembler) add(e entry) {
	if !a.rowsOnly {
		a.entries = append(a.entries, e)
	}
}

// next returns the entry of the next item, zeroed, for its caller to fill
// in place (with Params.RowsOnly a spare that is not kept): an entry
// built as a literal was copied from its template to the stack and from
// there to add's arguments, 64 bytes each, in each caller's hot code
// (BENCHMARKS.md, the hundred-and-sixty-fifth pass). Nothing may add an
// entry while the caller holds it.
func (a *Assembler) next() *entry {
	n := len(a.entries)
	if a.rowsOnly || n == cap(a.entries) {
		return a.nextSlow()
	}
	a.entries = a.entries[:n+1]
	e := &a.entries[n]
	*e = entry{}
	return e
}

// nextSlow is next with Params.RowsOnly or a full a.entries, out of
// next's line.
//
//go:noinline
func (a *Assembler) nextSlow() *entry {
	if a.rowsOnly {
		a.spare = entry{}
		return &a.spare
	}
	a.entries = append(a.entries, entry{})
	return &a.entries[len(a.entries)-1]
}

// addItem records the entry of item i of the given type, whose block is k
// (−1: none), without a row basis: the entries of limits, cones,
// couplers, distances and joint friction, one call with the five values
// in registers.
//
//go:noinline
func (a *Assembler) addItem(typ Type, i, k int, violation, bound float64) {
	e := a.next()
	e.typ, e.item, e.block, e.violation, e.bound, e.vec = typ, int32(i), int32(k), violation, bound, -1
}
