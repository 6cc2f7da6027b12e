package solver

import "math"

// NearRigidR returns the near-rigid regularization β²w/(4π²) of SAP
// eq. 29: the compliance for which a unit of inverse effective mass w
// oscillates with period β δt in the discrete scheme.
func NearRigidR(w, beta float64) float64 { return beta * beta / (4 * math.Pi * math.Pi) * w }

// CompliantR returns 1/(δt k (δt + τd)), the regularization of a
// compliant constraint of stiffness k and dissipation time scale τd (SAP
// eq. 29, compliant part).
func CompliantR(k, taud, dt float64) float64 { return 1 / (dt * k * (dt + taud)) }

// Regularization returns SAP eq. 29: the larger of the compliant and the
// near-rigid regularization, so that no constraint is stiffer than the time
// step resolves (period ≥ β δt).
func Regularization(w, beta, k, taud, dt float64) float64 {
	return max(NearRigidR(w, beta), CompliantR(k, taud, dt))
}

// BiasVelocity returns v̂ = −g0/(δt + τd) (SAP §V-A with the constraint
// function g0 in place of the signed distance φ0): the velocity that
// relaxes g to zero with the constraint's compliance.
func BiasVelocity(g0, taud, dt float64) float64 { return -g0 / (dt + taud) }
