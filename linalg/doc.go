// Package linalg holds the sparse linear algebra of the contact solvers:
// symmetric positive definite matrices with a block sparsity pattern (one
// block row and column per clique, i.e. per kinematic tree, and an
// off-diagonal block per pair of cliques in contact), their fill-reducing
// minimum-degree ordering, the symbolic analysis (elimination tree, column
// structures, supernodes) and a supernodal block Cholesky factorization
// H = L Lᵀ with dense kernels.
//
// This is the linear algebra of SAP §IV-D (Castro et al.): H = A + JᵀGJ
// inherits the block sparsity of JᵀGJ, with blocks by tree and
// off-diagonal blocks by pair of trees in contact, and is factored by a
// supernodal Cholesky factorization [48, §9] of the contact graph. The
// pieces:
//
//   - ordering.go: minimum-degree ordering of the block graph (weighted by
//     block sizes), simulated by explicit elimination, which also yields
//     the filled column structures.
//   - symbolic.go: Symbolic, the analysis of one pattern: elimination tree,
//     postorder, fundamental supernodes, storage layout and the scatter map
//     of every supernode's update. Analyze reuses its storage, so a new
//     pattern does not allocate once the buffers are large enough.
//   - cache.go: Cache, which keeps the analyses of the 16 most recently
//     used block patterns and reruns the analysis only for a pattern it
//     does not hold (reused across Newton iterations, across time steps
//     while the contact graph keeps or regains a recent shape, and across
//     islands with the same graph), and counts analyses.
//   - factor.go: Factor, the numeric values of L: assembly (Locate, Add),
//     the right-looking supernodal factorization and the triangular solves.
//   - kernels.go: the dense kernels (Cholesky, triangular solve, rank-k
//     update), hand-written loops and gonum BLAS/LAPACK variants.
//   - small.go: CholUpper and SolveUpper, dense Cholesky and solves of
//     small blocks that repeat gonum's operations bit for bit.
//   - tree.go: TreeLDL and TreeLDLSolve, A = LᵀDL of a matrix with the
//     sparsity of a kinematic tree (a branched robot's mass matrix), with
//     no fill-in (MuJoCo's mj_factorM and mj_solveM), and TreeRows, the
//     same factor and one-column solve bit for bit on compressed rows
//     kept per tree (MuJoCo's qLD layout); TreeLDLGram and
//     UpperGram (Bᵀ A⁻¹ B from half of a tree or dense factor, a Delassus
//     block) and TreeLDLInvDiag and UpperInvDiag (one diagonal entry of
//     A⁻¹ along a velocity's path to the root).
//
// Nothing here panics on bad numbers: a matrix that is not numerically
// positive definite makes Factorize report false.
package linalg
