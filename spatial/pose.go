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
func (x Pose) Apply(p Vec3) Vec3 { return x.R.Rotate(p).Add(x.P) }

// ApplyInv maps a point p_A given in frame A to frame B: Rᵀ (p_A − P).
func (x Pose) ApplyInv(p Vec3) Vec3 { return x.R.Conj().Rotate(p.Sub(x.P)) }

// Compose returns X_AC = X_AB X_BC.
func (x Pose) Compose(y Pose) Pose {
	return Pose{R: x.R.Mul(y.R).Normalize(), P: x.Apply(y.P)}
}

// Inverse returns X_BA.
func (x Pose) Inverse() Pose {
	ri := x.R.Conj()
	return Pose{R: ri, P: ri.Rotate(x.P).Neg()}
}
