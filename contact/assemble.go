package contact

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/internal/fmath"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Pair is one contact point between geometry GeomA (on body BodyA) and
// geometry GeomB (on body BodyB), with the point, normal (A towards B) and
// signed distance φ0 at the start of the step, and what the previous step
// knew of the same contact point (persistent contacts, keyed by the two
// geometries and geometry.Contact.Feature).
type Pair struct {
	GeomA, GeomB     int
	BodyA, BodyB     int
	geometry.Contact // includes Feature, the point's identity within the pair's manifold
	// Age is the number of consecutive earlier steps in which this contact
	// point existed (0: new this step).
	Age int
	// PrevImpulse is the contact's impulse γ of the previous step, in that
	// step's contact frame (t1, t2, n); valid when Age > 0.
	PrevImpulse [3]float64
	// GapError is how much deeper the contact is than the previous step
	// predicted, φ0 − (φ0,prev + δt v_n,prev), when negative (0 otherwise):
	// the linearization error of the gap, from rotation; v̂_n is raised by
	// −GapError/δt, expecting the same error within this step.
	GapError float64
	// Standoff is the distance at which the contact acts (the larger of the
	// geometries' multibody.Geometry.Standoff): Phi is the surfaces' gap
	// less it.
	Standoff float64
	// Chained says the pair is a contact only because a chained impact
	// may close it (sim's speculative test: one of the bodies moves toward
	// the other, their relative normal velocity does not): its φ0 > 0 is
	// then fed back as v̂_n = −φ0/δt, which acts only if the gap would
	// close within the step, with no braking before the bodies touch.
	Chained bool
	// Anchored says whether the contact sticks and keeps a friction anchor.
	// AnchorShift is then the tangential slip of B relative to A at the
	// contact accumulated since sticking began (world frame); it is fed back
	// as v̂_t (see Assembler.Assemble).
	Anchored    bool
	AnchorShift spatial.Vec3
	// RollAnchored and SpinAnchored say whether the contact's rolling and
	// spin friction hold (inside their bounds) and keep an anchor:
	// RollShift is the relative rotation of B with respect to A about the
	// tangent plane's axes accumulated since rolling stopped (world frame),
	// SpinShift the one about the normal; they are fed back as the rolling
	// and spin blocks' v̂, as AnchorShift is for sliding.
	RollAnchored, SpinAnchored bool
	RollShift                  spatial.Vec3
	SpinShift                  float64
}

// Assembler builds the contact rows of the discrete problem. It keeps its
// scratch memory between calls, so that assembling a problem of a size seen
// before allocates nothing.
type Assembler struct {
	// Factored, when not nil, holds the Cholesky factors of the clique
	// blocks of the A that Assemble is given (the simulator's free motion
	// has just factored it): Assemble then uses them instead of factoring
	// A again.
	Factored *solver.CliqueFactor
	factor   solver.CliqueFactor // Cholesky factors of the clique blocks of A, when not Factored
	x        []float64           // n×3 scratch for A_t⁻¹ J_itᵀ
	jac      []float64           // 3×NV_t point or angular Jacobian scratch
	rows     [2][]float64        // J rows of the block being built, per tree
	tree     [2]int              // the trees (cliques) of those rows
	nb       int                 // how many of rows/tree are in use
	extra    []extraRows         // rolling and spin friction rows, added after all contacts
	data     []float64           // storage of extra's J rows
	base     int                 // index of the first contact block in the problem
	// per holds, per pair of the last Assemble, its frame, lever and
	// rolling and spin blocks (pairState): one slice, sized once per
	// Assemble, and each pair's entry set whole by contactFrame.
	per   []pairState
	spare frame // frameOf's answer for a pair whose normal has changed
	// dt and anchorRadius are the time step and Params.AnchorRadius of the
	// last Assemble, for Memory.Remember.
	dt, anchorRadius float64

	// load-aware regularization (supported): per pair, the supported mass
	// and the lower and upper body; per body, mass passed down, height and
	// number of supporting points and the body that stands for it
	// (loadBody); the pairs in processing order; the upper bodies by
	// height, each body's place there, and a buffer of pairs
	// (sortByHeight).
	load, mass, height        []float64
	lower, upper, nsup, group []int
	order, uppers, at, buf    []int

	// last caches, within one Assemble, what the pairs of one manifold
	// share (lastPair): a box on a plane is four consecutive pairs of the
	// same two geometries.
	last lastPair
	g    float64 // ‖g‖ of the model, once per Assemble

	// Geometric, when not nil, marks the pairs (by index) whose block
	// Assemble makes of their Jacobian alone: rows (t1, t2, n) of kind
	// solver.ContactCone with μ = 0, R = 1 and v̂ = 0 in place of the
	// material's, and no Delassus estimate, for a caller that sets the
	// block's rows itself (the simulator's MuJoCo pyramid at the rk4
	// stages). Such a pair's rolling and spin blocks (when its material
	// has rolling or spin friction) are its angular rows alone too: the
	// rows (t1, t2) and n of the relative angular velocity, R = 1, v̂ = 0,
	// bound 0 (SpinBlock, RollingBlock), for MuJoCo's pyramid edges of
	// condim 4 and 6.
	Geometric []bool

	// Combined, when it holds one material per pair given to Assemble,
	// points to each pair's Combine of its two geometries' materials,
	// which the caller has already formed (the simulator's MuJoCo rows
	// combine them to choose the pairs' rows) and keeps unchanged through
	// the Assemble: Assemble reads it in place instead of combining them
	// again. Pointers, not a copy: the simulator's copy of each pair's
	// 160-byte material into a slice of its own was 7 instruction-cache
	// lines of a step (BENCHMARKS.md, hundred-and-ninety-fifth pass). A
	// pair of an elastic foundation still takes its element's material
	// (pairMaterial). Of any other length it is ignored.
	Combined []*Material
	useComb  bool // whether this Assemble reads Combined (a flag, not a copy of the slice: no pointer stored under the write barrier)
	combined combinedPair
}

// pairState is what the Assembler keeps per pair of the last Assemble.
// Four per-pair slices, each resized (and the frames cleared) at every
// Assemble, were ten instruction-cache lines of Assemble a step; one
// slice, whose entries contactFrame sets whole as it reaches each pair,
// needs no clearing (BENCHMARKS.md, hundred-and-thirty-sixth pass).
type pairState struct {
	// f is the pair's frame: the tangents Orthonormal gave for its
	// normal, and the normal, for Memory.Remember (frameOf).
	f frame
	// lever is δt + τd: v̂ = −Δx/lever turns an anchor's displacement Δx
	// into a velocity (0 for a pair marked Geometric).
	lever float64
	// roll and spin are the indices of the pair's rolling and spin
	// friction blocks in the problem (−1: none).
	roll, spin int
}

// extraRows is a rolling- or spin-friction block waiting to be added after
// the contact blocks (contacts come first so that pair i owns rows
// [3i, 3i+3) of the problem).
type extraRows struct {
	vhat  [2]float64 // v̂ of its rows (friction anchors for rolling and spin)
	kind  solver.Kind
	size  int
	r     float64 // regularization
	coef  float64 // μ_r or μ_s: the impulse bound is coef·n0
	n0    float64 // the pair's lagged normal impulse
	pair  int     // the pair it belongs to
	trees [2]int
	off   [2]int // offsets of the rows in Assembler.data, per tree
	nb    int
}

// Assemble appends to p one constraint block per pair (SAP §V): J in
// contact frames, v̂, R and the kind's parameters, with the kind chosen by
// prm.Approximation; then, for pairs whose material asks for it, rolling
// and spin friction blocks. Block i is pair i's contact, so its impulse is
// rows [3i, 3i+3) of the result. p must already hold the cliques, A, v* and
// diag(M) of the step; kin must hold the kinematics at q0
// (multibody.Workspace.Update). mats are indexed by
// multibody.Geometry.Material. prm is read, not kept nor written: a
// pointer, because the 184-byte struct passed by value was copied at
// every call (six instruction-cache lines of the simulator's caller).
func (a *Assembler) Assemble(m *multibody.Model, kin *multibody.Workspace, pairs []Pair, mats []Material, dt float64, prm *Params, p *solver.Problem) error {
	// A_t⁻¹ for the Delassus estimate W_ii ≈ Σ_t J_it A_t⁻¹ J_itᵀ (SAP §V-B).
	if a.Factored == nil {
		if err := a.factor.Factor(p); err != nil {
			return factorError(err)
		}
	}
	a.start(m, len(p.Constraints), dt, prm.AnchorRadius)
	if len(pairs) == 0 {
		return nil // the common step of a robot off the ground: no row, nothing queued (a.extra is empty)
	}
	if len(a.Combined) == len(pairs) {
		a.useComb = true
	}
	if cap(a.per) < len(pairs) {
		a.per = growFresh(a.per, len(pairs))
	}
	a.per = a.per[:len(pairs)] // not cleared: contactFrame sets each pair's state
	// only addPair reads the loads (loadMass)
	if prm.LoadAware && !a.allGeometric(len(pairs)) {
		a.supported(m, kin, pairs)
	}
	for i := range pairs {
		var err error
		if i < len(a.Geometric) && a.Geometric[i] {
			err = a.addGeometric(m, kin, i, &pairs[i], mats, p)
		} else {
			err = a.addPair(m, kin, i, &pairs[i], mats, dt, prm, p)
		}
		if err != nil {
			a.unsetPairs(i + 1)
			return err
		}
	}
	a.addExtra(p)
	return nil
}

// factorError wraps the error of Assemble's own factorization. It is out
// of line: inlined, the formatting sat between Assemble's hot blocks.
//
//go:noinline
func factorError(err error) error {
	return fmt.Errorf("contact: %w", err)
}

// start resets the per-Assemble state for a problem whose contact blocks
// begin at constraint base, of time step dt and Params.AnchorRadius
// anchorRadius: what a call with no pair leaves (no block, no
// rolling or spin row, every per-pair slice empty). It is a short
// function of its own because a step of a robot off the ground calls
// Assemble with no pair at every step, and the whole per-pair set-up
// would run through more of the instruction cache than the assembly of
// nothing needs (BENCHMARKS.md, forty-ninth pass).
func (a *Assembler) start(m *multibody.Model, base int, dt, anchorRadius float64) {
	a.extra, a.data, a.base = a.extra[:0], a.data[:0], base
	a.dt, a.anchorRadius = dt, anchorRadius
	a.last.valid, a.g = false, norm3(&m.Gravity) // recall overwrites the whole of a.last when it is not valid; ‖g‖ read in place (Norm copied g thrice)
	a.useComb, a.combined.valid = false, false
	a.per = a.per[:0]
}

// unsetPairs sets the states of pairs [from, len) to those of a pair not
// reached (zero frame and lever, no rolling or spin block): what an
// Assemble that stops at an error leaves after the pair that failed.
//
//go:noinline
func (a *Assembler) unsetPairs(from int) {
	for i := from; i < len(a.per); i++ {
		a.per[i] = pairState{roll: -1, spin: -1}
	}
}

// allGeometric reports whether Geometric marks every one of n pairs: then
// Assemble builds no pair's rows from its material (addPair), and the
// load-aware estimate (supported), which only addPair reads, is not
// needed (MuJoCo's pyramids at the rk4 stages and in mujoco-euler steps).
func (a *Assembler) allGeometric(n int) bool {
	if len(a.Geometric) < n {
		return false
	}
	for _, g := range a.Geometric[:n] {
		if !g {
			return false
		}
	}
	return true
}

// cliqueFactor returns the factors of A in use.
func (a *Assembler) cliqueFactor() *solver.CliqueFactor {
	if a.Factored != nil {
		return a.Factored
	}
	return &a.factor
}

// addPair appends one contact's block, and queues its rolling and spin
// friction blocks.
//
// prm and the pair's material (a.last.mat, which nothing changes while
// the pair is assembled) are read through pointers: structs of 184 and
// 160 bytes, which each call and assignment copied (BENCHMARKS.md,
// fifty-seventh pass).
func (a *Assembler) addPair(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, mats []Material, dt float64, prm *Params, p *solver.Problem) error {
	// recall first, while the arguments are in registers: it reads and
	// sets a.last alone, which contactFrame, buildRows and delassus do
	// not touch, and mats is not needed after it.
	a.recall(m, kin, i, pr, mats)
	dirs := a.contactFrame(i, &pr.Normal)
	t1, t2 := &dirs[0], &dirs[1]
	a.buildRows(m, kin, pr, dirs, false)
	if a.nb == 0 {
		return weldedError(m, pr)
	}
	var w spatial.Mat3
	a.delassus(p, 3, &w)
	null := nullRows(a.lastInvMass(m, pr), &w)
	anyNull := null != [3]bool{}
	mat := a.last.mat // Combine, or an elastic foundation's element
	wnn := w[2][2]    // the normal's own Delassus diagonal, for MuJoCo's soft friction
	if prm.LoadAware {
		w[2][2] = loadAwareW(w[2][2], a.loadMass(i, pr, a.g, dt))
	}
	rt, rn := regularization(&w, mat, pr.Phi, dt, prm)
	if anyNull {
		rt, rn = nullRegularization(a.last.invMass, &w, &null, rt, rn, prm.Sigma)
	}
	// SAP §V-A: v̂_n = −φ0/(δt + τd); minus e/δt for the extra penetration e
	// (GapError ≤ 0) the gap's linearization missed last step, expected
	// again within this step: a prediction, compensated in full, not a
	// penetration relaxed over τd.
	rigid := nearRigid(rn, mat, dt)
	vn := solver.BiasVelocity(pr.Phi, mat.Dissipation, dt)
	if pr.Chained && pr.Phi > 0 {
		vn = -pr.Phi / dt // a chained-impact contact (Pair.Chained) does not brake before it touches
	}
	if prm.Speculative && pr.GapError < -gapErrorFloor*prm.Margin {
		vn -= pr.GapError / dt
	}
	if prm.MaxRecoverySpeed > 0 && rigid {
		// Only a penetration that is regularization error (the near-rigid
		// branch of SAP eq. 29) is pushed out no faster than the cap; a
		// compliant contact's penetration is its physical deformation,
		// whose elastic rebound the cap would clip (issue 22).
		vn = min(vn, prm.MaxRecoverySpeed)
	}
	if null[2] {
		vn = 0 // nullRows: the normal moves nothing, n0 = 0
	}
	n0 := a.laggedNormal(pr, p, w[2][2], rn, vn)
	if mat.SlipTime > 0 && mat.SlipStiffness > 0 && !(null[0] && null[1]) && !null[2] { // a planar body has one null tangent: one R_t for both
		rt = softFrictionR(mat, 0.5*(w[0][0]+w[1][1]), wnn, pr.Phi, n0/dt, dt) // d at MuJoCo's depth under the lagged load
	}
	var c int
	switch prm.Approximation {
	case Lagged:
		weight := 0.0 // the impulse of the contact's own weight, ‖g‖δt/W_nn: a scale for n0
		if w[2][2] > 0 {
			weight = a.g * dt / w[2][2]
		}
		stick := 0.0 // anchored: disk friction, which holds loads up to the bound (solver/lagged.go)
		if pr.Anchored && mat.Anchors || mat.SlipTime > 0 {
			stick = 1 // MuJoCo's soft friction is the disk too: linear in the slip up to the bound (v̂_t = 0 without an anchor)
		}
		c = p.AddConstraint(solver.ContactLagged, 3, mat.Friction, n0, prm.StictionTolerance, weight, stick)
	default:
		c = addOtherContact(p, prm, mat, rt, n0)
	}
	a.addBlocks(p, c)
	row := p.Constraints[c].Row
	vhat, r := (*[3]float64)(p.VHat[row:row+3]), (*[3]float64)(p.R[row:row+3]) // one bounds check each
	lever := dt + mat.Dissipation
	a.per[i].lever = lever
	if pr.Anchored && mat.Anchors {
		// Friction with memory (issue 18): the stick displacement Δx_t
		// between the anchored material points is fed back like φ in
		// v̂_n: v̂_t = −Δx_t/(δt + τd), in the contact frame.
		vhat[0] = -dot3(&pr.AnchorShift, t1) / lever
		vhat[1] = -dot3(&pr.AnchorShift, t2) / lever
	}
	vhat[2] = vn
	r[0], r[1], r[2] = rt, rt, rn
	if anyNull {
		zeroNull(vhat, &null)
	}
	if _, _, bad := badR(rt, rn); bad {
		return badRError(m, pr, rt, rn, &w)
	}
	if mat.Rolling > 0 || mat.Spin > 0 {
		a.queueRotation(m, kin, i, pr, dirs, mat, n0, dt, prm.Sigma, p)
	}
	return nil
}

// addOtherContact adds the block of a contact whose approximation is not
// Lagged (Similar, or the exact cone), with friction mat.Friction, R_t rt
// and normal impulse estimate n0: out of addPair's line (the default
// is Lagged).
//
//go:noinline
func addOtherContact(p *solver.Problem, prm *Params, mat *Material, rt, n0 float64) int {
	if prm.Approximation == Similar {
		eps := max(prm.StictionTolerance, mat.Friction*rt*n0) // ε_s = max(v_s, μ R_t n0)
		return p.AddConstraint(solver.ContactSimilar, 3, mat.Friction, eps)
	}
	return p.AddConstraint(solver.ContactCone, 3, mat.Friction)
}

// zeroNull sets v̂ to 0 on a contact's null rows (nullRows): a direction
// the bodies cannot move in at the point carries no impulse. It is out of
// addPair's line: most contacts have no null row.
//
//go:noinline
func zeroNull(vhat *[3]float64, null *[3]bool) {
	for k, nr := range null {
		if nr {
			vhat[k] = 0
		}
	}
}

// queueRotation queues pair i's rolling and spin friction blocks, those
// its material mat has, with their anchors' v̂ (addPair's lagged normal
// impulse n0): out of addPair's line, which most materials (no rolling nor
// spin friction) skip.
//
//go:noinline
func (a *Assembler) queueRotation(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, dirs *frame, mat *Material, n0, dt, sigma float64, p *solver.Problem) {
	if mat.Rolling > 0 {
		var vh [2]float64
		if pr.RollAnchored && mat.Anchors {
			vh = [2]float64{-pr.RollShift.Dot(dirs[0]) / (dt + mat.Dissipation), -pr.RollShift.Dot(dirs[1]) / (dt + mat.Dissipation)}
		}
		a.queue(m, kin, i, pr, *dirs, solver.Disk, 2, mat.Rolling, n0, sigma, vh, p)
	}
	if mat.Spin > 0 {
		var vh [2]float64
		if pr.SpinAnchored && mat.Anchors {
			vh[0] = -pr.SpinShift / (dt + mat.Dissipation)
		}
		a.queue(m, kin, i, pr, *dirs, solver.Interval, 1, mat.Spin, n0, sigma, vh, p)
	}
}

// badR returns the first row r of a contact's R = (rt, rt, rn) whose
// value x is not positive and finite (!(x > 0) || math.IsInf(x, 0)) and
// badRError is the error of a pair whose regularization (rt, rn) badR
// rejects, with its Delassus diagonal w: out of addPair's line.
//
//go:noinline
func badRError(m *multibody.Model, pr *Pair, rt, rn float64, w *spatial.Mat3) error {
	r, x, _ := badR(rt, rn)
	return fmt.Errorf("contact: %s: R[%d] = %v (Delassus diagonal %v, %v, %v) must be positive and finite", PairName(m, pr), r, x, w[0][0], w[1][1], w[2][2])
}

// true, or false when all three are: two tests, not a loop over the rows.
func badR(rt, rn float64) (r int, x float64, bad bool) {
	switch {
	case !(rt > 0 && rt <= math.MaxFloat64):
		return 0, rt, true
	case !(rn > 0 && rn <= math.MaxFloat64):
		return 2, rn, true
	}
	return 0, 0, false
}

// addGeometric appends the block of a pair marked Geometric: its rows'
// Jacobian in the contact frame (t1, t2, n), R = 1, v̂ = 0; and queues
// its rolling and spin blocks' angular rows (R = 1, v̂ = 0, bound 0) when
// its combined material has rolling or spin friction.
func (a *Assembler) addGeometric(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, mats []Material, p *solver.Problem) error {
	dirs := a.contactFrame(i, &pr.Normal)
	a.buildRows(m, kin, pr, dirs, false)
	if a.nb == 0 {
		return weldedError(m, pr)
	}
	c := p.AddConstraint(solver.ContactCone, 3, 0) // v̂ = 0 (AddConstraint's)
	a.addBlocks(p, c)
	row := p.Constraints[c].Row
	r := (*[3]float64)(p.R[row : row+3]) // one bounds check, three stores: no loop
	r[0], r[1], r[2] = 1, 1, 1
	if mat := a.geometricMaterial(m, kin, i, pr, mats); mat.Rolling > 0 || mat.Spin > 0 {
		a.queueAngular(m, kin, i, pr, dirs, mat, p)
	}
	return nil
}

// queueAngular queues the angular rows of the rolling and spin blocks of
// pair i, marked Geometric, those its material mat has (R = 1, v̂ = 0,
// bound 0): out of addGeometric's line, which most materials skip.
//
//go:noinline
func (a *Assembler) queueAngular(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, dirs *frame, mat *Material, p *solver.Problem) {
	if mat.Rolling > 0 {
		a.queue(m, kin, i, pr, *dirs, solver.Disk, 2, 0, 0, 1, [2]float64{}, p)
	}
	if mat.Spin > 0 {
		a.queue(m, kin, i, pr, *dirs, solver.Interval, 1, 0, 0, 1, [2]float64{}, p)
	}
}

// weldedError is the error of a pair neither of whose bodies moves (both
// welded to the world), out of addPair's and addGeometric's lines.
//
//go:noinline
func weldedError(m *multibody.Model, pr *Pair) error {
	return fmt.Errorf("contact: %s: neither body moves (both welded to the world)", PairName(m, pr))
}

// geometricMaterial returns the combined material of pair i, marked
// Geometric, whose rolling and spin friction addGeometric reads: read in
// place from Combined when given and the pair is not on an elastic
// foundation, the material recall would copy into a.last (160 bytes and
// ten instruction-cache lines a step on a MuJoCo robot), else recall's.
// a.last is then left as it was: still its own geometries' material,
// which a later addPair may reuse.
func (a *Assembler) geometricMaterial(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, mats []Material) *Material {
	if a.useComb && mats[m.Geometries[pr.GeomA].Material].Foundation == nil && mats[m.Geometries[pr.GeomB].Material].Foundation == nil {
		return a.Combined[i]
	}
	a.recall(m, kin, i, pr, mats)
	return a.last.mat
}

// SpinBlock returns the index of pair i's spin-friction block in the
// problem of the last Assemble (one row: the relative angular velocity
// about the normal, ω_B − ω_A), or −1 when it has none.
func (a *Assembler) SpinBlock(i int) int { return a.per[i].spin }

// RollingBlock returns the index of pair i's rolling-friction block in
// the problem of the last Assemble (two rows: the relative angular
// velocity ω_B − ω_A along the contact's t1 and t2,
// spatial.Orthonormal(n)), or −1 when it has none.
func (a *Assembler) RollingBlock(i int) int { return a.per[i].roll }

// PairName names a contact pair for messages: its two bodies and geometries
// (a geometry without a name by its index).
func PairName(m *multibody.Model, pr *Pair) string {
	name := func(b, g int) string {
		bn := "world"
		if b >= 0 && b < len(m.Bodies) {
			bn = m.Bodies[b].Name
		}
		gn := fmt.Sprintf("#%d", g)
		if g >= 0 && g < len(m.Geometries) && m.Geometries[g].Name != "" {
			gn = fmt.Sprintf("%q", m.Geometries[g].Name)
		}
		return fmt.Sprintf("body %q (geometry %s)", bn, gn)
	}
	return "contact between " + name(pr.BodyA, pr.GeomA) + " and " + name(pr.BodyB, pr.GeomB)
}

// nullRows reports the rows (t1, t2, n) of a contact's Delassus block w
// along which neither body can move at the contact point: W_rr ≤ 10⁻¹²
// of the inverse mass of the lighter moving tree. A hinge arm touching the
// ground near its axis has W = 0 (its axis through the point): the rows
// are null, and SAP's R = β²W/(4π²) and R_t = σW would be 0.
//
// ref is the pair's invTreeMass.
func nullRows(ref float64, w *spatial.Mat3) (null [3]bool) {
	lim := 1e-12 * ref // the rows written out: Go does not unroll the loop
	return [3]bool{!(w[0][0] > lim), !(w[1][1] > lim), !(w[2][2] > lim)}
}

// frame is a contact frame's rows (t1, t2, n): a normal n after its
// tangents (t1, t2) = spatial.Orthonormal(n), the directions of a
// contact's rows (buildRows).
type frame = [3]spatial.Vec3

// contactFrame sets pair i's state, a.per[i]: its frame to the tangents
// spatial.Orthonormal(n) and the normal n, its lever to 0 and its rolling
// and spin blocks to none (addPair and addExtra set them later); and
// returns the frame: the pair's directions, read in place (copying them
// into the caller's array cost a pair 25 instructions). A frame is a
// function of its normal's bits alone, so one already made for normal n
// is reused, bit for bit: the one a.per[i] kept from an earlier Assemble
// (a contact resting on a plane has the plane's normal at every step:
// a.per is resized, not cleared), else pair i−1's (the pairs of one
// manifold share their normal). The frame of a zero normal is never
// reused: frameOf treats it as unset, and unsetPairs leaves it.
func (a *Assembler) contactFrame(i int, n *spatial.Vec3) *frame {
	ps := &a.per[i]
	ps.lever, ps.roll, ps.spin = 0, -1, -1
	f := &ps.f
	if *n != (spatial.Vec3{}) {
		if sameBits(&f[2], n) {
			return f
		}
		if i > 0 && sameBits(&a.per[i-1].f[2], n) {
			*f = a.per[i-1].f
			return f
		}
	}
	setFrame(f, n)
	return f
}

// setFrame sets f to the frame of normal n: its tangents
// spatial.Orthonormal(n), then n. It is out of line: the vectors passed
// and returned by value are copied through the stack a dozen times, six
// instruction-cache lines that contactFrame runs only for a normal that
// it has no frame of.
//
//go:noinline
func setFrame(f *frame, n *spatial.Vec3) {
	f[0], f[1] = spatial.Orthonormal(*n)
	f[2] = *n
}

// sameBits reports whether x and y are the same bit for bit (unlike ==,
// which takes −0 for +0).
func sameBits(x, y *spatial.Vec3) bool {
	return math.Float64bits(x[0]) == math.Float64bits(y[0]) && math.Float64bits(x[1]) == math.Float64bits(y[1]) &&
		math.Float64bits(x[2]) == math.Float64bits(y[2])
}

// frameOf returns the frame of pair i of the last Assemble, the one
// Assemble used when the pair's normal is still the one it had then
// (else the frame of its normal now, in a.spare), read in place: its
// tangents are the first two rows.
func (a *Assembler) frameOf(i int, pr *Pair) *frame {
	if i < len(a.per) && a.per[i].f[2] == pr.Normal && pr.Normal != (spatial.Vec3{}) {
		return &a.per[i].f
	}
	return a.spareFrame(&pr.Normal)
}

// Frame returns the frame of pair i of the last Assemble, pr, read in
// place: the directions (t1, t2, n) of its rows, its tangents
// spatial.Orthonormal(n) of its normal n now, bit for bit (frameOf).
func (a *Assembler) Frame(i int, pr *Pair) *[3]spatial.Vec3 { return a.frameOf(i, pr) }

// spareFrame sets a.spare to the frame of normal n and returns it
// (frameOf, out of line).
func (a *Assembler) spareFrame(n *spatial.Vec3) *frame {
	setFrame(&a.spare, n)
	return &a.spare
}

// lastPair is what addPair derived from the two geometries of the last
// pair it assembled: its material (pairMaterial) and invTreeMass (when
// massSet: addGeometric's pairs never ask for it, lastInvMass). Both
// depend on the geometries, their bodies and the kinematics only, which
// one Assemble does not change, so reusing them for the next pair of the
// same geometries gives the same numbers.
//
// mat points to the material where it is kept for the Assemble (Combined,
// combinedPair, or own for an elastic foundation's element), not a copy:
// the 160-byte copies were thirteen instruction-cache lines a step of
// recall on cube-slide.
type lastPair struct {
	valid, massSet bool
	geomA, geomB   int
	mat            *Material
	own            Material // pairMaterial's answer, which mat points to
	invMass        float64
}

// recall sets a.last for pair i, pr, computing it unless the previous
// pair had the same two geometries; its material is Combined's when given
// and the pair is not on an elastic foundation.
func (a *Assembler) recall(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, mats []Material) {
	if a.last.valid && a.last.geomA == pr.GeomA && a.last.geomB == pr.GeomB {
		return
	}
	// Field by field (every branch below sets mat): the literal cleared
	// the 160 bytes of mat first.
	a.last.valid, a.last.massSet, a.last.geomA, a.last.geomB, a.last.invMass = true, false, pr.GeomA, pr.GeomB, 0
	ia, ib := m.Geometries[pr.GeomA].Material, m.Geometries[pr.GeomB].Material
	switch {
	case mats[ia].Foundation != nil || mats[ib].Foundation != nil:
		a.last.own = pairMaterial(m, kin, pr, mats)
		a.last.mat = &a.last.own
	case a.useComb:
		a.last.mat = a.Combined[i]
	default: // pairMaterial's Combine, once per pair of materials
		if c := &a.combined; !c.valid || c.ia != ia || c.ib != ib {
			c.valid, c.ia, c.ib = true, ia, ib
			combineTo(&c.mat, &mats[ia], &mats[ib])
		}
		a.last.mat = &a.combined.mat
	}
}

// combinedPair is the Combine of materials ia and ib (indices into the
// materials given to Assemble), when valid: the manifolds of one
// Assemble between geometries of the same two materials (ten boxes of one
// material) share it. The materials do not change within an Assemble, so
// it is the value Combine would give again.
type combinedPair struct {
	valid  bool
	ia, ib int
	mat    Material
}

// lastInvMass returns the invTreeMass of pair pr, whose geometries are
// a.last's (recall), computing it once per pair of geometries.
func (a *Assembler) lastInvMass(m *multibody.Model, pr *Pair) float64 {
	if a.last.massSet {
		return a.last.invMass // small enough to be inlined: the manifold's later pairs
	}
	return a.setInvMass(m, pr)
}

// setInvMass sets a.last's invTreeMass to pr's and returns it. It is
// kept out of line so that lastInvMass is inlined.
//
//go:noinline
func (a *Assembler) setInvMass(m *multibody.Model, pr *Pair) float64 {
	a.last.invMass, a.last.massSet = invTreeMass(m, pr), true
	return a.last.invMass
}

// invTreeMass returns the largest inverse total mass 1/M_t of the trees
// of the pair's moving bodies (+Inf for a massless tree).
func invTreeMass(m *multibody.Model, pr *Pair) float64 {
	ref := 0.0
	for _, b := range [2]int{pr.BodyA, pr.BodyB} {
		if b < 0 || m.Bodies[b].Tree < 0 {
			continue
		}
		mass := 0.0
		for _, k := range m.Trees[m.Bodies[b].Tree].Bodies {
			mass += m.Bodies[k].Inertia.Mass
		}
		ref = max(ref, 1/mass)
	}
	return ref
}

// nullRegularization returns R_t and R_n of a contact with null rows
// (nullRows): a null row carries no impulse (its v̂ is 0 and it moves
// nothing, so any R > 0 serves), and takes the regularization of the
// block's moving directions, or σ/M_t when none moves; the two tangential
// rows keep one R (SAP's cone). A contact whose normal is null can press
// on nothing, so it has no friction either. invMass is the pair's
// invTreeMass. It is out of addPair's line (most contacts have no null
// row).
//
//go:noinline
func nullRegularization(invMass float64, w *spatial.Mat3, null *[3]bool, rt, rn, sigma float64) (float64, float64) {
	scale := invMass
	if !null[2] {
		scale = w[2][2]
	} else if !null[0] || !null[1] {
		scale = 0.5 * (w[0][0] + w[1][1])
	}
	if null[0] && null[1] {
		rt = sigma * scale
	}
	if null[2] {
		rn = scale
	}
	return rt, rn
}

// sticking reports whether contact i of the last Assemble sticks in the
// solution with impulses gamma: its normal impulse is positive and its
// friction impulse is inside the friction bound by a margin,
// ‖γ_t‖ < (1 − stickMargin) μ n, with n = n0 for Lagged contacts and γ_n for
// the others (a sliding contact's friction is on the bound).
func (a *Assembler) sticking(i int, gamma []float64, p *solver.Problem) bool {
	c := p.Constraints[a.base+i]
	g := gamma[c.Row : c.Row+3]
	if !(g[2] > 0) {
		return false
	}
	return inBound(g, p.FrictionBound(a.base+i, gamma))
}

// inBound reports whether a contact's friction impulse, g[0:2], is inside
// its friction bound by the margin of sticking.
func inBound(g []float64, bound float64) bool {
	return fmath.Hypot(g[0], g[1]) < (1-stickMargin)*bound
}

// Slides reports whether contact i of the last Assemble moves along its
// surfaces in the solution with impulses gamma: it carries a load (γ_n > 0)
// and its friction, or its rolling or spin friction, is on its bound (not
// sticking, not holding). A contact that carries no load does not slide.
// Used by sim's sleeping, so that a body sliding slowly never falls asleep.
func (a *Assembler) Slides(i int, gamma []float64, p *solver.Problem) bool {
	c := p.Constraints[a.base+i]
	if !(gamma[c.Row+2] > 0) {
		return false
	}
	if !a.sticking(i, gamma, p) {
		return true
	}
	for _, b := range [2]int{a.per[i].roll, a.per[i].spin} {
		if b >= 0 && onBound(p, b, gamma) {
			return true
		}
	}
	return false
}

// onBound reports whether constraint block c (a rolling Disk or a spin
// Interval) has a bound that is not zero and does not hold (holds).
func onBound(p *solver.Problem, c int, gamma []float64) bool {
	switch p.Constraints[c].Kind {
	case solver.Disk:
		if !(p.DiskRadius(c) > 0) {
			return false
		}
	case solver.Interval:
		if lo, hi := p.IntervalBounds(c); !(hi > lo) {
			return false
		}
	default:
		return false
	}
	return !holds(p, c, gamma)
}

// stickMargin is the relative distance from the friction bound below which
// a contact counts as sticking (sticking).
const stickMargin = 1e-3

// gapErrorFloor is the fraction of the contact margin below which a gap's
// linearization error is ignored (GapError): smaller errors are round-off
// and slow rolling, which the position feedback of v̂_n handles; correcting
// them would only add energy.
const gapErrorFloor = 0.01

// laggedNormal returns n0, the normal impulse that bounds Lagged friction
// and rolling and spin friction: the previous step's normal impulse of the
// same contact point when it persists (the "lagged" impulse of Castro, Han
// and Masterjohn 2023); for a new contact, the impulse that this contact
// alone would need to bring the free motion's normal velocity v*_n to
// v̂_n, n = (v̂_n − v*_n)₊/(R_n + W_nn) (one Jacobi sweep on the normal
// rows, exact for a single point and for a symmetric manifold on one
// body). a.rows must hold the contact's rows.
func (a *Assembler) laggedNormal(pr *Pair, p *solver.Problem, wnn, rn, vhat float64) float64 {
	if pr.Age > 0 {
		return max(pr.PrevImpulse[2], 0)
	}
	vs := 0.0 // v*_n = (J v*)_n
	for b := range a.nb {
		q := p.Cliques[a.tree[b]]
		row := a.rows[b][2*q.Size : 3*q.Size]
		for j, x := range row {
			vs += x * p.VStar[q.Offset+j]
		}
	}
	return max(vhat-vs, 0) / (rn + wnn)
}

// buildRows fills a.rows with the rows Cᵀ(J_B − J_A) of the pair along dirs
// (3 directions): of the point Jacobians at the contact point, or of the
// angular Jacobians when angular is true. Rows of two bodies of one tree
// are merged into one block; blocks are in increasing tree order.
func (a *Assembler) buildRows(m *multibody.Model, kin *multibody.Workspace, pr *Pair, dirs *[3]spatial.Vec3, angular bool) {
	a.nb = 0
	a.addBodyRows(m, kin, pr.BodyB, &pr.Point, dirs, 1, angular)
	a.addBodyRows(m, kin, pr.BodyA, &pr.Point, dirs, -1, angular)
	if a.nb == 2 && a.tree[0] > a.tree[1] {
		a.tree[0], a.tree[1] = a.tree[1], a.tree[0]
		a.rows[0], a.rows[1] = a.rows[1], a.rows[0]
	}
}

// addBodyRows adds sign·Cᵀ J of body b to the rows of its tree, merging
// with an earlier block of the same tree.
//
// dirs and pt are read through pointers (BENCHMARKS.md, fifty-seventh
// pass): the calls copied them.
func (a *Assembler) addBodyRows(m *multibody.Model, kin *multibody.Workspace, b int, pt *spatial.Vec3, dirs *[3]spatial.Vec3, sign float64, angular bool) {
	if m.Bodies[b].Tree < 0 {
		return
	}
	t := m.Bodies[b].Tree
	n := m.Trees[t].NV
	rows, fresh := a.rows[0], a.nb != 1 || a.tree[0] != t // the block begun for t by the pair's other body, or a new one
	if fresh {
		// The next block of a.rows, for tree t, as it was: cleared
		// below, or every entry set.
		s := a.nb
		a.nb++
		a.tree[s] = t
		if cap(a.rows[s]) < 3*n {
			a.growRows(s, 3*n)
		}
		a.rows[s] = a.rows[s][:3*n] // a slice of itself: its length stored alone, no write barrier
		rows = a.rows[s]
	}
	body, finite := &m.Bodies[b], finiteDirs(dirs)
	if !angular && n == 6 && body.Joint.Type == multibody.JointFree && body.Joint.Parent < 0 && finite {
		addFreePointRows((*[18]float64)(rows[:18]), pt, &kin.PoseOf(b).P, dirs, sign, fresh)
		return
	}
	if fresh {
		clear(rows)
	}
	if cap(a.jac) < 3*n {
		a.growJac(3 * n)
	}
	a.jac = a.jac[:3*n]
	if angular {
		kin.AngularJacobian(b, a.jac)
	} else {
		kin.PointJacobian(b, *pt, a.jac)
	}
	if !finite {
		addChainRows(m, b, m.Trees[t].VOffset, rows, a.jac, dirs, sign)
		return
	}
	addAllRows(rows, a.jac, dirs, sign)
}

// growRows grows block s of a.rows to hold n entries, and growJac grows
// a.jac: addBodyRows' growth, out of line, so that the stores of the new
// slices (and their write barriers) are not in its code on the step.
//
//go:noinline
func (a *Assembler) growRows(s, n int) { a.rows[s] = growFloat(a.rows[s], n) }

// growJac: see growRows.
//
//go:noinline
func (a *Assembler) growJac(n int) { a.jac = growFloat(a.jac, n) }

// addAllRows is addBodyRows' general loop for finite directions: rows (3
// rows of n = len/3 entries) += sign·Cᵀ jac (jac as PointJacobian writes
// it, 3×n), over every column. Only the columns of the body's chain
// (MuJoCo's, mj_jacDifPair's) can be non-zero: PointJacobian and
// AngularJacobian write 0 in the others, and there, for finite d, the
// term sign·(d·0) is a zero, and adding a zero to a row's entry leaves it
// as it is (+0, or not zero: entries start at +0, and a sum from +0 is −0
// only when every term is −0, which +0 + −0 is not). So the sum over all
// columns is the chain's, bit for bit (TestAsm5AllRows), and one plain
// loop over the block replaces the chain walk (addChainRows) and its
// reads of the bodies' joints: fewer lines of code on the step.
func addAllRows(rows, jac []float64, dirs *[3]spatial.Vec3, sign float64) {
	n := len(rows) / 3
	jx, jy, jz := jac[:n], jac[n:2*n], jac[2*n:3*n]
	r0, r1, r2 := rows[:n], rows[n:2*n], rows[2*n:3*n]
	for j := range r0 {
		r0[j] += sign * (dirs[0][0]*jx[j] + dirs[0][1]*jy[j] + dirs[0][2]*jz[j])
		r1[j] += sign * (dirs[1][0]*jx[j] + dirs[1][1]*jy[j] + dirs[1][2]*jz[j])
		r2[j] += sign * (dirs[2][0]*jx[j] + dirs[2][1]*jy[j] + dirs[2][2]*jz[j])
	}
}

// addChainRows is addAllRows over the columns of body b's chain alone,
// off the tree's first velocity index: for directions that are not all
// finite, where d·0 is NaN for an infinite d. It is out of line: the step
// never runs it.
//
//go:noinline
func addChainRows(m *multibody.Model, b, off int, rows, jac []float64, dirs *[3]spatial.Vec3, sign float64) {
	n := len(rows) / 3
	jx, jy, jz := jac[:n], jac[n:2*n], jac[2*n:3*n]
	r0, r1, r2 := rows[:n], rows[n:2*n], rows[2*n:3*n]
	for c := b; c >= 0; c = m.Bodies[c].Joint.Parent {
		body := &m.Bodies[c]
		for k := range body.Joint.NV() {
			j := body.VOff + k - off
			r0[j] += sign * (dirs[0][0]*jx[j] + dirs[0][1]*jy[j] + dirs[0][2]*jz[j])
			r1[j] += sign * (dirs[1][0]*jx[j] + dirs[1][1]*jy[j] + dirs[1][2]*jz[j])
			r2[j] += sign * (dirs[2][0]*jx[j] + dirs[2][1]*jy[j] + dirs[2][2]*jz[j])
		}
	}
}

// finiteDirs reports whether the nine numbers of dirs are finite, by a
// sufficient test: their sum is finite (an Inf or a NaN among them makes
// it Inf or NaN; an overflow of finite ones answers false, which only
// sends addBodyRows on its general path).
func finiteDirs(d *[3]spatial.Vec3) bool {
	s := d[0][0] + d[0][1] + d[0][2] + d[1][0] + d[1][1] + d[1][2] + d[2][0] + d[2][1] + d[2][2]
	return s-s == 0
}

// addFreePointRows is addAllRows for the point Jacobian of a lone free
// body (multibody.Workspace.PointJacobian's free case: columns e_k × r and
// e_k, r = pt − o the point's offset from the body's origin o), without
// forming it:
// the terms d·0 of the sums are left out and d·1 is d. For finite
// directions d·0 is a zero, and x + 0 is x unless x is a zero too, so
// each sum is the full one but for the sign of a zero result; and rows
// only ever receive sign·x added to +0 or to an entry that is not −0 (a
// sum that starts at +0 is −0 only when every term is −0, and +0 + ±0 is
// +0), so a zero's sign never reaches them: the same bits
// (TestCubeassemblyFreePointRows). The caller checks the directions are
// finite (finiteDirs): an infinite one times 0 is NaN.
//
// fresh says the block is new and not cleared: its entries are set to
// 0 + sign·x, what adding to a cleared entry gives (Go keeps the addition
// of +0, which turns −0 into +0), without the clearing.
//
// pt and o are read in place, r formed here as pt.Sub(o) would: the
// caller's pt.Sub(kin.Pose(b).P) copied the 56-byte pose, both vectors
// and the result through the stack (three instruction-cache lines).
func addFreePointRows(rows *[18]float64, pt, o *spatial.Vec3, dirs *[3]spatial.Vec3, sign float64, fresh bool) {
	r := spatial.Vec3{pt[0] - o[0], pt[1] - o[1], pt[2] - o[2]}
	for i := range 3 {
		d := &dirs[i]
		y0 := sign * (d[1]*(-r[2]) + d[2]*r[1]) // e_x × r = (0, −r_z, r_y)
		y1 := sign * (d[0]*r[2] + d[2]*(-r[0])) // e_y × r = (r_z, 0, −r_x)
		y2 := sign * (d[0]*(-r[1]) + d[1]*r[0]) // e_z × r = (−r_y, r_x, 0)
		y3, y4, y5 := sign*d[0], sign*d[1], sign*d[2]
		row := (*[6]float64)(rows[6*i : 6*i+6])
		if fresh {
			row[0], row[1], row[2], row[3], row[4], row[5] = 0+y0, 0+y1, 0+y2, 0+y3, 0+y4, 0+y5
		} else {
			row[0], row[1], row[2], row[3], row[4], row[5] = row[0]+y0, row[1]+y1, row[2]+y2, row[3]+y3, row[4]+y4, row[5]+y5
		}
	}
}

// addBlocks appends the J blocks in a.rows (3 rows each) to constraint c.
func (a *Assembler) addBlocks(p *solver.Problem, c int) {
	for i := range a.nb {
		p.AddJBlockFrom(c, a.tree[i], a.rows[i])
	}
}

// delassus sets w's leading k×k block, the rest 0, to that of W ≈
// Σ_t J_t A_t⁻¹ J_tᵀ for the rows in a.rows (SAP §V-B, "per-tree
// blocks"), each tree's term from half of its factor
// (solver.CliqueFactor.Delassus: Yᵀ D⁻¹ Y, Y = L⁻ᵀ J_tᵀ). w is written in
// place: a Mat3 result was built and then copied.
func (a *Assembler) delassus(p *solver.Problem, k int, w *spatial.Mat3) {
	var wk [9]float64
	f := a.cliqueFactor()
	b := 0
	if k == 3 { // free bodies' terms first, summed in W's upper triangle (solver.CliqueFactor.FreeDelassus)
		var u [6]float64
		for b < a.nb && f.FreeDelassus(&p.Cliques[a.tree[b]], a.rows[b], &u) {
			b++
		}
		if b == a.nb { // entry by entry: a Mat3 literal is built aside and copied
			w[0][0], w[0][1], w[0][2] = u[0], u[1], u[2]
			w[1][0], w[1][1], w[1][2] = u[1], u[3], u[4]
			w[2][0], w[2][1], w[2][2] = u[2], u[4], u[5]
			return
		}
		wk = [9]float64{u[0], u[1], u[2], u[1], u[3], u[4], u[2], u[4], u[5]} // as Delassus would have left it
	}
	for ; b < a.nb; b++ {
		q := p.Cliques[a.tree[b]]
		if len(a.x) < k*q.Size {
			a.x = solver.Resize(a.x, k*q.Size)
		}
		f.Delassus(q, a.rows[b][:k*q.Size], k, a.x, wk[:k*k])
	}
	if k == 3 { // a contact's block: wk is W row by row already
		*w = spatial.Mat3{{wk[0], wk[1], wk[2]}, {wk[3], wk[4], wk[5]}, {wk[6], wk[7], wk[8]}}
		return
	}
	*w = spatial.Mat3{}
	for r := range k {
		for c := range k {
			w[r][c] = wk[r*k+c]
		}
	}
}

// queue builds the angular rows of a rolling (Disk on t1, t2) or spin
// (Interval on n̂) friction block for the pair and keeps them for addExtra.
// The impulse bound is coef·n0 (μ_r n0 or μ_s n0, a torque impulse);
// R = σ w, with w the block's Delassus estimate (as R_t of SAP eq. 30).
func (a *Assembler) queue(m *multibody.Model, kin *multibody.Workspace, i int, pr *Pair, dirs [3]spatial.Vec3, kind solver.Kind, size int, coef, n0, sigma float64, vhat [2]float64, p *solver.Problem) {
	if size == 1 {
		dirs = [3]spatial.Vec3{dirs[2], dirs[0], dirs[1]} // spin: the normal first
	}
	a.buildRows(m, kin, pr, &dirs, true)
	var w spatial.Mat3
	a.delassus(p, size, &w)
	wr := w[0][0]
	if size == 2 {
		wr = 0.5 * (w[0][0] + w[1][1])
	}
	if !(wr > 0) {
		return // the pair cannot turn relative to each other (no angular freedom)
	}
	e := extraRows{pair: i, vhat: vhat, kind: kind, size: size, r: sigma * wr, coef: coef, n0: n0, nb: a.nb, trees: a.tree}
	for b := range a.nb {
		n := p.Cliques[a.tree[b]].Size
		e.off[b] = len(a.data)
		a.data = append(a.data, a.rows[b][:size*n]...)
	}
	a.extra = append(a.extra, e)
}

// addExtra appends the queued rolling and spin friction blocks.
func (a *Assembler) addExtra(p *solver.Problem) {
	for _, e := range a.extra {
		var c int
		bound := e.coef * e.n0
		if e.kind == solver.Disk {
			c = p.AddConstraint(solver.Disk, 2, bound)
			a.per[e.pair].roll = c
		} else {
			c = p.AddConstraint(solver.Interval, 1, -bound, bound)
			a.per[e.pair].spin = c
		}
		for b := range e.nb {
			n := p.Cliques[e.trees[b]].Size
			p.AddJBlockFrom(c, e.trees[b], a.data[e.off[b]:e.off[b]+e.size*n])
		}
		row := p.Constraints[c].Row
		for k := range e.size {
			p.R[row+k] = e.r
			p.VHat[row+k] = e.vhat[k]
		}
	}
}

// anchorCap returns the largest friction-anchor displacement contact i
// holds with friction bound f (solver.Problem.FrictionBound: μ n0 for
// Lagged contacts, μ γ_n for the others): f R_t (δt + τd). An
// anchor displaced by more pulls at the full bound, so a contact that
// slides keeps its anchor at this distance, dragged along by the slip
// (elasto-plastic friction): when the slip stops, the contact holds at
// once, and a load just inside the bound is held instead of ratcheting
// between sticking and a dropped anchor.
func (a *Assembler) anchorCap(i int, bound float64, p *solver.Problem) float64 {
	c := p.Constraints[a.base+i]
	return bound * p.R[c.Row] * a.per[i].lever
}

// rotationCap is anchorCap for pair i's rolling or spin friction block c:
// bound·R·(δt + τd).
func (a *Assembler) rotationCap(i, c int, p *solver.Problem) float64 {
	con := p.Constraints[c]
	var bound float64
	if con.Kind == solver.Interval {
		_, bound = p.IntervalBounds(c) // a spin block: [−b, b]
	} else {
		bound = p.DiskRadius(c)
	}
	return bound * p.R[con.Row] * a.per[i].lever
}

// holds reports whether constraint block c (a rolling Disk or a spin
// Interval) holds in the solution with impulses gamma: its impulse is inside
// its bound by the margin of sticking (0 bound: it does not hold).
func holds(p *solver.Problem, c int, gamma []float64) bool {
	con := p.Constraints[c]
	g := gamma[con.Row : con.Row+con.Size]
	switch con.Kind {
	case solver.Disk:
		r := p.DiskRadius(c)
		return r > 0 && fmath.Hypot(g[0], g[1]) < (1-stickMargin)*r
	case solver.Interval:
		lo, hi := p.IntervalBounds(c)
		return hi > lo && g[0] > lo+stickMargin*(hi-lo)/2 && g[0] < hi-stickMargin*(hi-lo)/2
	}
	return false
}

// loadAwareW returns the inverse effective mass of a contact's normal row
// for the near-rigid regularization (SAP eq. 29), aware of the load the
// contact carries: 1/M instead of W_nn when the mass M whose weight the
// contact supports (Assembler.supported) exceeds loadFactor times its own
// effective mass 1/W_nn. A contact at the bottom of a column of N bodies
// carries N bodies' weight, but W_nn is that of the two bodies it touches:
// with W_nn alone its near-rigid compression under the load is N times a
// single body's, a column sinks by about N²/2 of them, and its slow modes
// ring (the "pile of books" limitation of SAP §V-B). With 1/M every loaded
// contact at rest compresses by the same β²‖g‖δt(δt + τd)/(4π²) as a single
// body resting under its own weight, and its period is β δt for the mass it
// carries. A contact that carries about its own bodies' weight (a box on
// the floor) keeps W_nn.
//
// A contact carrying r = M W_nn > columnLoad times its own effective mass
// takes (columnLoad/r)/M: it compresses by columnLoad/r of that depth.
// A column is a stack of blocks on springs, and it buckles when its
// interfaces are too soft to right it: n blocks of height h whose faces
// have half-width a, each interface compressed by δ, tilt together when
// the gravity work of the bent column, m g h θ² n⁴/24, exceeds the springs'
// energy, m g a² θ² n²/(4δ), i.e. for n² > 6a²/(hδ). At δt = τd = 10 ms,
// δ = 5e-5 m and 10 cm cubes buckle beyond n ≈ 55 (measured: 40 cubes
// drift 1.6 mm in 5 s, 60 topple; 100 cubes drifted 44–96 mm and still
// moved at 49–105 mm/s after 5 s). With δ falling as 1/r below the top
// columnLoad blocks, the springs' energy grows as n³ and the column stands
// up to n ≈ 4a²/(h δ columnLoad) (250 such cubes): 100 cubes drift
// 0.07–0.10 mm, tilt < 0.009° and move at < 0.14 mm/s (TestCubeStacksStand).
// Piles of fewer than columnLoad bodies are unchanged (Newton iterations
// on clutter-40 and clutter-nowalls at three time steps: 5.66 and 3.75
// per step before, 5.59 and 3.31 after; single runs vary by ±40%).
// A light body under a heavy load (a near-massless gripper finger struck
// by the ground, whose impulse stands for a large mass in loadMass) also
// has a large r and is made stiff. The example-robot-data grippers'
// stalled steps rose while this change and the sliding relag
// (solver.LaggedRefiner) landed (bravo7_gripper 7 → 133 of 2000,
// falcon_bravo7_gripper 0 → 25; docs/MODELS.md); which one did it is not
// measured. Counting the bodies of the column instead of r was tried: it
// changed clutter's pile (TestClutter failed) and was left out.
func loadAwareW(wnn, mass float64) float64 {
	r := mass * wnn
	if !(r > loadFactor) {
		return wnn
	}
	return min(1, columnLoad/r) / mass
}

// columnLoad is the load, in multiples of its own effective mass, beyond
// which a contact's near-rigid compression falls as the inverse of its
// load (loadAwareW).
const columnLoad = 8

// loadMass returns the mass whose weight pair i carries: the static
// estimate (supported), or, when the contact's normal impulse in the
// previous step was more than impactFactor times that weight's impulse
// (an impact, or a column landing), the mass that impulse stands for,
// γ_n,prev/(‖g‖δt), so that the contact stiffens while it stops the
// momentum; in steady state the static estimate holds and the stiffness
// does not follow the fluctuations of the contact's impulse.
func (a *Assembler) loadMass(i int, pr *Pair, g, dt float64) float64 {
	static := a.load[i]
	if pr.Age == 0 || !(g > 0) {
		return static
	}
	if dyn := pr.PrevImpulse[2] / (g * dt); dyn > impactFactor*static {
		return dyn
	}
	return static
}

// impactFactor is how many times the static load's impulse a contact's
// previous normal impulse must exceed for loadMass to use it.
const impactFactor = 3

// loadFactor is how many times its own effective mass a contact must
// support before its near-rigid regularization uses the load (loadAwareW).
const loadFactor = 2

// supportCos is the cosine of the largest angle between a contact normal
// and the vertical for which the contact supports the upper body's weight.
const supportCos = 0.5

// supported sets a.load[i] to the mass whose weight pair i supports: a
// static estimate from the contact graph and gravity, without memory. A
// pair supports the weight of its upper body (its normal within 60° of the
// vertical, the upper body the one the normal points to or from) shared
// equally among the upper body's supporting contact points; each body
// passes its own mass plus what rests on it down to its supports, bodies
// taken from the highest down. Bodies welded together count as one, the
// first body of their rigid group (multibody.Model.RigidGroup), which
// holds their mass: a contact on a massless body welded to a heavy one
// (a URDF floating root takes its welded links' mass, BlueVolta's 200 kg
// hull) carries that mass, not zero. Zero gravity gives no loads.
//
// The slices are read through locals (the stores through a's fields made
// every later access reload them and check its bounds again), and the
// pairs whose upper body moves are listed as the supports are counted, in
// the same increasing order: the same operations on the same numbers.
func (a *Assembler) supported(m *multibody.Model, kin *multibody.Workspace, pairs []Pair) {
	nb, np := len(m.Bodies), len(pairs)
	if len(a.load) != np || len(a.mass) != nb {
		a.resizeLoads(nb, np)
	}
	load := a.load[:np]
	g := a.g // ‖g‖ (start)
	if !(g > 0) {
		clear(load)
		return
	}
	up := m.Gravity.Scale(-1 / g)
	mass, nsup, group, lower, upper, bodies := a.mass, a.nsup[:nb], a.group[:nb], a.lower[:np], a.upper[:np], m.Bodies[:nb]
	// One pass: a body's loadBody is itself or an earlier body (a parent
	// precedes its children, multibody.Model.AddBody), zeroed before it
	// takes any mass, and each mass[l] takes its bodies' masses in the
	// same increasing order as a zeroing pass and a summing pass did.
	for b := range bodies {
		mass[b], nsup[b] = 0, 0
		l := loadBody(m, b)
		group[b] = l
		if bodies[b].Tree >= 0 {
			mass[l] += bodies[b].Inertia.Mass
		}
	}
	// Pairs by decreasing height of their upper body (ties by index): a body
	// has received the weight resting on it before it passes its own on.
	// order has room for every pair (resizeLoads): no append, whose
	// growth and the store of the slice back into a sat in this loop.
	order, no, oneUpper := a.order[:np], 0, true
	for i := range pairs {
		pr := &pairs[i]
		c := dot3(&pr.Normal, &up) // the normal points from A to B
		// Every pair's load is set: 0 here (a pair not in order keeps it),
		// what clearing the slice first gave, without memclr's call.
		load[i], lower[i], upper[i] = 0, -1, -1
		ba, bb := group[pr.BodyA], group[pr.BodyB]
		switch {
		case c > supportCos:
			lower[i], upper[i] = ba, bb
		case c < -supportCos:
			lower[i], upper[i] = bb, ba
		default:
			continue
		}
		u := upper[i]
		nsup[u]++
		if bodies[u].Tree >= 0 {
			oneUpper = oneUpper && (no == 0 || upper[order[0]] == u)
			order[no] = i
			no++
		}
	}
	order = order[:no]
	if !oneUpper { // one upper body (a box on the ground): the pairs are in order, ties by index
		a.sortByHeight(kin, order, up)
	}
	for _, i := range order {
		u, l := upper[i], lower[i]
		load[i] = mass[u] / float64(nsup[u])
		mass[l] += load[i]
	}
}

// resizeLoads sets the lengths of supported's scratch: nb per body (mass,
// height, nsup, group) and np per pair (load, lower, upper, order), which keep them from
// step to step while the bodies and the pairs' count stay: out of
// supported's line, whose five resizes, each slice stored back into a,
// were a dozen instruction-cache lines of every step.
//
//go:noinline
func (a *Assembler) resizeLoads(nb, np int) {
	a.mass, a.height, a.nsup, a.group = resizeFloat(a.mass, nb), resizeFloat(a.height, nb), resizeInt(a.nsup, nb), resizeInt(a.group, nb)
	a.load, a.lower, a.upper, a.order = resizeFloat(a.load, np), resizeInt(a.lower, np), resizeInt(a.upper, np), resizeInt(a.order, np)
}

// sortByHeight sorts order, supported's pairs in increasing index, by
// decreasing height of their upper body (a.upper), ties by index. It
// sorts the upper bodies (a few) instead of the pairs (several a body),
// then lists each body's pairs in increasing index: the same order when
// no two upper bodies are at the same height; when two are, their pairs
// interleave by index, and the pairs are sorted as such.
func (a *Assembler) sortByHeight(kin *multibody.Workspace, order []int, up spatial.Vec3) {
	height, upper := a.height, a.upper
	for b := range height {
		height[b] = kin.Pose(b).P.Dot(up)
	}
	if !a.sortUppers(order) {
		byHeight := func(x, y int) int {
			if c := cmp.Compare(height[upper[y]], height[upper[x]]); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		}
		if !slices.IsSortedFunc(order, byHeight) { // the order is total: a sorted list is the sort's answer
			slices.SortFunc(order, byHeight)
		}
	}
}

// sortUppers sorts order (pairs in increasing index) by the height of
// their upper bodies, sorted by decreasing height, and reports true; or reports
// false, order unchanged, when two upper bodies compare equal in height.
func (a *Assembler) sortUppers(order []int) bool {
	height, upper := a.height, a.upper
	a.at = resizeInt(a.at, len(height))
	at := a.at
	for b := range at {
		at[b] = -1
	}
	us := a.uppers[:0]
	for _, i := range order {
		if u := upper[i]; at[u] < 0 {
			at[u] = 0
			us = append(us, u)
		}
	}
	a.uppers = us
	byHeight := func(x, y int) int { return cmp.Compare(height[y], height[x]) }
	slices.SortFunc(us, byHeight) // bodies of equal height end up next to each other
	for k := 1; k < len(us); k++ {
		if byHeight(us[k-1], us[k]) == 0 {
			return false
		}
	}
	for _, i := range order { // at[u]: the count of u's pairs, then where they start
		at[upper[i]]++
	}
	start := 0
	for _, u := range us {
		n := at[u]
		at[u] = start
		start += n
	}
	a.buf = resizeInt(a.buf, len(order))
	buf := a.buf
	for _, i := range order {
		u := upper[i]
		buf[at[u]] = i
		at[u]++
	}
	copy(order, buf)
	return true
}

// loadBody is the body that stands for b in the load estimate: the first
// body of its rigid group, or b itself when it is welded to the world.
func loadBody(m *multibody.Model, b int) int {
	if g := m.RigidGroup(b); g >= 0 {
		return g
	}
	return b
}

func resizeFloat(s []float64, n int) []float64 { return solver.Resize(s, n) }

// resizeInt returns s with length n, reusing its storage (its contents
// are the caller's to set); its growth is out of line (growFresh), so that
// the seven inlined sites keep no make in their hot code.
func resizeInt(s []int, n int) []int {
	if cap(s) < n {
		return growFresh(s, n)
	}
	return s[:n]
}

// growFloat returns a slice of n float64 with room to grow: the growth
// of addBodyRows' rows and Jacobian, out of its line (solver.Resize in
// line placed the call and its register moves, and the store's write
// barrier, between addBodyRows' hot blocks).
//
//go:noinline
func growFloat(s []float64, n int) []float64 { return solver.Resize(s, n) }

// growFresh returns a zeroed slice of n elements with room to grow, for a
// slice s whose storage is too short (its contents are not kept): the
// growth of resizeInt and of Assemble's pair states, out of line.
//
//go:noinline
func growFresh[T any](s []T, n int) []T { return make([]T, n, max(n, 2*cap(s))) }

// nearRigid reports whether a contact's normal regularization rn is the
// near-rigid one of SAP eq. 29 rather than its material's compliance
// 1/(δt k (δt + τd)): a numerical stiffness, which the load-aware estimate
// may raise while the contact is deep, and which MaxRecoverySpeed caps. A
// compliant contact keeps its spring: capped, it could carry no more than
// k (δt + τd) v_max whatever its depth (1.6 kN for k = 5·10⁵ N/m, the
// default material against itself), and a heavy body on few contacts
// sank until other parts touched (the 411 kg Falcon: 74 mm); and its
// elastic rebound was clipped (a soft ball did not bounce).
func nearRigid(rn float64, mat *Material, dt float64) bool {
	return rn > solver.CompliantR(mat.Stiffness, mat.Dissipation, dt)
}

// regularization returns R_t (SAP eq. 30, or MuJoCo's soft friction at the
// gap phi: Material.SlipTime) and R_n (SAP eq. 29) for a contact with
// Delassus block w and combined material mat.
func regularization(w *spatial.Mat3, mat *Material, phi, dt float64, prm *Params) (rt, rn float64) {
	wt, wn := 0.5*(w[0][0]+w[1][1]), w[2][2]
	if prm.Delassus == DelassusRMS {
		wt = w.FrobeniusNorm() / 3 // ‖W_ii‖_rms, SAP §V-B
		wn = wt
	}
	rt = prm.Sigma * wt                             // eq. 30
	if mat.SlipTime > 0 && mat.SlipStiffness == 0 { // MuJoCo's soft friction at the contact's depth (softFrictionR)
		rt = softFrictionR(mat, wt, 0, phi, 0, dt)
	}
	rn = solver.Regularization(wn, prm.Beta, mat.Stiffness, mat.Dissipation, dt)
	return rt, rn
}
