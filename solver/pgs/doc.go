// Package pgs is projected Gauss–Seidel for frictional contact with the
// exact, round Coulomb cone (mechanics notes §0.15–0.16), in two forms:
//
//   - Global, a solver.Solver registered as "pgs": Gauss–Seidel on SAP's
//     dual over the problem of a time step, solver.Problem, with every
//     constraint kind and the problem's own regularization R, so that it
//     solves the same convex problem as SAP and the interior-point solver
//     and reports SAP's residuals (global.go, local.go; docs/SOLVERS.md);
//   - Solver, on a local (Delassus) problem u = Wγ + b with Coulomb's law
//     or its convex relaxation, described below.
//
// A Problem gives u = W γ + b for nc contacts (W the 3nc×3nc Delassus
// operator J A⁻¹ Jᵀ, b the free contact velocity), contact vectors ordered
// (n, t1, t2), friction coefficients μ and an optional diagonal
// regularization R (SAP's compliance, eq. 19–22). With ũ = u + Rγ, the law
// is, contact by contact,
//
//   - Coulomb (De Saxcé's form): K* ∋ ũ + μ‖ũ_t‖e_n ⊥ γ ∈ K, i.e. Coulomb
//     friction with unilateral contact, the FCLIB problem;
//   - Relaxed: K* ∋ ũ ⊥ γ ∈ K, the convex relaxation that SAP solves (its
//     dual, eq. 22, min ½γᵀ(W + R)γ + bᵀγ over γ ∈ K).
//
// with K = {‖γ_t‖ ≤ μ γ_n} (package opt/coulomb).
//
// # Algorithm
//
// A sweep visits the contacts in order and solves each one with the others
// held at their latest values (the block Gauss–Seidel of notes eq. 0.17:
// ũ_i = b_i + Σ_j W_ij γ_j + R_i γ_i uses the new γ_j of contacts already
// visited). The contact's own problem is solved by LocalIter steps of the
// projected fixed point γ_i ← P_K(γ_i − ρ_i ũ'_i), ρ_i = 1/λmax(W_ii + R_i),
// with ũ' = ũ (Relaxed) or ũ + μ‖ũ_t‖e_n (Coulomb), updating ũ_i = …
// + (W_ii + R_i) Δγ_i after each step; their fixed points are exactly the
// two laws above. Notes §0.16 does one normal step and one box-friction
// step per contact; here the friction set is the exact disc ‖γ_t‖ ≤ μγ_n.
// Successive over-relaxation replaces the new γ_i by P_K((1 − ω)γ_old +
// ω γ_i).
//
// After each sweep the solver computes u = Wγ + b afresh and the
// natural-map residual of the chosen law, normalised as FCLIB and Siconos
// normalise it (‖γ − P_K(γ − ũ')‖ / max(‖ũ‖, ‖γ‖), coulomb.Residuals), and
// stops when it is at most Tol. A sweep and a residual each cost O(m²) for
// m = 3nc. Warm starts begin from a given γ (projected onto K).
//
// Gauss–Seidel converges linearly, at a rate set by the conditioning of
// W + R: on stiff stacks of many bodies (near-rigid contact, W nearly
// singular) it needs very many sweeps; the tests measure it.
//
// A Solver's workspace is reused: a second Solve of the same size
// allocates nothing.
package pgs
