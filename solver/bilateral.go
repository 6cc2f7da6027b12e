package solver

// Bilateral is a regularized equality constraint: welds, ball joints,
// distance constraints and joint couplers, in the SAP framework (Castro et
// al. §III; the constraint family of Drake's SapHolonomicConstraint with
// no impulse bounds). With y = −R⁻¹(v_c − v̂) and C = ℝ^k,
//
//	γ = y,   ℓ = ½ yᵀR y = ½ Σ_r (v_c,r − v̂_r)² / R_r,   G = R⁻¹.
//
// For a holonomic constraint g(q) = 0 with compliance (stiffness k,
// dissipation time τd), R and v̂ follow SAP eq. 29 and §V-A with g in place
// of φ: v̂ = −g0/(δt + τd), and R the larger of the near-rigid value
// β²w/(4π²) and 1/(δt k (δt + τd)) (see Regularization).
func evalBilateral(r, vhat, vc, gamma, g []float64) float64 {
	n := len(r)
	BilateralImpulse(r, vhat, vc, gamma[:n])
	cost := 0.0
	for k, y := range gamma[:n] {
		cost += 0.5 * r[k] * y * y
	}
	if g != nil {
		clear(g[:n*n])
		for k := range n {
			g[k*n+k] = 1 / r[k]
		}
	}
	return cost
}

// BilateralImpulse sets gamma to the impulse γ = y = −R⁻¹(v_c − v̂) of a
// Bilateral block (regularization r, v̂ vhat, len(gamma) rows) at J v =
// vc: Eval's γ without its cost, for callers that read the impulse alone.
func BilateralImpulse(r, vhat, vc, gamma []float64) {
	r, vhat, vc = r[:len(gamma)], vhat[:len(gamma)], vc[:len(gamma)]
	for k := range gamma {
		gamma[k] = -(vc[k] - vhat[k]) / r[k]
	}
}
