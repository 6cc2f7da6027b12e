package sap

import (
	"slices"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/solver"
)

// sparseSystem is a newtonSystem that stores H = A + JᵀGJ by blocks, as
// SAP §IV-D describes: one diagonal block per clique (tree) and one
// off-diagonal block per pair of cliques coupled by at least one contact
// (a patch, an edge of the contact graph), and factors it with the
// supernodal block Cholesky factorization of package linalg after a
// minimum-degree ordering of the cliques. The symbolic analysis is cached
// on the block pattern (linalg.Cache, the 16 most recent patterns): it is
// reused by every Newton iteration and by later solves (time steps,
// islands) whose contact graph has a recently seen shape.
type sparseSystem struct {
	cache linalg.Cache
	f     linalg.Factor
	sizes []int     // clique sizes
	edges []uint64  // contact-graph edges, linalg.EdgeKey, sorted and unique
	diag  []blockAt // where clique c's diagonal block of H lives
	pairs []blockAt // where each (contact, b1 ≤ b2) contribution lands, in assembly order
	tmp   []float64 // G_i J_b, (largest constraint size)×(largest clique size)

	// The stick prediction's H̃ (factorPredicted): its own factor, so that
	// f keeps the Newton step's factor of H to copy from, each
	// constraint's first block of J, the predicted constraints (written by
	// stickBranches on either path) and their cliques.
	pf      linalg.Factor
	first   []int
	stuck   []int
	changed []bool

	// The Newton steps' H against the last one's (assemble, factor): the
	// last factor (prev, swapped with f at each assembly), the G it was
	// assembled with, whether it succeeded on this solve's pattern,
	// whether f was assembled against it, and whether both factors were
	// Reset for this solve's pattern (the Cache may analyse another
	// pattern into a Symbolic that one of them still points to).
	prev                  linalg.Factor
	gprev                 []float64
	lastOK, marked, sized bool
}

// blockAt locates a block of H in the factor's storage (linalg.Factor.Locate).
type blockAt struct {
	off, stride int
	trans       bool
}

// setup implements newtonSystem: it builds the block pattern of p's H,
// fetches its symbolic analysis from the cache and locates every block the
// assembly writes. It runs once per solve.
func (s *sparseSystem) setup(p *solver.Problem) error {
	s.sizes = s.sizes[:0]
	maxSize := 0
	for _, q := range p.Cliques {
		s.sizes = append(s.sizes, q.Size)
		maxSize = max(maxSize, q.Size)
	}
	s.tmp = solver.Resize(s.tmp, maxRows(p)*maxSize)
	s.edges = s.edges[:0]
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		for b2 := lo; b2 < hi; b2++ {
			for b1 := lo; b1 < b2; b1++ {
				s.edges = append(s.edges, linalg.EdgeKey(p.JBlock[b1].Clique, p.JBlock[b2].Clique))
			}
		}
	}
	slices.Sort(s.edges)
	s.edges = slices.Compact(s.edges)
	sym, err := s.cache.Get(s.sizes, s.edges)
	if err != nil {
		return err
	}
	s.f.Reset(sym)
	s.lastOK, s.sized = false, false
	s.diag = s.diag[:0]
	for c := range p.Cliques {
		off, stride, trans, _ := s.f.Locate(c, c)
		s.diag = append(s.diag, blockAt{off, stride, trans})
	}
	s.pairs = s.pairs[:0]
	s.first = slices.Grow(s.first[:0], len(p.Constraints))[:len(p.Constraints)]
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		s.first[p.JBlock[lo].Constraint] = lo
		for b2 := lo; b2 < hi; b2++ {
			for b1 := lo; b1 <= b2; b1++ {
				off, stride, trans, _ := s.f.Locate(p.JBlock[b1].Clique, p.JBlock[b2].Clique)
				s.pairs = append(s.pairs, blockAt{off, stride, trans})
			}
		}
	}
	return nil
}

// assemble implements newtonSystem: H = A + Σ_i J_iᵀ G_i J_i, written
// block by block into the factor's storage (lower blocks only, and of the
// diagonal blocks of A and of contacts the lower triangles, which is all
// linalg.Factor reads).
//
// After a successful factor on the same pattern (a later Newton step of
// the solve, or of a re-solve, which changes only Lagged n0: A and J are
// the same), H is assembled and factored against the last H (prev): the
// constraints whose G_i differs from the last assembly's in some bit
// mark their cliques, and the supernodes away from them are copied from
// prev's factor, not assembled (linalg.Factor.MarkChanged; H differs from
// the last H only in the blocks coupling two cliques of such a
// constraint), with the bits of a whole assembly and factorization.
func (s *sparseSystem) assemble(p *solver.Problem, g []float64, goff []int) {
	if !s.lastOK {
		s.assembleSkipping(p, g, goff, true)
		s.gprev = append(s.gprev[:0], g...)
		return
	}
	k := s.f.Kernels
	s.f, s.prev = s.prev, s.f
	s.f.Kernels = k
	if !s.sized { // the first swap of the solve
		s.f.Prepare(s.prev.Symbolic()) // assembleTo clears its storage
		s.sized = true
	}
	s.changed = slices.Grow(s.changed[:0], len(p.Cliques))[:len(p.Cliques)]
	clear(s.changed)
	if len(s.gprev) != len(g) {
		s.gprev = append(s.gprev[:0], g...)
		for i := range s.changed {
			s.changed[i] = true
		}
	} else {
		s.markChangedG(p, g, goff)
	}
	s.f.MarkChanged(&s.prev, s.changed)
	s.assembleTo(&s.f, p, g, goff, true, true)
	s.marked = true
}

// markCliques sets s.changed for the cliques of constraint ci's J blocks.
func (s *sparseSystem) markCliques(p *solver.Problem, ci int) {
	for b := s.first[ci]; b < len(p.JBlock) && p.JBlock[b].Constraint == ci; b++ {
		s.changed[p.JBlock[b].Clique] = true
	}
}

// assembleSkipping is assemble; with skip, the constraints whose G_i is
// zero are left out and the products G_i J_b of the blocks with
// G_tn = G_nt = 0 skip those zeros (gjLagged); without skip every block
// goes through gjProduct. The same bits: TestSparseZeroBlocksSameBits and
// TestPeers4LaggedAssemblySameBits compare the two.
func (s *sparseSystem) assembleSkipping(p *solver.Problem, g []float64, goff []int, skip bool) {
	s.assembleTo(&s.f, p, g, goff, skip, false)
	s.marked = false
}

// assembleTo is assembleSkipping into f's storage (s.f's or s.pf's); with
// marked, the blocks of A and the constraints whose cliques' columns are
// all Clean in f (linalg.Factor.MarkChanged) are left out: every block
// they write lies in a panel that f.FactorizeMarked overwrites, and a
// block of a marked panel gets the contributions of every constraint on
// both its cliques, so its sum is the whole assembly's.
func (s *sparseSystem) assembleTo(f *linalg.Factor, p *solver.Problem, g []float64, goff []int, skip, marked bool) {
	data := f.Data()
	if marked {
		f.ClearMarked() // the clean panels are copied from MarkChanged's base
	} else {
		clear(data)
	}
	for c, q := range p.Cliques { // A's diagonal blocks, lower triangles (what linalg.Factor reads)
		if marked && f.Clean(c) {
			continue
		}
		// p.ABlock(c), sliced here
		a, at := p.A[q.AOff:q.AOff+q.Size*q.Size], s.diag[c]
		if q.Size == 6 { // a free body's block: addLower written out
			addLower6(a, data[at.off:], at.stride)
		} else {
			addLower(a, q.Size, data[at.off:], at.stride)
		}
	}
	k := 0
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		ci := p.JBlock[lo].Constraint
		gi := g[goff[ci]:goff[ci+1]]
		if skip && allZero(gi) || marked && s.cleanConstraint(f, p, lo, hi) {
			// G_i = 0 (a contact apart, v_n > v̂_n, with no lagged normal
			// impulse to bound its friction: 22% of the sphere stack's
			// contact blocks in its assemblies, 30% of clutter-40's), as
			// the dense system skips it, with the same bits: J is finite
			// (Problem.Validate), so every entry of G_i J_b and of
			// J_aᵀ G_i J_b is ±0, and an entry of H is never −0 (it starts
			// at +0 and only has numbers added; x + y is −0 only when both
			// are), so adding ±0 leaves it as it was.
			nb := hi - lo
			k += nb * (nb + 1) / 2
			continue
		}
		lag := skip && laggedG(gi)
		for b2 := lo; b2 < hi; b2++ {
			if lag {
				// A Lagged block's three rows: addJtTmp's case for them,
				// its block sizes read off J's blocks (3 × clique size).
				j2 := p.JBlockData(b2)
				gjLagged(gi, j2, s.tmp)
				for b1 := lo; b1 <= b2; b1++ {
					j1 := p.JBlockData(b1)
					addJtTmp3(j1, s.tmp, len(j1)/3, len(j2)/3, s.pairs[k], data, b1 == b2)
					k++
				}
				continue
			}
			mulGJ(p, gi, b2, s.tmp)
			for b1 := lo; b1 <= b2; b1++ {
				s.addJtTmp(p, b1, b2, s.pairs[k], data)
				k++
			}
		}
	}
}

// addLower adds the lower triangle of the n×n row-major a to the rows of
// d (row stride lda), one addition per entry.
func addLower(a []float64, n int, d []float64, lda int) {
	for i := range n {
		row := d[i*lda:][:i+1]
		for j, x := range a[i*n : i*n+i+1] {
			row[j] += x
		}
	}
}

// addLower6 is addLower for n = 6, written out: the same addition to each
// entry (TestPeers4AddLower6SameBits).
func addLower6(a, d []float64, lda int) {
	a = a[:36]
	r0, r1, r2 := d[:1], d[lda:lda+2], d[2*lda:2*lda+3]
	r3, r4, r5 := d[3*lda:3*lda+4], d[4*lda:4*lda+5], d[5*lda:5*lda+6]
	r0[0] += a[0]
	r1[0] += a[6]
	r1[1] += a[7]
	r2[0] += a[12]
	r2[1] += a[13]
	r2[2] += a[14]
	r3[0] += a[18]
	r3[1] += a[19]
	r3[2] += a[20]
	r3[3] += a[21]
	r4[0] += a[24]
	r4[1] += a[25]
	r4[2] += a[26]
	r4[3] += a[27]
	r4[4] += a[28]
	r5[0] += a[30]
	r5[1] += a[31]
	r5[2] += a[32]
	r5[3] += a[33]
	r5[4] += a[34]
	r5[5] += a[35]
}

// laggedG reports whether g is a 3×3 block with G_tn = G_nt = 0, as a
// ContactLagged block's G is (solver.LaggedBlock).
func laggedG(g []float64) bool {
	return len(g) == 9 && g[2] == 0 && g[5] == 0 && g[6] == 0 && g[7] == 0
}

// gjLagged sets tmp = G J (3×m, row-major) for a 3×3 block g with
// G_tn = G_nt = 0 (laggedG) and a 3×m block j: gjProduct's sums without
// its products with those four zeros, in one pass over J's columns. An
// entry differs from gjProduct's at most in the sign of a zero (a left-out
// product is ±0: J is finite, Problem.Validate), and the sparse assembly
// only adds tmp's products into entries of H, which are never −0 (each
// starts at +0 and only has numbers added), so H gets the same bits
// (TestPeers4LaggedAssemblySameBits).
func gjLagged(g, j, tmp []float64) {
	g = g[:9]
	g00, g01, g10, g11, gnn := g[0], g[1], g[3], g[4], g[8]
	m := len(j) / 3
	if m == 6 { // a free body's block: the loop below on arrays
		a0, a1, a2 := (*[6]float64)(j[0:6]), (*[6]float64)(j[6:12]), (*[6]float64)(j[12:18])
		r0, r1, r2 := (*[6]float64)(tmp[0:6]), (*[6]float64)(tmp[6:12]), (*[6]float64)(tmp[12:18])
		for c, x := range a0 {
			y := a1[c]
			r0[c] = g00*x + g01*y
			r1[c] = g10*x + g11*y
			r2[c] = gnn * a2[c]
		}
		return
	}
	a0 := j[:m]
	n := len(a0) // every slice below has length n: no checks in the loop
	a1, a2 := j[m:][:n], j[2*m:][:n]
	r0, r1, r2 := tmp[:n], tmp[m:][:n], tmp[2*m:][:n]
	for c, x := range a0 {
		y := a1[c]
		r0[c] = g00*x + g01*y
		r1[c] = g10*x + g11*y
		r2[c] = gnn * a2[c]
	}
}

// addJtTmp adds J_b1ᵀ tmp (tmp = G_i J_b2) to the block at.
func (s *sparseSystem) addJtTmp(p *solver.Problem, b1, b2 int, at blockAt, data []float64) {
	j1 := p.JBlockData(b1)
	k := p.Constraints[p.JBlock[b1].Constraint].Size
	n1 := p.Cliques[p.JBlock[b1].Clique].Size
	n2 := p.Cliques[p.JBlock[b2].Clique].Size
	switch k {
	case 1: // a limit's or a tendon's row
		addJtTmpRow(j1[:n1], s.tmp[:n2], at, data)
	case 3: // contacts: the common case, unrolled; a diagonal block's lower triangle only
		addJtTmp3(j1, s.tmp, n1, n2, at, data, b1 == b2)
	default:
		addJtTmpRows(j1, s.tmp, k, n1, n2, at, data)
	}
}

// addJtTmp3 is sparseSystem.addJtTmp for a contact's three rows: entry
// (a, b) gets j_0a t_0b + j_1a t_1b + j_2a t_2b. With lower (a diagonal
// block, b1 = b2) only the entries b ≤ a are formed: linalg.Factor reads a
// diagonal block's lower triangle only (Locate), so the upper one is left
// unused.
func addJtTmp3(j1, t []float64, n1, n2 int, at blockAt, data []float64, lower bool) {
	if n1 == 6 && n2 == 6 { // two free bodies' blocks, or one body's diagonal block
		addJtTmp3x6(j1, t, at, data, lower)
		return
	}
	addJtTmp3Loop(j1, t, n1, n2, at, data, lower)
}

// addJtTmp3Loop is addJtTmp3 for any n1, n2.
func addJtTmp3Loop(j1, t []float64, n1, n2 int, at blockAt, data []float64, lower bool) {
	ja, jb, jc := j1[:n1], j1[n1:2*n1], j1[2*n1:3*n1]
	t0, t1, t2 := t[:n2], t[n2:2*n2], t[2*n2:3*n2]
	if at.trans {
		for a, c0 := range ja {
			c1, c2 := jb[a], jc[a]
			for b, x := range t0 {
				data[at.off+b*at.stride+a] += c0*x + c1*t1[b] + c2*t2[b]
			}
		}
		return
	}
	for a, c0 := range ja {
		c1, c2 := jb[a], jc[a]
		m := n2
		if lower {
			m = a + 1
		}
		row := data[at.off+a*at.stride:][:m]
		r0, r1, r2 := t0[:m], t1[:m], t2[:m]
		for b, x := range r0 {
			row[b] += c0*x + c1*r1[b] + c2*r2[b]
		}
	}
}

// addJtTmp3x6 is addJtTmp3 for six columns on both sides, its rows
// written out. A transposed block is filled row by row of the stored
// block: entry (b, a) gets t_0b j_0a + t_1b j_1a + t_2b j_2a, the same
// products (their factors commute) added in the same order. The rows are
// sliced as data[o:o+6], not converted to *[6]float64 (the conversion of
// an open-ended slice costs about three times the slice's instructions,
// as the fifty-eighth pass of BENCHMARKS.md measured).
func addJtTmp3x6(j1, t []float64, at blockAt, data []float64, lower bool) {
	ja, jb, jc := (*[6]float64)(j1[0:6]), (*[6]float64)(j1[6:12]), (*[6]float64)(j1[12:18])
	t0, t1, t2 := (*[6]float64)(t[0:6]), (*[6]float64)(t[6:12]), (*[6]float64)(t[12:18])
	if at.trans {
		ja, jb, jc, t0, t1, t2 = t0, t1, t2, ja, jb, jc
	}
	if lower {
		addJtTmp3x6Lower(ja, jb, jc, t0, t1, t2, data, at.off, at.stride)
		return
	}
	for a := range 6 {
		o := at.off + a*at.stride
		row := data[o : o+6]
		c0, c1, c2 := ja[a], jb[a], jc[a]
		row[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
		row[1] += c0*t0[1] + c1*t1[1] + c2*t2[1]
		row[2] += c0*t0[2] + c1*t1[2] + c2*t2[2]
		row[3] += c0*t0[3] + c1*t1[3] + c2*t2[3]
		row[4] += c0*t0[4] + c1*t1[4] + c2*t2[4]
		row[5] += c0*t0[5] + c1*t1[5] + c2*t2[5]
	}
}

// addJtTmp3x6Lower is addJtTmp3x6 on a diagonal block (lower): the 21
// entries b ≤ a of rows off + a·stride, written out, without the loop's
// counter and bounds checks (clutter-40's first 300 steps: 119.6e6
// instructions in the loop over b ≤ a, the rows' conversions not counted,
// against 104.4e6 written out, over 379 657 diagonal blocks, 78% of its
// 484 229 6×6 products). Each entry gets the loop's sum, c0 t0_b + c1 t1_b + c2 t2_b,
// in its order (TestAddJtTmp3x6Bits).
func addJtTmp3x6Lower(ja, jb, jc, t0, t1, t2 *[6]float64, data []float64, off, stride int) {
	r := data[off : off+1]
	c0, c1, c2 := ja[0], jb[0], jc[0]
	r[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
	off += stride
	r = data[off : off+2]
	c0, c1, c2 = ja[1], jb[1], jc[1]
	r[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
	r[1] += c0*t0[1] + c1*t1[1] + c2*t2[1]
	off += stride
	r = data[off : off+3]
	c0, c1, c2 = ja[2], jb[2], jc[2]
	r[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
	r[1] += c0*t0[1] + c1*t1[1] + c2*t2[1]
	r[2] += c0*t0[2] + c1*t1[2] + c2*t2[2]
	off += stride
	r = data[off : off+4]
	c0, c1, c2 = ja[3], jb[3], jc[3]
	r[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
	r[1] += c0*t0[1] + c1*t1[1] + c2*t2[1]
	r[2] += c0*t0[2] + c1*t1[2] + c2*t2[2]
	r[3] += c0*t0[3] + c1*t1[3] + c2*t2[3]
	off += stride
	r = data[off : off+5]
	c0, c1, c2 = ja[4], jb[4], jc[4]
	r[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
	r[1] += c0*t0[1] + c1*t1[1] + c2*t2[1]
	r[2] += c0*t0[2] + c1*t1[2] + c2*t2[2]
	r[3] += c0*t0[3] + c1*t1[3] + c2*t2[3]
	r[4] += c0*t0[4] + c1*t1[4] + c2*t2[4]
	off += stride
	r = data[off : off+6]
	c0, c1, c2 = ja[5], jb[5], jc[5]
	r[0] += c0*t0[0] + c1*t1[0] + c2*t2[0]
	r[1] += c0*t0[1] + c1*t1[1] + c2*t2[1]
	r[2] += c0*t0[2] + c1*t1[2] + c2*t2[2]
	r[3] += c0*t0[3] + c1*t1[3] + c2*t2[3]
	r[4] += c0*t0[4] + c1*t1[4] + c2*t2[4]
	r[5] += c0*t0[5] + c1*t1[5] + c2*t2[5]
}

// addJtTmpRows is sparseSystem.addJtTmp's general loop for a block of k
// rows (j1 k×n1, t = G_i J_b2 k×n2): entry (a, b) gets
// ((0 + j_0a t_0b) + j_1a t_1b) + …, summed over the rows in order.
func addJtTmpRows(j1, t []float64, k, n1, n2 int, at blockAt, data []float64) {
	for a := range n1 {
		for b := range n2 {
			x := 0.0
			for r := range k {
				x += j1[r*n1+a] * t[r*n2+b]
			}
			if at.trans {
				data[at.off+b*at.stride+a] += x
			} else {
				data[at.off+a*at.stride+b] += x
			}
		}
	}
}

// addJtTmpRow is sparseSystem.addJtTmp for a constraint of one row (j1,
// the row's J block, and t = G_i J_b2, both one row): entry (a, b) gets
// the general loop's (addJtTmpRows) sum 0 + j1_a t_b (the +0 start kept: it turns a −0
// product into +0, as the loop does), so the block gets the same bits
// without the loop over rows and the per-entry test of at.trans.
func addJtTmpRow(j1, t []float64, at blockAt, data []float64) {
	for a, c0 := range j1 {
		if at.trans {
			for b, y := range t {
				x := 0.0
				x += c0 * y
				data[at.off+b*at.stride+a] += x
			}
			continue
		}
		row := data[at.off+a*at.stride:][:len(t)]
		for b, y := range t {
			x := 0.0
			x += c0 * y
			row[b] += x
		}
	}
}

// factor implements newtonSystem.
func (s *sparseSystem) factor() bool {
	if s.marked {
		s.lastOK = s.f.FactorizeMarked()
	} else {
		s.lastOK = s.f.Factorize()
	}
	return s.lastOK
}

// factorPredicted assembles the stick prediction's H̃ = A + JᵀG̃J (g is
// G̃) into pf and factors it, for solvePredicted. G̃ is the G of the
// Newton step's H, whose factor f holds, with the blocks of the
// constraints in s.stuck replaced (stickBranches), so H̃ differs from H only
// in the blocks of H that couple two cliques of one such constraint (a
// block of H sums the contributions of the constraints on both its
// cliques, each from its own G_i, in constraint order): pf is factored
// against f (linalg.Factor.MarkChanged, FactorizeMarked), the supernodes
// away from the predicted contacts copied and not assembled, with the bits
// of a whole assembly and factorization.
// Requires f's last factor to be of that H and to have succeeded.
func (s *sparseSystem) factorPredicted(p *solver.Problem, g []float64, goff []int) bool {
	s.pf.Kernels = s.f.Kernels
	s.pf.Prepare(s.f.Symbolic()) // assembleTo clears its storage
	s.changed = slices.Grow(s.changed[:0], len(p.Cliques))[:len(p.Cliques)]
	clear(s.changed)
	for _, ci := range s.stuck {
		s.markCliques(p, ci)
	}
	s.pf.MarkChanged(&s.f, s.changed)
	s.assembleTo(&s.pf, p, g, goff, true, true)
	return s.pf.FactorizeMarked()
}

// cleanConstraint reports whether the cliques of the constraint with J
// blocks [lo, hi) are all Clean in f.
func (s *sparseSystem) cleanConstraint(f *linalg.Factor, p *solver.Problem, lo, hi int) bool {
	for b := lo; b < hi; b++ {
		if !f.Clean(p.JBlock[b].Clique) {
			return false
		}
	}
	return true
}

// solvePredicted overwrites b with H̃⁻¹ b (factorPredicted's factor).
func (s *sparseSystem) solvePredicted(b []float64) { s.pf.Solve(b) }

// solve implements newtonSystem.
func (s *sparseSystem) solve(b []float64) { s.f.Solve(b) }
