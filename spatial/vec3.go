package spatial

import "math"

// Vec3 is a 3-vector.
type Vec3 [3]float64

// V3 returns the vector (x, y, z).
func V3(x, y, z float64) Vec3 { return Vec3{x, y, z} }

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a − b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a[0], s * a[1], s * a[2]} }

// AddScaled returns a + s·b.
func (a Vec3) AddScaled(s float64, b Vec3) Vec3 {
	return Vec3{a[0] + s*b[0], a[1] + s*b[1], a[2] + s*b[2]}
}

// Neg returns −a.
func (a Vec3) Neg() Vec3 { return Vec3{-a[0], -a[1], -a[2]} }

// Dot returns a·b.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns a × b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Norm returns the Euclidean norm ‖a‖.
func (a Vec3) Norm() float64 { return math.Sqrt(a.Dot(a)) }

// Norm2 returns ‖a‖².
func (a Vec3) Norm2() float64 { return a.Dot(a) }

// Normalize returns a/‖a‖ and ‖a‖. A zero vector is returned unchanged with
// norm 0, so callers can detect the degenerate case without a NaN.
func (a Vec3) Normalize() (Vec3, float64) {
	n := a.Norm()
	if n == 0 {
		return a, 0
	}
	return a.Scale(1 / n), n
}

// Mul returns the component-wise product.
func (a Vec3) Mul(b Vec3) Vec3 { return Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// Abs returns the component-wise absolute value.
func (a Vec3) Abs() Vec3 { return Vec3{math.Abs(a[0]), math.Abs(a[1]), math.Abs(a[2])} }

// Min returns the component-wise minimum.
func (a Vec3) Min(b Vec3) Vec3 {
	return Vec3{min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2])}
}

// Max returns the component-wise maximum.
func (a Vec3) Max(b Vec3) Vec3 {
	return Vec3{max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2])}
}

// IsFinite reports whether no component is NaN or ±Inf.
func (a Vec3) IsFinite() bool {
	for _, x := range a {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Orthonormal returns two unit vectors t1, t2 such that (t1, t2, n) is a
// right-handed orthonormal frame, for a unit vector n. The choice is a
// deterministic, continuous function of n away from n = −z (Frisvad's
// construction with the branch fixed by the sign of n_z).
func Orthonormal(n Vec3) (t1, t2 Vec3) {
	sign := 1.0
	if n[2] < 0 {
		sign = -1.0
	}
	a := -1 / (sign + n[2])
	b := n[0] * n[1] * a
	t1 = Vec3{1 + sign*n[0]*n[0]*a, sign * b, -sign * n[0]}
	t2 = Vec3{b, sign + n[1]*n[1]*a, -n[1]}
	return t1, t2
}
