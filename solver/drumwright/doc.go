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
// (D. eq. 37 with the free motion v* of the θ-method; with symplectic Euler
// v* = v0 + h M⁻¹f and q1 = q0 + h N v1, D. eq. 36–37), a solve is:
//
//  1. Bilateral rows (kind Bilateral): γ_b = s_b exactly, i.e.
//     (W_bb + R_b) γ_b = v̂_b − v_c,b, one linear solve (D. §4.2, eq. 60–61);
//     with other rows present they are eliminated by their Schur
//     complement (D. appendix, eq. 189–192), bilateral.go.
//  2. Unilateral rows (Interval [0, ∞) — joint limits — and contact
//     normals): D. eq. 68, γ = max(0, s(γ)), with friction held at zero, by
//     block principal pivoting (pivot.go); if pivoting fails, D.'s QP
//     min ½ζγᵀγ s.t. γ ≥ s(γ), γ ≥ 0 (eq. 83–85) by the interior-point
//     method of opt/socp. This gives the active set.
//  3. The joint stage (qcqp.go): D.'s QCQP (eq. 109–120, reduced as in the
//     appendix, eq. 181–198) over the active unilateral rows and the soft
//     rows — friction γ_t = s_t + β_t with ½(‖γ_t‖² + ‖β_t‖²) minimized
//     inside the true Coulomb cone ‖γ_t‖ ≤ μγ_n — with the active rows'
//     spring law as an equality, solved as a second-order cone program by
//     opt/socp unless the equality-constrained minimizer already lies inside
//     every cone and bound (fastpath.go: the KKT conditions then hold with
//     zero multipliers). Rows the stage makes violate their law join the
//     active set; rows the others would make pull fall back to D.'s
//     inequality form; at most Params.MaxOuter joint solves.
//
// Where this departs from the paper, and why (docs/DRUMWRIGHT.md has the
// measurements): D. keeps γ_n ≥ s_n(γ) as an inequality inside one QCQP that
// weighs ζ‖γ_n‖² against ‖β‖²; its minimizer raises the normal impulse of
// a sliding contact a hundredfold until friction stops the slide. Holding
// the normals at their spring law is the ζ → ∞ limit the paper argues for
// (§6.1), and it is eq. 68 itself.
//
// Rows outside the paper (bounded intervals: actuators with effort limits,
// joint friction; disks: rolling friction) are soft rows like friction —
// γ = s + β with hard bounds — but minimize ½β² alone (no ½γ²), so that
// inside their bounds they follow their spring law exactly. Fixed impulses (an interval with lo = hi, a zero friction
// bound) are not unknowns. The contact kinds Lagged and Similar are solved
// as the cone (their μ; their own approximations are SAP's, not D.'s).
//
// Pieces, one file each: params.go (Params), delassus.go (W, J v*, the
// rows' classes), bilateral.go (the Schur elimination), pivot.go (the
// unilateral rows), qcqp.go (the cone programs), fastpath.go (exact shortcuts
// checked by the KKT conditions), solver.go (Solve, the stages, the result).
package drumwright
