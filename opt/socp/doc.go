// Package socp is a primal-dual interior-point solver for convex quadratic
// cone programs over products of the zero cone, the nonnegative orthant
// and second-order cones (LPs, QPs, SOCPs and QCQPs written as SOCPs):
//
//	minimize ½xᵀPx + qᵀx  subject to  Ax + s = b,  s ∈ K
//
// (see Problem), with dense linear algebra from gonum, for problems of up
// to a few thousand variables. It is the reference solver of the contact
// problems: Drumwright's contact QCQP (a convex SOCP with the true
// friction cone) and SAP's own convex problem (see SAP), on which it checks
// the other solvers.
//
// # Why a new solver
//
// No maintained pure-Go conic or QP solver exists: gonum offers an LP
// simplex (optimize/convex/lp) and unconstrained or bound-constrained
// methods, nothing with cones or a quadratic objective; hrautila/cvx, a Go
// translation of CVXOPT, needs cgo BLAS/LAPACK, is LGPL and has not changed
// since 2013; OSQP, ECOS and Clarabel are C or Rust. The algorithm here is
// the standard one of those solvers, written anew.
//
// # Algorithm
//
//   - The homogeneous embedding of Clarabel (Goulart and Chen 2024), which
//     handles the quadratic objective without an epigraph reformulation
//     and detects infeasibility: iterates (x, s, z, τ, κ) and the residuals
//     r_x = Px + Aᵀz + qτ, r_z = Ax + s − bτ, r_τ = κ + qᵀx + bᵀz + xᵀPx/τ;
//     the solution is (x, s, z)/τ, and certificates come with τ → 0.
//   - Nesterov–Todd scaling (see scaling), kept in the scaled space and
//     updated from the well-centred scaled iterates as CVXOPT does, because
//     a scaling recomputed from s and z loses its digits as they near the
//     boundary.
//   - Mehrotra's predictor–corrector with σ = (1 − α_aff)³ and the
//     second-order correction (W⁻ᵀΔs_a)∘(WΔz_a); steps of 0.99 of the way
//     to the boundary.
//   - The KKT system in CVXOPT's symmetric scaling, factored by LU with
//     partial pivoting (LAPACK dgetf2 through gonum) and iteratively refined
//     on the unscaled system (see kkt).
//   - Termination on relative residuals and gap (Settings), on certificates
//     of primal or dual infeasibility (Status), or at a stall, keeping the
//     best iterate.
//   - Polishing (see polisher): Newton's method on the KKT conditions
//     restricted to the faces of K the interior-point solution identifies.
//     Interior-point iterates are accurate only to ≈ √ε on cones where s and
//     z both end on the boundary (sliding contacts); polishing restores
//     round-off accuracy (TestAccuracyByFace: 1.6e-5 → 1.3e-14).
//
// A Solver's workspace is sized by the first Solve and reused: a second
// Solve of the same sizes allocates nothing.
package socp
