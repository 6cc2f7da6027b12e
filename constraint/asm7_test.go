package constraint

import "testing"

// TestAsm7NextZeroed: next hands out zeroed entries in order, in place
// and past a.entries' capacity (nextSlow), over the entries of an earlier
// assembly whose fields were all set, and under RowsOnly a spare that
// a.entries does not keep; addItem fills the fields its callers' literals
// did and no other.
func TestAsm7NextZeroed(t *testing.T) {
	var a Assembler
	dirty := entry{violation: 1, bound: 2, input: 3, act: 4, impulse: 5, item: 6, block: 7, vec: 8, term: 9, nterm: 10,
		typ: TypeWeld, sat: true, sign: [2]int8{1, -1}}
	for round := range 3 {
		a.entries = a.entries[:0]
		for i := range 11 { // past the first capacities: growth inside a round
			e := a.next()
			if *e != (entry{}) {
				t.Fatalf("round %d, entry %d: next gave %+v, want a zero entry", round, i, *e)
			}
			*e = dirty
			e.item = int32(i)
		}
		for i := range a.entries {
			if a.entries[i].item != int32(i) || a.entries[i].impulse != 5 {
				t.Fatalf("round %d: entry %d is %+v, want the one written through next", round, i, a.entries[i])
			}
		}
	}
	a.entries = a.entries[:0]
	a.addItem(TypeCoupler, 3, 4, 0.5, 2.5)
	want := entry{typ: TypeCoupler, item: 3, block: 4, violation: 0.5, bound: 2.5, vec: -1}
	if len(a.entries) != 1 || a.entries[0] != want {
		t.Fatalf("addItem gave %+v, want [%+v]", a.entries, want)
	}
	a.rowsOnly = true
	if e := a.next(); e != &a.spare || *e != (entry{}) || len(a.entries) != 1 {
		t.Fatalf("RowsOnly: next gave %p (%+v), spare %p, %d entries kept; want the zeroed spare and 1 entry", e, *e, &a.spare, len(a.entries))
	}
}
