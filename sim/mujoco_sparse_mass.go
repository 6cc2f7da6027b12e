package sim

import (
	"math"
	"slices"
	"unsafe"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// M's packing (packM) straight from M_w. Tᵀ M_w T differs from M_w only on
// the angular blocks' rows and columns (turnMass): every other entry is
// 0 + M_w[r,i]. So once M is packed, a step turns those rows and columns
// alone into mb (turnBlocks) and gathers the packing's values from the
// two sources, M_w's entry plus zero or mb's turned one (gatherSplit):
// the bits packM gathers from a whole turnMass, without the copy of every
// entry of every clique into mb nor the second pass over it.

// mSplit is the packing's entries (mppos, mpslot) and the entries off it
// (mpout) by where their values come from: off every angular block's rows
// and columns (plain: M_w's entry, at the same place in the problem's A
// as in mb) or on one (turned: mb's). One entry at a time: a row's slots
// follow its lanes and the pattern breaks its places, so runs of
// consecutive places and slots are short, and runs (or int32 places) cost
// more instructions than these lists on humanoid_CMU.
type mSplit struct {
	model      *multibody.Model // whose angular blocks split them; nil: split again
	plainPos   []int            // plain entries on the pattern: their places in mb and A
	plainSlot  []int            // and their slots
	turnedPos  []int            // turned entries on the pattern: their places in mb
	turnedSlot []int
	plainOut   []int // plain entries off the pattern, as runs: places plainOut[2k] ≤ p < plainOut[2k+1]
	turnedOut  []int // turned entries off the pattern
	// The entries on M's lower part (mplo) among plainPos and turnedPos
	// come first, nPlainLo and nTurnedLo of them, each with its place in
	// H's pattern (hessPattern's r·nv + c) in plainH and turnedH.
	nPlainLo, nTurnedLo int
	plainH, turnedH     []int
	hpat                []byte // 1 at plainH's and turnedH's places, nv×nv (up to hpatMaxNV)
}

// split sets sp.mpsplit from the packing and nw's angular blocks, when
// repackM made a new packing or the model changed.
func (sp *sparseNewton) split(nw *newtonWork) {
	ms := &sp.mpsplit
	if ms.model == nw.model && nw.model != nil {
		return
	}
	ms.model = nw.model
	ms.plainPos, ms.plainSlot = ms.plainPos[:0], ms.plainSlot[:0]
	ms.turnedPos, ms.turnedSlot = ms.turnedPos[:0], ms.turnedSlot[:0]
	ms.plainOut, ms.turnedOut = ms.plainOut[:0], ms.turnedOut[:0]
	ms.plainH, ms.turnedH = ms.plainH[:0], ms.turnedH[:0]
	nv := len(sp.mpadr) - 1
	for lower := range 2 { // the lower entries first (lower == 0), then the others
		r := 0
		for k, p := range sp.mppos {
			s := sp.mpslot[k]
			for s >= sp.mpadr[r+1] {
				r++
			}
			c := sp.mpcol[s]
			if (c <= r) != (lower == 0) {
				continue
			}
			if sp.turned(nw, p) {
				ms.turnedPos, ms.turnedSlot = append(ms.turnedPos, p), append(ms.turnedSlot, s)
				if c <= r {
					ms.turnedH = append(ms.turnedH, r*nv+c)
				}
			} else {
				ms.plainPos, ms.plainSlot = append(ms.plainPos, p), append(ms.plainSlot, s)
				if c <= r {
					ms.plainH = append(ms.plainH, r*nv+c)
				}
			}
		}
	}
	ms.nPlainLo, ms.nTurnedLo = len(ms.plainH), len(ms.turnedH)
	if nv <= hpatMaxNV {
		ms.hpat = growBytes(ms.hpat, nv*nv)
		clear(ms.hpat)
		for _, h := range ms.plainH {
			ms.hpat[h] = 1
		}
		for _, h := range ms.turnedH {
			ms.hpat[h] = 1
		}
	}
	for _, p := range sp.mpout { // increasing
		switch {
		case sp.turned(nw, p):
			ms.turnedOut = append(ms.turnedOut, p)
		case len(ms.plainOut) > 0 && ms.plainOut[len(ms.plainOut)-1] == p:
			ms.plainOut[len(ms.plainOut)-1]++
		default:
			ms.plainOut = append(ms.plainOut, p, p+1)
		}
	}
}

// turned reports whether mb's entry at place p lies on an angular block's
// row or column (turnBlocks sets it).
func (sp *sparseNewton) turned(nw *newtonWork, p int) bool {
	c := cliqueAt(sp.madr, p)
	n, off := sp.sz[c], sp.off[c]
	r, i := (p-sp.madr[c])/n, (p-sp.madr[c])%n
	return nw.blk[off+r] >= 0 || nw.blk[off+i] >= 0
}

// cliqueAt returns the clique c whose block holds mb's place p: madr[c] ≤
// p < madr[c+1].
func cliqueAt(madr []int, p int) int {
	c, _ := slices.BinarySearch(madr, p+1)
	return c - 1
}

// gatherSplit is packM from M_w (p.A) when the packing holds: the angular
// blocks' rows and columns turned into mb (turnBlocks), every entry off
// the pattern checked to be zero, then the values gathered, each the bits
// packM's gatherM would take from a whole turnMass; below hpatMaxNV
// velocities each non-zero on M's lower part is marked in H's pattern as
// it is gathered (hessPattern's M part: sp.hpM). It reports false, and
// does nothing but turn those rows and columns, when the packing or its
// split does not hold or a non-zero falls off the pattern.
func (nw *newtonWork) gatherSplit(p *solver.Problem) bool {
	sp, ms, nv := &nw.sp, &nw.sp.mpsplit, nw.nv
	sp.hpM = false
	if ms.model != nw.model || nw.model == nil || len(sp.mpnz) != len(sp.mb) || len(sp.mpadr) != nv+1 ||
		!slices.Equal(sp.mpoff, sp.off) || !slices.Equal(sp.mpsz, sp.sz) || !slices.Equal(sp.aoff, sp.madr[:len(sp.aoff)]) {
		return false
	}
	a, mb := p.A, sp.mb
	for c, n := range sp.sz {
		b := sp.madr[c]
		nw.turnBlocks(a[b:b+n*n], mb[b:b+n*n], n, sp.off[c])
	}
	if offRuns(a, ms.plainOut)|offPattern(mb, ms.turnedOut) != 0 { // 0 + a[x] is zero when a[x] is
		return false
	}
	sp.mpart = true
	val := sp.mpval
	if nv > hpatMaxNV {
		changed := gatherTracked(val, a, ms.plainPos, ms.plainSlot, true)
		if gatherTracked(val, mb, ms.turnedPos, ms.turnedSlot, false) || changed {
			sp.mver++
		}
		return true
	}
	// M's lower entries on the pattern, marked in H's pattern by split
	// (ms.hpat), unmarked where the gather finds a zero: hessPattern's M
	// part, from the same values.
	sp.hpat = growBytes(sp.hpat, nv*nv)
	hp := sp.hpat
	copy(hp, ms.hpat)
	nlo := ms.nPlainLo
	slot, hpos := ms.plainSlot[:nlo], ms.plainH[:nlo]
	for k, x := range ms.plainPos[:nlo] {
		v := 0 + a[x]
		val[slot[k]] = v
		if v == 0 {
			hp[hpos[k]] = 0
		}
	}
	slot = ms.plainSlot[nlo:len(ms.plainPos)]
	for k, x := range ms.plainPos[nlo:] {
		val[slot[k]] = 0 + a[x]
	}
	nlo = ms.nTurnedLo
	slot, hpos = ms.turnedSlot[:nlo], ms.turnedH[:nlo]
	for k, x := range ms.turnedPos[:nlo] {
		v := mb[x]
		val[slot[k]] = v
		if v == 0 {
			hp[hpos[k]] = 0
		}
	}
	slot = ms.turnedSlot[nlo:len(ms.turnedPos)]
	for k, x := range ms.turnedPos[nlo:] {
		val[slot[k]] = mb[x]
	}
	sp.hpM = !sp.hpatScan // a test's hpatScan: hessPattern scans M over these marks
	return true
}

// offPattern returns the bits but the signs of src's entries at places,
// or-ed: zero when every one of them is ±0. It ORs four entries' bits a
// turn and drops the sign bit once (linalg.OffPatternZero's loop).
func offPattern(src []float64, places []int) uint64 {
	var out uint64
	for ; len(places) >= 4; places = places[4:] {
		x := places[:4:4]
		out |= math.Float64bits(src[x[0]]) | math.Float64bits(src[x[1]]) | math.Float64bits(src[x[2]]) | math.Float64bits(src[x[3]])
	}
	for _, x := range places {
		out |= math.Float64bits(src[x])
	}
	return out << 1
}

// offRuns is offPattern over the places of runs: runs[2k] ≤ p <
// runs[2k+1]. M's entries off a tree's pattern lie in long runs (a row's
// columns between two of its ancestors, or past its subtree), which it
// reads without an index per entry, as the uint64s that hold their bits
// (math.Float64bits of each, without the move through a float register).
func offRuns(src []float64, runs []int) uint64 {
	bits := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
	var o0, o1 uint64
	for k := 1; k < len(runs); k += 2 {
		s := bits[runs[k-1]:runs[k]]
		j := 0
		for ; j < len(s)-3; j += 4 { // by index: re-slicing s costs more
			o0 |= s[j] | s[j+1]
			o1 |= s[j+2] | s[j+3]
		}
		for ; j < len(s); j++ {
			o0 |= s[j]
		}
	}
	return (o0 | o1) << 1
}

// gatherTracked sets val[slot[k]] = src[pos[k]] (0 + src[pos[k]] when
// plus) and reports whether an entry changed between zero and not
// (gatherM's count of mver above hpatMaxNV velocities).
func gatherTracked(val, src []float64, pos, slot []int, plus bool) bool {
	changed := false
	for k, x := range pos {
		v, s := src[x], slot[k]
		if plus {
			v = 0 + v
		}
		changed = changed || (v != 0) != (val[s] != 0)
		val[s] = v
	}
	return changed
}

// fullM makes mb the whole of Tᵀ M_w T again after gatherSplit left it
// holding the angular blocks' rows and columns alone (factorMSparse
// reads every entry).
func (nw *newtonWork) fullM() {
	if nw.sp.mpart {
		nw.turnCliques()
	}
}
