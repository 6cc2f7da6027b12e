package scene

import "math"

// Pos returns the position of the body's origin (its centre of mass) in the
// world frame, in m; the origin when none is given.
func (p Pose) Pos() [3]float64 {
	if p.Position == nil {
		return [3]float64{}
	}
	return *p.Position
}

// Quat returns the orientation as a unit quaternion (w, x, y, z), rotating
// body-frame vectors into the world frame:
//
//   - quaternion [w, x, y, z]: normalised;
//   - axis_angle {axis, angle_deg}: (cos θ/2, sin θ/2 · axis/‖axis‖), θ in
//     degrees, right-handed about the axis;
//   - rpy_deg [roll, pitch, yaw]: extrinsic rotations about the world x, then
//     y, then z axes, R = Rz(yaw)·Ry(pitch)·Rx(roll), q = qz·qy·qx;
//   - none of these: the identity (1, 0, 0, 0).
//
// Validate rejects a pose with more than one of them; should one get through,
// the first in the order above wins. A zero or non-finite quaternion or axis
// gives the identity.
func (p Pose) Quat() [4]float64 {
	identity := [4]float64{1, 0, 0, 0}
	switch {
	case p.Quaternion != nil:
		q := *p.Quaternion
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if n == 0 || !finite(n) {
			return identity
		}
		return [4]float64{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
	case p.AxisAngle != nil:
		a := p.AxisAngle.Axis
		n := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
		if n == 0 || !finite(n) {
			return identity
		}
		return axisAngleQuat([3]float64{a[0] / n, a[1] / n, a[2] / n}, p.AxisAngle.AngleDeg)
	case p.RPYDeg != nil:
		r := *p.RPYDeg
		qx := axisAngleQuat([3]float64{1, 0, 0}, r[0])
		qy := axisAngleQuat([3]float64{0, 1, 0}, r[1])
		qz := axisAngleQuat([3]float64{0, 0, 1}, r[2])
		return quatMul(qz, quatMul(qy, qx))
	}
	return identity
}

// axisAngleQuat returns the rotation by deg degrees about the unit axis u.
func axisAngleQuat(u [3]float64, deg float64) [4]float64 {
	s, c := math.Sincos(deg * math.Pi / 360) // half the angle, in radians
	return [4]float64{c, s * u[0], s * u[1], s * u[2]}
}

// quatMul returns the Hamilton product a·b.
func quatMul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}
