package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// Compliance is the stiffness k (N/m, or N·m/rad for rotations and joint
// angles) and dissipation time scale τd (s) of a regularized constraint
// (SAP §V-A). A Stiffness of 0 or +Inf means near-rigid: as stiff as the
// time step resolves (SAP eq. 29, period β δt).
type Compliance struct {
	Stiffness   float64
	Dissipation float64
}

// rigid reports whether c is near-rigid.
func (c Compliance) rigid() bool { return c.Stiffness == 0 || math.IsInf(c.Stiffness, 1) }

// regularization returns R and v̂ of a constraint row with Delassus estimate
// w and value g0 at q0: R = max(β²w/(4π²), 1/(δt k (δt + τd))) (SAP eq. 29)
// and v̂ = −g0/(δt + τd) (SAP §V-A with g in place of φ).
func (c Compliance) regularization(w, g0, beta, dt float64) (r, vhat float64) {
	vhat = solver.BiasVelocity(g0, c.Dissipation, dt)
	if c.rigid() {
		return solver.NearRigidR(w, beta), vhat
	}
	return solver.Regularization(w, beta, c.Stiffness, c.Dissipation, dt), vhat
}

// validate checks k ≥ 0 and τd ≥ 0.
func (c Compliance) validate() error {
	if !(c.Stiffness >= 0) || !(c.Dissipation >= 0) || math.IsInf(c.Dissipation, 0) {
		return errf("stiffness %v and dissipation %v must be ≥ 0 (dissipation finite)", c.Stiffness, c.Dissipation)
	}
	return nil
}
