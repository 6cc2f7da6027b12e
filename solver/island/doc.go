// Package island solves a contact problem island by island.
//
// The contact graph of a solver.Problem has the cliques (kinematic trees)
// as nodes and the contacts as edges (SAP §IV-D, Fig. 2). Its connected
// components, the islands, do not interact: ℓp (SAP eq. 24) is a sum of
// one independent term per island, so each island can be minimised on its
// own, and in parallel. Solver is a solver.Solver that splits a problem into
// one sub-problem per island, solves each with an inner solver, and merges
// the results.
//
// Determinism: islands are numbered by their smallest clique index, the
// result of an island depends only on the island (the inner solver's state
// carried from solve to solve, SAP's cache of symbolic analyses, does not
// change the numbers), and the merge visits islands in that order. A solve
// therefore gives bit-identical results for any number of workers. Each
// worker owns one inner solver and solves the islands a deterministic
// longest-first schedule gives it; so the memory a worker's solver grows
// to is the same from run to run too.
package island
