package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// jointFrames holds what Workspace.Update needs of a joint's constant
// frames, read once from the model: X_WF of a root joint (the world
// composed with ParentFrame) and its rotation matrix, ChildFrame⁻¹, and which of the compositions
// X_WP·ParentFrame, X_WF·X_FM(q) and X_WM·ChildFrame⁻¹ have an identity
// rotation or a zero translation on the right. The fields every body's
// Update reads come first, then ChildFrame⁻¹, which compose reads unless
// it is the identity, and last the root joints' frames: a non-root body's
// Update then touches the first 96 bytes (two cache lines when aligned)
// instead of four lines of the struct's 224 bytes.
type jointFrames struct {
	parent, motion poseShape
	child          poseShape
	axisZero       bool // a revolute joint's axis is zero (X_FM = identity)
	// A compound joint's first part in Workspace.axes, and whether its
	// parts are all rotations through the origin (walkRotations).
	rotsAtOrigin bool
	oneTurn      bool // rotsAtOrigin with one revolute part, the last, after slides (planarSubspace)
	hinges       bool // revolute parts alone, not rotsAtOrigin (walkHinges, hingesSubspace)
	// bare: the step reads no part's frames of walkRotations (a planar
	// root, which reads them only where planarHolds fails, and a compound
	// of slides alone, which slide moves): bareWalk makes xm alone.
	bare        bool
	diagInertia bool // the body's Icom is diagonal
	part0       int32
	axis        spatial.Vec3 // a revolute joint's unit axis, as QuatFromAxisAngle normalizes it
	childInv    spatial.Pose
	rootF       spatial.Pose
	// rotF is R_WF.RotMat() of a root joint's rootF or a free joint's
	// identity (X_WF does not depend on q), as frames returns them: the
	// same bits as computing it every Update.
	rotF   spatial.Mat3
	planar *planarCols // a planar root's constant columns (planarRoots), else nil
}

// poseShape says whether a pose's rotation is exactly the identity or its
// translation exactly zero.
type poseShape struct{ rotI, pos0 bool }

// shapeOf returns the shape of pose x.
func shapeOf(x spatial.Pose) poseShape {
	return poseShape{rotI: x.R == spatial.QuatIdentity(), pos0: x.P == spatial.Vec3{}}
}

// newJointFrames reads body b's joint frames.
func newJointFrames(m *Model, b int) jointFrames {
	j := &m.Bodies[b].Joint
	f := jointFrames{
		rootF:    spatial.PoseIdentity().Compose(j.ParentFrame),
		childInv: j.ChildFrame.Inverse(),
		parent:   shapeOf(j.ParentFrame),
	}
	f.child = shapeOf(f.childInv)
	switch {
	case j.Type == JointFree:
		f.rotF = spatial.PoseIdentity().R.RotMat()
	case j.Parent < 0:
		f.rotF = f.rootF.R.RotMat()
	}
	var n float64
	f.axis, n = j.Axis.Normalize()
	f.axisZero = n == 0
	I := m.Bodies[b].Inertia.Icom
	f.diagInertia = I[0][1] == 0 && I[0][2] == 0 && I[1][0] == 0 && I[1][2] == 0 && I[2][0] == 0 && I[2][1] == 0
	switch j.Type {
	case JointRevolute, JointBall, JointUniversal:
		f.motion.pos0 = true
	case JointPrismatic:
		f.motion.rotI = true
	case JointWeld:
		f.motion.rotI, f.motion.pos0 = true, true // the identity motion
	}
	return f
}

// compose sets dst = x.Compose(y) for a y of shape s: spatial.ComposeTo,
// which leaves out the products with an identity rotation or a zero
// translation (exact, so the bits of x.Compose(y)) and which Pose.Compose
// shares (one copy of the code where the step composes poses elsewhere:
// the dm hopper's and stacker's sites and geometries). x and y are read
// before dst, which may be either of them, is written.
func compose(dst, x, y *spatial.Pose, s poseShape) {
	spatial.ComposeTo(dst, x, y, s.rotI, s.pos0)
}

// frames is Model.frames with the joint frames of fr: it writes the world
// poses of joint frames F and M and of body b into xf, xm and xb, given its
// parent's world pose xp (root: the identity, unused), and returns R_WF as
// a rotation matrix, which the joint functions need and which frames makes
// without a call of its own: the matrix read once from the model when F is
// fixed (jointFrames.rotF: a free or a root joint), else xf.R.RotMat(),
// made in ws.rf or reused: when ParentFrame's rotation is the identity,
// xf.R is X_WP.R renormalized, x/n componentwise, which leaves it as it was
// when |q| = 1 exactly (98% of the compositions on the planar robots and
// the ant). Then xf.R == q for the parent's kept (q, R_WP = q.RotMat())
// (bodyRot): equal nonzero numbers have the same bits and x/n keeps a
// zero's sign, so R_WP is xf.R.RotMat() to the bit. The matrix is read
// before the next frames. With rot false (a weld, whose velocities do not
// turn with F) it returns nil without choosing or making the matrix.
func (ws *Workspace) frames(q []float64, b int, xp, xf, xm, xb *spatial.Pose, rot bool) *spatial.Mat3 {
	body := &ws.m.Bodies[b]
	j, fr := &body.Joint, &ws.fr[b]
	qj := q[body.QOff:]
	if j.Type == JointFree {
		*xb = freePose(qj)
		*xf, *xm = spatial.PoseIdentity(), *xb
		return &fr.rotF
	}
	R := &fr.rotF
	if j.Parent < 0 {
		*xf = fr.rootF
	} else {
		compose(xf, xp, &j.ParentFrame, fr.parent)
		if !rot {
			R = nil
		} else if pr := &ws.rot[j.Parent]; fr.parent.rotI && xf.R == pr.q {
			R = &pr.R
		} else {
			R = &ws.rf
			xf.R.RotMatTo(R)
		}
	}
	compose(xm, xf, ws.motion(j, fr, qj, &ws.mo), fr.motion)
	compose(xb, xm, &fr.childInv, fr.child)
	return R
}

// motion returns X_FM(q) = j.motion(q), with a revolute joint's axis
// normalized once: QuatFromAxisAngle's operations on the stored unit axis,
// so the same bits. It writes the pose into mo and returns mo, except for a
// compound joint, whose walk through its parts is kept in ws.walk (from
// which Workspace.joint takes the subspace without walking the parts
// again) and whose pose it returns there, without a copy.
func (ws *Workspace) motion(j *Joint, fr *jointFrames, q []float64, mo *spatial.Pose) *spatial.Pose {
	switch {
	case j.Type == JointCompound && fr.rotsAtOrigin && fr.bare:
		ws.bareWalk(j, fr, q) // the pose alone
		return &ws.walk.xm
	case j.Type == JointCompound && fr.rotsAtOrigin:
		ws.walkRotations(j, fr, q) // kept for the joint's subspace (Workspace.joint)
		return &ws.walk.xm
	case j.Type == JointCompound && fr.hinges:
		ws.walkHinges(j, fr, q) // kept for hingesSubspace (Workspace.joint)
		return &ws.walk.xm
	case j.Type == JointCompound:
		ws.walk.walk(j, q)
		return &ws.walk.xm
	case j.Type == JointRevolute && !fr.axisZero:
		s, c := math.Sincos((q[0] - j.Ref) / 2)
		u := &fr.axis
		*mo = spatial.Pose{R: spatial.Quat{W: c, X: s * u[0], Y: s * u[1], Z: s * u[2]}}
	case j.Type == JointRevolute || j.Type == JointWeld:
		// A zero axis, and a weld (j.motion's identity, without its
		// call and switch: the dm stacker's and reacher's welded sites).
		*mo = spatial.PoseIdentity()
	default:
		*mo = j.motion(q)
	}
	return mo
}

// worldInertia sets body b's mass, centre of mass and rotational inertia in
// the world orientation, com = R c and ic = R I Rᵀ with R = x_b.R.RotMat() (kept in ws.rot), in
// place: the operations of Quat.RotMat, Mat3.MulVec and rotateInertia in
// the same order, on scalars, without copying the 72-byte matrices through
// memory (TestWorldInertiaMatchesVectorForm). It also sets the lever
// x_b − x_P to the parent's origin at xp (x.Sub(y) on scalars, which the
// dynamics passes read; at a root, y the world's +0, never read): the last
// step of every move.
func (ws *Workspace) worldInertia(b int, in *spatial.SpatialInertia, xp *spatial.Pose) {
	br := &ws.rot[b] // kept for the children's frames
	br.q = ws.x[b].R
	R := &br.R
	br.q.RotMatTo(R)
	c := &in.Com
	c0, c1, c2 := mulVec(R, c[0], c[1], c[2])
	k, x, y := &ws.kin[b], &ws.x[b].P, &xp.P
	k.lev = spatial.Vec3{x[0] - y[0], x[1] - y[1], x[2] - y[2]}
	k.com, k.m = spatial.Vec3{c0, c1, c2}, in.Mass
	if !ws.fr[b].diagInertia {
		rotateInertia(R, &in.Icom, &ws.ic[b])
		return
	}
	rotateDiagInertia(R, &in.Icom, &ws.ic[b])
}

// rotateInertia writes R I Rᵀ into out: spatial.RotateInertia's products
// R.Mul(I).Mul(R.T()), each entry's sum in the same order, on scalars and
// in place (TestWorldInertiaMatchesVectorForm). Row i of R I is
// x_j = R_i0 I_0j + R_i1 I_1j + R_i2 I_2j, and row i of (R I) Rᵀ is
// x_0 R_j0 + x_1 R_j1 + x_2 R_j2 = (R x)_j, mulVec's sum; out must not
// alias R or I.
func rotateInertia(R, I, out *spatial.Mat3) {
	for i := range 3 {
		a0, a1, a2 := R[i][0], R[i][1], R[i][2]
		x0 := a0*I[0][0] + a1*I[1][0] + a2*I[2][0]
		x1 := a0*I[0][1] + a1*I[1][1] + a2*I[2][1]
		x2 := a0*I[0][2] + a1*I[1][2] + a2*I[2][2]
		o0, o1, o2 := mulVec(R, x0, x1, x2)
		out[i] = spatial.Vec3{o0, o1, o2}
	}
}

// rotateDiagInertia writes R I Rᵀ into out for a diagonal I: R I is then
// R's columns scaled by the diagonal, which is what the full product
// (spatial.RotateInertia) gives (the other terms are exact zeros), so the
// result has the same bits up to the sign of a zero
// (TestRotateInertiaDiagMatchesVectorForm). Row i of (R I) Rᵀ is R x for
// x the row i of R I, as in rotateInertia; out must not alias R or I.
func rotateDiagInertia(R, I, out *spatial.Mat3) {
	d0, d1, d2 := I[0][0], I[1][1], I[2][2]
	for i := range 3 {
		o0, o1, o2 := mulVec(R, R[i][0]*d0, R[i][1]*d1, R[i][2]*d2)
		out[i] = spatial.Vec3{o0, o1, o2}
	}
}
