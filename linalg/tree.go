package linalg

import "math"

// TreeFill returns Σ_i depth(i), the number of entries on or above the
// diagonal of an n×n matrix with the sparsity of a kinematic tree whose
// degree of freedom i has parent parent[i] (−1 for a root, parent[i] < i):
// entry (j, i) is structurally non-zero only when j is i or an ancestor of
// i. It returns −1 if parent is not of that form. A chain gives n(n+1)/2,
// the dense count: TreeLDL saves work only below it.
func TreeFill(parent []int) int {
	fill := 0
	for i, p := range parent {
		if p < -1 || p >= i {
			return -1
		}
		for j := i; j >= 0; j = parent[j] {
			fill++
		}
	}
	return fill
}

// TreePattern reports whether the upper triangle of the n×n row-major a
// (n = len(parent)) is zero outside the tree's pattern: a_ji = 0 for every
// j < i that is not an ancestor of i. mark is scratch of length ≥ n.
func TreePattern(parent []int, a []float64, mark []bool) bool {
	n := len(parent)
	for i := range n {
		clear(mark[:i])
		for j := parent[i]; j >= 0; j = parent[j] {
			mark[j] = true
		}
		for j := range i {
			if !mark[j] && a[j*n+i] != 0 {
				return false
			}
		}
	}
	return true
}

// TreeLDL factors the n×n row-major symmetric matrix a (upper triangle
// referenced, n = len(parent)) whose non-zeros follow a kinematic tree
// (TreePattern) in place as A = Lᵀ D L, L unit lower triangular with
// L_ij ≠ 0 only for j an ancestor of i: the factorization of MuJoCo's
// mj_factorM (Featherstone, RBDA §6.5, "LTDL"), which has no fill-in
// outside the tree's pattern. D_i is kept in a_ii and L_ij in a_ji (the
// upper triangle). For k = n−1, …, 0 and each ancestor i of k, then each
// ancestor j of i (i itself first),
//
//	t = a_ik / a_kk,  a_ji −= t a_jk,  then  a_ik = t.
//
// It reports whether every pivot D_k is positive (A positive definite).
func TreeLDL(parent []int, a []float64) bool {
	n := len(parent)
	a = a[:n*n]
	for k := n - 1; k >= 0; k-- {
		d := a[k*n+k]
		if d <= 0 || math.IsNaN(d) {
			return false
		}
		for i := parent[k]; i >= 0; i = parent[i] {
			t := a[i*n+k] / d
			for j := i; j >= 0; j = parent[j] {
				a[j*n+i] -= t * a[j*n+k]
			}
			a[i*n+k] = t
		}
	}
	return true
}

// TreeLDLSolve overwrites the row-major n×cols matrix b with A⁻¹ b for the
// factor A = Lᵀ D L of TreeLDL in a (MuJoCo's mj_solveM): y = L⁻ᵀ b by
// leaves to roots, z = D⁻¹ y, x = L⁻¹ z by roots to leaves. Rows of b that
// are zero when their turn comes in the first pass (a sparse right-hand
// side, such as a Jacobian's column along one path to the root) are
// skipped; the terms skipped are exact zeros.
func TreeLDLSolve(parent []int, a, b []float64, cols int) {
	n := len(parent)
	a, b = a[:n*n], b[:n*cols]
	if cols == 1 {
		treeLDLSolve1(parent, a, b)
		return
	}
	for i := n - 1; i >= 0; i-- { // Lᵀ y = b
		bi := b[i*cols : (i+1)*cols]
		if allZero(bi) {
			continue
		}
		for j := parent[i]; j >= 0; j = parent[j] {
			l := a[j*n+i]
			bj := b[j*cols : (j+1)*cols]
			for c := range bj {
				bj[c] -= l * bi[c]
			}
		}
	}
	for i := range n { // D z = y
		d := a[i*n+i]
		bi := b[i*cols : (i+1)*cols]
		for c := range bi {
			bi[c] /= d
		}
	}
	for i := range n { // L x = z
		bi := b[i*cols : (i+1)*cols]
		for j := parent[i]; j >= 0; j = parent[j] {
			l := a[j*n+i]
			bj := b[j*cols : (j+1)*cols]
			for c := range bi {
				bi[c] -= l * bj[c]
			}
		}
	}
}

// treeLDLSolve1 is TreeLDLSolve for one right-hand side (SAP's Newton
// direction), the same operations in the same order without the row
// slices.
func treeLDLSolve1(parent []int, a, b []float64) {
	n := len(parent)
	for i := n - 1; i >= 0; i-- {
		if x := b[i]; x != 0 {
			for j := parent[i]; j >= 0; j = parent[j] {
				b[j] -= a[j*n+i] * x
			}
		}
	}
	for i := range n {
		b[i] /= a[i*n+i]
	}
	for i := range n {
		x := b[i]
		for j := parent[i]; j >= 0; j = parent[j] {
			x -= a[j*n+i] * b[j]
		}
		b[i] = x
	}
}

// allZero reports whether every entry of x is zero.
func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}
