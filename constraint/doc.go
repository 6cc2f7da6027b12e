// Package constraint holds the static definitions of the constraints and
// actuators that act on a multibody system besides contact, and assembles
// them into the convex problem of each time step (solver.Problem, SAP
// eq. 19/24), after the contact blocks.
//
// A Set lists them:
//
//   - Limit: lower and upper limits of a joint coordinate (one-sided,
//     solver.Interval on [0, ∞)); ConeLimit: the rotation angle of a ball
//     joint, along its rotation axis;
//   - Weld (6 rows), Ball (point-on-point, 3), Distance (1) and Coupler
//     (q_i = ρ q_j + offset, 1): holonomic constraints g(q) = 0 between any
//     two bodies, of the same tree or not (closed loops), solver.Bilateral;
//   - Actuator: motor, position, velocity and PD actuators with gear ratio,
//     control range and effort limit, implicit in the step (Drake's
//     SapPdControllerConstraint): solver.Interval on [−e δt, e δt];
//   - JointFriction: dry friction on a degree of freedom (MuJoCo's
//     frictionloss), solver.Interval on [−τ_f δt, τ_f δt];
//   - Attachment and Prescribed: hard attachments and prescribed motion,
//     which are not blocks of the problem but remove velocities from it
//     (mechanics notes §0.17–0.21); package sim performs the elimination.
//
// Each regularized constraint is compliant (Compliance: stiffness k and
// dissipation time scale τd in SI units) or near-rigid: R is the larger of
// 1/(δt k (δt + τd)) and β² w/(4π²) (SAP eq. 29, with the per-row Delassus
// estimate w = (J A⁻¹ Jᵀ)_rr of §V-B) and v̂ = −g0/(δt + τd) (§V-A with g in
// place of φ). The Assembler builds the blocks from the kinematics at q0;
// Report reads each constraint's impulse and state (active, at its effort
// limit) from a solution.
//
// Control inputs of actuators and prescribed motions are Signals of time
// (Constant, Table, Sine, Func); package sim evaluates them at the end of
// each step, and Simulator.SetControl overrides them from Go.
package constraint
