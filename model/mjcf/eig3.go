package mjcf

import "math"

// eigEPS is mju_eig3's tolerance: the Jacobi iteration stops when the
// largest off-diagonal entry is below it (absolute) or the rotation's
// cosine is above 1 − eigEPS.
const eigEPS = 1e-12

// mjQuat is a quaternion (w, x, y, z) in MuJoCo's layout.
type mjQuat [4]float64

// mulQuat is mju_mulQuat: the Hamilton product a b, in MuJoCo's order of
// operations.
func mulQuat(a, b mjQuat) mjQuat {
	return mjQuat{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}

// normalize4 is mju_normalize4 (the identity below mjMINVAL).
func normalize4(q mjQuat) mjQuat {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n < mjMinVal {
		return mjQuat{1, 0, 0, 0}
	}
	inv := 1 / n
	return mjQuat{q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv}
}

// quat2Mat is mju_quat2Mat: the rotation matrix of q, row-major.
func quat2Mat(q mjQuat) [9]float64 {
	if q == (mjQuat{1, 0, 0, 0}) {
		return [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	q00, q01, q02, q03 := q[0]*q[0], q[0]*q[1], q[0]*q[2], q[0]*q[3]
	q11, q12, q13 := q[1]*q[1], q[1]*q[2], q[1]*q[3]
	q22, q23, q33 := q[2]*q[2], q[2]*q[3], q[3]*q[3]
	return [9]float64{
		q00 + q11 - q22 - q33, 2 * (q12 - q03), 2 * (q13 + q02),
		2 * (q12 + q03), q00 - q11 + q22 - q33, 2 * (q23 - q01),
		2 * (q13 - q02), 2 * (q23 + q01), q00 - q11 - q22 + q33,
	}
}

// mjEig3 is MuJoCo 2.2.2's mju_eig3 (engine_util_solve.c): the
// eigenvalues of the symmetric 3×3 matrix a (row-major), in decreasing
// order, and the quaternion q whose rotation matrix R has the
// eigenvectors as columns (a ≈ R diag(eig) Rᵀ), by Jacobi rotations that
// stop once the largest off-diagonal entry of Rᵀ a R is below eigEPS
// (absolute) or the next rotation's cosine is above 1 − eigEPS. Unlike an
// exact decomposition it leaves those small off-diagonal entries out of
// the eigenvalues: a nearly isotropic inertia keeps its diagonal.
func mjEig3(a [9]float64) (eig [3]float64, q mjQuat) {
	q = mjQuat{1, 0, 0, 0}
	for range 500 {
		R := quat2Mat(q)
		D := mulMatTMatMat(R, a)
		eig = [3]float64{D[0], D[4], D[8]}
		rk, ck, rotk := 1, 2, 0
		switch {
		case math.Abs(D[1]) > math.Abs(D[2]) && math.Abs(D[1]) > math.Abs(D[5]):
			rk, ck, rotk = 0, 1, 2
		case math.Abs(D[2]) > math.Abs(D[5]):
			rk, ck, rotk = 0, 2, 1
		}
		off := D[3*rk+ck]
		if math.Abs(off) < eigEPS {
			break
		}
		// 2×2 symmetric Schur decomposition
		tau := (D[4*ck] - D[4*rk]) / (2 * off)
		var t float64
		if tau >= 0 {
			t = 1.0 / (tau + math.Sqrt(1+tau*tau))
		} else {
			t = -1.0 / (-tau + math.Sqrt(1+tau*tau))
		}
		c := 1.0 / math.Sqrt(1+t*t)
		if c > 1.0-eigEPS {
			break
		}
		var r mjQuat
		s := math.Sqrt(0.5 - 0.5*c)
		if tau >= 0 {
			s = -s
		}
		if rotk == 1 {
			s = -s
		}
		r[rotk+1] = s
		r[0] = math.Sqrt(1.0 - s*s)
		q = normalize4(mulQuat(q, normalize4(r)))
	}
	// sort in decreasing order (bubble sort: 0, 1, 0), turning q by 90°
	for j := range 3 {
		j1 := j % 2
		if eig[j1] < eig[j1+1] {
			eig[j1], eig[j1+1] = eig[j1+1], eig[j1]
			var r mjQuat
			r[0] = 0.707106781186548 // cos(π/4) = sin(π/4)
			r[(j1+2)%3+1] = r[0]
			q = normalize4(mulQuat(q, r))
		}
	}
	return eig, q
}

// mulMatTMatMat returns Rᵀ a R (row-major 3×3), as mju_mulMatTMat then
// mju_mulMatMat.
func mulMatTMatMat(R, a [9]float64) [9]float64 {
	return mul3(mul3(R, a, true), R, false)
}

// mul3 returns x y for 3×3 row-major matrices, or xᵀ y when tx, each
// entry summed in k order as MuJoCo's mju_mulMatMat and mju_mulMatTMat.
func mul3(x, y [9]float64, tx bool) [9]float64 {
	var out [9]float64
	for i := range 3 {
		for j := range 3 {
			var s float64
			for k := range 3 {
				xik := x[3*i+k]
				if tx {
					xik = x[3*k+i]
				}
				s += xik * y[3*k+j]
			}
			out[3*i+j] = s
		}
	}
	return out
}
