// Package fclib reads frictional contact problems in the FCLIB format
// (Frictional Contact Library, HDF5 files) and solves them with Stiction's
// solvers: SAP (package solver/sap) by default, or any solver of the
// registry (Options.Solver: pgs, ipm, …; docs/SOLVERS.md), all on SAP's
// convex problem.
//
// # Reading
//
// The HDF5 files are read by package hdf5 (a pure-Go reader of the subset
// FCLIB files use). Its errors reach the caller wrapped: ErrUnsupported and
// ErrFormat are hdf5's own, so an unsupported HDF5 feature or a corrupt
// file matches them, as do problems this package cannot take and FCLIB
// data that is inconsistent. Every error names the file and the object.
//
// Read and ReadFile return a Problem: a GlobalProblem (M, H, f, w, μ and
// the optional G, b) or a LocalProblem (W, q, μ). Sparse matrices come in
// the three FCLIB forms, given by nz: triplet (nz ≥ 0, i = row, p = column,
// as CSparse and the data have it; fclib.h's comment swaps them), CSC
// (nz = −1) and CSR (nz = −2). They are returned in compressed-column form
// (Sparse) with duplicates summed. Contact vectors are ordered (n, t1, t2)
// per contact, as in FCLIB.
//
// # Solving with SAP
//
// NewMapping writes a problem as a solver.Problem (see Mapping): for a
// global problem A = M, J = P Hᵀ (P reorders each contact to SAP's
// (t1, t2, n)), v* = M⁻¹ f, v̂ = −P w; for a local problem W = J Jᵀ with
// A = I, v* = 0, v̂ = −P q, J from a symmetric eigendecomposition of W
// (which may be singular). FCLIB problems are rigid, so the regularization
// is a parameter: R = ε w_i with w_i = ‖W_ii‖_F/3 the RMS of contact i's
// Delassus block, computed per clique as SAP eq. (29) does. Cliques are the
// connected components of M's sparsity graph, laid out contiguously.
//
// M and W must be symmetric. LMGC90 writes the mass matrix of CubeH8.hdf5
// and LMGC_GlobalFrictionContactProblem00046.hdf5 as its upper triangle
// only; a matrix with one empty triangle is read as symmetric (Symmetry),
// and Report notes it. A matrix with both triangles that is not symmetric
// to round-off is unsupported.
//
// Solve maps, solves, maps back (r = Pᵀγ) and evaluates Residuals, the
// Siconos-normalised residuals of the convex relaxation, of the regularised
// problem SAP solves, and of Coulomb's law with De Saxcé's correction.
// Report prints them as a table for the command `stiction fclib`.
//
// # Accuracy
//
// The regularised problem is solved to SAP's tolerance. The convex
// relaxation needs R → 0, but SAP's round-off floor on its momentum error
// grows like 1/ε (Hessian condition), about 1e-17/ε on the samples. A
// single solve therefore reaches a relaxed residual of about 5e-9 on
// Box_Stacks (ε ≈ 3e-9, where the floor and the O(ε) compliance term
// balance) and only ≈ 2e-6 on the local sample, whose residual, normalised
// by ‖r‖, amplifies the velocity errors by up to λmax(W) ≈ 2700.
// Options.Refine removes the compliance term instead, by proximal-point
// passes on SAP's dual at a moderate ε (1e-4): all five samples then reach
// relaxed residuals ≤ 1e-10, in 2 or 3 passes for the global samples and a
// few dozen for the rank-deficient local one. Coulomb's law differs from its
// convex relaxation when contacts slide (the relaxation glides, u_N =
// μ‖u_T‖): Box_Stacks has 4 sliding contacts and a Coulomb residual ≈ 0.1.
package fclib
