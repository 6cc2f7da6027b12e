// Package solver defines the discrete problem of one time step that every
// contact and constraint solver in Stiction consumes, the constraint kinds
// it is made of, and the interface the solvers implement.
//
// The problem is SAP's unconstrained convex formulation (Castro et al.,
// Section III, eq. 19 and 24) with any mix of constraints: minimise over the
// generalized velocities v
//
//	ℓp(v) = ½‖v − v*‖²_A + Σ_i ℓ_i(J_i v),
//
// with A symmetric positive definite and block diagonal by clique (one
// clique per kinematic tree), and one convex cost ℓ_i per constraint block
// i, a function of its constraint velocity v_c,i = J_i v (Size_i rows). The
// block's impulse is γ_i = −∂ℓ_i/∂v_c,i and its Hessian G_i = ∂²ℓ_i/∂v_c,i².
// For SAP's frictional contact (Kind ContactCone), ℓ_i = ½‖P_F(y_i)‖²_R with
// y_i = −R_i⁻¹(v_c,i − v̂_i) (eq. 22–23, 35), rows (t1, t2, n), and
// R_i = diag(Rt, Rt, Rn). The contact velocity is the velocity of body B
// relative to body A at the contact point; its normal component is positive
// when the bodies separate, and an impulse with γn > 0 pushes them apart.
//
// One file per kind (kind.go lists them): cone.go (SAP's contact),
// lagged.go and similar.go (the Lagged and Similar contact approximations),
// bilateral.go (welds, couplers), interval.go (limits, PD actuators with
// effort limits, joint friction), disk.go (rolling friction). Adding a kind
// means one file with its cost, impulse and Hessian, a case in Kind's
// switches, and a test case in kind_test.go (finite differences of ℓ and
// γ, convexity); the SAP solver, the island solver and the residuals work
// over any mix of kinds unchanged.
//
// Problem assembly lives in packages contact (contacts) and sim (dynamics);
// solvers live in subpackages (solver/sap, solver/pgs, solver/ipm,
// solver/island) and register a constructor by name (registry.go:
// Register, New, Maker; solver/all imports them all), so that scenes
// (solver.type), the command line (--solver) and package fclib pick a
// solver by name (docs/SOLVERS.md). Residuals
// (residuals.go) measure any solver's answer: e_m (SAP eq. 32) and e_μ
// (eq. 33).
package solver
