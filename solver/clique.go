package solver

import (
	"fmt"
	"slices"

	"github.com/stiction-sim/stiction/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// CliqueFactor holds the Cholesky factors A_c = U_cᵀ U_c of the clique
// blocks of a problem's A, in the same layout as Problem.A. It is used to
// apply A⁻¹ clique by clique (free motion, Delassus estimates). Its storage
// is reused across calls.
//
// A clique with a Parent (the velocities of one kinematic tree) whose tree
// is branched enough (treeWorth) and whose block has the tree's pattern
// (linalg.TreePattern) is factored as A_c = Lᵀ D L along the tree
// (linalg.TreeLDL, MuJoCo's mj_factorM), and solved with
// linalg.TreeLDLSolve, with no fill-in outside the tree's pattern: by the
// tree's compressed rows (linalg.TreeRows, built once per tree and kept),
// which give those functions' results bit for bit. Other blocks, chains
// included, are factored densely; their results are those of the dense
// factor bit for bit.
type CliqueFactor struct {
	data []float64
	tree []bool // tree[q.AOff]: clique q's block holds a TreeLDL factor
	// shapeAt[q.Offset] is the index c of clique q in the last Factor's
	// problem (its shapes entry), for Solve.
	shapeAt []int32
	mark    []bool // TreeOffPattern's scratch
	// shapes[c] caches what clique c's tree alone decides (treeShape),
	// rebuilt when the clique's Size or Parent differ from the cached
	// ones: the pattern check is then a scan of A's off-pattern entries.
	shapes []treeShape
}

// treeShape is what a clique's Parent decides, computed once: whether the
// tree is Branched, and the upper entries of its block that lie outside
// the tree's pattern (linalg.TreeOffPattern; empty unless branched).
type treeShape struct {
	size     int
	parent   []int // a copy of the clique's Parent
	branched bool
	off      []int32
	rows     linalg.TreeRows // the compressed factor (branched trees only)
	// unpacked says whether the block in data holds the rows' factor
	// (TreeLDL's storage); Factor leaves it in the rows only, and the
	// readers of the block (unpack) write it there first.
	unpacked bool
}

// Factor factors every clique block of p.A. It returns an error naming the
// first block that is not numerically positive definite.
func (f *CliqueFactor) Factor(p *Problem) error { return f.factor(p, false, nil, nil) }

// FactorTreeMass is Factor for a caller whose A is, clique by clique, a
// tree's mass matrix plus a diagonal (the CRBA's M, MuJoCo's M + h
// diag(B)): such a block has its tree's pattern by construction (the
// CRBA writes M_ij only for i an ancestor of j or j of i, and clears the
// rest: multibody.Workspace.MassMatrix), so the per-step check of the
// entries off the pattern (linalg.OffPatternZero) is skipped. The
// factor and its bits are Factor's.
func (f *CliqueFactor) FactorTreeMass(p *Problem) error { return f.factor(p, true, nil, nil) }

// FactorTreeMassReusing is FactorTreeMass for a problem p whose clique c,
// for every c with same[c], has a block of A with the bits of the block
// that src's last FactorTreeMass factored for the same clique (MuJoCo's
// Euler on a tree without damping: M + h B = M there). A dense factor is
// a function of its block's bits alone, so such a clique's factor is
// copied from src rather than recomputed; a tree-factored clique is
// factored all the same. The factor and its bits are FactorTreeMass's.
func (f *CliqueFactor) FactorTreeMassReusing(p *Problem, src *CliqueFactor, same []bool) error {
	return f.factor(p, true, src, same)
}

// factor is Factor; treeMass skips the check that a tree clique's block
// has the tree's pattern (FactorTreeMass); the dense cliques c with
// same[c] copy src's factor (FactorTreeMassReusing).
func (f *CliqueFactor) factor(p *Problem, treeMass bool, src *CliqueFactor, same []bool) error {
	na := len(p.A)
	if cap(f.data) < na || cap(f.tree) < na || cap(f.shapeAt) < p.NV {
		f.grow(na, p.NV)
	}
	f.data, f.tree, f.shapeAt = f.data[:na], f.tree[:na], f.shapeAt[:p.NV]
	copy(f.data, p.A)
	for c := range p.Cliques {
		q := &p.Cliques[c] // not a copy of the clique per call
		if q.Size > 0 {
			f.tree[q.AOff] = f.treeShaped(c, q, treeMass)
			f.shapeAt[q.Offset] = int32(c)
			if c < len(same) && same[c] && !f.tree[q.AOff] {
				f.copyBlock(src, q)
				continue
			}
		}
		if !f.factorBlock(q) {
			return notPositiveDefinite(c, q.Size)
		}
	}
	return nil
}

// copyBlock copies clique q's dense factor from src (factor's reuse, out
// of line: only MuJoCo's damped Euler steps run it).
//
//go:noinline
func (f *CliqueFactor) copyBlock(src *CliqueFactor, q *Clique) {
	copy(f.data[q.AOff:q.AOff+q.Size*q.Size], src.data[q.AOff:])
}

// grow gives the factor's storage room for na entries of A and nv
// velocities (factor; out of line: the sizes change on few steps, and
// inlined the growths sat between factor's hot blocks). Nothing in it is
// kept: factor copies A over data, and tree and shapeAt are read only at
// the entries factor sets.
//
//go:noinline
func (f *CliqueFactor) grow(na, nv int) {
	f.data = slices.Grow(f.data[:0], na)
	f.tree = slices.Grow(f.tree[:0], na)
	f.shapeAt = slices.Grow(f.shapeAt[:0], nv)
}

// notPositiveDefinite is factor's error for clique c's n×n block, out of
// line: inlined, its formatting sat between factor's hot blocks.
//
//go:noinline
func notPositiveDefinite(c, n int) error {
	return fmt.Errorf("solver: clique %d block of A (%d×%d) is not positive definite", c, n, n)
}

// factorBlock factors clique q's block in place: blocks of order up to
// linalg.SmallMax by linalg.CholUpper, whose factor is gonum's to the bit
// without gonum's call overhead (a 1×1 or 2×2 mass matrix), larger ones by
// gonum's Potrf.
func (f *CliqueFactor) factorBlock(q *Clique) bool {
	if q.Size > 0 && f.tree[q.AOff] { // linalg.TreeLDL's bits
		sh := f.treeOf(q)
		sh.unpacked = false
		return sh.rows.FactorRows(f.data[q.AOff : q.AOff+q.Size*q.Size])
	}
	if q.Size <= linalg.SmallMax {
		return linalg.CholUpper(q.Size, f.data[q.AOff:q.AOff+q.Size*q.Size])
	}
	_, ok := lapack64.Potrf(f.upper(q))
	return ok
}

// treeOf returns the treeShape of clique q of the factored problem, a
// tree-factored one (f.tree[q.AOff]), whose rows hold its factor.
func (f *CliqueFactor) treeOf(q *Clique) *treeShape {
	return &f.shapes[f.shapeAt[q.Offset]]
}

// unpack returns clique q's block of the factored problem, with the
// factor of its rows written into it first if q is tree-factored and that
// was not done since the last Factor (TreeLDL's storage: D and L along
// q.Parent).
func (f *CliqueFactor) unpack(q *Clique) []float64 {
	a := f.data[q.AOff : q.AOff+q.Size*q.Size]
	if q.Size > 0 && f.tree[q.AOff] {
		if sh := f.treeOf(q); !sh.unpacked {
			sh.rows.Unpack(a)
			sh.unpacked = true
		}
	}
	return a
}

// upper views clique q's factor as a row-major upper-triangular matrix.
func (f *CliqueFactor) upper(q *Clique) blas64.Symmetric {
	return blas64.Symmetric{N: q.Size, Stride: q.Size, Uplo: blas.Upper, Data: f.data[q.AOff : q.AOff+q.Size*q.Size]}
}

// Solve overwrites the row-major Size×cols matrix b with A_c⁻¹ b for clique
// q of the factored problem.
//
// The small dense blocks' path (linalg.SolveUpper) is the one in line:
// the tree's and gonum's are calls of their own (treeSolve, potrs), whose
// frames and argument spills the small blocks then do not pay.
func (f *CliqueFactor) Solve(q Clique, b []float64, cols int) {
	switch {
	case q.Size > 0 && f.tree[q.AOff]:
		f.treeSolve(q, b, cols)
	case q.Size <= linalg.SmallMax: // the same result as Potrs, bit for bit
		linalg.SolveUpper(q.Size, f.data[q.AOff:q.AOff+q.Size*q.Size], b, cols)
	default:
		f.potrs(q, b, cols)
	}
}

// treeSolve is Solve for a tree-factored clique q.
func (f *CliqueFactor) treeSolve(q Clique, b []float64, cols int) {
	if cols == 1 { // linalg.TreeLDLSolve's bits
		f.treeOf(&q).rows.Solve1(b)
		return
	}
	linalg.TreeLDLSolve(q.Parent, f.unpack(&q), b, cols)
}

// potrs is Solve for a dense clique q above linalg.SmallMax: gonum's Potrs.
func (f *CliqueFactor) potrs(q Clique, b []float64, cols int) {
	u := f.upper(&q)
	tri := blas64.Triangular{N: u.N, Stride: u.Stride, Uplo: blas.Upper, Diag: blas.NonUnit, Data: u.Data}
	lapack64.Potrs(tri, blas64.General{Rows: q.Size, Cols: cols, Stride: cols, Data: b[:q.Size*cols]})
}

// Delassus adds J A_c⁻¹ Jᵀ to the row-major rows×rows w for clique q of
// the factored problem and the row-major rows×Size j (a constraint's J
// block on q). y is scratch of length ≥ Size·rows. It applies half of the
// factor only (Bᵀ A⁻¹ B = Yᵀ D⁻¹ Y with Y = L⁻ᵀ B along a tree, Yᵀ Y with
// Y = U⁻ᵀ B for a dense factor; linalg.TreeLDLGram, linalg.UpperGram), and
// the zero entries of j cost nothing on a tree: a joint limit's row costs
// its path to the root instead of the whole A_c⁻¹.
func (f *CliqueFactor) Delassus(q Clique, j []float64, rows int, y, w []float64) {
	n := q.Size
	if n == 6 && rows == 3 && !f.tree[q.AOff] { // a free body's contact: the same numbers without the transposed copy
		linalg.UpperGram6x3(f.data[q.AOff:q.AOff+36], j, w)
		return
	}
	y = y[:n*rows]
	for r := range rows {
		for i, x := range j[r*n : (r+1)*n] {
			y[i*rows+r] = x
		}
	}
	a := f.unpack(&q)
	if n > 0 && f.tree[q.AOff] {
		linalg.TreeLDLGram(q.Parent, a, y, rows, w)
		return
	}
	linalg.UpperGram(n, a, y, rows, w)
}

// FreeDelassus adds to w, the upper triangle (w00, w01, w02, w11, w12,
// w22) of a contact's 3×3 Delassus estimate, clique q's term Yᵀ Y for
// the contact's J block j (three rows of six) when q is a free body's:
// six velocities and a dense factor, the case Delassus hands to
// linalg.UpperGram6x3, whose numbers it forms (UpperGram6x3Sum). It
// reports false, leaving w as it was, for any other clique.
func (f *CliqueFactor) FreeDelassus(q *Clique, j []float64, w *[6]float64) bool {
	if q.Size != 6 || f.tree[q.AOff] {
		return false
	}
	w[0], w[1], w[2], w[3], w[4], w[5] = linalg.UpperGram6x3Sum((*[36]float64)(f.data[q.AOff:q.AOff+36]), (*[18]float64)(j[:18]),
		w[0], w[1], w[2], w[3], w[4], w[5])
	return true
}

// TreeFactor returns clique q's block of the factored problem and whether
// it holds TreeLDL's factor (D and L along q.Parent) rather than a dense
// UᵀU: a caller's own sparse use of the factor (sim's PGS dual build).
func (f *CliqueFactor) TreeFactor(q Clique) ([]float64, bool) {
	return f.unpack(&q), q.Size > 0 && f.tree[q.AOff]
}

// InvDiag returns the diagonal entry i of A_c⁻¹ for clique q of the
// factored problem: e_iᵀ A_c⁻¹ e_i = Σ_k y_k²/D_k with y = L⁻ᵀ e_i along a
// tree, whose non-zeros are i's path to the root (O(depth²)), or ‖U⁻ᵀ e_i‖²
// for a dense factor, whose entries before i are zero. It is the Delassus
// estimate of a row with one non-zero (a joint limit, an actuator on one
// joint coordinate), the quantity MuJoCo's dof_invweight0 holds at q0. y
// is scratch of length ≥ Size, zero on entry; it is zero again on return.
func (f *CliqueFactor) InvDiag(q Clique, i int, y []float64) float64 {
	n := q.Size
	a := f.unpack(&q)
	y = y[:n]
	if f.tree[q.AOff] {
		return linalg.TreeLDLInvDiag(q.Parent, a, i, y)
	}
	return linalg.UpperInvDiag(n, a, i, y)
}

// treeShaped reports whether clique c (q) is factored along its tree: it
// has a Parent, the tree is worth it (treeWorth) and the block of A has
// the tree's pattern exactly (entries between velocities of different
// branches are zero; a force element coupling two branches puts
// non-zeros there, and the block is then factored densely). The first two
// depend on the tree only and are cached (shape); the last reads A's
// values, which change every step, over the cached off-pattern entries:
// linalg.TreePattern's answer, which a block of a tree's mass matrix
// (treeMass: FactorTreeMass) gives by construction.
func (f *CliqueFactor) treeShaped(c int, q *Clique, treeMass bool) bool {
	sh := f.shape(c, q)
	return sh.branched && (treeMass || linalg.OffPatternZero(sh.off, f.data[q.AOff:q.AOff+q.Size*q.Size]))
}

// shape returns clique c's cached treeShape, rebuilt first if q's Size or
// Parent differ from those it was built for (a new model, a clique whose
// tree changed): a warmed-up step compares Parent, O(Size), instead of
// recomputing treeWorth and the pattern, O(Size²).
func (f *CliqueFactor) shape(c int, q *Clique) *treeShape {
	if c < len(f.shapes) {
		if sh := &f.shapes[c]; sh.size == q.Size && slices.Equal(sh.parent, q.Parent) {
			return sh
		}
	}
	return f.reshape(c, q)
}

// reshape is shape's rebuild of clique c's treeShape (out of line: it runs
// when a model or a clique's tree changes, and inlined its appends and
// the pattern's set-up sat between shape's hot blocks).
//
//go:noinline
func (f *CliqueFactor) reshape(c int, q *Clique) *treeShape {
	for len(f.shapes) <= c {
		f.shapes = append(f.shapes, treeShape{size: -1})
	}
	sh := &f.shapes[c]
	sh.size = q.Size
	sh.parent = append(sh.parent[:0], q.Parent...)
	sh.branched = q.Branched()
	sh.off = sh.off[:0]
	if sh.branched {
		f.mark = resizeBool(f.mark, q.Size)
		sh.off = linalg.TreeOffPattern(q.Parent, f.mark, sh.off)
		sh.rows.Reset(q.Parent)
	}
	return sh
}

// treeWorth reports whether the tree-shaped factor pays for its index
// chasing: the tree's pattern (linalg.TreeFill) must hold at most 7/10 of
// the dense triangle's n(n+1)/2 entries. A chain (a pendulum, a free
// body's six velocities) fills the triangle and keeps the dense factor.
// linalg's BenchmarkTreeFactor (a factor, a 3-column and an n-column
// solve) on a loaded 2-core machine: dm_control's humanoid (27
// velocities, fill 0.64) 0.8 of the dense time, humanoid_CMU (62, 0.49)
// 0.4; Gymnasium's walker2d (9, 0.80) and ant (14, 0.77) were within the
// noise of the dense factor, and the ant's step looked slower (+27%, p =
// 0.18) with them in, so they stay dense.
func treeWorth(parent []int) bool {
	n := len(parent)
	fill := linalg.TreeFill(parent)
	return fill > 0 && 20*fill <= 7*n*(n+1)
}

// Branched reports whether q has a Parent (one per velocity) whose tree is
// branched enough for a factor along the tree to pay (treeWorth).
func (q Clique) Branched() bool {
	return len(q.Parent) == q.Size && !chain(q.Parent) && treeWorth(q.Parent)
}

// chain reports whether parent is the chain 0 ← 1 ← … (a free body, a
// pendulum): the dense pattern, told apart in O(n) before treeWorth's
// count, as Factor asks every step.
func chain(parent []int) bool {
	for i, p := range parent {
		if p != i-1 {
			return false
		}
	}
	return true
}

// ForestParents returns in out (resized to p.NV) the velocity parents of
// the whole problem as one forest: each clique's Parent shifted by its
// Offset, a clique without one as a chain (its block is dense). It returns
// out[:0] unless some clique is Branched: a matrix over the whole problem
// (SAP's H = A + JᵀGJ) is then worth a factor along the forest when
// contacts do not couple its branches or its cliques (linalg.TreePattern).
func ForestParents(p *Problem, out []int) []int {
	out = out[:0]
	branched := false
	for _, q := range p.Cliques {
		branched = branched || q.Branched()
	}
	if !branched {
		return out
	}
	if cap(out) < p.NV {
		out = make([]int, p.NV)
	}
	out = out[:p.NV]
	for i := range out {
		out[i] = -1
	}
	for _, q := range p.Cliques {
		for i := range q.Size {
			switch {
			case len(q.Parent) == q.Size && q.Parent[i] >= 0:
				out[q.Offset+i] = q.Offset + q.Parent[i]
			case len(q.Parent) != q.Size && i > 0:
				out[q.Offset+i] = q.Offset + i - 1
			}
		}
	}
	return out
}

// resizeBool returns b with length n, reusing its storage when it can.
func resizeBool(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	return b[:n]
}
