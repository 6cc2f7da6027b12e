package solver

import "math"

// The Lagged approximation of compliant contact with regularized friction
// (Castro, Han and Masterjohn, "A Theory of Irrotational Contact Fields",
// 2023, arXiv:2312.03908; Drake's DiscreteContactApproximation::kLagged).
//
// Rows (t1, t2, n) as for ContactCone. The normal impulse is SAP's linear
// compliance with its near-rigid regularization (SAP eq. 29 gives R_n, §V-A
// gives v̂_n = −φ0/(δt + τd)):
//
//	n(v_n) = (v̂_n − v_n)₊ / R_n,   ℓ_n = ½ (v̂_n − v_n)₊² / R_n.
//
// Friction is bounded by μ times n0, the normal impulse of the previous
// step (lagged, hence fixed during the solve), and regularized by the soft
// norm ‖u‖_s = √(‖u‖² + ε_s²) − ε_s of the tangential slip velocity
// u = v_t − v̂_t (v̂_t is zero unless a friction anchor feeds a stick
// displacement back, see package contact), with
// ε_s = max(v_s, μ R_t n0) (Drake's choice: the stiction tolerance v_s, or
// SAP's own stiction slip μ R_t n0 when larger; R_t is the block's
// tangential regularization):
//
//	ℓ_t = μ n0 ‖u‖_s,   γ_t = −μ n0 u/s,   s = √(‖u‖² + ε_s²).
//
// The cost ℓ = ℓ_n + ℓ_t is convex and separable: the normal impulse does
// not depend on the slip, so a sliding body does not rise (no gliding or
// hopping, unlike SAP's cone, where the sliding normal velocity is about
// μ‖v_t‖). Coulomb's law ‖γ_t‖ ≤ μ n0 holds; friction opposes slip. Its
// Hessian:
//
//	G_tt = μ n0/s (I − t_s t_sᵀ), t_s = u/s;   G_tn = 0;
//	G_nn = 1/R_n if v_n ≤ v̂_n, else 0.
func evalLagged(mu, n0, vs, rt, rn float64, vhat, vc, gamma, g []float64) float64 {
	eps := max(vs, mu*rt*n0)
	u0, u1 := vc[0]-vhat[0], vc[1]-vhat[1]
	s := math.Sqrt(u0*u0 + u1*u1 + eps*eps)
	t0, t1 := u0/s, u1/s
	f := mu * n0 // friction impulse bound
	x := vhat[2] - vc[2]
	gamma[0], gamma[1] = -f*t0, -f*t1
	cost := f * (s - eps)
	gnn := 0.0
	if x >= 0 {
		gamma[2] = x / rn
		cost += 0.5 * x * x / rn
		gnn = 1 / rn
	} else {
		gamma[2] = 0
	}
	if g != nil {
		c := f / s
		g01 := -c * t0 * t1
		g[0], g[1], g[2] = c*(1-t0*t0), g01, 0
		g[3], g[4], g[5] = g01, c*(1-t1*t1), 0
		g[6], g[7], g[8] = 0, 0, gnn
	}
	return cost
}
