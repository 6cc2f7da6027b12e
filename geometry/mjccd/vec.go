package mjccd

import "math"

// ccdEps is libccd's CCD_EPS in double precision (DBL_EPSILON).
const ccdEps = 2.220446049250313e-16

// mjMinVal is MuJoCo's mjMINVAL.
const mjMinVal = 1e-15

type vec [3]float64

// ccdIsZero is libccd's ccdIsZero.
func ccdIsZero(v float64) bool { return math.Abs(v) < ccdEps }

// ccdEq is libccd's ccdEq: equal to CCD_EPS, absolute or relative.
func ccdEq(a, b float64) bool {
	ab := math.Abs(a - b)
	if math.Abs(ab) < ccdEps {
		return true
	}
	fa, fb := math.Abs(a), math.Abs(b)
	if fb > fa {
		return ab < ccdEps*fb
	}
	return ab < ccdEps*fa
}

// vecEq is libccd's ccdVec3Eq.
func vecEq(a, b *vec) bool {
	return ccdEq(a[0], b[0]) && ccdEq(a[1], b[1]) && ccdEq(a[2], b[2])
}

// dot is libccd's ccdVec3Dot (and MuJoCo's mju_dot3): left to right.
func dot(a, b *vec) float64 {
	d := a[0] * b[0]
	d += a[1] * b[1]
	d += a[2] * b[2]
	return d
}

// cross is ccdVec3Cross (and mju_cross).
func cross(a, b *vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func sub(a, b *vec) vec { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func scale(a *vec, k float64) { a[0] *= k; a[1] *= k; a[2] *= k }

func addTo(a *vec, b *vec) { a[0] += b[0]; a[1] += b[1]; a[2] += b[2] }

// ccdNormalize is ccdVec3Normalize: scale by 1/√(v·v), no guard.
func ccdNormalize(v *vec) {
	k := 1 / math.Sqrt(dot(v, v))
	scale(v, k)
}

// mjNormalize is mju_normalize3: (1, 0, 0) below mjMINVAL; returns the
// norm.
func mjNormalize(v *vec) float64 {
	n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
	if n < mjMinVal {
		*v = vec{1, 0, 0}
	} else {
		k := 1 / n
		v[0] *= k
		v[1] *= k
		v[2] *= k
	}
	return n
}

// rotVecMat is mju_rotVecMat: mat·v, mat row-major.
func rotVecMat(v *vec, m *[9]float64) vec {
	return vec{
		m[0]*v[0] + m[1]*v[1] + m[2]*v[2],
		m[3]*v[0] + m[4]*v[1] + m[5]*v[2],
		m[6]*v[0] + m[7]*v[1] + m[8]*v[2],
	}
}

// rotVecMatT is mju_rotVecMatT: matᵀ·v.
func rotVecMatT(v *vec, m *[9]float64) vec {
	return vec{
		m[0]*v[0] + m[3]*v[1] + m[6]*v[2],
		m[1]*v[0] + m[4]*v[1] + m[7]*v[2],
		m[2]*v[0] + m[5]*v[1] + m[8]*v[2],
	}
}

// mjSign is mju_sign.
func mjSign(x float64) float64 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// dist3 is mju_dist3.
func dist3(a, b *vec) float64 {
	d := sub(a, b)
	return math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
}

// mulMatMat3 is mju_mulMatMat for 3×3 matrices: rows accumulated as
// res_i += a_ik · b_k (mju_addToScl), skipping zero a_ik.
func mulMatMat3(a, b *[9]float64) [9]float64 {
	var r [9]float64
	for i := range 3 {
		for k := range 3 {
			if t := a[3*i+k]; t != 0 {
				for j := range 3 {
					r[3*i+j] += b[3*k+j] * t
				}
			}
		}
	}
	return r
}
