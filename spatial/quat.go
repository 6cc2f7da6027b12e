package spatial

import "math"

// Quat is a quaternion with the scalar first: W + X i + Y j + Z k. Unit
// quaternions represent rotations (mechanics notes §0.2).
type Quat struct{ W, X, Y, Z float64 }

// QuatIdentity returns the identity rotation.
func QuatIdentity() Quat { return Quat{W: 1} }

// QuatFromAxisAngle returns the rotation by angle θ (radians) about axis u:
// q = (cos θ/2, sin θ/2 u), notes §0.2. The axis is normalised; a zero axis
// gives the identity.
func QuatFromAxisAngle(axis Vec3, angle float64) Quat {
	u, n := axis.Normalize()
	if n == 0 {
		return QuatIdentity()
	}
	s, c := math.Sincos(angle / 2)
	return Quat{c, s * u[0], s * u[1], s * u[2]}
}

// Vec returns the vector part (x, y, z).
func (q Quat) Vec() Vec3 { return Vec3{q.X, q.Y, q.Z} }

// Mul returns the Hamilton product q p (notes §0.2):
// (q_s p_s − q_v·p_v, q_s p_v + p_s q_v + q_v × p_v).
//
// With u, v the vector parts: (q_w p_w − u·v, q_w v + p_w u + u × v), each
// component summed in that order. It is written on the scalar components:
// Go keeps a Vec3 (an array) in memory, a struct's fields in registers.
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		q.W*p.W - (q.X*p.X + q.Y*p.Y + q.Z*p.Z),
		(q.W*p.X + p.W*q.X) + (q.Y*p.Z - q.Z*p.Y),
		(q.W*p.Y + p.W*q.Y) + (q.Z*p.X - q.X*p.Z),
		(q.W*p.Z + p.W*q.Z) + (q.X*p.Y - q.Y*p.X),
	}
}

// Conj returns the conjugate, the inverse of a unit quaternion.
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Norm returns the quaternion's Euclidean norm.
func (q Quat) Norm() float64 { return math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z) }

// Normalize returns q/‖q‖, or the identity if ‖q‖ = 0.
func (q Quat) Normalize() Quat {
	n := q.Norm()
	if n == 0 {
		return QuatIdentity()
	}
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
}

// Add returns q + p, component-wise.
func (q Quat) Add(p Quat) Quat { return Quat{q.W + p.W, q.X + p.X, q.Y + p.Y, q.Z + p.Z} }

// Scale returns s·q.
func (q Quat) Scale(s float64) Quat { return Quat{s * q.W, s * q.X, s * q.Y, s * q.Z} }

// Rotate returns the vector v rotated by the unit quaternion q, q (0,v) q⁻¹
// (notes §0.2), evaluated without forming the products.
// With u the vector part and t = 2 (u × v): v + q_w t + u × t, on the
// scalar components (see Mul).
func (q Quat) Rotate(v Vec3) Vec3 {
	v0, v1, v2 := v[0], v[1], v[2]
	t0 := 2 * (q.Y*v2 - q.Z*v1)
	t1 := 2 * (q.Z*v0 - q.X*v2)
	t2 := 2 * (q.X*v1 - q.Y*v0)
	return Vec3{
		(v0 + q.W*t0) + (q.Y*t2 - q.Z*t1),
		(v1 + q.W*t1) + (q.Z*t0 - q.X*t2),
		(v2 + q.W*t2) + (q.X*t1 - q.Y*t0),
	}
}

// RotMat returns the rotation matrix of the unit quaternion q.
func (q Quat) RotMat() Mat3 {
	var R Mat3
	q.RotMatTo(&R)
	return R
}

// RotMatTo writes q.RotMat() into R: the same entries, built in place
// (a Mat3 result goes through memory, so a caller that keeps the matrix
// saves a copy).
func (q Quat) RotMatTo(R *Mat3) {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	R[0] = Vec3{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)}
	R[1] = Vec3{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)}
	R[2] = Vec3{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)}
}

// RateWorld returns q̇ = ½ (0, ω) q for an angular velocity ω expressed in the
// world (base) frame: mechanics notes §0.2, eq. 0.1.
func (q Quat) RateWorld(w Vec3) Quat {
	return Quat{0, w[0], w[1], w[2]}.Mul(q).Scale(0.5)
}

// RateBody returns q̇ = ½ q (0, ω) for ω expressed in the rotated (body)
// frame, the second form in notes §0.2.
func (q Quat) RateBody(w Vec3) Quat {
	return q.Mul(Quat{0, w[0], w[1], w[2]}).Scale(0.5)
}

// RotationVector returns q's rotation as axis times angle, as MuJoCo
// 2.2.2's mju_quat2Vel(q, 1) computes it: the angle 2 atan2(|v|, w) of the
// vector part v, less 2π above π, along v/|v|, or along (1, 0, 0) when
// |v| < 1e-15 (mju_normalize3's mjMINVAL).
func (q Quat) RotationVector() Vec3 {
	axis := q.Vec()
	s := axis.Norm()
	if s < 1e-15 {
		axis = Vec3{1, 0, 0}
	} else {
		axis = axis.Scale(1 / s)
	}
	a := 2 * math.Atan2(s, q.W)
	if a > math.Pi {
		a -= 2 * math.Pi
	}
	return axis.Scale(a)
}

// IsFinite reports whether no component is NaN or ±Inf.
func (q Quat) IsFinite() bool {
	return Vec3{q.W, q.X, q.Y}.IsFinite() && !math.IsNaN(q.Z) && !math.IsInf(q.Z, 0)
}
