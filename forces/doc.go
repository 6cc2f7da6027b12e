// Package forces holds the force elements of Stiction: gravity, joint
// spring–dampers, linear axial and multi-point (via-point) spring–dampers
// between points on bodies, frame springs (bushings), and applied forces,
// torques and joint motor torques that vary in time.
//
// Each element adds its generalized force k (the k₁ of SAP §II-D) into
// Output.F and, when asked, its stiffness K = −∂k/∂q N(q) and damping
// D = −∂k/∂v (SAP eq. 16–17) into the per-tree blocks Output.K and Output.D,
// which the stepper folds into A = M + δt² θq θvq K + δt θv D (SAP eq. 15).
// A must be symmetric positive definite, so every element hands over an SPD
// (or positive semi-definite) K and D. Where the exact Jacobian is not
// symmetric or not definite, the element documents which terms it drops:
//
//   - the derivative of the Jacobians themselves, (∂Jᵀ/∂q) f, the "geometric
//     stiffness" of a force applied at a moving point (mechanics notes §0.23
//     shows it is not symmetric for rigid bodies) — dropped everywhere;
//   - the transverse stiffness (F/l)(I − uuᵀ) of an axial spring segment
//     when it is in compression (F < 0), where it is negative — dropped
//     (kept when F > 0, where it is exact and positive);
//   - the velocity-dependent term −(d/l) u (ẋ₂−ẋ₁)ᵀ (I − uuᵀ) of notes
//     §0.12, which is not symmetric — dropped;
//   - the rotational stiffness of a frame spring is kept as k_r I (exact at
//     zero misalignment; the inverse Jacobian of the rotation logarithm
//     is dropped);
//   - gravity's configuration derivative, indefinite in general (a pendulum
//     above its pivot) — dropped: gravity hands over K = 0;
//   - blocks of K and D that couple two different trees are dropped, so that
//     A keeps the block-diagonal-by-tree structure the contact solver sees;
//     the diagonal blocks of an SPD matrix are SPD, so definiteness holds.
//
// The fluid's ellipsoid model (Fluid.AddEllipsoid) hands over no D at all:
// its velocity derivative, neither symmetric nor definite, goes whole to
// Output.N, which only the mujoco-implicit scheme reads (its LU solve, as
// MuJoCo's implicit integrator).
//
// Dropping terms changes only the linearization A, not the forces: the
// implicit schemes' Newton iteration on m(v*) = 0 (SAP eq. 13–14) still
// converges to the exact discrete solution, at a linear instead of a
// quadratic rate.
package forces
