package sap

import (
	"slices"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/solver"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// newtonSystem assembles, factors and solves the Newton system
// H Δv = −∇ℓp of SAP Algorithm 2, line 3, with H = A + JᵀGJ (SAP §IV-A).
// Two implementations: denseSystem below (NV×NV, blocked dense Cholesky)
// and sparseSystem (sparse.go: blocks by clique, supernodal Cholesky with a
// minimum-degree ordering, SAP §IV-D); Params.Linear chooses.
type newtonSystem interface {
	// setup prepares the system for problem p; it runs once per solve,
	// before the first assemble.
	setup(p *solver.Problem) error
	// assemble forms H = A + JᵀGJ for p, where g holds the blocks G_i of
	// the constraints, row-major, constraint i's at g[goff[i]:goff[i+1]].
	assemble(p *solver.Problem, g []float64, goff []int)
	// factor factors H in place. It reports false if H is not numerically
	// positive definite.
	factor() bool
	// solve overwrites b with H⁻¹ b using the factorization.
	solve(b []float64)
}

// denseSystem is a newtonSystem that stores H as a dense row-major NV×NV
// matrix and factors it with a dense Cholesky factorization.
type denseSystem struct {
	n   int
	h   []float64 // H, then its upper Cholesky factor U (H = UᵀU)
	tmp []float64 // G_i J_b, (largest constraint size)×(largest clique size)
	// nz1, nz2: the columns of J_b1 and J_b2 with a non-zero entry
	// (addJtTmp skips the others: a joint limit's row has one).
	nz1, nz2 []int
	// pk is J over its blocks' non-zero columns, packed once per solve by
	// setup (packed.go; J does not change during a solve: the Newton
	// iterations reassemble H with new G only); nzFor is the problem it
	// belongs to (nil: assemble reads the columns from J, as Evaluate's
	// does).
	pk    packedJ
	nzFor *solver.Problem
	// par holds the problem's velocity parents as one forest
	// (solver.ForestParents), empty unless a clique is a branched tree;
	// tree says whether factor factored H along it (linalg.TreeLDL: H has
	// A's tree pattern when JᵀGJ does not couple branches, as contacts
	// with the world and joint limits do not).
	par  []int
	mark []bool
	tree bool
	// offPat lists H's upper entries outside par's pattern
	// (linalg.TreeOffPattern), built for the forest offPar.
	offPar []int
	offPat []int32
	// parKey is what par was built from (forestKey: each clique's offset,
	// size and parents).
	parKey []int
	// Per solve (setup): chains, whether every constraint has one J block
	// whose non-zero columns lie on one path to a root of par (as a row
	// of a body's Jacobian does); aTree, once the first assembly has
	// copied A, whether A has par's pattern (aKnown). When both hold, every
	// H of the solve has the pattern (JᵀGJ adds only within the paths),
	// and factor need not scan H for it.
	chains, aTree, aKnown bool
	// upper: assemble fills only H's upper triangle (with the diagonal
	// blocks of A in full), which is all that factor reads; the solver's
	// Newton systems set it, Evaluate (which returns H) does not. Each
	// upper entry gets the same sum in the same order either way.
	upper bool
}

// setup implements newtonSystem: it packs J over the non-zero columns of
// its blocks once for the solve's products and assemblies.
func (d *denseSystem) setup(p *solver.Problem) error {
	d.nzFor = p
	d.pk.pack(p)
	d.forest(p)
	d.aKnown = false
	d.chains = len(d.par) == p.NV && d.pk.chains(p, d.par)
	return nil
}

// forest sets par to p's velocity forest (solver.ForestParents), reusing
// the last one when p's cliques have the offsets, sizes and parents it
// was built from (sameForest, a comparison in place): one pass over them
// instead of ForestParents' test of each clique's branching (a count along
// the tree) at every solve.
func (d *denseSystem) forest(p *solver.Problem) {
	if !sameForest(p, d.parKey) {
		d.newForest(p)
	}
}

// newForest builds par for p and the key it is built from.
//
//go:noinline
func (d *denseSystem) newForest(p *solver.Problem) {
	d.par = solver.ForestParents(p, d.par)
	d.parKey = forestKey(p, d.parKey[:0])
}

// sameForest reports whether key is forestKey(p, nil), without building it.
func sameForest(p *solver.Problem, key []int) bool {
	if len(key) == 0 || key[0] != p.NV {
		return false
	}
	k := 1
	for _, q := range p.Cliques {
		n := len(q.Parent)
		if len(key)-k < 3+n || key[k] != q.Offset || key[k+1] != q.Size || key[k+2] != n || !slices.Equal(key[k+3:k+3+n], q.Parent) {
			return false
		}
		k += 3 + n
	}
	return k == len(key)
}

// forestKey appends to key what ForestParents reads of p: NV, then each
// clique's offset, size, number of parents and parents.
func forestKey(p *solver.Problem, key []int) []int {
	key = append(key, p.NV)
	for _, q := range p.Cliques {
		key = append(key, q.Offset, q.Size, len(q.Parent))
		key = append(key, q.Parent...)
	}
	return key
}

// columns returns J block b's non-zero columns, read into buf.
func (d *denseSystem) columns(p *solver.Problem, b int, buf []int) []int {
	return nonzeroColumns(p, b, buf[:0])
}

// assemble implements newtonSystem. It fills all of H, so that H can be
// inspected, unless d.upper is set: then the contributions JᵀGJ go to
// the upper triangle only (a row's lower half, which the factorization
// never reads, is skipped: half the products).
func (d *denseSystem) assemble(p *solver.Problem, g []float64, goff []int) {
	n := p.NV
	d.n = n
	d.h = solver.Resize(d.h, n*n)
	maxSize := 0
	for c, q := range p.Cliques {
		maxSize = max(maxSize, q.Size)
		d.copyBlockRows(q, p.ABlock(c))
	}
	if d.nzFor != p { // setup reads the forest once per solve
		d.forest(p)
	}
	d.tmp = solver.Resize(d.tmp, maxRows(p)*maxSize)
	if cap(d.nz1) < maxSize {
		d.nz1, d.nz2 = make([]int, 0, maxSize), make([]int, 0, maxSize)
	}
	// JᵀGJ = Σ_i J_iᵀ G_i J_i, and J_i has one block per clique it touches.
	if d.nzFor == p {
		if d.chains && !d.aKnown {
			d.aTree, d.aKnown = d.treePattern(), true // A's pattern, before JᵀGJ
		}
		d.assemblePacked(p, g, goff)
		return
	}
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		ci := p.JBlock[lo].Constraint
		gi := g[goff[ci]:goff[ci+1]]
		if allZero(gi) {
			// G_i = 0 (a limit away from its bound, a contact that
			// separates): J_iᵀ G_i J_i adds +0 to H, which leaves H
			// as it is, as addJtTmp's skipped columns do.
			continue
		}
		for b2 := lo; b2 < hi; b2++ {
			mulGJ(p, gi, b2, d.tmp)
			nz2 := d.columns(p, b2, d.nz2)
			for b1 := lo; b1 <= b2; b1++ {
				d.addJtTmp(p, b1, b2, d.columns(p, b1, d.nz1), nz2)
			}
		}
	}
}

// copyBlockRows sets H's rows of clique q to A's block a on the diagonal
// and zero elsewhere. The cliques' rows cover H (their offsets run over
// 0…n−1), so every entry of H is written once, without clearing H first.
func (d *denseSystem) copyBlockRows(q solver.Clique, a []float64) {
	n := d.n
	if q.Size == n { // one clique: H's rows are A's, one copy
		copy(d.h[:n*n], a[:n*n])
		return
	}
	for i := range q.Size {
		row := d.h[(q.Offset+i)*n : (q.Offset+i+1)*n]
		clear(row[:q.Offset])
		copy(row[q.Offset:q.Offset+q.Size], a[i*q.Size:(i+1)*q.Size])
		clear(row[q.Offset+q.Size:])
	}
}

// assemblePacked adds JᵀGJ to H as assemble does, over the J packed by
// setup: the same sums into the same entries.
func (d *denseSystem) assemblePacked(p *solver.Problem, g []float64, goff []int) {
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		ci := p.JBlock[lo].Constraint
		gi := g[goff[ci]:goff[ci+1]]
		if allZero(gi) {
			continue // G_i = 0 adds +0 to H (assemble)
		}
		for b2 := lo; b2 < hi; b2++ {
			d.pk.mulGJ(gi, b2, d.tmp)
			for b1 := lo; b1 <= b2; b1++ {
				// b1 < b2 lie on cliques q1 < q2: above the diagonal.
				d.pk.addJtTmp(d.h, d.n, b1, b2, d.tmp, b1 != b2 && !d.upper, b1 == b2 && d.upper)
			}
		}
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

// maxRows returns the largest constraint size of p (0 without constraints).
func maxRows(p *solver.Problem) int {
	m := 0
	for _, c := range p.Constraints {
		m = max(m, c.Size)
	}
	return m
}

// constraintEnd returns the end of the run of J blocks of the constraint
// of block lo.
func constraintEnd(p *solver.Problem, lo int) int {
	hi := lo + 1
	for hi < len(p.JBlock) && p.JBlock[hi].Constraint == p.JBlock[lo].Constraint {
		hi++
	}
	return hi
}

// mulGJ sets tmp = G_i J_b, a k×Size matrix for block b of a constraint
// with k rows and k×k block gi.
func mulGJ(p *solver.Problem, gi []float64, b int, tmp []float64) {
	jb := p.JBlockData(b)
	k := p.Constraints[p.JBlock[b].Constraint].Size
	gjProduct(gi, k, jb, len(jb)/k, tmp)
}

// gjProduct sets tmp = G J (k×m, row-major) for a k×k block g and a k×m
// block j, both row-major: entry (r, c) is Σ_s g_rs j_sc summed over s in
// order, skipping zero g_rs (the k = 3 contact case unrolled, the same
// sum with no skip). Both the dense and the packed Hessian assembly use it.
func gjProduct(g []float64, k int, j []float64, m int, tmp []float64) {
	if k == 3 && m == 6 { // a free body's contact: the same sums on arrays
		gj3x6((*[9]float64)(g[:9]), (*[18]float64)(j[:18]), (*[18]float64)(tmp[:18]))
		return
	}
	if k == 3 { // contacts: the common case, unrolled (J's rows resliced: no bounds checks)
		g = g[:9]
		j0, j1, j2 := j[:m], j[m:2*m], j[2*m:3*m]
		for r := range 3 {
			g0, g1, g2 := g[3*r], g[3*r+1], g[3*r+2]
			row := tmp[r*m : (r+1)*m]
			a0, a1, a2 := j0[:len(row)], j1[:len(row)], j2[:len(row)]
			for c := range row {
				row[c] = g0*a0[c] + g1*a1[c] + g2*a2[c]
			}
		}
		return
	}
	for r := range k {
		row := tmp[r*m : (r+1)*m]
		clear(row)
		for s := range k {
			grs := g[r*k+s]
			if grs == 0 {
				continue
			}
			for c, x := range j[s*m : (s+1)*m] {
				row[c] += grs * x
			}
		}
	}
}

// gj3x6 is gjProduct for k = 3 and m = 6: entry (r, c) of tmp is
// g_r0 j_0c + g_r1 j_1c + g_r2 j_2c, the expression of the k = 3 loop.
func gj3x6(g *[9]float64, j, tmp *[18]float64) {
	for r := range 3 {
		g0, g1, g2 := g[3*r], g[3*r+1], g[3*r+2]
		row := (*[6]float64)(tmp[6*r : 6*r+6])
		for c := range 6 {
			row[c] = g0*j[c] + g1*j[6+c] + g2*j[12+c]
		}
	}
}

// nonzeroColumns appends to out the columns of J block b that hold a
// non-zero entry (NaN counts as non-zero), in increasing order.
func nonzeroColumns(p *solver.Problem, b int, out []int) []int {
	jb := p.JBlockData(b)
	k := p.Constraints[p.JBlock[b].Constraint].Size
	n := len(jb) / k
	switch k {
	case 1: // a limit's or a pyramid edge's row
		for c, x := range jb {
			if x != 0 {
				out = append(out, c)
			}
		}
		return out
	case 3: // a contact's three rows
		r0, r1, r2 := jb[:n], jb[n:2*n], jb[2*n:3*n]
		for c, x := range r0 {
			if x != 0 || r1[c] != 0 || r2[c] != 0 {
				out = append(out, c)
			}
		}
		return out
	}
	for c := range n {
		for r := range k {
			if jb[r*n+c] != 0 {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// addJtTmp adds J_b1ᵀ tmp to the (clique(b1), clique(b2)) block of H and,
// when b1 ≠ b2, its transpose to the (clique(b2), clique(b1)) block
// (G_i is symmetric). Only the columns nz1 of J_b1 and nz2 of J_b2
// contribute: for any other a or b every product of the sum is ±0 (tmp =
// G_i J_b2 is finite), so the sum is +0 and adding it leaves H as it is,
// up to the sign of an entry that is −0: skipping them keeps the results
// bit for bit (the sign of an exact zero aside).
func (d *denseSystem) addJtTmp(p *solver.Problem, b1, b2 int, nz1, nz2 []int) {
	q1 := p.Cliques[p.JBlock[b1].Clique]
	q2 := p.Cliques[p.JBlock[b2].Clique]
	k := p.Constraints[p.JBlock[b1].Constraint].Size
	j1 := p.JBlockData(b1)
	n1, n2, n := q1.Size, q2.Size, d.n
	// b1 < b2 lie on cliques q1 < q2 (J blocks are sorted by clique), so
	// their block of H is above the diagonal and its mirror below.
	mirror, diag := b1 != b2 && !d.upper, b1 == b2 && d.upper
	if k == 3 { // a contact's block: the same sums, its three rows' entries read once per column a
		d.addJtTmp3(j1, n1, n2, q1.Offset, q2.Offset, mirror, diag, nz1, nz2)
		return
	}
	if k == 1 { // one row: a pyramid edge (hessian_rows.go)
		d.addJtTmp1(j1, n1, n2, q1.Offset, q2.Offset, mirror, diag, nz1, nz2)
		return
	}
	for i, a := range nz1 {
		for _, b := range upperFrom(nz2, i, diag) {
			s := 0.0
			for r := range k {
				s += j1[r*n1+a] * d.tmp[r*n2+b]
			}
			d.h[(q1.Offset+a)*n+q2.Offset+b] += s
			if mirror {
				d.h[(q2.Offset+b)*n+q1.Offset+a] += s
			}
		}
	}
}

// upperFrom returns the columns nz2 that a row a = nz1[i] adds to: all of
// them, or for a diagonal block of an upper-only assembly (diag: the same
// block, so nz1 = nz2) those from a on, b ≥ a.
func upperFrom(nz2 []int, i int, diag bool) []int {
	if diag {
		return nz2[i:]
	}
	return nz2
}

// addJtTmp3 is addJtTmp for a block of three rows (j1 with n1 columns,
// d.tmp with n2): each entry is the same sum in the same order,
// ((0 + J_0a t_0b) + J_1a t_1b) + J_2a t_2b, so H gets the same bits.
func (d *denseSystem) addJtTmp3(j1 []float64, n1, n2, off1, off2 int, mirror, diag bool, nz1, nz2 []int) {
	r0, r1, r2 := j1[:n1], j1[n1:2*n1], j1[2*n1:3*n1]
	t0, t1, t2 := d.tmp[:n2], d.tmp[n2:2*n2], d.tmp[2*n2:3*n2]
	n := d.n
	for i, a := range nz1 {
		x0, x1, x2 := r0[a], r1[a], r2[a]
		row := d.h[(off1+a)*n+off2:][:n2]
		for _, b := range upperFrom(nz2, i, diag) {
			s := 0.0
			s += x0 * t0[b]
			s += x1 * t1[b]
			s += x2 * t2[b]
			row[b] += s
			if mirror {
				d.h[(off2+b)*n+off1+a] += s
			}
		}
	}
}

// factor implements newtonSystem.
// Orders up to linalg.SmallMax use linalg.CholUpper, which is gonum's
// Dpotf2 (what choleskyUpper runs for them) to the bit, without its calls.
//
// H with the pattern of the problem's forest of branched trees is factored
// along it instead (linalg.TreeLDL, MuJoCo's mj_factorM), without fill-in.
func (d *denseSystem) factor() bool {
	d.tree = false
	if len(d.par) == d.n && d.n > 0 {
		// With chains and A's pattern H has the pattern for certain
		// (setup), and the scan would find it.
		d.tree = d.chains && d.aKnown && d.aTree || d.treePattern()
	}
	if d.tree {
		return linalg.TreeLDL(d.par, d.h)
	}
	if d.n <= linalg.SmallMax {
		return linalg.CholUpper(d.n, d.h)
	}
	return choleskyUpper(d.n, d.h, max(1, d.n))
}

// treePattern reports whether H's upper triangle has par's pattern
// (linalg.TreePattern's answer): it scans the entries outside the
// pattern, listed once per forest (linalg.TreeOffPattern; offPar is the
// forest the list offPat was built for, rebuilt when par differs).
func (d *denseSystem) treePattern() bool {
	if !slices.Equal(d.offPar, d.par) {
		if cap(d.mark) < d.n {
			d.mark = make([]bool, d.n)
		}
		d.offPar = append(d.offPar[:0], d.par...)
		d.offPat = linalg.TreeOffPattern(d.par, d.mark, d.offPat)
	}
	return linalg.OffPatternZero(d.offPat, d.h)
}

// solve implements newtonSystem: H x = UᵀU x = b by two triangular solves.
// (lapack64.Potrs does the same with Dtrsm, which for a single right-hand
// side is several times slower than Dtrsv.)
func (d *denseSystem) solve(b []float64) {
	if d.n == 0 {
		return
	}
	if d.tree {
		linalg.TreeLDLSolve(d.par, d.h, b, 1)
		return
	}
	if d.n <= linalg.SmallMax { // the same two Dtrsv, without their checks and calls
		linalg.SolveUpperVec(d.n, d.h, b)
		return
	}
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: d.n, Stride: d.n, Data: d.h}
	x := blas64.Vector{N: d.n, Inc: 1, Data: b[:d.n]}
	blas64.Trsv(blas.Trans, u, x)   // Uᵀ y = b
	blas64.Trsv(blas.NoTrans, u, x) // U x = y
}

// Blocking of choleskyUpper: gonum's Dpotrf uses blocks of 64.
const (
	cholBlock = 64
	// gemmChunk bounds the columns of one Dgemm call of the trailing update.
	// gonum's Dgemm runs concurrently, spawning goroutines and allocating,
	// once the output spans 4 or more 64×64 blocks; with at most 64 rows,
	// 3·64 columns keep every call serial and allocation-free.
	gemmChunk = 3 * 64
)

// choleskyUpper computes H = UᵀU in place for the row-major n×n matrix a
// (upper triangle referenced) and reports whether H is numerically positive
// definite. It is gonum's blocked Dpotrf (right-looking, Upper) with the
// same kernels (Dsyrk, Dpotf2, Dgemm, Dtrsm); the only difference is that
// the trailing Dgemm is split into column chunks so that it never takes
// gonum's concurrent path, which allocates. The result is the same
// factorization as lapack64.Potrf.
func choleskyUpper(n int, a []float64, lda int) bool {
	if n == 0 {
		return true
	}
	bi := blas64.Implementation()
	impl := gonum.Implementation{}
	for j := 0; j < n; j += cholBlock {
		jb := min(cholBlock, n-j)
		bi.Dsyrk(blas.Upper, blas.Trans, jb, j, -1, a[j:], lda, 1, a[j*lda+j:], lda)
		if !impl.Dpotf2(blas.Upper, jb, a[j*lda+j:], lda) {
			return false
		}
		if j+jb == n {
			break
		}
		for c := j + jb; c < n; c += gemmChunk {
			w := min(gemmChunk, n-c)
			bi.Dgemm(blas.Trans, blas.NoTrans, jb, w, j, -1, a[j:], lda, a[c:], lda, 1, a[j*lda+c:], lda)
		}
		bi.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, jb, n-j-jb, 1, a[j*lda+j:], lda, a[j*lda+j+jb:], lda)
	}
	return true
}
