package mjref

import "github.com/stiction-sim/stiction/spatial"

// quatAt reads the quaternion (w, x, y, z) at q[0:4].
func quatAt(q []float64) spatial.Quat {
	return spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
}

// FreeQ converts a free joint's coordinates from MuJoCo's layout
// (x, y, z, qw, qx, qy, qz) into Stiction's (qw, qx, qy, qz, x, y, z),
// writing st (length 7).
func FreeQ(mj, st []float64) {
	_ = mj[6]
	_ = st[6]
	p0, p1, p2 := mj[0], mj[1], mj[2]
	st[0], st[1], st[2], st[3] = mj[3], mj[4], mj[5], mj[6]
	st[4], st[5], st[6] = p0, p1, p2
}

// FreeQToMuJoCo is the inverse of FreeQ.
func FreeQToMuJoCo(st, mj []float64) {
	_ = st[6]
	_ = mj[6]
	w, x, y, z := st[0], st[1], st[2], st[3]
	mj[0], mj[1], mj[2] = st[4], st[5], st[6]
	mj[3], mj[4], mj[5], mj[6] = w, x, y, z
}

// FreeV converts a free joint's velocities from MuJoCo's layout (velocity
// of the body origin in the world, angular velocity in the body frame) into
// Stiction's (angular velocity in the world, velocity of the body origin in
// the world), writing st (length 6). mjq are the joint's MuJoCo
// coordinates (length 7), whose quaternion turns the body frame into the
// world's.
func FreeV(mjq, mjv, st []float64) {
	_ = mjv[5]
	_ = st[5]
	w := quatAt(mjq[3:]).Normalize().Rotate(spatial.Vec3{mjv[3], mjv[4], mjv[5]})
	v0, v1, v2 := mjv[0], mjv[1], mjv[2]
	st[0], st[1], st[2] = w[0], w[1], w[2]
	st[3], st[4], st[5] = v0, v1, v2
}

// FreeVToMuJoCo is the inverse of FreeV (mjq in MuJoCo's layout).
func FreeVToMuJoCo(mjq, st, mjv []float64) {
	_ = st[5]
	_ = mjv[5]
	w := quatAt(mjq[3:]).Normalize().Conj().Rotate(spatial.Vec3{st[0], st[1], st[2]})
	v0, v1, v2 := st[3], st[4], st[5]
	mjv[0], mjv[1], mjv[2] = v0, v1, v2
	mjv[3], mjv[4], mjv[5] = w[0], w[1], w[2]
}

// BallV converts a ball joint's angular velocity from MuJoCo's child frame
// into Stiction's joint frame F (the parent side), writing st (length 3).
// q is the joint's quaternion (the same in both: the rotation of the child
// frame M in F). It assumes M and F are aligned with MuJoCo's body frames
// at q = identity, as MJCF import makes them.
func BallV(q, mjv, st []float64) {
	w := quatAt(q).Normalize().Rotate(spatial.Vec3{mjv[0], mjv[1], mjv[2]})
	st[0], st[1], st[2] = w[0], w[1], w[2]
}

// BallVToMuJoCo is the inverse of BallV.
func BallVToMuJoCo(q, st, mjv []float64) {
	w := quatAt(q).Normalize().Conj().Rotate(spatial.Vec3{st[0], st[1], st[2]})
	mjv[0], mjv[1], mjv[2] = w[0], w[1], w[2]
}
