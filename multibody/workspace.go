package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Workspace holds the kinematics of one configuration (q, v) of a Model and
// the scratch memory of the dynamics algorithms (CRBA, RNEA, ABA). It is
// created once per model and reused; after the first Update nothing it does
// allocates. All spatial quantities are in the world orientation, referred
// to each body's origin: a motion is (ω, v) with v the velocity (or classical
// acceleration) of the body origin, a force is (n, f) with n the moment about
// the body origin. Shifting between body origins is then a cross product
// with a link-sized lever arm, which keeps free bodies exact (their mass
// matrix is diag(I_W, m I) to the last bit when the origin is the centre of
// mass).
type Workspace struct {
	m   *Model
	x   []spatial.Pose // world pose of every body
	kin []bodyKin      // per body: velocities, κ, lever and centre of mass (bodyKin)
	col []motionCol    // per velocity index: motion subspace column at the body origin
	ic  []spatial.Mat3 // R Icom Rᵀ
	rot []bodyRot      // R = x.R.RotMat() of every moving body (worldInertia), which frames reuses
	tau []float64      // scratch generalized forces, length NV

	cm []float64      // composite mass (CRBA)
	cx []spatial.Vec3 // composite centre of mass, world
	ci []spatial.Mat3 // composite rotational inertia about cx
	rb []rneaBody     // RNEA's (and ABA's) accelerations and forces per body

	ia      []mat6          // ABA articulated inertias
	pa      []vec6          // ABA bias forces
	u       []mat6          // U = IA S (6×n, columns)
	dfac    []mat6          // Cholesky factor of D = Sᵀ U
	uu      []vec6          // u = τ − Sᵀ pA
	v       []float64       // the v of the last Update (not copied), for the armature's kinetic energy (keepV)
	arm     []float64       // per velocity index: its joint's DOFArmature, read once (dofArmatures)
	keepV   bool            // some velocity has an armature: Update keeps v for KineticEnergy
	fr      []jointFrames   // per body: the joint's constant frames (frames.go)
	top     []bodyTop       // per body: its tree, parent and velocities, which the dynamics passes walk
	kind    []uint8         // per body: how Update moves it (bodyKinds)
	cw, cl  [6]spatial.Vec3 // scratch: a joint's subspace columns in F (not cleared per joint)
	walk    compoundWalk    // scratch: the last compound joint's parts as frames walked them
	mo      spatial.Pose    // scratch: the last joint's X_FM(q) (frames)
	sf, sm  spatial.Pose    // scratch: the last move's world frames F and M (frames), not zeroed on its stack
	rf      spatial.Mat3    // scratch: the last joint's R_WF when frames makes it
	axes    []partAxis      // the compound joints' revolute parts' unit axes (walkRotations)
	slides  []spatial.Vec3  // at axes' indices: a compound of slides' columns in F (slideAxes)
	wc      jointCols       // scratch: the last joint's columns in the world orientation (worldColumns)
	updated bool
}

// rootPose and zeroVec are the pose and velocities of a root's parent, the
// world, which Update passes by pointer; they are never written.
var (
	rootPose = spatial.PoseIdentity()
	zeroVec  spatial.Vec3
)

type (
	vec6 [6]float64
	mat6 [6][6]float64
)

// motionCol is one velocity's motion subspace column at its body's
// origin in the world orientation: (W, L), angular and linear, side by
// side, so that one index (and one bounds check) reaches both.
type motionCol struct{ w, l spatial.Vec3 }

// at returns the column's velocity of the point at r from its body's
// origin, L + W × r, on scalars: a point Jacobian's column, as
// PointJacobian makes it (AddWrench).
func (c *motionCol) at(r0, r1, r2 float64) (float64, float64, float64) {
	W, L := &c.w, &c.l
	e0, e1, e2 := cross(W[0], W[1], W[2], r0, r1, r2)
	return L[0] + e0, L[1] + e1, L[2] + e2
}

// NewWorkspace returns a workspace for model m. It reads what does not
// change on a step once (the joints' frames and armatures, the bodies'
// kinds): a model edited after needs a new workspace.
func NewWorkspace(m *Model) *Workspace {
	n := len(m.Bodies)
	ws := &Workspace{
		m: m, x: make([]spatial.Pose, n), kin: make([]bodyKin, n),
		col: make([]motionCol, m.NV),
		ic:  make([]spatial.Mat3, n), rot: make([]bodyRot, n), tau: make([]float64, m.NV),
		cm: make([]float64, n), cx: make([]spatial.Vec3, n), ci: make([]spatial.Mat3, n),
		rb: make([]rneaBody, n),
		ia: make([]mat6, n), pa: make([]vec6, n), u: make([]mat6, n), dfac: make([]mat6, n), uu: make([]vec6, n),
		fr: frameCache(m), top: topology(m), kind: bodyKinds(m),
	}
	ws.axes, ws.slides = partAxes(m, ws.fr)
	planarRoots(m, ws.fr)
	planarKinds(ws.kind, ws.fr)
	ws.constants()
	ws.arm, ws.keepV = dofArmatures(m)
	return ws
}

// dofArmatures returns every velocity's rotor inertia (Joint.DOFArmature),
// by global velocity index, which the step reads without walking a
// compound's parts, and whether any is positive (Joint.HasArmature): only
// then does KineticEnergy read the v of the last Update.
func dofArmatures(m *Model) ([]float64, bool) {
	arm, some := make([]float64, m.NV), false
	for b := range m.Bodies {
		body := &m.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		for k := range body.Joint.NV() {
			arm[body.VOff+k] = body.Joint.DOFArmature(k)
			some = some || arm[body.VOff+k] > 0
		}
	}
	return arm, some
}

// bodyKin is what Update finds for a body besides its pose, all in the
// world orientation, in one slice: one bounds check and one base pointer
// for the passes that read several of them (Update, rnea).
type bodyKin struct {
	w, vel spatial.Vec3 // angular velocity and origin velocity
	kw, kl spatial.Vec3 // velocity-product accelerations κ (angular, linear)
	lev    spatial.Vec3 // x_B − x_P: the origin from its parent's, which RNEA, CRBA and ABA read (not at a root)
	com    spatial.Vec3 // R·Com: centre of mass relative to the body origin
	m      float64      // the body's mass, beside com for rnea (which then reads no Body)
}

// rneaBody is what RNEA finds for a body: its accelerations (α, a) of its
// origin and the force (n, f) its subtree exerts on it, about its origin
// (ABA keeps its accelerations in al and ac). One slice of them, not four,
// is one bounds check and one base pointer for rnea's passes.
type rneaBody struct {
	al, ac, fn, ff spatial.Vec3
}

// bodyRot is a body's rotation matrix R = q.RotMat() with the quaternion q
// it was made from (frames for a child checks q, so a matrix that no longer
// belongs to the body's pose, or was never made, is not used).
type bodyRot struct {
	q spatial.Quat
	R spatial.Mat3
}

// bodyTop is what the dynamics passes (rnea, crbaColumns) read of a body
// for every body and ancestor they visit: its tree (−1: welded to the
// world), its joint's parent, first velocity and velocity count, kept
// small and together instead of read from the Body.
type bodyTop struct {
	tree, parent, voff, nv int32
}

// topology reads every body's bodyTop.
func topology(m *Model) []bodyTop {
	top := make([]bodyTop, len(m.Bodies))
	for b := range top {
		body := &m.Bodies[b]
		top[b] = bodyTop{tree: int32(body.Tree), parent: int32(body.Joint.Parent), voff: int32(body.VOff), nv: int32(body.Joint.NV())}
	}
	return top
}

// frameCache reads every body's joint frames.
func frameCache(m *Model) []jointFrames {
	fr := make([]jointFrames, len(m.Bodies))
	for b := range fr {
		fr[b] = newJointFrames(m, b)
	}
	return fr
}

// Update computes the kinematics at (q, v): body poses, velocities, motion
// subspaces at the body origins and the velocity-product accelerations κ.
// v may be nil (rest). For a joint between frames F (on the parent P) and M
// (on the body B), with R = R_WF, d = x_B − x_M and r_PM = x_M − x_P:
//
//	ω_B = ω_P + R Σ w_k v_k,  v_B = v_P + ω_P × r_PM + R Σ l_k v_k + ω_B × d
//	κ_α = R (Ṡv)_ω + ω_P × ω_FM
//	κ_a = ω_P×(ω_P×r_PM) + R (Ṡv)_l + 2 ω_P × v_FM + κ_α × d + ω_B×(ω_B×d)
//
// so that the classical accelerations are α_B = α_P + Σ W_k a_k + κ_α and
// a_B = a_P + α_P × (x_B − x_P) + Σ L_k a_k + κ_a (Featherstone, RBDA §3.5,
// written for classical accelerations).
//
// Each body's move (moves) reads its parent's pose and velocities
// (parent) and its own velocities in v, and ends with worldInertia, so
// that the loop keeps only its own state (ws, q, v, the index) across the
// call: the parent's three pointers, the body's velocity slice, the lever
// and the inertia's call here took about a hundred instructions a body,
// most of them spills and reloads around the call (pass 234).
func (ws *Workspace) Update(q, v []float64) {
	for b, k := range ws.kind {
		if k != kindFixed { // a fixed body's pose and zero velocities are written at New (constants)
			moves[k](ws, q, v, b) // one call site, not one per kind
		}
	}
	if ws.keepV { // else KineticEnergy does not read v: no pointer store (write barrier)
		ws.v = v
	}
	ws.updated = true
}

// Update's ways of moving a body (bodyKinds, fixed at NewWorkspace from the
// body's tree and joint): welded to the world, a free joint under the world
// (freeRoot), a revolute joint (hinge), a prismatic joint or a compound
// of slides (slide), a weld under a moving parent (weld), and any other joint
// (joint), of which a planar root whose constant columns apply moves by
// planarRoot (planarKinds).
const (
	kindJoint uint8 = iota
	kindFixed
	kindFreeRoot
	kindHinge
	kindSlides
	kindWeld
	kindPlanar
)

// moves holds the function Update calls for each kind of body but
// kindFixed, with the coordinates q and the velocities v (nil: at rest)
// of the whole model.
var moves = [...]func(ws *Workspace, q, v []float64, b int){
	kindJoint:    (*Workspace).joint,
	kindFreeRoot: (*Workspace).freeRoot,
	kindHinge:    (*Workspace).hinge,
	kindSlides:   (*Workspace).slide,
	kindWeld:     (*Workspace).weld,
	kindPlanar:   (*Workspace).planarRoot,
}

// parent returns body b's parent's world pose xp and velocities (wp, vp):
// the world's identity and zeros (never written) at a root.
func (ws *Workspace) parent(b int) (xp *spatial.Pose, wp, vp *spatial.Vec3) {
	if p := ws.top[b].parent; p >= 0 {
		k := &ws.kin[p]
		return &ws.x[p], &k.w, &k.vel
	}
	return &rootPose, &zeroVec, &zeroVec
}

// velocities returns v from the body's first velocity voff on (nil at
// rest).
func velocities(v []float64, voff int) []float64 {
	if v == nil {
		return nil
	}
	return v[voff:]
}

// bodyKinds returns the way Update moves each body of m.
func bodyKinds(m *Model) []uint8 {
	kinds := make([]uint8, len(m.Bodies))
	for b := range kinds {
		body := &m.Bodies[b]
		switch t := body.Joint.Type; {
		case body.Tree < 0:
			kinds[b] = kindFixed
		case t == JointFree && body.Joint.Parent < 0:
			kinds[b] = kindFreeRoot
		case t == JointRevolute:
			kinds[b] = kindHinge
		case t == JointPrismatic || (t == JointCompound && body.Joint.slides):
			kinds[b] = kindSlides
		case t == JointWeld:
			kinds[b] = kindWeld
		}
	}
	return kinds
}

// joint computes body b's pose, velocity, subspace columns and κ from its
// parent's pose xp and velocity (wp, vp). On the planar robots' root
// (fr.planar) the columns in the world orientation are constants, read
// instead of made when planarSubspace's sums are its +0 (planarHolds).
func (ws *Workspace) joint(q, v []float64, b int) {
	xp, wp, vp := ws.parent(b)
	body := &ws.m.Bodies[b]
	vj := velocities(v, body.VOff)
	xm, xb := &ws.sm, &ws.x[b]
	R := ws.frames(q, b, xp, &ws.sf, xm, xb, true)
	var cols *jointCols
	if pc := ws.fr[b].planar; pc != nil && body.Joint.planarHolds(vj, &pc.fw, &pc.fl, &ws.walk.xm.P) {
		cols = &pc.world
	} else {
		cols = ws.worldColumns(q, vj, b, R)
	}
	// With W_k = R cw_k, l_k = R cl_k, d = x_B − x_M, r_PM = x_M − x_P,
	// ω_j = Σ q̇_k W_k and v_j = Σ q̇_k l_k:
	//
	//	S_k = (W_k, l_k + W_k × d),  ω = ω_P + ω_j,
	//	v = (v_P + ω_P × r_PM + v_j) + ω × d,  κ_α = R sw + ω_P × ω_j,
	//	κ_a = ((ω_P × (ω_P × r_PM) + R sl) + 2 ω_P × v_j) + κ_α × d + ω × (ω × d),
	//
	// each sum in that order, on scalars (Go keeps a Vec3, an array, in
	// memory): the bits of the Vec3 form (TestJointMatchesVectorForm).
	d0, d1, d2 := xb.P[0]-xm.P[0], xb.P[1]-xm.P[1], xb.P[2]-xm.P[2]
	wj0, wj1, wj2, lj0, lj1, lj2 := ws.jointColumns(cols, body.VOff, body.Joint.NV(), vj, d0, d1, d2)
	p0, p1, p2 := wp[0], wp[1], wp[2]
	w0, w1, w2 := p0+wj0, p1+wj1, p2+wj2
	r0, r1, r2 := xm.P[0]-xp.P[0], xm.P[1]-xp.P[1], xm.P[2]-xp.P[2]
	a0, a1, a2 := cross(p0, p1, p2, r0, r1, r2) // ω_P × r_PM
	e0, e1, e2 := cross(w0, w1, w2, d0, d1, d2) // ω × d
	ws.kin[b].w = spatial.Vec3{w0, w1, w2}
	ws.kin[b].vel = spatial.Vec3{((vp[0] + a0) + lj0) + e0, ((vp[1] + a1) + lj1) + e1, ((vp[2] + a2) + lj2) + e2}
	s0, s1, s2 := cols.sw[0], cols.sw[1], cols.sw[2]
	t0, t1, t2 := cross(p0, p1, p2, wj0, wj1, wj2)
	k0, k1, k2 := s0+t0, s1+t1, s2+t2 // κ_α
	ws.kin[b].kw = spatial.Vec3{k0, k1, k2}
	a0, a1, a2 = cross(p0, p1, p2, a0, a1, a2) // ω_P × (ω_P × r_PM)
	s0, s1, s2 = cols.sl[0], cols.sl[1], cols.sl[2]
	t0, t1, t2 = cross(p0, p1, p2, lj0, lj1, lj2)
	c0, c1, c2 := cross(k0, k1, k2, d0, d1, d2) // κ_α × d
	e0, e1, e2 = cross(w0, w1, w2, e0, e1, e2)  // ω × (ω × d)
	ws.kin[b].kl = spatial.Vec3{
		(((a0 + s0) + 2*t0) + c0) + e0,
		(((a1 + s1) + 2*t1) + c1) + e1,
		(((a2 + s2) + 2*t2) + c2) + e2,
	}
	ws.worldInertia(b, &body.Inertia, xp)
}

// jointColumns writes the n subspace columns S_k = (W_k, M_k + W_k × d)
// of the joint with first velocity i from its columns (W_k, M_k) in the
// world orientation, cols, into ws.col, and returns ω_j = Σ q̇_k W_k and
// v_j = Σ q̇_k M_k, each sum from +0 in the order of k (+0 at rest, vj
// nil), on scalars: for joint and planarRoot.
func (ws *Workspace) jointColumns(cols *jointCols, i, n int, vj []float64, d0, d1, d2 float64) (wj0, wj1, wj2, lj0, lj1, lj2 float64) {
	for k := range n {
		W, M := &cols.w[k], &cols.l[k]
		W0, W1, W2, m0, m1, m2 := W[0], W[1], W[2], M[0], M[1], M[2]
		c0, c1, c2 := cross(W0, W1, W2, d0, d1, d2)
		c := &ws.col[i+k] // one store each: a tuple assignment went through the stack
		c.w = spatial.Vec3{W0, W1, W2}
		c.l = spatial.Vec3{m0 + c0, m1 + c1, m2 + c2}
		if vj != nil {
			s := vj[k]
			wj0, wj1, wj2 = wj0+s*W0, wj1+s*W1, wj2+s*W2
			lj0, lj1, lj2 = lj0+s*m0, lj1+s*m1, lj2+s*m2
		}
	}
	return wj0, wj1, wj2, lj0, lj1, lj2
}

// jointCols is a joint's subspace columns and Ṡv in the world orientation,
// W_k = R w_k, M_k = R l_k, R sw and R sl with R = R_WF: joint's products
// with R, made by rotate.
type jointCols struct {
	w, l   [6]spatial.Vec3 // up to a free joint's six
	sw, sl spatial.Vec3
}

// rotate sets c to the n columns (w_k, l_k) in F and Ṡv = (sw, sl)
// turned by R (Mat3.MulVec's operations on scalars).
func (c *jointCols) rotate(R *spatial.Mat3, w, l *[6]spatial.Vec3, sw, sl vec3, n int) {
	for k := range n {
		W, L := &c.w[k], &c.l[k]
		W[0], W[1], W[2] = mulVec(R, w[k][0], w[k][1], w[k][2])
		L[0], L[1], L[2] = mulVec(R, l[k][0], l[k][1], l[k][2])
	}
	c.sw[0], c.sw[1], c.sw[2] = mulVec(R, sw.x, sw.y, sw.z)
	c.sl[0], c.sl[1], c.sl[2] = mulVec(R, sl.x, sl.y, sl.z)
}

// worldColumns makes body b's subspace columns and Ṡv in F at velocities
// vj and returns them turned by R (into ws.wc), for joint. It is out of
// line: on the planar robots, the only users of joint among the models
// measured, the step reads the root's constant columns instead.
//
//go:noinline
func (ws *Workspace) worldColumns(q, vj []float64, b int, R *spatial.Mat3) *jointCols {
	body := &ws.m.Bodies[b]
	cw, cl := &ws.cw, &ws.cl // subspace writes the NV columns read below
	var sw, sl vec3          // in registers, not through the stack (compoundSubspaceAt)
	switch {
	case body.Joint.Type == JointCompound && ws.fr[b].oneTurn:
		if ws.fr[b].bare { // the walk (bareWalk) kept xm alone
			ws.walkRotations(&body.Joint, &ws.fr[b], q[body.QOff:])
		}
		sw, sl = body.Joint.planarSubspace(&ws.walk, vj, cw, cl) // Ṡv = 0 after slides
	case body.Joint.Type == JointCompound && ws.fr[b].rotsAtOrigin:
		sw, sl = body.Joint.rotsSubspace(&ws.walk, vj, cw, cl) // walkRotations' frames
	case body.Joint.Type == JointCompound && ws.fr[b].hinges:
		sw, sl = body.Joint.hingesSubspace(&ws.walk, vj, cw, cl) // walkHinges' frames
	case body.Joint.Type == JointCompound:
		sw, sl = body.Joint.compoundSubspaceAt(&ws.walk, vj, cw, cl) // the parts as frames walked them
	default:
		w, l := body.Joint.subspace(q[body.QOff:], vj, cw, cl)
		sw, sl = vecOf(&w), vecOf(&l)
	}
	ws.wc.rotate(R, cw, cl, sw, sl, body.Joint.NV())
	return &ws.wc
}

// hinge is joint for a revolute joint, written out for its one subspace
// column (a, 0), a the joint's Axis, and Ṡ = 0 (sw = sl = 0): frames,
// then the revolute joint's terms. It leaves out the products with the
// zero half of the column and with sw and sl, whose terms are exact zeros,
// so that for finite inputs it gives joint's bits up to the sign of a zero
// (TestJoint1MatchesJoint). With R = R_WF, d = x_B − x_M and r_PM = x_M −
// x_P (Vec3.Sub's differences, on scalars), W = R a and ω_j = q̇ W,
//
//	S = (W, W × d),  ω = ω_P + ω_j,  v = v_P + ω_P × r_PM + ω × d,
//	κ_α = ω_P × ω_j,  κ_a = ω_P × (ω_P × r_PM) + κ_α × d + ω × (ω × d),
//
// each sum in that order, on scalars (Go keeps a Vec3, an array, in
// memory): the bits of the Vec3 form (TestRevoluteMatchesVectorForm).
// The terms are made here, not in a call of their own (revolute until
// the 198th pass), whose twelve arguments were moved into place and
// whose prologue ran on every hinge.
func (ws *Workspace) hinge(q, v []float64, b int) {
	xp, wp, vp := ws.parent(b)
	xm, xb := &ws.sm, &ws.x[b]
	R := ws.frames(q, b, xp, &ws.sf, xm, xb, true)
	body := &ws.m.Bodies[b]
	vel := 0.0
	if v != nil {
		vel = v[body.VOff]
	}
	x, m, p := &xb.P, &xm.P, &xp.P
	d0, d1, d2 := x[0]-m[0], x[1]-m[1], x[2]-m[2]
	// Each output is stored once made, and ω_P read again from wp after
	// those stores rather than kept in registers (pass 180: Go spilled about
	// twenty values a call); wp, vp, R and the axis are the parent's and the
	// model's, not body b's, so the stores do not change them.
	axis := &body.Joint.Axis
	W0, W1, W2 := mulVec(R, axis[0], axis[1], axis[2])
	ci := &ws.col[body.VOff]
	ci.w = spatial.Vec3{W0, W1, W2}
	c0, c1, c2 := cross(W0, W1, W2, d0, d1, d2)
	ci.l = spatial.Vec3{c0, c1, c2}
	j0, j1, j2 := vel*W0, vel*W1, vel*W2 // ω_j
	k := &ws.kin[b]                      // kin[b] taken once: one bounds check, not four
	p0, p1, p2 := wp[0], wp[1], wp[2]
	w0, w1, w2 := p0+j0, p1+j1, p2+j2
	k.w = spatial.Vec3{w0, w1, w2}
	k0, k1, k2 := cross(p0, p1, p2, j0, j1, j2) // κ_α
	k.kw = spatial.Vec3{k0, k1, k2}
	c0, c1, c2 = cross(k0, k1, k2, d0, d1, d2)    // κ_α × d
	r0, r1, r2 := m[0]-p[0], m[1]-p[1], m[2]-p[2] // r_PM, made where used: fewer values live
	a0, a1, a2 := cross(p0, p1, p2, r0, r1, r2)   // ω_P × r_PM
	e0, e1, e2 := cross(w0, w1, w2, d0, d1, d2)   // ω × d
	k.vel = spatial.Vec3{(vp[0] + a0) + e0, (vp[1] + a1) + e1, (vp[2] + a2) + e2}
	a0, a1, a2 = cross(wp[0], wp[1], wp[2], a0, a1, a2)    // ω_P × (ω_P × r_PM)
	e0, e1, e2 = cross(k.w[0], k.w[1], k.w[2], e0, e1, e2) // ω × (ω × d)
	k.kl = spatial.Vec3{(a0 + c0) + e0, (a1 + c1) + e1, (a2 + c2) + e2}
	ws.worldInertia(b, &body.Inertia, xp)
}

// slide is joint for a prismatic joint or a compound joint of slides
// alone: frames, then the prismatic joint's terms, with d = x_B − x_M and
// r_PM = x_M − x_P (Vec3.Sub's differences, on scalars) and its columns
// l_k in F slideAxes'. A compound of slides (point_mass, ball_in_cup) is a
// prismatic joint of several columns, (0, l_k) with l_k its parts'
// compoundColumns (constants: every part follows the identity rotation),
// and Ṡ = 0 (no part turns the next) (TestKinfootSlidesMatchJoint). With
// L_k = R l_k, R = R_WF, and v_j = Σ q̇_k L_k (vj nil: at rest),
//
//	S_k = (0, L_k),  ω = ω_P,  v = v_P + ω_P × r_PM + v_j + ω_P × d,  κ_α = 0,
//	κ_a = ω_P × (ω_P × r_PM) + 2 ω_P × v_j + ω_P × (ω_P × d),
//
// each sum in that order, on scalars: the bits of the Vec3 form
// (TestPrismaticMatchesVectorForm). The sum v_j starts from −0, which
// leaves its first term as it is (−0 + x is x, −0 included). The terms
// are made here, not in a call of their own (prismatic until the 198th
// pass), and d and r_PM after the columns, whose stores do not touch the
// poses they are read from.
func (ws *Workspace) slide(q, v []float64, b int) {
	xp, wp, vp := ws.parent(b)
	xm, xb := &ws.sm, &ws.x[b]
	R := ws.frames(q, b, xp, &ws.sf, xm, xb, true)
	ws.kin[b].w = *wp
	tb := &ws.top[b]
	i, axes := int(tb.voff), ws.slideAxes(b, int(tb.nv))
	j0 := math.Copysign(0, -1)
	j1, j2 := j0, j0
	for k := range axes {
		a := &axes[k]
		L0, L1, L2 := mulVec(R, a[0], a[1], a[2])
		vel := 0.0
		if v != nil {
			vel = v[i+k]
		}
		j0, j1, j2 = j0+vel*L0, j1+vel*L1, j2+vel*L2
		c := &ws.col[i+k] // stored in place, not through a Vec3 on the stack
		c.w, c.l[0], c.l[1], c.l[2] = spatial.Vec3{}, L0, L1, L2
	}
	x, m, p := &xb.P, &xm.P, &xp.P
	p0, p1, p2 := wp[0], wp[1], wp[2]
	a0, a1, a2 := cross(p0, p1, p2, m[0]-p[0], m[1]-p[1], m[2]-p[2]) // ω_P × r_PM
	e0, e1, e2 := cross(p0, p1, p2, x[0]-m[0], x[1]-m[1], x[2]-m[2]) // ω_P × d
	ws.kin[b].vel = spatial.Vec3{((vp[0] + a0) + j0) + e0, ((vp[1] + a1) + j1) + e1, ((vp[2] + a2) + j2) + e2}
	ws.kin[b].kw = spatial.Vec3{}
	a0, a1, a2 = cross(p0, p1, p2, a0, a1, a2) // ω_P × (ω_P × r_PM)
	c0, c1, c2 := cross(p0, p1, p2, j0, j1, j2)
	e0, e1, e2 = cross(p0, p1, p2, e0, e1, e2) // ω_P × (ω_P × d)
	ws.kin[b].kl = spatial.Vec3{(a0 + 2*c0) + e0, (a1 + 2*c1) + e1, (a2 + 2*c2) + e2}
	ws.worldInertia(b, &ws.m.Bodies[b].Inertia, xp)
}

// slideAxes returns body b's columns l_k in F for prismatic: a prismatic
// joint's Axis or a compound of slides' compoundColumns, both read once
// into ws.slides at the body's part0 (partAxes), nv of them: no Body read
// and no branch on the joint's type.
func (ws *Workspace) slideAxes(b, nv int) []spatial.Vec3 {
	p0 := int(ws.fr[b].part0)
	return ws.slides[p0 : p0+nv]
}

// weld is joint for a weld (a body without a joint under a moving
// parent: MJCF's body without a joint, such as the dm reacher's finger):
// with no velocity, ω = ω_P and
//
//	v = v_P + ω_P × r_PM + ω_P × d,  κ_α = 0,
//	κ_a = ω_P × (ω_P × r_PM) + ω_P × (ω_P × d),
//
// each sum in that order, on scalars. joint's terms with the empty
// subspace (ω_j, v_j, R sw, R sl and the products with them) are exact
// zeros, so for finite inputs weld gives joint's bits up to the sign of a
// zero without R_WF or the subspace (TestWeldMatchesJoint).
func (ws *Workspace) weld(q, _ []float64, b int) {
	xp, wp, vp := ws.parent(b)
	xm, xb := &ws.sm, &ws.x[b]
	ws.frames(q, b, xp, &ws.sf, xm, xb, false) // no R_WF (the subspace is empty)
	d0, d1, d2 := xb.P[0]-xm.P[0], xb.P[1]-xm.P[1], xb.P[2]-xm.P[2]
	r0, r1, r2 := xm.P[0]-xp.P[0], xm.P[1]-xp.P[1], xm.P[2]-xp.P[2]
	p0, p1, p2 := wp[0], wp[1], wp[2]
	a0, a1, a2 := cross(p0, p1, p2, r0, r1, r2) // ω_P × r_PM
	e0, e1, e2 := cross(p0, p1, p2, d0, d1, d2) // ω_P × d
	// kin[b] taken once: one bounds check, not four.
	k := &ws.kin[b]
	k.w = *wp
	k.vel = spatial.Vec3{(vp[0] + a0) + e0, (vp[1] + a1) + e1, (vp[2] + a2) + e2}
	k.kw = spatial.Vec3{}
	a0, a1, a2 = cross(p0, p1, p2, a0, a1, a2) // ω_P × (ω_P × r_PM)
	e0, e1, e2 = cross(p0, p1, p2, e0, e1, e2) // ω_P × (ω_P × d)
	k.kl = spatial.Vec3{a0 + e0, a1 + e1, a2 + e2}
	ws.worldInertia(b, &ws.m.Bodies[b].Inertia, xp)
}

// freeCols is a free joint's motion subspace columns in the world,
// (e_k, 0) and (0, e_k): the angular velocity's, then the linear
// velocity's (Workspace.freeRoot).
var freeCols = [6]motionCol{
	{w: spatial.Vec3{1, 0, 0}}, {w: spatial.Vec3{0, 1, 0}}, {w: spatial.Vec3{0, 0, 1}},
	{l: spatial.Vec3{1, 0, 0}}, {l: spatial.Vec3{0, 1, 0}}, {l: spatial.Vec3{0, 0, 1}},
}

// freeRoot is joint for a free joint whose parent is the world (every body
// of a scene of free bodies), written out: its frames F and M are the world and the
// body (d = 0, R = I), its subspace columns are the unit vectors, ω and v
// are v's six entries, and κ = 0 (Ṡ = 0 and the parent is at rest). It
// gives what joint gives, without the twelve rotations by the identity;
// the columns and κ, the same at every (q, v), are written once by
// constants.
// The pose and velocities are stored field by field in place (freePose's
// value and the zeroed Vec3s went through the stack).
func (ws *Workspace) freeRoot(q, v []float64, b int) {
	body := &ws.m.Bodies[b]
	p := (*[7]float64)(q[body.QOff:])
	r := jointQuat(p[:4])
	x, k := &ws.x[b], &ws.kin[b]
	x.R = r
	x.P = spatial.Vec3{p[4], p[5], p[6]}
	if v == nil {
		k.w, k.vel = spatial.Vec3{}, spatial.Vec3{}
	} else {
		u := (*[6]float64)(v[body.VOff:])
		k.w = spatial.Vec3{u[0], u[1], u[2]}
		k.vel = spatial.Vec3{u[3], u[4], u[5]}
	}
	ws.worldInertia(b, &body.Inertia, &rootPose)
}

// constants writes what Update would write the same at every call: a
// fixed body's (welded to the world) pose, the model's Pose, and its zero
// velocities, and each free root's unit columns (freeCols) and κ = 0
// (freeRoot). Nothing else writes a body's pose, velocities, columns or
// κ, and the workspace keeps the model's frames from New (jointFrames).
func (ws *Workspace) constants() {
	for b, k := range ws.kind {
		if k == kindFixed {
			ws.x[b], ws.kin[b].w, ws.kin[b].vel = ws.m.Bodies[b].Pose, spatial.Vec3{}, spatial.Vec3{}
		}
		if k != kindFreeRoot {
			continue
		}
		i := ws.m.Bodies[b].VOff
		*(*[6]motionCol)(ws.col[i:]) = freeCols
		ws.kin[b].kw, ws.kin[b].kl = spatial.Vec3{}, spatial.Vec3{}
	}
}

// Pose returns the world pose of body b at the last Update.
func (ws *Workspace) Pose(b int) spatial.Pose { return ws.x[b] }

// Velocity returns the angular velocity and origin velocity of body b at the
// last Update.
func (ws *Workspace) Velocity(b int) (w, v spatial.Vec3) { return ws.kin[b].w, ws.kin[b].vel }

// PoseOf returns body b's world pose at the last Update in place, without
// a copy (Pose's 56 bytes): read only, and valid until the next Update.
func (ws *Workspace) PoseOf(b int) *spatial.Pose { return &ws.x[b] }

// VelocityOf returns body b's angular and origin velocities at the last
// Update in place, without copies: read only, and valid until the next
// Update.
func (ws *Workspace) VelocityOf(b int) (w, v *spatial.Vec3) { return &ws.kin[b].w, &ws.kin[b].vel }

// PointJacobian writes the 3×NV_t block of the Jacobian of the world velocity
// of the material point of body b at world position p (see
// Model.PointJacobian) using the kinematics of the last Update, and returns
// the tree index, or −1 for a body welded to the world.
func (ws *Workspace) PointJacobian(b int, p spatial.Vec3, out []float64) int {
	m := ws.m
	t := m.Bodies[b].Tree
	if t < 0 {
		return -1
	}
	tr := &m.Trees[t]
	n := tr.NV
	if j := &m.Bodies[b].Joint; j.Type == JointFree && j.Parent < 0 && n == 6 {
		ws.freeJacobian(b, p, out)
		return t
	}
	// The path to the root on the compact topology (bodyTop) and the
	// workspace's slices in locals, so that the stores into out do not make
	// Go reload them; the same operations on the same values.
	ox, oy, oz := out[:n], out[n:2*n], out[2*n:3*n]
	clear(out[:3*n])
	// The tree's own columns by the tree-local index c (pass 180), as
	// crbaColumns walks them: tcol, ox, oy and oz are all n long.
	off, top, x := tr.VOffset, ws.top, ws.x
	tcol := ws.col[off : off+n]
	x = x[:len(top)] // one length: top[a]'s check covers x[a]
	for a := b; a >= 0; {
		tp := top[a]
		xa := &x[a].P
		r0, r1, r2 := p[0]-xa[0], p[1]-xa[1], p[2]-xa[2]
		for c, end := int(tp.voff)-off, int(tp.voff)-off+int(tp.nv); c < end; c++ {
			// L + W × r, on scalars: motionCol.at written out (through
			// it Go allocated this loop's registers worse: +12 Ir a
			// half_cheetah step).
			W, L := &tcol[c].w, &tcol[c].l
			e0, e1, e2 := cross(W[0], W[1], W[2], r0, r1, r2)
			ox[c], oy[c], oz[c] = L[0]+e0, L[1]+e1, L[2]+e2
		}
		a = int(tp.parent)
	}
	return t
}

// freeJacobian is PointJacobian for a lone free body b at world point p:
// freePointJacobian with its offset from the origin. It is out of line:
// inlined, its copies and subtractions sat between PointJacobian's check
// and its general path, in the lines that a robot's step fetches.
//
//go:noinline
func (ws *Workspace) freeJacobian(b int, p spatial.Vec3, out []float64) {
	freePointJacobian(p.Sub(ws.x[b].P), out)
}

// freePointJacobian writes the 3×6 point Jacobian of a lone free body at
// offset r from its origin: its columns e_k × r and e_k, which is what
// PointJacobian's L + W × r gives for the unit columns of
// Workspace.freeRoot, up to the sign of a zero, for a finite r
// (TestFreePointJacobianMatches).
func freePointJacobian(r spatial.Vec3, out []float64) {
	x, y, z := out[0:6], out[6:12], out[12:18]
	x[0], y[0], z[0] = 0, -r[2], r[1] // e_x × r
	x[1], y[1], z[1] = r[2], 0, -r[0] // e_y × r
	x[2], y[2], z[2] = -r[1], r[0], 0 // e_z × r
	x[3], y[3], z[3] = 1, 0, 0
	x[4], y[4], z[4] = 0, 1, 0
	x[5], y[5], z[5] = 0, 0, 1
}

// AngularJacobian writes the 3×NV_t block of the Jacobian of body b's
// angular velocity (the angular parts of the motion subspaces on its path to
// the root) into out and returns the tree index, or −1 for a body welded to
// the world.
func (ws *Workspace) AngularJacobian(b int, out []float64) int {
	m := ws.m
	t := m.Bodies[b].Tree
	if t < 0 {
		return -1
	}
	tr := &m.Trees[t]
	n := tr.NV
	ox, oy, oz := out[:n], out[n:2*n], out[2*n:3*n]
	clear(out[:3*n])
	col, top := ws.col, ws.top
	for a := b; a >= 0; { // on the compact topology, as PointJacobian
		tp := top[a]
		for i, end := int(tp.voff), int(tp.voff)+int(tp.nv); i < end; i++ {
			W := &col[i].w
			c := i - tr.VOffset
			ox[c], oy[c], oz[c] = W[0], W[1], W[2]
		}
		a = int(tp.parent)
	}
	return t
}

// KineticEnergy returns ½ vᵀ M v at the (q, v) of the last Update: the sum
// over bodies of ½ m ‖v_com‖² + ½ ωᵀ I_W ω, with the centre-of-mass
// velocity v_com = v_B + ω × (R c), plus ½ a v_k² for each joint velocity
// with armature a.
func (ws *Workspace) KineticEnergy() float64 {
	e := 0.0
	for b := range ws.m.Bodies {
		body := &ws.m.Bodies[b]
		if body.Tree < 0 || body.Inertia.Mass == 0 {
			continue
		}
		w := ws.kin[b].w
		vc := ws.kin[b].vel.Add(w.Cross(ws.kin[b].com))
		e += 0.5*w.Dot(ws.ic[b].MulVec(w)) + 0.5*body.Inertia.Mass*vc.Dot(vc)
	}
	if ws.v != nil {
		for b := range ws.m.Bodies {
			body := &ws.m.Bodies[b]
			if body.Tree < 0 || !body.Joint.HasArmature() {
				continue
			}
			for k := range body.Joint.NV() {
				vk := ws.v[body.VOff+k]
				e += 0.5 * body.Joint.DOFArmature(k) * vk * vk
			}
		}
	}
	return e
}
