package coulomb

import "math"

// Project projects x = (n, t1, t2) onto K_μ = {‖x_T‖ ≤ μ x_N} in place
// (Euclidean norm). Moreau's decomposition x = P_K(x) + P_K°(x), with
// K° = −K* the polar cone, holds to round-off (the tests check it).
func Project(x *[3]float64, mu float64) {
	n, t := x[0], math.Hypot(x[1], x[2])
	switch {
	case t <= mu*n: // inside K
	case mu*t <= -n: // inside the polar cone
		*x = [3]float64{}
	default: // onto the boundary ray through x's tangential direction
		pn := (n + mu*t) / (1 + mu*mu)
		s := mu * pn / t
		*x = [3]float64{pn, s * x[1], s * x[2]}
	}
}

// DeSaxce returns De Saxcé's modified velocity u + μ‖u_T‖ e_N, with which
// Coulomb's law reads K* ∋ DeSaxce(u) ⊥ γ ∈ K (De Saxcé and Feng's
// bipotential; FCLIB's problem statement).
func DeSaxce(u [3]float64, mu float64) [3]float64 {
	return [3]float64{u[0] + mu*math.Hypot(u[1], u[2]), u[1], u[2]}
}

// NaturalMap returns ‖γ − P_K(γ − ũ)‖² for one contact: zero exactly when
// K* ∋ ũ ⊥ γ ∈ K. With ũ = u it measures the convex relaxation, with ũ = u +
// Rγ the regularized problem and with ũ = DeSaxce(u) Coulomb's law.
func NaturalMap(g, ut [3]float64, mu float64) float64 {
	x := [3]float64{g[0] - ut[0], g[1] - ut[1], g[2] - ut[2]}
	Project(&x, mu)
	d0, d1, d2 := g[0]-x[0], g[1]-x[1], g[2]-x[2]
	return d0*d0 + d1*d1 + d2*d2
}
