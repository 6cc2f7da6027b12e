// Package sap implements the Semi-Analytic Primal (SAP) contact solver of
// Castro et al., "An Unconstrained Convex Formulation of Compliant Contact"
// (SAP in comments; the text is in shared/papers).
//
// SAP minimises the unconstrained, strongly convex cost (SAP eq. 24)
//
//	ℓp(v) = ½‖v − v*‖²_A + Σ_i ℓ_i(J_i v)
//
// over the generalized velocities v with Newton's method and a line search
// (SAP Algorithm 2), for any mix of the constraint kinds of package solver
// (for SAP's frictional contact, ℓ_i = ½‖P_F(y_i)‖²_R with
// y = −R⁻¹(J v − v̂), eq. 23–24). The impulses follow analytically as
// γ_i = −∂ℓ_i/∂v_c,i and the Hessian blocks as G_i = ∂²ℓ_i/∂v_c,i²
// (solver.Problem.Eval). The problem data come from solver.Problem.
//
// The pieces, one file each:
//
//   - cost.go: ℓp, ∇ℓp = A(v − v*) − Jᵀγ and the norms of the stopping
//     criterion (SAP §IV-A, eq. 25).
//   - hessian.go: H = A + JᵀGJ and its factorization behind the internal
//     newtonSystem interface, and the dense implementation (NV×NV, blocked
//     Cholesky).
//   - packed.go: J over its blocks' non-zero columns (a row along a tree
//     touches only its body's path to the root), packed once per solve
//     for J v, Jᵀγ and the dense H, which is assembled in its upper
//     triangle only; the same sums in the same order as over all of J.
//   - sparse.go: the block-sparse implementation of SAP §IV-D: H by blocks
//     (per clique and per pair of cliques in contact), minimum-degree
//     ordering, supernodal Cholesky (package linalg), symbolic analysis
//     cached on the contact graph's pattern. Params.Linear chooses; the
//     default (AutoLinear) takes it from three cliques on.
//   - linesearch.go: exact line search (rtsafe on dℓ/dα) and backtracking
//     Armijo search, with the O(n) derivatives of SAP §IV-C.
//   - predict.go: the stick prediction of Lagged contacts' regimes
//     (Params.StickPrediction): a second search direction when a Newton
//     step carries slips across zero.
//   - stopping.go: the optimality criterion (SAP eq. 26), the cost-stall
//     criterion and the error metrics e_m, e_μ (SAP eq. 32, 33).
//   - solver.go: Solver, implementing solver.Solver.
//
// Conventions: the generalized momentum in eq. (25)–(26) is p = A v (the
// paper writes M v; with A = M + O(δt) this is the consistent choice since
// ∇ℓp = A(v − v*) − Jᵀγ); D = diag(M)^(−1/2) from Problem.MDiag.
package sap
