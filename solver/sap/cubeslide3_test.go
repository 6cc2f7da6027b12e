package sap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestCubeslide3PackSix checks pack's six-column path (whole3x6 and the
// appended block) against packRows3, which it bypasses: problems of free
// bodies' contacts (3×6 blocks) whose columns are whole or have exact
// zeros of both signs, NaN entries among them, mixed with a three-velocity
// clique's blocks; the kept columns, values and descriptors must equal
// packRows3's block by block, bit for bit.
func TestCubeslide3PackSix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 86))
	entry := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.NaN()
		}
		return rng.NormFloat64()
	}
	whole, partial := 0, 0
	for range 3000 {
		p := &solver.Problem{}
		sizes := []int{6, 6, 3}
		p.Reset(15)
		off := 0
		for _, n := range sizes {
			p.Cliques = append(p.Cliques, solver.Clique{Offset: off, Size: n, AOff: len(p.A)})
			p.A = append(p.A, make([]float64, n*n)...)
			off += n
		}
		for range 1 + rng.IntN(5) {
			c := p.AddConstraint(solver.ContactCone, 3, 0.5)
			q := rng.IntN(3)
			jb := p.AddJBlock(c, q)
			for k := range jb {
				jb[k] = rng.NormFloat64()
			}
			if rng.IntN(2) == 0 { // zero a column or part of one
				n := sizes[q]
				col := rng.IntN(n)
				mode := rng.IntN(3) // 0: a zero column (both signs); 1: one row of it kept; 2: entries that may keep it
				one := rng.IntN(3)
				for r := range 3 {
					jb[r*n+col] = entry()
					if mode == 0 || mode == 1 && r != one {
						jb[r*n+col] = math.Copysign(0, float64(rng.IntN(2)*2-1))
					}
				}
			}
		}
		var pk packedJ
		pk.pack(p)
		var cols []int
		var vals []float64
		for b, blk := range p.JBlock {
			q := p.Cliques[blk.Clique]
			c0, v0 := len(cols), len(vals)
			cols, vals = packRows3(cols, vals, p.JBlockData(b), q.Offset)
			gc, gv := pk.block(b)
			if !slices.Equal(gc, cols[c0:]) || len(gv) != len(vals[v0:]) {
				t.Fatalf("block %d: columns %v, packRows3 %v", b, gc, cols[c0:])
			}
			for k, x := range vals[v0:] {
				if math.Float64bits(gv[k]) != math.Float64bits(x) {
					t.Fatalf("block %d: values %v, packRows3 %v", b, gv, vals[v0:])
				}
			}
			if bl := pk.blk[b]; bl.c0 != c0 || bl.v0 != v0 || bl.row != p.Constraints[blk.Constraint].Row || bl.size != 3 {
				t.Fatalf("block %d: descriptor %+v", b, bl)
			}
			if q.Size == 6 {
				jb := p.JBlockData(b)
				if w, want := whole3x6((*[18]float64)(jb)), wholeColumns3(jb[:6], jb[6:12], jb[12:]); w != want {
					t.Fatalf("block %v: whole3x6 %v, wholeColumns3 %v", jb, w, want)
				}
				if len(gc) == 6 {
					whole++
				} else {
					partial++
				}
			}
		}
	}
	if whole < 1000 || partial < 500 {
		t.Fatalf("%d whole and %d partial six-column blocks: the draws miss a path", whole, partial)
	}
}
