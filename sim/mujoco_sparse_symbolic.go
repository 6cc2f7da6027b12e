package sim

import (
	"bytes"
	"math"
	"slices"
)

// The symbolic part of the sparse path's Hessian (mujoco_sparse.go): the
// pattern of H = Jᵀ D J + M (every row of J, D = 0 rows included, and M's
// non-zeros) and of its factor Lᵀ L with fill (mju_cholFactorSparse's
// merges), and where each of the factor's updates lands. It depends only
// on J's pattern and M's non-zero pattern, so it is kept while they hold
// (a humanoid's contacts keep their chains for many steps) and the
// Hessian is assembled and factored on it without merging or sorting.
//
// Fill by the elimination tree: row r of L holds H's row r and, from each
// row c > r whose largest off-diagonal column is r (its parent), L's row c
// less its diagonal. The merges of mju_cholFactorSparse put
// {j ∈ L_c : j ≤ r} into row r for every c > r with r ∈ L_c; the part of
// it from a c whose parent p is not r arrives through p (L_p ⊇ L_c ∖ {c},
// r ∈ L_p, by induction down the tree), so both give the same rows
// (George and Liu, Computer Solution of Large Sparse Positive Definite
// Systems, 1981, Thm 5.4.2, for the transposed order).

// sparseSym is the symbolic Hessian and the patterns it was built for.
type sparseSym struct {
	checked bool    // compared with this solve's J and M (sparseCoordinates clears it)
	built   bool    // the fields below describe some J and M
	key     []byte  // H's pattern it was built for (hessPattern; empty when keyed on J)
	jadr    []int   // J's row starts it was built for
	jind    []int   // J's columns it was built for
	mver    int     // M's pattern (sparseNewton.mver) it was checked against
	adr     []int   // L's row r: ind[adr[r]:adr[r+1]]
	ind     []int   // L's columns per row, increasing, the diagonal last
	kind    []int8  // per entry of ind: symJ, symM or symFill
	fill    []int   // positions in ind of the fill entries
	frun    []int32 // per off-diagonal entry i of row r (at adr[r]+i): where its update lands in row L_r[i] (factorPositions)
	fpos    []int32 // the positions of the updates that are not runs
	// build scratch (per velocity)
	head, next, tstart, tlen []int
	tind                     []int
	tkind                    []int8
}

// The kinds of an entry of L's pattern: on the pattern of a row of J (or
// the diagonal), on M's non-zeros alone, or fill.
const (
	symJ int8 = iota
	symM
	symFill
)

// hpatMaxNV is the largest nv whose symbolic Hessian is keyed on H's
// pattern as an nv×nv byte map (hessPattern); larger models key it on J's
// pattern (checkSymJ).
const hpatMaxNV = 256

// symKept is the number of symbolic Hessians kept besides the current one:
// H's pattern moves between a few (a contact's chain comes and goes, one
// of M's entries flickers between zero and not), so a pattern met again
// is taken back rather than rebuilt. humanoid_CMU meets more than four
// (steps 100–300: 24 builds with 3 kept, about 264k instructions each,
// and 8 with 8 kept), so 8 are kept.
const symKept = 8

// checkSym makes sp.sym describe this solve's J and M. Up to hpatMaxNV
// velocities it is keyed on H's pattern (hessPattern), which fixes L's
// pattern, the fill and the factor's positions (buildSym reads nothing
// else), and so every bit of the factor: the current pattern or one of the
// symKept last ones when one matches, else rebuilt into the least recently
// used one's storage.
func (nw *newtonWork) checkSym() {
	sp := &nw.sp
	if nw.nv > hpatMaxNV {
		nw.checkSymJ()
		return
	}
	sp.sym.checked = true
	nw.hessPattern()
	if sp.symRebuild {
		sp.sym.built = false
	}
	if sp.sym.built && bytes.Equal(sp.sym.key, sp.hpat) {
		return
	}
	hit := -1
	for i := range sp.symOld {
		if !sp.symRebuild && sp.symOld[i].built && bytes.Equal(sp.symOld[i].key, sp.hpat) {
			hit = i
			break
		}
	}
	if hit < 0 { // rebuild into the least recently used one
		hit = len(sp.symOld) - 1
	}
	cur := sp.symOld[hit]
	copy(sp.symOld[1:hit+1], sp.symOld[:hit])
	sp.symOld[0], sp.sym = sp.sym, cur
	sp.sym.checked = true
	if !sp.symRebuild && sp.sym.built && bytes.Equal(sp.sym.key, sp.hpat) {
		return
	}
	sp.sym.key = append(sp.sym.key[:0], sp.hpat...)
	sp.sym.jadr, sp.sym.jind = sp.sym.jadr[:0], sp.sym.jind[:0] // not keyed on J here
	nw.buildSym()
	sp.sym.built = true
	sp.symBuilds++
}

// hessPattern sets sp.hpat to H's pattern on and below the diagonal
// (entry (r, c) at r·nv + c, 1 when on it): M's non-zeros there and the
// diagonal, and each constraint's columns squared (its first row's: the
// others share them; a row on the columns of the row before adds
// nothing).
func (nw *newtonWork) hessPattern() {
	sp, nv := &nw.sp, nw.nv
	if sp.hpM && len(sp.hpat) == nv*nv { // gatherSplit marked M's part
		hp := sp.hpat
		for r := range nv {
			hp[r*nv+r] = 1
		}
		if sp.hpatCheck != nil {
			sp.hpatCheck(nw)
		}
	} else {
		nw.hessPatternM()
	}
	sp.hpM = false
	hp := sp.hpat
	var prev []int
	for k := range nw.n {
		if sp.jsame[k] {
			continue
		}
		ind, _ := sp.row(k)
		if slices.Equal(ind, prev) {
			continue
		}
		prev = ind
		for a, i := range ind {
			row := hp[i*nv : i*nv+i+1]
			for _, c := range ind[:a+1] {
				row[c] = 1
			}
		}
	}
}

// hessPatternM sets sp.hpat to M's non-zeros on and below the diagonal
// and the diagonal (hessPattern's part of M, when gatherSplit did not mark
// it).
func (nw *newtonWork) hessPatternM() {
	sp, nv := &nw.sp, nw.nv
	sp.hpat = growBytes(sp.hpat, nv*nv)
	hp := sp.hpat
	clear(hp)
	// The slices in locals: the stores into hp would otherwise make the
	// loop load sp's slice headers again.
	lo, loadr, val, col := sp.mplo, sp.mploadr[:nv+1], sp.mpval, sp.mpcol
	for r := range nv {
		row := hp[r*nv : r*nv+r+1]
		row[r] = 1
		for _, s := range lo[loadr[r]:loadr[r+1]] {
			if val[s] != 0 {
				row[col[s]] = 1
			}
		}
	}
}

// growBytes returns s resized to n (reallocated when short).
func growBytes(s []byte, n int) []byte {
	if cap(s) < n {
		return make([]byte, n)
	}
	return s[:n]
}

// checkSymJ is checkSym keyed on J's pattern (models above hpatMaxNV
// velocities, where an nv×nv map would cost more than it saves): kept
// when J's pattern is the one it was built for and M's non-zeros give H
// the same entries (M's exact zeros come and go with the configuration,
// mostly under J's pattern), else rebuilt.
func (nw *newtonWork) checkSymJ() {
	sp := &nw.sp
	sy := &sp.sym
	sy.checked = true
	sy.key = sy.key[:0]
	n := nw.n
	jadr, jind := sp.jadr[:n+1], sp.jind[:sp.jadr[n]]
	if sy.built && len(sy.adr) == nw.nv+1 && slices.Equal(sy.jadr, jadr) && slices.Equal(sy.jind, jind) &&
		(sy.mver == sp.mver || nw.sameMPattern()) {
		sy.mver = sp.mver
		return
	}
	sy.jadr, sy.jind = append(sy.jadr[:0], jadr...), append(sy.jind[:0], jind...)
	nw.buildSym()
	sy.built, sy.mver = true, sp.mver
}

// sameMPattern reports whether M's non-zeros on and below the diagonal
// fall on sp.sym's entries of kind symJ or symM, every symM entry among
// them (sp.mark is −1 outside a row's scan).
func (nw *newtonWork) sameMPattern() bool {
	sp := &nw.sp
	sy := &sp.sym
	for i := range nw.nv {
		a, e := sy.adr[i], sy.adr[i+1]
		nm := 0
		for p, c := range sy.ind[a:e] {
			k := sy.kind[a+p]
			sp.mark[c] = int(k)
			if k == symM {
				nm++
			}
		}
		ok := true
		for p := sp.mpadr[i]; p < sp.mpadr[i+1]; p++ {
			c := sp.mpcol[p]
			if c > i || sp.mpval[p] == 0 {
				continue
			}
			switch int8(sp.mark[c]) {
			case symM:
				nm--
			case symJ:
			default: // off L's pattern, or on its fill
				ok = false
			}
		}
		for _, c := range sy.ind[a:e] {
			sp.mark[c] = -1
		}
		if !ok || nm != 0 {
			return false
		}
	}
	return true
}

// buildSym sets L's rows (H's pattern and the fill, from the last row
// down the elimination tree) and the factor's update positions.
func (nw *newtonWork) buildSym() {
	sp, nv := &nw.sp, nw.nv
	sy := &sp.sym
	sy.head, sy.next = growInt(sy.head, nv), growInt(sy.next, nv)
	sy.tstart, sy.tlen = growInt(sy.tstart, nv), growInt(sy.tlen, nv)
	for i := range nv {
		sy.head[i], sp.mark[i] = -1, -1
	}
	tind, tkind := sy.tind[:0], sy.tkind[:0]
	for r := nv - 1; r >= 0; r-- {
		cols, nj := nw.hessRowPattern(r) // marked r, the first nj on J's pattern
		for _, c := range cols[:nj] {
			sp.mark[c] = -3 - nv - r // J's
		}
		if sp.mark[r] != -3-nv-r {
			sp.mark[r] = -3 - nv - r
		}
		for ch := sy.head[r]; ch >= 0; ch = sy.next[ch] {
			for _, c := range tind[sy.tstart[ch] : sy.tstart[ch]+sy.tlen[ch]-1] {
				if m := sp.mark[c]; m != r && m != -2-r && m != -3-nv-r {
					sp.mark[c] = -2 - r // fill
					cols = append(cols, c)
				}
			}
		}
		slices.Sort(cols)
		sp.cols = cols
		sy.tstart[r], sy.tlen[r] = len(tind), len(cols)
		tind = append(tind, cols...)
		for _, c := range cols {
			k := symM
			switch sp.mark[c] {
			case -3 - nv - r:
				k = symJ
			case -2 - r:
				k = symFill
			}
			tkind = append(tkind, k)
		}
		if len(cols) >= 2 {
			p := cols[len(cols)-2]
			sy.next[r], sy.head[p] = sy.head[p], r
		}
	}
	sy.tind, sy.tkind = tind, tkind
	// Rows in increasing order.
	sy.adr = growInt(sy.adr, nv+1)
	sy.ind, sy.kind, sy.fill = sy.ind[:0], sy.kind[:0], sy.fill[:0]
	sy.adr[0] = 0
	for r := range nv {
		t := sy.tstart[r]
		for u, c := range tind[t : t+sy.tlen[r]] {
			if tkind[t+u] == symFill {
				sy.fill = append(sy.fill, len(sy.ind))
			}
			sy.ind, sy.kind = append(sy.ind, c), append(sy.kind, tkind[t+u])
		}
		sy.adr[r+1] = len(sy.ind)
	}
	for i := range nv {
		sp.mark[i] = -1
	}
	sy.factorPositions(nv)
}

// hessRowPattern returns the columns c ≤ r of H's row r (in sp.cols,
// unordered, each marked r in sp.mark): those of every row of J on
// column r (the first nj), then M's other non-zeros and the diagonal.
func (nw *newtonWork) hessRowPattern(r int) (cols []int, nj int) {
	sp := &nw.sp
	cols = sp.cols[:0]
	for t := sp.tadr[r]; t < sp.tadr[r+1]; t++ {
		if sp.jsame[sp.trow[t]] { // its constraint's first row has its columns
			continue
		}
		ind, _ := sp.row(sp.trow[t])
		for _, c := range ind {
			if c > r {
				break
			}
			if sp.mark[c] != r {
				sp.mark[c] = r
				cols = append(cols, c)
			}
		}
	}
	nj = len(cols)
	for p := sp.mpadr[r]; p < sp.mpadr[r+1]; p++ {
		if c := sp.mpcol[p]; c <= r && sp.mpval[p] != 0 && sp.mark[c] != r {
			sp.mark[c] = r
			cols = append(cols, c)
		}
	}
	if sp.mark[r] != r {
		sp.mark[r] = r
		cols = append(cols, r)
	}
	return cols, nj
}

// factorPositions sets where each of cholFactor's updates lands: for row
// r and its off-diagonal column c = L_r[i], the positions in row c of
// L_r[0…i] (row c holds them: the fill). Row c ends with c, so they are a
// run, the last i+1 entries of row c, exactly when row c's entry i places
// from its end is L_r[0] (L_r[0…i] ⊆ L_c, both increasing); frun[adr[r]+i]
// is then the run's start, else −1 − the start of the positions in fpos.
func (sy *sparseSym) factorPositions(nv int) {
	sy.fpos = sy.fpos[:0]
	sy.frun = growInt32(sy.frun, len(sy.ind))
	for r := range nv {
		row := sy.ind[sy.adr[r]:sy.adr[r+1]]
		for i, c := range row[:len(row)-1] {
			a, e := sy.adr[c], sy.adr[c+1]
			if start := e - 1 - i; start >= a && sy.ind[start] == row[0] {
				sy.frun[sy.adr[r]+i] = int32(start)
				continue
			}
			sy.frun[sy.adr[r]+i] = int32(-1 - len(sy.fpos))
			dst, q := sy.ind[a:e], 0
			for _, col := range row[:i+1] {
				for dst[q] != col {
					q++
				}
				sy.fpos = append(sy.fpos, int32(a+q))
			}
		}
	}
}

// negZero is −0: a fill entry's value before the factor's first merge
// into it, so that adding that merge's term gives the term itself, as
// mju_combineSparse's new entry (−0 + t = t for every t, ±0 included).
var negZero = math.Copysign(0, -1)
