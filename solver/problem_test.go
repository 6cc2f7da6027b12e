package solver

import (
	"slices"
	"testing"
)

func TestResizeKeepsContents(t *testing.T) {
	var s []float64
	for i := range 10 {
		s = Resize(s, len(s)+3)
		s[len(s)-3], s[len(s)-2], s[len(s)-1] = float64(i), float64(i), float64(i)
	}
	for i, x := range s {
		if x != float64(i/3) {
			t.Fatalf("s[%d] = %v after growing, want %v", i, x, i/3)
		}
	}
	if s2 := Resize(s, 4); &s2[0] != &s[0] || s2[3] != 1 {
		t.Fatal("shrinking should reuse storage and keep contents")
	}
}

// TestJRowsAnyNumberOfCliques: a constraint's blocks gathered out of
// clique order, one clique twice, come out as one block per clique in
// increasing clique order with the sums, and the problem validates.
func TestJRowsAnyNumberOfCliques(t *testing.T) {
	var p Problem
	p.Reset(4)
	for q := range 4 {
		p.Cliques = append(p.Cliques, Clique{Offset: q, Size: 1, AOff: q})
		p.A = append(p.A, 1)
		p.MDiag[q] = 1
	}
	var r JRows
	for round := range 2 { // the second round reuses the storage
		r.N = 0
		for _, q := range []int{3, 1, 0, 1, 2} {
			r.Slot(q, 1)[0] += float64(q + 1)
		}
		c := p.AddConstraint(Bilateral, 1)
		p.R[c] = 1
		r.Add(&p, c)
		var got []float64
		var cl []int
		for b := len(p.JBlock) - 4; b < len(p.JBlock); b++ {
			cl = append(cl, p.JBlock[b].Clique)
			got = append(got, p.JBlockData(b)[0])
		}
		if len(p.JBlock) != 4*(round+1) || !slices.Equal(cl, []int{0, 1, 2, 3}) || !slices.Equal(got, []float64{1, 4, 3, 4}) {
			t.Errorf("round %d: blocks on cliques %v with %v (%d blocks), want 0 1 2 3 with 1 4 3 4", round, cl, got, len(p.JBlock))
		}
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}
