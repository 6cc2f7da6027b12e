// Package solver defines the discrete contact problem that every contact
// solver in Stiction consumes, and the interface they implement.
//
// The problem is the convex approximation of SAP (Castro et al., Section III,
// eq. 19 and 24): minimise over the generalized velocities v
//
//	ℓp(v) = ½‖v − v*‖²_A + ½‖P_F(y(v))‖²_R,   y = −R⁻¹(J v − v̂),
//
// with A symmetric positive definite and block diagonal by clique (one clique
// per kinematic tree), J the contact Jacobian in contact frames, v̂ the
// stabilization velocities, R the diagonal regularization and μ the friction
// coefficients. Contact frames are ordered (t1, t2, n): two tangents then the
// normal, so each contact owns three consecutive rows of J, v̂ and R, and
// R_i = diag(Rt, Rt, Rn). The contact velocity v_c = J v is the velocity of
// body B relative to body A at the contact point; its normal component is
// positive when the bodies separate, and an impulse γ with γn > 0 pushes them
// apart.
//
// Problem assembly lives in package contact; solvers live in subpackages
// (solver/sap, ...). Keeping the two apart lets other solvers and a
// block-sparse linear-algebra path reuse the same problem.
package solver
