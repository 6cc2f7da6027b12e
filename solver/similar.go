package solver

import "math"

// The Similar approximation of compliant contact with regularized friction
// (Castro, Han and Masterjohn, 2023, arXiv:2312.03908; Drake's
// DiscreteContactApproximation::kSimilar).
//
// Rows (t1, t2, n). With the slip u = v_t − v̂_t, its soft norm
// ‖u‖_s = s − ε_s, s = √(‖u‖² + ε_s²), and SAP's linear normal compliance
// (R_n from eq. 29, v̂_n from §V-A), the normal impulse is evaluated at the
// shifted normal velocity z = v_n − μ‖u‖_s:
//
//	w = v̂_n − v_n + μ‖u‖_s,   ℓ = ½ w₊² / R_n,
//	γ_n = w₊ / R_n,   γ_t = −μ γ_n u/s.
//
// ℓ is convex (a convex non-decreasing function of a convex function of
// v_c), friction opposes slip with ‖γ_t‖ ≤ μ γ_n, and γ = −∇ℓ is an
// irrotational field. Sliding shifts the equilibrium penetration by about
// μ‖v_t‖δt (a lift of order δt, not a drift). Hessian, with t_s = u/s and
// n = γ_n, when w > 0:
//
//	G_tt = μ²/R_n t_s t_sᵀ + μ n/s (I − t_s t_sᵀ),
//	G_tn = −μ/R_n t_s,   G_nn = 1/R_n;
//
// when w ≤ 0, G = 0 (w = 0 takes the active branch).
func evalSimilar(mu, eps, rn float64, vhat, vc, gamma, g []float64) float64 {
	u0, u1 := vc[0]-vhat[0], vc[1]-vhat[1]
	s := math.Sqrt(u0*u0 + u1*u1 + eps*eps)
	t0, t1 := u0/s, u1/s
	w := vhat[2] - vc[2] + mu*(s-eps)
	if w < 0 {
		gamma[0], gamma[1], gamma[2] = 0, 0, 0
		if g != nil {
			clear(g[:9])
		}
		return 0
	}
	n := w / rn
	gamma[0], gamma[1], gamma[2] = -mu*n*t0, -mu*n*t1, n
	if g != nil {
		a := mu * mu / rn // coefficient of t_s t_sᵀ
		c := mu * n / s   // coefficient of I − t_s t_sᵀ
		g01 := (a - c) * t0 * t1
		gtn := -mu / rn
		g[0], g[1], g[2] = c+(a-c)*t0*t0, g01, gtn*t0
		g[3], g[4], g[5] = g01, c+(a-c)*t1*t1, gtn*t1
		g[6], g[7], g[8] = gtn*t0, gtn*t1, 1/rn
	}
	return 0.5 * w * w / rn
}
