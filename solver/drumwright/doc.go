// Package drumwright implements Drumwright's unconditionally stable
// first-order constraint solver ("An Unconditionally Stable First-Order
// Constraint Solver for Multibody Systems", shared/papers; "D." in
// comments) as a solver.Solver over the same solver.Problem that SAP
// solves.
//
// Every constraint row is a spring–damper of stiffness K and damping B
// whose force is evaluated implicitly at the end of the step (D. §4.2).
// The problem's regularization and bias velocity already encode them:
// R = 1/(h(hK + B)) and v̂ = −Kφ0/(hK + B) (SAP eq. 29 and §V-A with
// τd = B/K and no near-rigid cap), so that the spring impulse of row i at
// the end-of-step constraint velocity v_c is
//
//	s_i = h(−K φ1 − B φ̇1) = R_i⁻¹(v̂_i − v_c,i),   φ1 = φ0 + h φ̇1 (D. eq. 51, 62).
//
// With W = J A⁻¹ Jᵀ (the inverse of D.'s M̂, eq. 59) and v_c = J v* + W γ
// (D. eq. 37 with the free motion v* of the θ-method), the solver does
// what D. describes for each class of row:
//
//   - bilateral rows (kind Bilateral): γ_b = s_b exactly, i.e.
//     (W_bb + R_b) γ_b = v̂_b − v_c,b: one linear solve (D. §4.2, eq. 60–61);
//     with other rows present it is eliminated by its Schur complement
//     (D. appendix, eq. 189–192);
//   - unilateral rows (Interval [0, ∞): joint limits): the strictly convex
//     QP min ½ζγᵀγ s.t. γ ≥ s(γ), γ ≥ 0 (D. eq. 83–85);
//   - contact (the contact kinds, 3 rows t1, t2, n): the normal as a
//     unilateral row, the tangential rows as soft springs γ_t = s_t + β_t
//     with β penalized, inside the true Coulomb cone ‖γ_t‖ ≤ μγ_n: the
//     convex QCQP of D. eq. 109–120 in the reduced form of its appendix
//     (eq. 181–198), solved as a second-order cone program by opt/socp.
//
// Rows outside the paper (bounded intervals: actuators with effort limits,
// joint friction; disks: rolling friction) are treated as the paper treats
// friction: a soft spring row whose impulse is bounded, with its deviation
// β penalized. Fixed impulses (an interval with lo = hi, a zero friction
// bound) are not unknowns.
//
// Pieces, one file each: params.go (Params), delassus.go (W, J v*, the
// rows' classes), bilateral.go (the Schur elimination), qcqp.go (the cone
// program), solver.go (Solve and the result).
package drumwright
