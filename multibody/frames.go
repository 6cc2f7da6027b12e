package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// jointFrames holds what Workspace.Update needs of a joint's constant
// frames, read once from the model: X_WF of a root joint (the world
// composed with ParentFrame) and its rotation matrix, ChildFrame⁻¹, and which of the compositions
// X_WP·ParentFrame, X_WF·X_FM(q) and X_WM·ChildFrame⁻¹ have an identity
// rotation or a zero translation on the right.
type jointFrames struct {
	rootF, childInv spatial.Pose
	// fixedF: X_WF does not depend on q (a root joint's rootF, a free
	// joint's identity, as frames returns them), and rotF is its R_WF.RotMat(),
	// the same bits as computing it every Update.
	fixedF         bool
	rotF           spatial.Mat3
	parent, motion poseShape
	child          poseShape
	axis           spatial.Vec3 // a revolute joint's unit axis, as QuatFromAxisAngle normalizes it
	axisZero       bool         // its axis is zero (X_FM = identity)
	diagInertia    bool         // the body's Icom is diagonal
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
		f.fixedF, f.rotF = true, spatial.PoseIdentity().R.RotMat()
	case j.Parent < 0:
		f.fixedF, f.rotF = true, f.rootF.R.RotMat()
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

// compose returns x.Compose(y) for a y of shape s, leaving out the products
// with an identity rotation or a zero translation. Those are exact
// (q·1 = q and x.Apply(0) = x.P componentwise, up to the sign of a zero),
// so the result has the bits of x.Compose(y): the rotation is still
// normalized, as Compose normalizes it.
func compose(x, y spatial.Pose, s poseShape) spatial.Pose {
	r := x.R
	if !s.rotI {
		r = r.Mul(y.R)
	}
	p := x.P
	if !s.pos0 {
		p = x.Apply(y.P)
	}
	return spatial.Pose{R: r.Normalize(), P: p}
}

// frames is Model.frames with the joint frames of fr: the world poses of
// joint frames F and M and of body b, given its parent's world pose xp
// (root: the identity, unused).
func (ws *Workspace) frames(q []float64, b int, xp spatial.Pose) (xf, xm, xb spatial.Pose) {
	body := &ws.m.Bodies[b]
	j, fr := &body.Joint, &ws.fr[b]
	qj := q[body.QOff:]
	if j.Type == JointFree {
		xb = j.motion(qj)
		return spatial.PoseIdentity(), xb, xb
	}
	if j.Parent < 0 {
		xf = fr.rootF
	} else {
		xf = compose(xp, j.ParentFrame, fr.parent)
	}
	xm = compose(xf, ws.motion(j, fr, qj), fr.motion)
	return xf, xm, compose(xm, fr.childInv, fr.child)
}

// rotF returns R_WF as a rotation matrix for body b's joint frame F at the
// world pose xf that frames returned: the matrix read once from the model
// when F is fixed (jointFrames.fixedF), xf.R.RotMat() otherwise.
func (ws *Workspace) rotF(b int, xf spatial.Pose) spatial.Mat3 {
	if fr := &ws.fr[b]; fr.fixedF {
		return fr.rotF
	}
	return xf.R.RotMat()
}

// motion is j.motion(q) with a revolute joint's axis normalized once:
// QuatFromAxisAngle's operations on the stored unit axis, so the same bits.
// A compound joint's walk through its parts is kept in ws.walk, from which
// Workspace.joint takes the subspace without walking the parts again.
func (ws *Workspace) motion(j *Joint, fr *jointFrames, q []float64) spatial.Pose {
	if j.Type == JointCompound {
		ws.walk.walk(j, q) // kept for the joint's subspace (Workspace.joint)
		return ws.walk.xm
	}
	if j.Type != JointRevolute {
		return j.motion(q)
	}
	if fr.axisZero {
		return spatial.PoseIdentity()
	}
	s, c := math.Sincos((q[0] - j.Ref) / 2)
	u := fr.axis
	return spatial.Pose{R: spatial.Quat{W: c, X: s * u[0], Y: s * u[1], Z: s * u[2]}}
}

// rotateInertia returns R I Rᵀ (spatial.RotateInertia) for a rotational
// inertia that is diagonal when diag is set: R I is then R's columns scaled
// by the diagonal, which is what the full product gives (the other terms
// are exact zeros), so the result has the same bits up to the sign of a
// zero.
func rotateInertia(R, I spatial.Mat3, diag bool) spatial.Mat3 {
	if !diag {
		return spatial.RotateInertia(R, I)
	}
	// (R I Rᵀ)_ij = (R_i0 I_0) R_j0 + (R_i1 I_1) R_j1 + (R_i2 I_2) R_j2, as
	// ri.Mul(R.T()) sums it with ri_i = (R_i0 I_0, R_i1 I_1, R_i2 I_2), on
	// scalars (TestRotateInertiaDiagMatchesVectorForm).
	i0, i1, i2 := I[0][0], I[1][1], I[2][2]
	var out spatial.Mat3
	for i := range 3 {
		a0, a1, a2 := R[i][0]*i0, R[i][1]*i1, R[i][2]*i2
		out[i] = spatial.Vec3{
			a0*R[0][0] + a1*R[0][1] + a2*R[0][2],
			a0*R[1][0] + a1*R[1][1] + a2*R[1][2],
			a0*R[2][0] + a1*R[2][1] + a2*R[2][2],
		}
	}
	return out
}
