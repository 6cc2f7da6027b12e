package spatial

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

// Compose returns X_AC = X_AB X_BC.
func (x Pose) Compose(y Pose) Pose {
	return Pose{R: x.R.Mul(y.R).Normalize(), P: x.Apply(y.P)}
}

// Inverse returns X_BA.
func (x Pose) Inverse() Pose {
	ri := x.R.Conj()
	return Pose{R: ri, P: ri.Rotate(x.P).Neg()}
}
