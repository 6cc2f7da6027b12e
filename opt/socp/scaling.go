package socp

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// scaling is the Nesterov–Todd scaling of the current (s, z) on the
// non-zero cones (rows from Zero on): a block-diagonal W in the
// automorphism group of K with
//
//	λ = W z = W⁻ᵀ s,
//
// so that H = WᵀW is the NT scaling point (H z = s). It starts from the
// symmetric NT matrix of the initial (s, z): on an orthant row W = √(s/z);
// on a second-order cone block, with J = diag(1, −I), s̄ = s/√(sᵀJs),
// z̄ = z/√(zᵀJz), γ = √((1 + s̄ᵀz̄)/2), w̄ = (s̄ + J z̄)/(2γ) (w̄ᵀJw̄ = 1)
// and η = (sᵀJs / zᵀJz)^¼,
//
//	W = η [w̄₀ w̄₁ᵀ; w̄₁ I + w̄₁w̄₁ᵀ/(1 + w̄₀)],
//	W⁻¹ = η⁻¹ [w̄₀ −w̄₁ᵀ; −w̄₁ I + w̄₁w̄₁ᵀ/(1 + w̄₀)]
//
// (Nesterov and Todd 1997; Vandenberghe, "The CVXOPT linear and quadratic
// cone program solvers", §4). After a step it is not recomputed from s and
// z: near the solution a cone's s and z approach its boundary, s₀ − ‖s₁‖
// loses all its digits to cancellation and so would W. Instead, as CVXOPT
// does, the step is taken in the scaled space, s̃ = λ + αW⁻ᵀΔs and
// z̃ = λ + αWΔz (both well centred), and with W̃ the symmetric NT matrix of
// (s̃, z̃) the new scaling is W⁺ = W̃W, λ⁺ = W̃z̃: it satisfies
// W⁺z⁺ = W⁺⁻ᵀs⁺ = λ⁺ and W⁺ᵀW⁺ is the NT point of (s⁺, z⁺). W⁺ is no
// longer symmetric, so second-order cone blocks keep W and W⁻¹ as dense
// matrices (k×k, row-major).
type scaling struct {
	c     Cones
	m     int
	off   []int     // first row of each second-order cone
	moff  []int     // offset of each cone's k×k matrices in mat, imat
	w     []float64 // orthant rows: W
	mat   []float64 // second-order cones: W
	imat  []float64 // second-order cones: W⁻¹
	lam   []float64 // λ
	st    []float64 // scratch: s̃, z̃ (cone rows)
	zt    []float64
	wbar  []float64 // scratch: w̄ of one cone
	tmp   []float64 // scratch: W̃ of one cone
	tmpi  []float64 // scratch: W̃⁻¹ of one cone
	vtmp  []float64 // scratch: a vector of length k
	rowsT []float64 // scratch for applyRowsInvT: k rows of A
}

func newScaling(c Cones, n int) *scaling {
	sc := &scaling{}
	sc.reset(c, n)
	return sc
}

// reset sizes sc for the cones c and n unknowns, reusing its buffers'
// capacity (zeroed).
func (sc *scaling) reset(c Cones, n int) {
	sc.c, sc.m = c, c.Dim()
	sc.off, sc.moff = grow(sc.off, len(c.SOC)), grow(sc.moff, len(c.SOC))
	r, mo, kmax := c.Zero+c.NonNeg, 0, 1
	for i, k := range c.SOC {
		sc.off[i], sc.moff[i] = r, mo
		r += k
		mo += k * k
		kmax = max(kmax, k)
	}
	sc.w = grow(sc.w, sc.m)
	sc.mat, sc.imat = grow(sc.mat, mo), grow(sc.imat, mo)
	sc.lam, sc.st, sc.zt = grow(sc.lam, sc.m), grow(sc.st, sc.m), grow(sc.zt, sc.m)
	sc.wbar, sc.vtmp = grow(sc.wbar, kmax), grow(sc.vtmp, kmax)
	sc.tmp, sc.tmpi = grow(sc.tmp, kmax*kmax), grow(sc.tmpi, kmax*kmax)
	sc.rowsT = grow(sc.rowsT, kmax*n)
}

// socNorm returns √(x₀² − ‖x₁‖²) computed as √((x₀ − ‖x₁‖)(x₀ + ‖x₁‖)),
// or NaN outside the cone's interior.
func socNorm(x []float64) float64 {
	u := floats.Norm(x[1:], 2)
	d := (x[0] - u) * (x[0] + u)
	if x[0] <= u || d <= 0 {
		return math.NaN()
	}
	return math.Sqrt(d)
}

// ntSymmetric sets the symmetric NT matrix W of (s, z) and its inverse
// (k×k, row-major) and λ = W z. It returns false unless s and z lie in the
// interior of the cone.
func (sc *scaling) ntSymmetric(s, z, w, wi, lam []float64) bool {
	k := len(s)
	if k == 1 {
		if !(s[0] > 0 && z[0] > 0) {
			return false
		}
		w[0], wi[0], lam[0] = math.Sqrt(s[0]/z[0]), math.Sqrt(z[0]/s[0]), math.Sqrt(s[0]*z[0])
		return true
	}
	sn, zn := socNorm(s), socNorm(z)
	if math.IsNaN(sn) || math.IsNaN(zn) {
		return false
	}
	g := math.Sqrt((1 + floats.Dot(s, z)/(sn*zn)) / 2)
	wb := sc.wbar[:k]
	wb[0] = (s[0]/sn + z[0]/zn) / (2 * g)
	for i := 1; i < k; i++ {
		wb[i] = (s[i]/sn - z[i]/zn) / (2 * g)
	}
	eta := math.Sqrt(sn / zn)
	d := 1 / (1 + wb[0])
	w[0], wi[0] = eta*wb[0], wb[0]/eta
	for j := 1; j < k; j++ {
		w[j], w[j*k] = eta*wb[j], eta*wb[j]
		wi[j], wi[j*k] = -wb[j]/eta, -wb[j]/eta
		for i := 1; i < k; i++ {
			v := wb[i] * wb[j] * d
			if i == j {
				v++
			}
			w[i*k+j], wi[i*k+j] = eta*v, v/eta
		}
	}
	matVec(lam, w, z, k)
	return true
}

// init computes W from (s, z), which must lie in the interior of K; it
// returns false otherwise.
func (sc *scaling) init(s, z []float64) bool {
	c := sc.c
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		if !(s[i] > 0 && z[i] > 0) {
			return false
		}
		sc.w[i] = math.Sqrt(s[i] / z[i])
		sc.lam[i] = math.Sqrt(s[i] * z[i])
	}
	for b, k := range c.SOC {
		r, mo := sc.off[b], sc.moff[b]
		if !sc.ntSymmetric(s[r:r+k], z[r:r+k], sc.mat[mo:mo+k*k], sc.imat[mo:mo+k*k], sc.lam[r:r+k]) {
			return false
		}
	}
	return true
}

// update moves the scaling along a step of length a with scaled directions
// dsT = W⁻ᵀΔs and dzT = WΔz: W ← W̃W, W⁻¹ ← W⁻¹W̃⁻¹, λ ← W̃z̃ with W̃ the NT
// matrix of (λ + a dsT, λ + a dzT). It returns false if those leave the
// interior of K.
func (sc *scaling) update(dsT, dzT []float64, a float64) bool {
	c := sc.c
	for i := c.Zero; i < sc.m; i++ {
		sc.st[i] = sc.lam[i] + a*dsT[i]
		sc.zt[i] = sc.lam[i] + a*dzT[i]
	}
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		if !(sc.st[i] > 0 && sc.zt[i] > 0) {
			return false
		}
		sc.w[i] *= math.Sqrt(sc.st[i] / sc.zt[i])
		sc.lam[i] = math.Sqrt(sc.st[i] * sc.zt[i])
	}
	for b, k := range c.SOC {
		r, mo, kk := sc.off[b], sc.moff[b], k*k
		wt, wti := sc.tmp[:kk], sc.tmpi[:kk]
		if !sc.ntSymmetric(sc.st[r:r+k], sc.zt[r:r+k], wt, wti, sc.lam[r:r+k]) {
			return false
		}
		// W⁻¹ ← W⁻¹ W̃⁻¹, W ← W̃ W.
		matMulInPlaceRight(sc.imat[mo:mo+kk], wti, sc.vtmp[:k], k)
		matMulInPlaceLeft(wt, sc.mat[mo:mo+kk], sc.vtmp[:k], k)
	}
	return true
}

// matVec sets dst = M x for the k×k row-major M; dst must not overlap x.
func matVec(dst, m, x []float64, k int) {
	for i := range k {
		dst[i] = floats.Dot(m[i*k:(i+1)*k], x)
	}
}

// matMulInPlaceRight sets a ← a b (k×k), row by row with scratch t.
func matMulInPlaceRight(a, b, t []float64, k int) {
	for i := range k {
		row := a[i*k : (i+1)*k]
		for j := range k {
			s := 0.0
			for l := range k {
				s += row[l] * b[l*k+j]
			}
			t[j] = s
		}
		copy(row, t)
	}
}

// matMulInPlaceLeft sets b ← a b (k×k), column by column with scratch t.
func matMulInPlaceLeft(a, b, t []float64, k int) {
	for j := range k {
		for i := range k {
			s := 0.0
			for l := range k {
				s += a[i*k+l] * b[l*k+j]
			}
			t[i] = s
		}
		for i := range k {
			b[i*k+j] = t[i]
		}
	}
}

// Scaling operators of apply.
type op int

const (
	opW     op = iota // W
	opWT              // Wᵀ
	opWinv            // W⁻¹
	opWinvT           // W⁻ᵀ
)

// apply sets dst = op(W) x on the rows of the non-zero cones; the zero-cone
// rows of dst are left alone. dst may equal x.
func (sc *scaling) apply(o op, dst, x []float64) {
	c := sc.c
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		if o == opW || o == opWT {
			dst[i] = x[i] * sc.w[i]
		} else {
			dst[i] = x[i] / sc.w[i]
		}
	}
	for b, k := range c.SOC {
		r, mo := sc.off[b], sc.moff[b]
		m := sc.mat[mo : mo+k*k]
		if o == opWinv || o == opWinvT {
			m = sc.imat[mo : mo+k*k]
		}
		t := sc.vtmp[:k]
		if o == opW || o == opWinv {
			matVec(t, m, x[r:r+k], k)
		} else {
			for i := range k {
				s := 0.0
				for l := range k {
					s += m[l*k+i] * x[r+l]
				}
				t[i] = s
			}
		}
		copy(dst[r:r+k], t)
	}
}

// applyRowsInvT sets the cone rows of the row-major m×n matrix a to W⁻ᵀ
// times them.
func (sc *scaling) applyRowsInvT(a []float64, n int) {
	c := sc.c
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		floats.Scale(1/sc.w[i], a[i*n:(i+1)*n])
	}
	for b, k := range c.SOC {
		r, mo := sc.off[b], sc.moff[b]
		m := sc.imat[mo : mo+k*k] // (W⁻ᵀ)_ij = (W⁻¹)_ji
		rows := sc.rowsT[:k*n]
		copy(rows, a[r*n:(r+k)*n])
		for i := range k {
			dst := a[(r+i)*n : (r+i+1)*n]
			clear(dst)
			for l := range k {
				floats.AddScaled(dst, m[l*k+i], rows[l*n:(l+1)*n])
			}
		}
	}
}

// identity sets W = I.
func (sc *scaling) identity() {
	c := sc.c
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		sc.w[i] = 1
	}
	clear(sc.mat)
	clear(sc.imat)
	for b, k := range c.SOC {
		mo := sc.moff[b]
		for i := range k {
			sc.mat[mo+i*k+i], sc.imat[mo+i*k+i] = 1, 1
		}
	}
}
