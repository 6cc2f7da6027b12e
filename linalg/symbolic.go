package linalg

import (
	"fmt"
	"slices"
)

// Symbolic is the symbolic analysis of one block sparsity pattern: the
// elimination order, the filled structure of L, its supernodes and the
// storage layout of a Factor. It depends only on the block sizes and the
// pattern (which pairs of blocks are coupled), never on the values, so it is
// computed once and reused for every matrix with the same pattern (SAP
// §IV-D; Drake redoes it every step, Cache keeps it across steps).
//
// Blocks are indexed 0..n−1 in the caller's order, and block i covers the
// scalar rows [Σ_{c<i} size_c, Σ_{c≤i} size_c) of the matrix.
type Symbolic struct {
	n        int
	sizes    []int // by block index
	orig     []int // scalar offset of block c in the caller's vector, n+1
	ordering Ordering
	six      bool // every block has size 6 (free bodies): block c at 6c, position k at 6k

	perm   []int32 // perm[k] = block eliminated k-th
	pos    []int32 // pos[c] = position of block c
	posOff []int   // scalar offset of position k in the permuted vector, n+1
	parent []int32 // elimination tree over positions (−1 for a root)

	// Supernodes: consecutive positions [snStart[s], snStart[s+1]) whose
	// columns of L share one dense panel: the diagonal block (size×size)
	// on top of the off-diagonal row blocks, row-major with stride size.
	snStart  []int32 // len nsn+1
	snOf     []int32 // supernode of position k
	snPanel  []int   // data offset of supernode s's panel, len nsn+1
	snRowPtr []int32 // row blocks of s: [snRowPtr[s], snRowPtr[s+1]), len nsn+1
	rowPos   []int32 // position of each row block, ascending within s
	rowPanel []int32 // first row of the row block within its panel
	// scat holds, for supernode s and every pair (a, b), b ≤ a, of its row
	// blocks (a-major), the data offset of the block of L that the update
	// L_a L_bᵀ of s lands in: [scatPtr[s], scatPtr[s+1]).
	scatPtr []int
	scat    []int
	maxW    int // largest number of off-diagonal rows of a supernode

	// ws is the analysis workspace: s's own, or one a Cache shares among
	// its entries (it is used only during Analyze).
	ws *analysisScratch
}

// analysisScratch is the workspace of Symbolic.Analyze.
type analysisScratch struct {
	adj   lists // the elimination graph
	cols  lists // the filled structure of each block's column of L
	deg   []int
	stamp []int32
	alive []bool
	head  []int32
	next  []int32
	stack []int32
}

// scratch returns the analysis workspace, making s's own if it has none.
func (s *Symbolic) scratch() *analysisScratch {
	if s.ws == nil {
		s.ws = new(analysisScratch)
	}
	return s.ws
}

// colStruct returns the filled column structure of block c (during
// Analyze).
func (s *Symbolic) colStruct(c int32) []int32 { return s.ws.cols.get(int(c)) }

// Analyze computes the symbolic analysis of the symmetric block pattern
// with block sizes sizes (all positive) and off-diagonal blocks edges
// (EdgeKey values, sorted and duplicate-free), eliminating in the order
// ord. It reuses s's storage: once its buffers are large enough, Analyze
// does not allocate. It returns an error for a malformed pattern.
func (s *Symbolic) Analyze(sizes []int, edges []uint64, ord Ordering) error {
	n := len(sizes)
	s.n, s.ordering = n, ord
	s.sizes = append(s.sizes[:0], sizes...)
	s.orig = resizeInt(s.orig, n+1)
	s.orig[0] = 0
	s.six = true
	for c, sz := range sizes {
		if sz <= 0 {
			return fmt.Errorf("linalg: block %d has size %d", c, sz)
		}
		s.orig[c+1] = s.orig[c] + sz
		s.six = s.six && sz == 6
	}
	if ord != MinDegree && ord != Natural {
		return fmt.Errorf("linalg: unknown ordering %d", int(ord))
	}
	s.perm = resizeInt32(s.perm, n)
	s.pos = resizeInt32(s.pos, n)
	if err := s.eliminate(edges, ord); err != nil {
		return err
	}
	s.setPositions()
	s.etree()
	if ord == MinDegree {
		s.postorder()
		s.setPositions()
		s.etree()
	}
	s.supernodes()
	return nil
}

// setPositions fills pos, posOff and turns every column structure into
// sorted positions.
func (s *Symbolic) setPositions() {
	n := s.n
	s.posOff = resizeInt(s.posOff, n+1)
	s.posOff[0] = 0
	for k, c := range s.perm {
		s.pos[c] = int32(k)
		s.posOff[k+1] = s.posOff[k] + s.sizes[c]
	}
}

// etree sets the elimination tree: the parent of position k is the first
// position in the structure of its column.
func (s *Symbolic) etree() {
	s.parent = resizeInt32(s.parent, s.n)
	for k, c := range s.perm {
		st := s.colStruct(c)
		p := int32(-1)
		for _, u := range st {
			if q := s.pos[u]; p < 0 || q < p {
				p = q
			}
		}
		s.parent[k] = p
	}
}

// postorder reorders s.perm by a depth-first postorder of the elimination
// tree (children and roots in increasing position), which does not change
// the fill and makes the columns of every supernode consecutive.
func (s *Symbolic) postorder() {
	n := s.n
	w := s.ws
	w.head = resizeInt32(w.head, n)
	w.next = resizeInt32(w.next, n)
	w.stack = resizeInt32(w.stack, n)[:0]
	for k := range n {
		w.head[k] = -1
	}
	// Push children in decreasing order so that each list is increasing.
	for k := n - 1; k >= 0; k-- {
		if p := s.parent[k]; p >= 0 {
			w.next[k] = w.head[p]
			w.head[p] = int32(k)
		}
	}
	old := w.deg[:0] // reuse as the old perm
	for _, c := range s.perm {
		old = append(old, int(c))
	}
	out := 0
	for r := range n {
		if s.parent[r] >= 0 {
			continue
		}
		w.stack = append(w.stack[:0], int32(r))
		for len(w.stack) > 0 {
			top := w.stack[len(w.stack)-1]
			if ch := w.head[top]; ch >= 0 {
				w.head[top] = w.next[ch] // visit the next child
				w.stack = append(w.stack, ch)
				continue
			}
			w.stack = w.stack[:len(w.stack)-1]
			s.perm[out] = int32(old[top])
			out++
		}
	}
}

// supernodes groups positions into fundamental supernodes (k joins k−1's
// supernode when k is k−1's parent and the structure of k−1 is {k} ∪ the
// structure of k), and lays out the panels and scatter maps.
func (s *Symbolic) supernodes() {
	n := s.n
	// Column structures as sorted positions.
	for _, c := range s.perm {
		st := s.colStruct(c)
		for i, u := range st {
			st[i] = s.pos[u]
		}
		slices.Sort(st)
	}
	s.snStart = s.snStart[:0]
	s.snOf = resizeInt32(s.snOf, n)
	for k := range n {
		if k == 0 || !(s.parent[k-1] == int32(k) && len(s.colStruct(s.perm[k-1])) == len(s.colStruct(s.perm[k]))+1) {
			s.snStart = append(s.snStart, int32(k))
		}
		s.snOf[k] = int32(len(s.snStart) - 1)
	}
	nsn := len(s.snStart)
	s.snStart = append(s.snStart, int32(n))
	s.snPanel = resizeInt(s.snPanel, nsn+1)
	s.snRowPtr = resizeInt32(s.snRowPtr, nsn+1)
	s.rowPos, s.rowPanel = s.rowPos[:0], s.rowPanel[:0]
	s.snPanel[0], s.snRowPtr[0] = 0, 0
	s.maxW = 0
	for sn := range nsn {
		first, last := s.snStart[sn], s.snStart[sn+1]-1
		size := s.posOff[last+1] - s.posOff[first]
		row := size
		for _, r := range s.colStruct(s.perm[last]) {
			s.rowPos = append(s.rowPos, r)
			s.rowPanel = append(s.rowPanel, int32(row))
			row += s.sizes[s.perm[r]]
		}
		s.snRowPtr[sn+1] = int32(len(s.rowPos))
		s.snPanel[sn+1] = s.snPanel[sn] + row*size
		s.maxW = max(s.maxW, row-size)
	}
	s.scatPtr = resizeInt(s.scatPtr, nsn+1)
	s.scat = s.scat[:0]
	s.scatPtr[0] = 0
	for sn := range nsn {
		rows := s.rowPos[s.snRowPtr[sn]:s.snRowPtr[sn+1]]
		for a, ra := range rows {
			for _, rb := range rows[:a+1] {
				off, _, ok := s.locatePos(ra, rb)
				if !ok { // impossible by construction (the fill is closed)
					off = -1
				}
				s.scat = append(s.scat, off)
			}
		}
		s.scatPtr[sn+1] = len(s.scat)
	}
}

// locatePos returns the data offset and row stride of the block of L at
// (row position pi, column position pj), pi ≥ pj, and whether that block
// is in the pattern.
func (s *Symbolic) locatePos(pi, pj int32) (off, stride int, ok bool) {
	t := s.snOf[pj]
	base := s.posOff[s.snStart[t]]
	stride = s.posOff[s.snStart[t+1]] - base
	col := s.posOff[pj] - base
	var row int
	if s.snOf[pi] == t {
		row = s.posOff[pi] - base
	} else {
		rows := s.rowPos[s.snRowPtr[t]:s.snRowPtr[t+1]]
		i, found := slices.BinarySearch(rows, pi)
		if !found {
			return 0, 0, false
		}
		row = int(s.rowPanel[int(s.snRowPtr[t])+i])
	}
	return s.snPanel[t] + row*stride + col, stride, true
}

// Blocks returns the number of blocks.
func (s *Symbolic) Blocks() int { return s.n }

// Size returns the number of scalar rows of the matrix.
func (s *Symbolic) Size() int {
	if s.n == 0 {
		return 0
	}
	return s.orig[s.n]
}

// Supernodes returns the number of supernodes.
func (s *Symbolic) Supernodes() int { return max(len(s.snStart)-1, 0) }

// NonZeros returns the number of stored entries of L (the supernodal
// panels, including the upper triangles of their diagonal blocks): a
// measure of fill.
func (s *Symbolic) NonZeros() int {
	if len(s.snPanel) == 0 {
		return 0
	}
	return s.snPanel[len(s.snPanel)-1]
}

// Perm returns the elimination order: Perm()[k] is the block eliminated
// k-th. The slice is owned by s.
func (s *Symbolic) Perm() []int32 { return s.perm }

// Ordering returns the ordering the analysis used.
func (s *Symbolic) Ordering() Ordering { return s.ordering }

// symbolicSize is what the storage of an analysis must hold: blocks, row
// blocks of the supernodes and scatter entries.
type symbolicSize struct{ blocks, rows, scat int }

// size returns what s's analysis holds.
func (s *Symbolic) size() symbolicSize {
	return symbolicSize{blocks: s.n, rows: len(s.rowPos), scat: len(s.scat)}
}

// reserve grows s's storage to hold an analysis of size z, so that a later
// Analyze of a pattern no larger does not allocate.
func (s *Symbolic) reserve(z symbolicSize) {
	n := z.blocks + 1
	s.sizes = reserveInt(s.sizes, n)
	s.orig = reserveInt(s.orig, n)
	s.posOff = reserveInt(s.posOff, n)
	s.snPanel = reserveInt(s.snPanel, n)
	s.scatPtr = reserveInt(s.scatPtr, n)
	s.perm = reserveInt32(s.perm, n)
	s.pos = reserveInt32(s.pos, n)
	s.parent = reserveInt32(s.parent, n)
	s.snOf = reserveInt32(s.snOf, n)
	s.snStart = reserveInt32(s.snStart, n)
	s.snRowPtr = reserveInt32(s.snRowPtr, n)
	s.rowPos = reserveInt32(s.rowPos, z.rows)
	s.rowPanel = reserveInt32(s.rowPanel, z.rows)
	s.scat = reserveInt(s.scat, z.scat)
}

// reserveInt returns s with capacity at least n, its length unchanged. It
// grows the capacity at least twofold, so that a cache whose patterns grow
// a little at a time (a pile forming) allocates a logarithmic number of
// times.
func reserveInt(s []int, n int) []int {
	if cap(s) >= n {
		return s
	}
	return append(make([]int, 0, max(n, 2*cap(s))), s...)
}

// reserveInt32 returns s with capacity at least n, its length unchanged.
func reserveInt32(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s
	}
	return append(make([]int32, 0, max(n, 2*cap(s))), s...)
}

// sixBlocks returns the positions of the row blocks of supernode sn, a
// supernode of six columns in a pattern of blocks all of six (six): row
// block j then occupies rows 6+6j of its panel (Analyze lays them out in
// this order, each six rows) and entries 6k of the permuted vector.
func (s *Symbolic) sixBlocks(sn int) []int32 {
	return s.rowPos[s.snRowPtr[sn]:s.snRowPtr[sn+1]]
}
