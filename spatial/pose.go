package spatial

import "math"

// Pose is a rigid transform X_AB: the frame B seen from frame A, with
// orientation R (a unit quaternion) and origin P, both expressed in A.
type Pose struct {
	R Quat
	P Vec3
}

// PoseIdentity returns the identity transform.
func PoseIdentity() Pose { return Pose{R: QuatIdentity()} }

// Apply maps a point p_B given in frame B to frame A: R p_B + P.
//
// It is x.R.Rotate(p).Add(x.P) written on scalar locals, each component's
// products and sums in that order (the same bits): Go keeps a Vec3 (an
// array) in memory, so the chained form went through the stack.
func (x Pose) Apply(p Vec3) Vec3 {
	q := x.R
	v0, v1, v2 := p[0], p[1], p[2]
	t0 := 2 * (q.Y*v2 - q.Z*v1)
	t1 := 2 * (q.Z*v0 - q.X*v2)
	t2 := 2 * (q.X*v1 - q.Y*v0)
	return Vec3{
		((v0 + q.W*t0) + (q.Y*t2 - q.Z*t1)) + x.P[0],
		((v1 + q.W*t1) + (q.Z*t0 - q.X*t2)) + x.P[1],
		((v2 + q.W*t2) + (q.X*t1 - q.Y*t0)) + x.P[2],
	}
}

// ApplyInv maps a point p_A given in frame A to frame B: Rᵀ (p_A − P).
//
// It is x.R.Conj().Rotate(p.Sub(x.P)) on scalar locals (see Apply): the
// conjugate's vector part is negated exactly, so the bits are the same.
func (x Pose) ApplyInv(p Vec3) Vec3 {
	w, qx, qy, qz := x.R.W, -x.R.X, -x.R.Y, -x.R.Z
	v0, v1, v2 := p[0]-x.P[0], p[1]-x.P[1], p[2]-x.P[2]
	t0 := 2 * (qy*v2 - qz*v1)
	t1 := 2 * (qz*v0 - qx*v2)
	t2 := 2 * (qx*v1 - qy*v0)
	return Vec3{
		(v0 + w*t0) + (qy*t2 - qz*t1),
		(v1 + w*t1) + (qz*t0 - qx*t2),
		(v2 + w*t2) + (qx*t1 - qy*t0),
	}
}

// Compose returns X_AC = X_AB X_BC: x.R.Mul(y.R).Normalize() and
// x.Apply(y.P), made by ComposeTo (one copy of the code for the engine's
// kinematics and its other callers).
func (x Pose) Compose(y Pose) Pose {
	var d Pose
	ComposeTo(&d, &x, &y, false, false)
	return d
}

// ComposeTo sets dst = x.Compose(y), leaving out the products with y's
// rotation when rotI says it is exactly the identity and with its
// translation when pos0 says it is exactly zero. Those are exact (q·1 = q
// and x.Apply(0) = x.P componentwise, up to the sign of a zero), and the
// rotation is still normalized, as Compose normalizes it. It makes the
// operations of Quat.Mul, Pose.Apply and Quat.Normalize in their order on
// scalars, which Go keeps in registers (a Pose, holding an array, goes
// through memory), so with rotI and pos0 false it has Compose's bits; it
// reads x and y before it writes dst, which may be either of them.
func ComposeTo(dst, x, y *Pose, rotI, pos0 bool) {
	qw, qx, qy, qz := x.R.W, x.R.X, x.R.Y, x.R.Z
	rw, rx, ry, rz := qw, qx, qy, qz
	if !rotI {
		p := &y.R
		rw = qw*p.W - (qx*p.X + qy*p.Y + qz*p.Z)
		rx = (qw*p.X + p.W*qx) + (qy*p.Z - qz*p.Y)
		ry = (qw*p.Y + p.W*qy) + (qz*p.X - qx*p.Z)
		rz = (qw*p.Z + p.W*qz) + (qx*p.Y - qy*p.X)
	}
	p0, p1, p2 := x.P[0], x.P[1], x.P[2]
	if !pos0 {
		v0, v1, v2 := y.P[0], y.P[1], y.P[2]
		t0 := 2 * (qy*v2 - qz*v1)
		t1 := 2 * (qz*v0 - qx*v2)
		t2 := 2 * (qx*v1 - qy*v0)
		p0 = ((v0 + qw*t0) + (qy*t2 - qz*t1)) + p0
		p1 = ((v1 + qw*t1) + (qz*t0 - qx*t2)) + p1
		p2 = ((v2 + qw*t2) + (qx*t1 - qy*t0)) + p2
	}
	dst.P = Vec3{p0, p1, p2}
	n := math.Sqrt(rw*rw + rx*rx + ry*ry + rz*rz)
	if n == 0 {
		dst.R = QuatIdentity()
		return
	}
	dst.R = Quat{W: rw / n, X: rx / n, Y: ry / n, Z: rz / n}
}

// Inverse returns X_BA.
func (x Pose) Inverse() Pose {
	ri := x.R.Conj()
	return Pose{R: ri, P: ri.Rotate(x.P).Neg()}
}
