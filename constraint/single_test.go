package constraint

import (
	"math"
	"testing"
)

// TestAddDOFRecordsOnlyColumn: the column addDOF records for single
// (Assembler.one) is the one onlyNonzero's scan of the row finds, and
// any other write, or a second row, forgets it. It fails if addDOF
// records a column that a later write joined (single would then take a
// two-entry row for a one-entry one).
func TestAddDOFRecordsOnlyColumn(t *testing.T) {
	tm := newTestModel(t)
	c := &asmCtx{m: tm.m}
	tr := &tm.m.Trees[tm.m.Bodies[tm.pole].Tree]
	vi := tm.m.Bodies[tm.pole].VOff // the pole's hinge, the second velocity of the cart's tree
	var a Assembler
	rowOf := func() []float64 { return a.jr.Data[0][:tr.NV] }

	a.begin(1)
	a.addDOF(c, tm.pole, vi, 0, -1)
	if want := onlyNonzero(rowOf()); a.one != want || want != vi-tr.VOffset {
		t.Fatalf("one addDOF: recorded %d, the scan finds %d (want %d)", a.one, want, vi-tr.VOffset)
	}

	a.begin(1)
	a.addDOF(c, tm.pole, vi, 0, math.NaN()) // NaN counts as non-zero for both
	if want := onlyNonzero(rowOf()); a.one != want {
		t.Fatalf("NaN coefficient: recorded %d, the scan finds %d", a.one, want)
	}

	a.begin(1)
	a.addDOF(c, tm.pole, vi, 0, 0) // nothing non-zero: single must scan
	if a.one >= 0 {
		t.Fatalf("zero coefficient: recorded column %d", a.one)
	}

	a.begin(1)
	a.addDOF(c, tm.pole, vi, 0, 1)
	a.addDOF(c, tm.cart, tm.m.Bodies[tm.cart].VOff, 0, 1) // a second entry (a coupler's row)
	if a.one >= 0 || onlyNonzero(rowOf()) >= 0 {
		t.Fatalf("two entries: recorded %d, scan %d", a.one, onlyNonzero(rowOf()))
	}

	a.begin(1)
	a.addDOF(c, tm.pole, vi, 0, 1)
	a.slot(tm.m, tm.m.Bodies[tm.pole].Tree)[0] = 2 // any other writer goes through slot
	if a.one >= 0 {
		t.Fatalf("write after addDOF: still recorded %d", a.one)
	}

	a.begin(3)
	a.addDOF(c, tm.pole, vi, 0, 1)
	if a.one >= 0 {
		t.Fatalf("three-row block: recorded %d", a.one)
	}
}
