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
// step (lagged, hence fixed during the solve). Without an anchor (the
// block's stick parameter 0: a new contact) it is regularized by the soft
// norm ‖u‖_s = √(‖u‖² + ε_s²) − ε_s of the tangential slip velocity
// u = v_t − v̂_t, with
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
//
// With an anchor (stick parameter 1; package contact feeds the stick
// displacement back as v̂_t) friction is the disk of evalDisk with radius
// μ n0 and R_t: γ_t = y min(1, μ n0/‖y‖), y = −(v_t − v̂_t)/R_t. The soft
// norm would need a slip velocity ε_s r/√(1 − r²), growing without bound,
// to hold a load at a fraction r of the bound, and a load near the bound
// would creep; the disk holds it, displaced by at most μ n0 R_t (δt + τd).
func evalLagged(mu, n0, vs, stick, rt, rn float64, vhat, vc, gamma, g []float64) float64 {
	var cost float64
	if stick != 0 {
		cost = laggedStick(mu*n0, rt, vhat, vc, gamma, g)
	} else {
		cost = laggedSlip(mu, n0, vs, rt, vhat, vc, gamma, g)
	}
	x := vhat[2] - vc[2]
	gnn := 0.0
	if x >= 0 {
		gamma[2] = x / rn
		cost += 0.5 * x * x / rn
		gnn = 1 / rn
	} else {
		gamma[2] = 0
	}
	if g != nil {
		g[2], g[5], g[6], g[7], g[8] = 0, 0, 0, 0, gnn
	}
	return cost
}

// laggedSlip is the soft-norm friction of a Lagged block without an
// anchor: its cost ℓ_t, γ_t into gamma[0:2] and G_tt into g's upper-left
// 2×2 (of 3×3).
func laggedSlip(mu, n0, vs, rt float64, vhat, vc, gamma, g []float64) float64 {
	eps := max(vs, mu*rt*n0)
	u0, u1 := vc[0]-vhat[0], vc[1]-vhat[1]
	s := math.Sqrt(u0*u0 + u1*u1 + eps*eps)
	t0, t1 := u0/s, u1/s
	f := mu * n0 // friction impulse bound
	gamma[0], gamma[1] = -f*t0, -f*t1
	if g != nil {
		c := f / s
		g01 := -c * t0 * t1
		g[0], g[1] = c*(1-t0*t0), g01
		g[3], g[4] = g01, c*(1-t1*t1)
	}
	return f * (s - eps)
}

// laggedStick is the friction of an anchored Lagged block: the disk
// ‖γ_t‖ ≤ f = μ n0 with SAP's regularization R_t (evalDisk), so that an
// anchor holds any load strictly inside the bound with a finite
// displacement, f R_t (δt + τd) at most (package contact).
func laggedStick(f, rt float64, vhat, vc, gamma, g []float64) float64 {
	if g == nil {
		return evalDisk(f, rt, vhat[:2], vc[:2], gamma[:2], nil)
	}
	var g2 [4]float64
	cost := evalDisk(f, rt, vhat[:2], vc[:2], gamma[:2], g2[:])
	g[0], g[1], g[3], g[4] = g2[0], g2[1], g2[2], g2[3]
	return cost
}
