// Package ipm solves the problem of one time step, solver.Problem, with the
// primal-dual interior-point method of package opt/socp: SAP's convex
// problem in its constrained primal form (Castro et al., eq. 19),
//
//	minimize   ½‖v − v*‖²_A + ½‖σ‖²_R + Σ t
//	subject to g = J v + R σ − v̂ in the cone (or epigraph) of each block,
//
// the reference against which SAP and PGS are checked (the SAP paper
// checks itself against Gurobi the same way). Each constraint block's cost
// ℓ_i(v_c) = max_{γ∈C_i} −γᵀ(v_c − v̂) − ½γᵀRγ is, by Fenchel duality,
// min_σ ½σᵀRσ + h_C(−g) with h_C the support function of its impulse set
// C_i; h_C becomes cone rows (see rows.go):
//
//   - ContactCone (C the friction cone): h_C(−g) = 0 if g lies in the
//     dual cone, μ‖g_t‖ ≤ g_n: one second-order cone (g_n, μ g_t) (eq. 19),
//     or g_n ≥ 0 when μ = 0;
//   - Bilateral (C = ℝᵏ): g = 0, equality rows;
//   - Interval (C = [lo, hi]): h_C(−g) = max(−hi g, −lo g) ≤ t, two
//     orthant rows (one when a bound is infinite, none for lo = 0, hi = ∞:
//     then g ≥ 0);
//   - Disk (C = {‖γ‖ ≤ ρ}): ρ‖g‖ ≤ t, one second-order cone;
//   - ContactLagged with a friction anchor (stick parameter 1): the disk
//     ‖γ_t‖ ≤ μ n0 for the tangential rows and g_n ≥ 0 for the normal row.
//
// ContactSimilar and unanchored ContactLagged blocks (soft-norm friction)
// are not of this form; Solve returns an error naming the kind.
//
// The returned impulses are γ(J v) (Problem.Eval), as SAP returns them, and
// the statistics carry e_m and e_μ (SAP eq. 32–33), so that an answer of
// the IPM is judged by the same numbers as SAP's. opt/socp is dense: an
// iteration costs O((NV + NR)³), so the IPM is a reference for problems of
// up to a few hundred velocities, not a solver for large scenes.
package ipm
