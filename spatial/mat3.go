package spatial

import "math"

// Mat3 is a 3×3 matrix stored by rows: m[i][j] is row i, column j.
type Mat3 [3][3]float64

// Identity3 returns the identity matrix.
func Identity3() Mat3 { return Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// Diag3 returns the diagonal matrix with diagonal d.
func Diag3(d Vec3) Mat3 { return Mat3{{d[0], 0, 0}, {0, d[1], 0}, {0, 0, d[2]}} }

// Skew returns [v]×, the matrix with [v]× u = v × u.
func Skew(v Vec3) Mat3 {
	return Mat3{{0, -v[2], v[1]}, {v[2], 0, -v[0]}, {-v[1], v[0], 0}}
}

// Outer returns a bᵀ.
func Outer(a, b Vec3) Mat3 {
	var m Mat3
	for i := range 3 {
		for j := range 3 {
			m[i][j] = a[i] * b[j]
		}
	}
	return m
}

// MulVec returns m v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2],
	}
}

// MulTVec returns mᵀ v.
func (m Mat3) MulTVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v[0] + m[1][0]*v[1] + m[2][0]*v[2],
		m[0][1]*v[0] + m[1][1]*v[1] + m[2][1]*v[2],
		m[0][2]*v[0] + m[1][2]*v[1] + m[2][2]*v[2],
	}
}

// Mul returns m n.
func (m Mat3) Mul(n Mat3) Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// T returns mᵀ.
func (m Mat3) T() Mat3 {
	return Mat3{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}
}

// Add returns m + n.
func (m Mat3) Add(n Mat3) Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m[i][j] + n[i][j]
		}
	}
	return r
}

// Sub returns m − n.
func (m Mat3) Sub(n Mat3) Mat3 { return m.Add(n.Scale(-1)) }

// Scale returns s·m.
func (m Mat3) Scale(s float64) Mat3 {
	var r Mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = s * m[i][j]
		}
	}
	return r
}

// Col returns column j.
func (m Mat3) Col(j int) Vec3 { return Vec3{m[0][j], m[1][j], m[2][j]} }

// Det returns the determinant.
func (m Mat3) Det() float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// Inverse returns m⁻¹ and true, or the zero matrix and false when m is
// singular to working precision (|det| ≤ 1e-300 or not finite).
func (m Mat3) Inverse() (Mat3, bool) {
	d := m.Det()
	if math.Abs(d) <= 1e-300 || math.IsNaN(d) || math.IsInf(d, 0) {
		return Mat3{}, false
	}
	inv := Mat3{
		{m[1][1]*m[2][2] - m[1][2]*m[2][1], m[0][2]*m[2][1] - m[0][1]*m[2][2], m[0][1]*m[1][2] - m[0][2]*m[1][1]},
		{m[1][2]*m[2][0] - m[1][0]*m[2][2], m[0][0]*m[2][2] - m[0][2]*m[2][0], m[0][2]*m[1][0] - m[0][0]*m[1][2]},
		{m[1][0]*m[2][1] - m[1][1]*m[2][0], m[0][1]*m[2][0] - m[0][0]*m[2][1], m[0][0]*m[1][1] - m[0][1]*m[1][0]},
	}
	return inv.Scale(1 / d), true
}

// Cholesky returns the lower-triangular L with m = L Lᵀ for a symmetric
// positive-definite m, and false if m is not positive definite.
func (m Mat3) Cholesky() (Mat3, bool) {
	var l Mat3
	for j := range 3 {
		s := m[j][j]
		for k := range j {
			s -= l[j][k] * l[j][k]
		}
		if !(s > 0) {
			return Mat3{}, false
		}
		l[j][j] = math.Sqrt(s)
		for i := j + 1; i < 3; i++ {
			t := m[i][j]
			for k := range j {
				t -= l[i][k] * l[j][k]
			}
			l[i][j] = t / l[j][j]
		}
	}
	return l, true
}

// IsFinite reports whether no entry is NaN or ±Inf.
func (m Mat3) IsFinite() bool {
	for i := range 3 {
		if !Vec3(m[i]).IsFinite() {
			return false
		}
	}
	return true
}

// FrobeniusNorm returns √Σ m_ij².
func (m Mat3) FrobeniusNorm() float64 {
	s := 0.0
	for i := range 3 {
		for j := range 3 {
			s += m[i][j] * m[i][j]
		}
	}
	return math.Sqrt(s)
}
