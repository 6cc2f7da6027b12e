// Package lcp holds pivoting solvers for linear complementarity problems
// and the contact problems built on them, after §0.3 and §0.5–0.8 of the
// mechanics notes:
//
//   - Lemke: Lemke's complementary pivoting method with the lexicographic
//     ratio test (degeneracy), for copositive-plus matrices: positive
//     semidefinite ones and the frictional contact LCP.
//   - PrincipalPivoting: Murty's least-index principal pivoting for
//     P-matrices, with the matrix supplied column by column (Columns) and
//     columns built only when first pivoted on (§0.8).
//   - KKT: the saddle-point solve of §0.6.
//   - MLCPSolver: the mixed LCP of §0.7 turned into an LCP, solved on
//     demand (principal pivoting, one KKT solve per column) or by Lemke's
//     method on the assembled matrix, then back-solved.
//   - FrictionLCP: contact with a polyhedral (pyramid) friction cone of a
//     chosen number of facets, as the LCP of Stewart and Trinkle.
//
// The LCP–QP equivalence of §0.3 (min ½xᵀQx + cᵀx s.t. Ax ≥ b ⇔ M = AQ⁻¹Aᵀ,
// q = −b − AQ⁻¹c) is a test against the interior-point solver (opt/socp).
//
// Pivoting solutions are exact to round-off: the nonbasic variables are
// exactly zero (so z_i w_i = 0 exactly) and the basic ones come from one
// LU solve of the final basis. Contact vectors are ordered (n, t1, t2).
//
// # Where pivoting stops being practical
//
// Measured on this machine (2 cores; TestPivotingScaling, TestStackDegeneracy
// with -long, and the benchmarks):
//
//   - Size. On random positive definite LCPs with about half the constraints
//     active, Lemke's method takes about one pivot per active constraint,
//     each O(n²) on the dense tableau: n = 100, 50 pivots, 0.4 ms; n = 300,
//     143 pivots, 11 ms; n = 1000, 526 pivots, 2.1 s (O(n³) overall).
//     Principal pivoting refactors M_αα at each pivot (O(|α|³)) and pivots
//     more (71, 360, 1675): 0.7 ms, 55 ms, 33 s. Up to a few hundred
//     unknowns pivoting is a fine exact reference; at a thousand it is
//     seconds per solve, and a contact LCP with a pyramid of k facets has
//     (k + 2) unknowns per contact (6 per contact for k = 4, 10 for k = 8),
//     so a few hundred contacts are the limit.
//   - Degeneracy. Stacked boxes (four redundant corner contacts per box,
//     every contact sticking) make the friction LCP highly degenerate.
//     Lemke's method with the lexicographic rule needs about 5.5 pivots per
//     box whatever the number of facets (32 boxes, 768 or 1280 unknowns:
//     174 pivots, 0.15 s and 0.5 s); with the plain minimum-ratio rule it
//     needs 40–60% more pivots up to 16 boxes and at 32 boxes ends on a
//     secondary ray (a false "no solution") after 495–540 pivots.
//     Principal pivoting needs a P-matrix and fails outright (Singular) on
//     redundant contacts, whose Delassus matrix is singular.
package lcp
