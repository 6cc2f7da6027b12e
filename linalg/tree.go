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

// TreeOffPattern appends to out[:0] the row-major indices j·n + i of the
// upper triangle of an n×n matrix (n = len(parent), j < i) that lie
// outside the tree's pattern (j not an ancestor of i), in TreePattern's
// order, and returns it. The list depends on parent only: with it,
// TreePattern(parent, a, ·) is "a[k] = 0 for every k in the list"
// (OffPatternZero), the same answer without walking the tree again.
// mark is scratch of length ≥ n.
func TreeOffPattern(parent []int, mark []bool, out []int32) []int32 {
	n := len(parent)
	out = out[:0]
	for i := range n {
		clear(mark[:i])
		for j := parent[i]; j >= 0; j = parent[j] {
			mark[j] = true
		}
		for j := range i {
			if !mark[j] {
				out = append(out, int32(j*n+i))
			}
		}
	}
	return out
}

// OffPatternZero reports whether a[k] = 0 for every index k of off
// (TreeOffPattern's list): TreePattern's answer for the list's tree. It
// ORs the entries' bits without their sign bits, four at a time, which is
// 0 exactly when every entry is ±0 (a NaN, as x ≠ 0, makes it non-zero),
// and reads the whole list: an answer of false costs as much as true,
// which is then followed by a dense factor of the block, O(n²) as well.
func OffPatternZero(off []int32, a []float64) bool {
	var acc uint64
	for ; len(off) >= 4; off = off[4:] {
		k := off[:4:4]
		acc |= math.Float64bits(a[k[0]]) | math.Float64bits(a[k[1]]) | math.Float64bits(a[k[2]]) | math.Float64bits(a[k[3]])
	}
	for _, k := range off {
		acc |= math.Float64bits(a[k])
	}
	return acc<<1 == 0
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
	treeLTSolve(parent, a, b, n, cols, n-1) // Lᵀ y = b
	// D z = y
	for i := range n {
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

// TreeLDLGram adds Bᵀ A⁻¹ B to the row-major cols×cols w (upper triangle
// and its mirror) for the factor A = Lᵀ D L of TreeLDL in a and the
// row-major n×cols b, which it overwrites with Y = L⁻ᵀ B: since
// A⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ, Bᵀ A⁻¹ B = Yᵀ D⁻¹ Y (the half of MuJoCo's mj_solveM
// that a Delassus block J A⁻¹ Jᵀ needs). The first pass skips the rows of
// b that are zero when their turn comes, so a column with one non-zero (a
// joint limit's row) costs its path to the root, and so does the sum.
func TreeLDLGram(parent []int, a, b []float64, cols int, w []float64) {
	n := len(parent)
	a, b, w = a[:n*n], b[:n*cols], w[:cols*cols]
	last := n - 1
	for last >= 0 && allZero(b[last*cols:(last+1)*cols]) {
		last--
	}
	treeLTSolve(parent, a, b, n, cols, last) // Lᵀ Y = B, leaves to roots
	gram(b, last+1, n, cols, w, a)
}

// TreeLDLInvDiag returns (A⁻¹)_ii for the factor A = Lᵀ D L of TreeLDL in
// a: y = L⁻ᵀ e_i is non-zero on i's path to the root only, and
// (A⁻¹)_ii = Σ_k y_k²/D_k over that path (TreeLDLGram for the one column
// e_i, in O(depth²)). y is scratch of length ≥ n, zero on entry and on
// return.
func TreeLDLInvDiag(parent []int, a []float64, i int, y []float64) float64 {
	n := len(parent)
	a = a[:n*n]
	y[i] = 1
	s := 0.0
	for k := i; k >= 0; k = parent[k] {
		yk := y[k]
		for j := parent[k]; j >= 0; j = parent[j] {
			y[j] -= a[j*n+k] * yk
		}
		s += yk * yk / a[k*n+k]
		y[k] = 0
	}
	return s
}

// UpperInvDiag returns (A⁻¹)_ii = ‖U⁻ᵀ e_i‖² for the factor A = UᵀU of
// CholUpper (or LAPACK's Potrf, upper) in the n×n row-major u: the forward
// substitution of UpperGram for the one column e_i, whose entries before i
// stay zero. y is scratch of length ≥ n, zero on entry and on return.
func UpperInvDiag(n int, u []float64, i int, y []float64) float64 {
	u = u[:n*n]
	y[i] = 1
	s := 0.0
	for k := i; k < n; k++ {
		yk := y[k] / u[k*n+k]
		for m := k + 1; m < n; m++ {
			y[m] -= u[k*n+m] * yk
		}
		s += yk * yk
		y[k] = 0
	}
	return s
}

// UpperGram adds Bᵀ A⁻¹ B to the row-major cols×cols w (upper triangle and
// its mirror) for the factor A = UᵀU of CholUpper (or LAPACK's Potrf,
// upper) in the n×n row-major u and the row-major n×cols b, which it
// overwrites with Y = U⁻ᵀ B: Bᵀ A⁻¹ B = Yᵀ Y, the forward half of
// SolveUpper. Leading rows of b that are zero stay zero and cost nothing
// but the test.
func UpperGram(n int, u, b []float64, cols int, w []float64) {
	if cols == 3 {
		upperGram3(n, u, b, w) // a contact's three rows
		return
	}
	upperGramN(n, u, b, cols, w)
}

// upperGramN is UpperGram for any number of columns.
func upperGramN(n int, u, b []float64, cols int, w []float64) {
	u, b, w = u[:n*n], b[:n*cols], w[:cols*cols]
	for k := range n { // Uᵀ Y = B
		bk := b[k*cols : (k+1)*cols]
		if allZero(bk) {
			continue
		}
		inv := 1 / u[k*n+k]
		for c := range bk {
			bk[c] *= inv
		}
		for i := k + 1; i < n; i++ {
			if x := -u[k*n+i]; x != 0 {
				bi := b[i*cols : (i+1)*cols]
				for c := range bi {
					bi[c] += x * bk[c]
				}
			}
		}
	}
	gram(b, n, n, cols, w, nil)
}

// gram adds Yᵀ S Y to the cols×cols w for the first rows rows of the
// row-major y (cols columns) and S = D⁻¹, D the diagonal of the n×n
// row-major d (the identity when d is nil), skipping zero rows of y; it
// forms the upper triangle and mirrors it.
func gram(y []float64, rows, n, cols int, w, d []float64) {
	for i := range rows {
		yi := y[i*cols : (i+1)*cols]
		if allZero(yi) {
			continue
		}
		si := 1.0
		if d != nil {
			si = 1 / d[i*n+i]
		}
		for r := range cols {
			x := si * yi[r]
			for c := r; c < cols; c++ {
				w[r*cols+c] += x * yi[c]
			}
		}
	}
	for r := range cols {
		for c := r + 1; c < cols; c++ {
			w[c*cols+r] = w[r*cols+c]
		}
	}
}

// treeLTSolve solves Lᵀ Y = B in place for the rows 0…last of b (n × cols,
// row-major), from the leaves to the roots along parent, with L the unit
// lower factor stored below a's diagonal (TreeLDL); rows of B that are zero
// are skipped, and rows past last must be zero.
func treeLTSolve(parent []int, a, b []float64, n, cols, last int) {
	for i := last; i >= 0; i-- {
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
}

// TreeRows is TreeLDL's factor kept in compressed rows along a fixed tree,
// MuJoCo's qLD layout: row i holds D_i, then L_ji for the ancestors j of i,
// nearest first, contiguously. Built once per tree (Reset), it factors and
// solves with the same operations in the same order on every entry as
// TreeLDL and TreeLDLSolve, so every bit of their results, without walking
// parent, without index arithmetic per entry and with the inner updates on
// contiguous slices: the row of an ancestor i of k is i's path to the
// root, which is the tail of k's path from i on, so TreeLDL's update
// a_ji −= t a_jk over j on i's path is one contiguous update of row i by
// the tail of row k.
type TreeRows struct {
	n     int
	dense []int32     // dense[e]: the row-major index j·n + i of entry e of val
	val   []float64   // the factor, row after row
	row   [][]float64 // row[i]: i's row of val, D_i first
	anc   [][]int32   // anc[i]: i's ancestors, nearest first (row[i][1:]'s velocities)
	ancs  []int32     // anc's storage
	// For a tree numbered in pre-order (each subtree's velocities
	// consecutive, as MuJoCo's and multibody's are), the values of i's
	// ancestors in Solve1's last pass are path[i]: path holds x_j at
	// depth−1−depth(j) for the last j solved at each depth, which are
	// i's ancestors when i's turn comes, nearest first. Solve1's first
	// pass keeps the ancestors' running values there too.
	pre  bool
	path []float64
	up   []treeUp // up[i]: what Solve1's passes read at i
}

// treeUp is what Solve1's passes read at velocity i of a tree in
// pre-order, kept together so that a pass holds one slice in registers
// (with several, Go spilled them to the stack inside the loop).
type treeUp struct {
	l     []float64 // i's row of L, its ancestors' entries, nearest first
	p     []float64 // path[at+1:]: i's ancestors' slots of path
	fresh []int32   // i's nearest ancestors whose subtrees end at i (nil unless leaf)
	at    int32     // i's slot of path, depth−1−depth(i)
	leaf  bool      // i+1 is not i's child
}

// Reset builds r's layout for the tree parent (parent[i] < i, −1 for a
// root; TreeFill's form), reusing r's storage when it can.
func (r *TreeRows) Reset(parent []int) {
	n := len(parent)
	r.n = n
	r.dense, r.ancs = r.dense[:0], r.ancs[:0]
	for i := range n {
		for j := i; j >= 0; j = parent[j] {
			r.dense = append(r.dense, int32(j*n+i))
			if j != i {
				r.ancs = append(r.ancs, int32(j))
			}
		}
	}
	if cap(r.val) < len(r.dense) {
		r.val = make([]float64, len(r.dense))
	}
	r.val = r.val[:len(r.dense)]
	r.row, r.anc = r.row[:0], r.anc[:0]
	e, a := 0, 0
	for i := range n {
		m := 0
		for j := parent[i]; j >= 0; j = parent[j] {
			m++
		}
		r.row = append(r.row, r.val[e:e+m+1:e+m+1])
		r.anc = append(r.anc, r.ancs[a:a+m:a+m])
		e, a = e+m+1, a+m
	}
	r.preorder()
}

// preorder sets r.pre, and path and up when it holds: the tree is
// numbered in pre-order when, at each i, the last velocity numbered at
// each depth above i's is i's ancestor at that depth.
func (r *TreeRows) preorder() {
	depth := 0
	for _, a := range r.anc {
		depth = max(depth, len(a)+1)
	}
	last := make([]int32, depth)
	r.pre = true
	for i, a := range r.anc {
		for m, j := range a { // j at depth len(a)−1−m
			if last[len(a)-1-m] != j {
				r.pre = false
				return
			}
		}
		last[len(a)] = int32(i)
	}
	if cap(r.path) < depth {
		r.path = make([]float64, depth)
	}
	r.path = r.path[:depth]
	r.up = r.up[:0]
	for i, a := range r.anc {
		at := depth - 1 - len(a)
		next := 0 // depth(i+1); the ancestors deeper than i+1's parent end at a leaf i
		if i+1 < len(r.anc) {
			next = len(r.anc[i+1])
		}
		u := treeUp{l: r.row[i][1:], p: r.path[at+1:], at: int32(at), leaf: next <= len(a)}
		if u.leaf {
			u.fresh = a[:len(a)-next]
		}
		r.up = append(r.up, u)
	}
}

// N returns the order of r's tree.
func (r *TreeRows) N() int { return r.n }

// Factor is TreeLDL(parent, a) for r's tree and the n×n row-major a: it
// gathers a's pattern into r's rows, factors them there and writes the
// factor back into a (D_i in a_ii, L_ji in a_ji), every bit TreeLDL's,
// and keeps it in r for Solve1. It reports whether every pivot is
// positive; on a failed pivot a holds what TreeLDL leaves there.
func (r *TreeRows) Factor(a []float64) bool {
	ok := r.FactorRows(a)
	if ok {
		r.Unpack(a)
	}
	return ok
}

// FactorRows is Factor without writing the factor back into a, which a
// caller that reads it from the rows only (Solve1) does not need; Unpack
// writes it later. On a failed pivot it writes a as Factor does.
func (r *TreeRows) FactorRows(a []float64) bool {
	a = a[:r.n*r.n]
	val := r.val[:len(r.dense)]
	for e, k := range r.dense {
		val[e] = a[k]
	}
	if !r.factor() {
		r.Unpack(a)
		return false
	}
	return true
}

// Unpack writes the factor of the last FactorRows into the tree's pattern
// of the n×n row-major a (D_i in a_ii, L_ji in a_ji, TreeLDL's storage);
// a's other entries are left as they are.
func (r *TreeRows) Unpack(a []float64) {
	a = a[:r.n*r.n]
	val := r.val[:len(r.dense)]
	for e, k := range r.dense {
		a[k] = val[e]
	}
}

// factor runs TreeLDL's loops on the compressed rows: for k = n−1…0 with
// row k = (d, x_1…x_p) along k's ancestors c_1…c_p, for m = 1…p,
// t = x_m / d, row c_m −= t (x_m…x_p), then x_m = t. Row c_m is c_m's
// path to the root, c_m…c_p: the same length as the tail it takes. The
// updates of one k touch different rows (c_m's) and read row k's x_m…x_p
// before x_m is scaled, so two m go at once: t1 = x_m/d, t2 = x_{m+1}/d,
// row c_m −= t1 (x_m…x_p) and row c_{m+1} −= t2 (x_{m+1}…x_p), each entry
// its one product and difference as the loop of one m makes it.
func (r *TreeRows) factor() bool {
	rows, anc := r.row, r.anc
	for k := r.n - 1; k >= 0; k-- {
		row := rows[k]
		d := row[0]
		if d <= 0 || math.IsNaN(d) {
			return false
		}
		x, cs := row[1:], anc[k]
		for len(cs) >= 4 {
			xs := x[3:] // x_{m+3}…x_p
			y1, y2, y3, y4 := rows[cs[0]], rows[cs[1]], rows[cs[2]], rows[cs[3]]
			x0, x1, x2 := x[0], x[1], x[2]
			t1, t2, t3, t4 := x0/d, x1/d, x2/d, xs[0]/d
			y1[0] -= t1 * x0
			y1[1] -= t1 * x1
			y1[2] -= t1 * x2
			y2[0] -= t2 * x1
			y2[1] -= t2 * x2
			y3[0] -= t3 * x2
			a1, a2, a3, a4 := y1[3:], y2[2:], y3[1:], y4[:len(xs)]
			a1, a2, a3 = a1[:len(xs)], a2[:len(xs)], a3[:len(xs)]
			j := 0
			for ; j < len(xs)-1; j += 2 {
				u, v := xs[j], xs[j+1]
				a1[j] -= t1 * u
				a2[j] -= t2 * u
				a3[j] -= t3 * u
				a4[j] -= t4 * u
				a1[j+1] -= t1 * v
				a2[j+1] -= t2 * v
				a3[j+1] -= t3 * v
				a4[j+1] -= t4 * v
			}
			if j < len(xs) {
				u := xs[j]
				a1[j] -= t1 * u
				a2[j] -= t2 * u
				a3[j] -= t3 * u
				a4[j] -= t4 * u
			}
			x[0], x[1], x[2], xs[0] = t1, t2, t3, t4
			x, cs = xs[1:], cs[4:]
		}
		if len(cs) >= 2 { // two left: the same turn on two rows
			xs := x[1:] // x_{m+1}…x_p
			y1, y2 := rows[cs[0]], rows[cs[1]]
			t1, t2 := x[0]/d, xs[0]/d
			y1[0] -= t1 * x[0]
			a, b := y1[1:], y2[:len(xs)]
			a = a[:len(xs)]
			for j, u := range xs {
				a[j] -= t1 * u
				b[j] -= t2 * u
			}
			x[0], xs[0] = t1, t2
			x, cs = xs[1:], cs[2:]
		}
		if len(cs) == 1 { // c_p, a root: its row is D alone
			y := rows[cs[0]]
			t := x[0] / d
			y[0] -= t * x[0]
			x[0] = t
		}
	}
	return true
}

// Solve1 overwrites b (length n) with A⁻¹ b for the factor of the last
// Factor: treeLDLSolve1's operations in its order (TreeLDLSolve with one
// column, every bit), on the compressed rows.
func (r *TreeRows) Solve1(b []float64) {
	rows, anc := r.row, r.anc
	b = b[:len(rows)]
	if r.pre {
		r.solveUp(b)
		r.solveDown(b)
		return
	}
	for i := len(b) - 1; i >= 0; i-- { // Lᵀ y = b, zero entries skipped
		if x := b[i]; x != 0 {
			cs := anc[i]
			l := rows[i][1:]
			l = l[:len(cs)]
			for m, j := range cs {
				b[j] -= l[m] * x
			}
		}
	}
	for i, row := range rows { // D z = y
		b[i] /= row[0]
	}
	for i, row := range rows { // L x = z
		x := b[i]
		cs := anc[i]
		l := row[1:]
		l = l[:len(cs)]
		for m, j := range cs {
			x -= l[m] * b[j]
		}
		b[i] = x
	}
}

// solveUp is Solve1's first two passes, Lᵀ y = b then D z = y, for a tree
// in pre-order: the same products and differences in the same order, each
// ancestor's running value kept in path (nearest first) instead of b.
// Going down from n−1, i's ancestors stay on the path until their own
// turn, and an ancestor enters it at the last velocity of its subtree,
// a leaf, which loads it from b (fresh); a velocity with children finds
// its value in its own slot of path.
func (r *TreeRows) solveUp(b []float64) {
	up, path, rows := r.up, r.path, r.row
	for i := len(b) - 1; i >= 0; i-- {
		u := &up[i]
		p := u.p
		x := b[i]
		if !u.leaf {
			x = path[u.at]
		} else {
			q := p[:len(u.fresh)]
			for m, j := range u.fresh {
				q[m] = b[j]
			}
		}
		if x != 0 { // zero entries skipped, as Solve1's general pass
			l := u.l[:len(p)]
			m := 0
			for ; m < len(p)-3; m += 4 { // each entry as p[m] -= l[m] * x
				p[m] -= l[m] * x
				p[m+1] -= l[m+1] * x
				p[m+2] -= l[m+2] * x
				p[m+3] -= l[m+3] * x
			}
			for ; m < len(p); m++ {
				p[m] -= l[m] * x
			}
		}
		b[i] = x / rows[i][0]
	}
}

// solveDown is Solve1's last pass, L x = z, for a tree in pre-order: the
// same products and differences in the same order, with i's ancestors'
// values read from path (their copies, nearest first) instead of b.
func (r *TreeRows) solveDown(b []float64) {
	up, path := r.up, r.path
	b = b[:len(up)]
	for i := range up {
		u := &up[i]
		x := b[i]
		p := u.p
		l := u.l[:len(p)]
		m := 0
		for ; m < len(p)-3; m += 4 { // the same differences in the same order, four a turn
			x -= l[m] * p[m]
			x -= l[m+1] * p[m+1]
			x -= l[m+2] * p[m+2]
			x -= l[m+3] * p[m+3]
		}
		for ; m < len(p); m++ {
			x -= l[m] * p[m]
		}
		b[i] = x
		path[u.at] = x
	}
}
