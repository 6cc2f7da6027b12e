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

// equality returns R and v̂ of a row of an equality constraint (weld, ball,
// distance, coupler). For θq = 0 (symplectic and explicit Euler) it is
// SAP's regularization with g0 = g(q0). For a θ-method with θq > 0
// (implicit Euler, midpoint) the constraint force is evaluated, like every
// other force of the scheme, at the mid-step configuration q^θq: with g* =
// g(q^θq(v*)) and J at the mid-step of the velocities v* the dynamics were
// linearized at (the arguments g0 and jvs = J v*, jv0 = J v0),
// g_θ(v) = g* + θq θvq δt (v_c − J v*) and
// J v^θvq = (1 − θvq) J v0 + θvq v_c, so γ = −δt k (g_θ + τd J v^θvq) is
// affine in v_c:
//
//	R = 1/(δt k θvq (θq δt + τd)),
//	v̂ = −(g* − θq θvq δt J v* + τd (1 − θvq) J v0)/(θvq (θq δt + τd)),
//
// with the near-rigid floor β²w/(4π² θq θvq) (the stiffness of SAP's
// eq. 29). For θq = θvq = 1 this is SAP's form at the predicted end of the
// step. With the midpoint rule the constraint is an implicit-midpoint
// spring: it stores and returns energy instead of dissipating it, so a
// closed loop keeps its energy (TestFourBarEnergy).
func (c Compliance) equality(w, g0, jv0, jvs, beta, dt, tq, tvq float64) (r, vhat float64) {
	if tq == 0 || tvq == 0 {
		return c.regularization(w, g0, beta, dt)
	}
	h := tq * dt
	r = solver.NearRigidR(w, beta) / (tq * tvq)
	if !c.rigid() {
		h += c.Dissipation
		r = math.Max(r, 1/(dt*c.Stiffness*tvq*h))
	}
	return r, -(g0 - tq*tvq*dt*jvs + c.Dissipation*(1-tvq)*jv0) / (tvq * h)
}

// validate checks k ≥ 0 and τd ≥ 0.
func (c Compliance) validate() error {
	if !(c.Stiffness >= 0) || !(c.Dissipation >= 0) || math.IsInf(c.Dissipation, 0) {
		return errf("stiffness %v and dissipation %v must be ≥ 0 (dissipation finite)", c.Stiffness, c.Dissipation)
	}
	return nil
}
