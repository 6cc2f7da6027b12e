package solver

import (
	"fmt"
	"math"
)

// ContactEllipticN (kind.go) is MuJoCo's elliptic friction cone of
// condim 4 and 6 (MuJoCo 2.2.2, engine_core_constraint.c,
// mj_makeImpedance; engine_solver.c, mj_constraintUpdate): one block of
// n = 4 or 6 rows (f_1 … f_m, f_n), m = n − 1 friction rows (two sliding,
// one torsional, and at n = 6 two rolling) and the normal row last, with
// the impulse in the anisotropic second-order cone
//
//	K = {γ : γ_n ≥ ‖(γ_j/μ_j)_j‖},  μ_j > 0 (Params μ_1 … μ_5, the first m used),
//
// projected in the norm of R = diag(R_1 … R_m, R_n) (SAP eq. 23, Todorov
// 2014). The block requires MuJoCo's R: R_j μ_j² = R_1 μ_1² for every
// friction row j (mj_makeImpedance sets R_j = R_1 μ_1²/μ_j²). In the
// variables u_j = γ_j/μ_j, u_n = γ_n the cone is the round cone
// u_n ≥ ‖u_t‖ and the norm is diag(w, …, w, R_n) with w = R_1 μ_1², so the
// projection is that of SAP's 3-D cone (cone.go, §V-A) with μ = 1,
// R_t = w and m tangential dimensions: with z = (y_j/μ_j, y_n),
// z_r = ‖z_t‖ and μ̂ = w/R_n,
//
//	stiction  (z_n ≥ 0, z_r ≤ z_n):  γ = y,
//	no contact (z_n < −μ̂ z_r):       γ = 0,
//	sliding (otherwise):             u_n = (z_n + μ̂ z_r)/(1 + μ̂),
//	                                 γ_j = μ_j u_n z_j/z_r,  γ_n = u_n.
//
// ℓ = ½γᵀRγ (SAP eq. 35). With S = diag(μ_1 … μ_m, 1), γ = S P(S⁻¹y) and
// S⁻¹R⁻¹ = W⁻¹S (W = diag(w, …, w, R_n)), so G = −∂γ/∂v_c = S G_W S with
// G_W the round cone's block (slidingG with μ = 1, R_t = w):
//
//	G_W,tt = P(t̂)/((1+μ̂)R_n) + u_n/(w z_r) P⊥(t̂),
//	G_W,tn = t̂/((1+μ̂)R_n),  G_W,nn = 1/((1+μ̂)R_n),
//
// t̂ = z_t/z_r, and G = R⁻¹ in stiction (as SAP App. D), 0 without contact.

// maxEllipticFriction is the number of friction rows of the largest
// ContactEllipticN block (condim 6).
const maxEllipticFriction = 5

// ellipticRTol is the relative tolerance of the check R_j μ_j² = R_1 μ_1²:
// MuJoCo's R_j = R_1 μ_1²/μ_j² times μ_j² is R_1 μ_1² to a few roundings.
const ellipticRTol = 1e-12

// validateEllipticN checks the friction coefficients of a ContactEllipticN
// block of m friction rows and its regularization r (m + 1 entries).
func validateEllipticN(par, r []float64) error {
	m := len(r) - 1
	w := r[0] * par[0] * par[0]
	for j := range maxEllipticFriction {
		mu := par[j]
		if j >= m {
			if mu != 0 {
				return fmt.Errorf("friction coefficient μ_%d = %v of a block of %d friction rows must be 0 (unused)", j+1, mu, m)
			}
			continue
		}
		if !(mu > 0) || math.IsInf(mu, 0) {
			return fmt.Errorf("friction coefficient μ_%d = %v must be positive and finite", j+1, mu)
		}
		if wj := r[j] * mu * mu; math.Abs(wj-w) > ellipticRTol*w {
			return fmt.Errorf("R_%d μ_%d² = %v differs from R_1 μ_1² = %v; the elliptic cone needs MuJoCo's R_j = R_1 μ_1²/μ_j²", j+1, j+1, wj, w)
		}
	}
	return nil
}

// ProjectEllipticN writes γ = P_K(y) of a ContactEllipticN block into
// gamma (len(y) entries: friction rows, then the normal) for friction
// coefficients mu (len(y) − 1 used) and regularization r, and returns the
// region of y. With g not nil it writes G = −∂γ/∂v_c (row-major). It
// requires MuJoCo's R (R_j μ_j² = R_1 μ_1², validateEllipticN).
func ProjectEllipticN(y, mu, r, gamma, g []float64) Region {
	n := len(y)
	m := n - 1
	rn, w := r[m], r[0]*mu[0]*mu[0]
	var z [maxEllipticFriction]float64
	zr2 := 0.0
	for j := range m {
		z[j] = y[j] / mu[j]
		zr2 += z[j] * z[j]
	}
	zr, zn := math.Sqrt(zr2), y[m]
	muHat := w / rn
	switch {
	case zn >= 0 && zr <= zn: // stiction: γ = y, G = R⁻¹
		copy(gamma, y)
		if g != nil {
			clear(g[:n*n])
			for j := range n {
				g[j*n+j] = 1 / r[j]
			}
		}
		return Stiction
	case zn < -muHat*zr: // interior of the polar cone
		clear(gamma[:n])
		if g != nil {
			clear(g[:n*n])
		}
		return NoContact
	}
	un := (zn + muHat*zr) / (1 + muHat) // here z_r > 0
	for j := range m {
		gamma[j] = mu[j] * un * z[j] / zr
	}
	gamma[m] = un
	if g != nil {
		ellipticSlidingG(z[:m], zr, un, mu, w, rn, muHat, g)
	}
	return Sliding
}

// ellipticSlidingG writes G = S G_W S of the sliding region (the comment
// at the top of this file) into g, n×n with n = len(z) + 1.
func ellipticSlidingG(z []float64, zr, un float64, mu []float64, w, rn, muHat float64, g []float64) {
	m := len(z)
	n := m + 1
	gnn := 1 / ((1 + muHat) * rn)
	perp := un / (zr * w)
	d := gnn - perp
	for i := range m {
		ti := z[i] / zr
		for j := i; j < m; j++ {
			x := d * ti * z[j] / zr
			if i == j {
				x += perp
			}
			x *= mu[i] * mu[j]
			g[i*n+j], g[j*n+i] = x, x
		}
		x := gnn * ti * mu[i]
		g[i*n+m], g[m*n+i] = x, x
	}
	g[m*n+m] = gnn
}

// evalEllipticN is Problem.Eval for a ContactEllipticN block:
// y = −R⁻¹(v_c − v̂), γ = P_K(y), ℓ = ½γᵀRγ and G (ProjectEllipticN).
func evalEllipticN(mu, r, vhat, vc, gamma, g []float64) float64 {
	var y [maxEllipticFriction + 1]float64
	n := len(r)
	for j := range n {
		y[j] = -(vc[j] - vhat[j]) / r[j]
	}
	ProjectEllipticN(y[:n], mu, r, gamma, g)
	cost := 0.0
	for j := range n {
		cost += r[j] * gamma[j] * gamma[j]
	}
	return 0.5 * cost
}

// ConeCostDiffN returns ℓ(γ1) − ℓ(γ0) = ½(γ1 − γ0)ᵀR(γ1 + γ0) for a block
// of ℓ = ½γᵀRγ with diagonal regularization r (ContactCone,
// ContactEllipticN), formed without subtracting two costs.
func ConeCostDiffN(r, gamma1, gamma0 []float64) float64 {
	d := 0.0
	for k := range r {
		d += 0.5 * r[k] * (gamma1[k] - gamma0[k]) * (gamma1[k] + gamma0[k])
	}
	return d
}
