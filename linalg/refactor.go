package linalg

// FactorizeChanged is Factorize for a matrix H̃ assembled in f that
// differs from the matrix H whose factor base holds (base's last
// Factorize, which returned true, on the same Symbolic) only in blocks
// (i, j) with both changed[i] and changed[j] (changed is indexed by the
// caller's block order; a block (i, j) is stored in the panel of whichever
// of i and j is eliminated first). It gives the bits Factorize gives: in the right-looking
// factorization a supernode's panel of L is a function of its panel of H
// and of the updates of the supernodes whose row blocks reach it, in
// elimination order. The supernodes of the changed blocks are marked
// dirty, then, in elimination order, every supernode that a dirty
// one's update reaches; a clean supernode's panel of H̃ equals H's and so
// do the updates reaching it, so its panel of L is base's, copied, and
// its own update is subtracted from the dirty panels only, as Factorize
// would at the same place in the same order. When it returns false, the
// factor's values are unspecified (Factorize's partial factor is not
// reproduced). The stick prediction of
// package sap factors H̃ = A + JᵀG̃J this way against the Newton step's
// H = A + JᵀGJ (G̃ differs from G in the predicted contacts' blocks).
// TestPeers6FactorizeChanged compares it with Factorize bit for bit.
func (f *Factor) FactorizeChanged(base *Factor, changed []bool) bool {
	f.MarkChanged(base, changed)
	return f.FactorizeMarked()
}

// MarkChanged is FactorizeChanged's first half: it marks the supernodes
// that FactorizeMarked will factor, and after it Clean tells which blocks'
// columns it will copy from base instead (an assembly may then leave those
// columns out: FactorizeMarked overwrites them). Without a usable base (nil,
// another Symbolic, changed too short) every supernode is marked. Reset
// forgets the marks.
func (f *Factor) MarkChanged(base *Factor, changed []bool) {
	s := f.sym
	f.base = nil
	if s == nil {
		return
	}
	nsn := s.Supernodes()
	if cap(f.dirty) < nsn {
		f.dirty = make([]bool, nsn)
	}
	dirty := f.dirty[:nsn]
	if base == nil || base.sym != s || len(changed) < s.n {
		return
	}
	f.base = base
	clear(dirty)
	for c, ch := range changed[:s.n] {
		if ch {
			dirty[s.snOf[s.pos[c]]] = true
		}
	}
	for sn := range nsn {
		if !dirty[sn] {
			continue
		}
		for _, r := range s.rowPos[s.snRowPtr[sn]:s.snRowPtr[sn+1]] {
			dirty[s.snOf[r]] = true
		}
	}
}

// Clean reports whether the columns of block c (the caller's order) are
// in a supernode that FactorizeMarked copies from MarkChanged's base.
func (f *Factor) Clean(c int) bool {
	return f.base != nil && !f.dirty[f.sym.snOf[f.sym.pos[c]]]
}

// FactorizeMarked is FactorizeChanged's second half, after MarkChanged
// (Factorize when MarkChanged had no usable base).
func (f *Factor) FactorizeMarked() bool {
	if f.base == nil || f.base.sym != f.sym {
		return f.Factorize()
	}
	return f.factorizeFrom(true, f.base, f.dirty[:f.sym.Supernodes()])
}

// ClearMarked sets to zero the panels that FactorizeMarked factors: after
// MarkChanged with a usable base, the marked supernodes' panels only (the
// others are overwritten by copies of base's, whatever they hold), else
// all of Data. An assembly into the marked panels then needs no other
// clear.
func (f *Factor) ClearMarked() {
	s := f.sym
	if s == nil {
		return
	}
	if f.base == nil {
		clear(f.data)
		return
	}
	nsn := s.Supernodes()
	dirty := f.dirty[:nsn]
	for sn := 0; sn < nsn; {
		if !dirty[sn] {
			sn++
			continue
		}
		end := sn + 1
		for end < nsn && dirty[end] { // a run of marked panels: one clear
			end++
		}
		clear(f.data[s.snPanel[sn]:s.snPanel[end]])
		sn = end
	}
}
