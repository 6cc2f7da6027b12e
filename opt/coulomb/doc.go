// Package coulomb holds the Coulomb friction cone shared by the contact
// solvers and the FCLIB residuals: the Euclidean projection onto
// K_μ = {γ = (γ_N, γ_T): ‖γ_T‖ ≤ μ γ_N}, De Saxcé's modified velocity and
// the natural-map residuals of the convex relaxation, of the regularized
// (compliant) problem and of Coulomb's law.
//
// Contact vectors are ordered (n, t1, t2), normal first, as FCLIB and the
// Delassus-form solvers (solver/pgs, opt/lcp) order them; SAP orders them
// (t1, t2, n) and has its own R-weighted projection (solver/sap).
//
// Nothing here allocates.
package coulomb
