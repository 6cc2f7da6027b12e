package sim

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestEdgeJMatchesEdgeRow: edgeJ lays out a contact's pyramid edges on
// pp, J blocks and data, as one AddJBlock per edge and clique filled by
// edgeRow would, bit for bit: condim 3's four edges (edgeRows4) and the
// other counts (edgeRowsN: 1, 6, 10), on one or two cliques of 1 … 9
// columns, appended after earlier blocks, into storage that must grow
// and into storage that need not.
func TestEdgeJMatchesEdgeRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	for trial := range 300 {
		p := &solver.Problem{}
		sizes := []int{1 + rng.IntN(9), 1 + rng.IntN(9)}
		nv := sizes[0] + sizes[1]
		p.Reset(nv)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: sizes[0]}, solver.Clique{Offset: sizes[0], Size: sizes[1]})
		p.AddConstraint(solver.Interval, 1, 0, 1) // an earlier block, so that the contact's J blocks do not start at 0
		p.AddJBlockFrom(0, 1, []float64{rng.NormFloat64()})
		c := p.AddConstraint(solver.Interval, 3, 0, 1)
		for q := range 2 {
			if trial%3 == q {
				continue // the contact on one clique only
			}
			blk := p.AddJBlock(c, q)
			for k := range blk {
				blk[k] = rng.NormFloat64()
			}
		}
		js := pyramidJStart(p, nil)
		coef := make([][5]float64, []int{1, 4, 6, 10}[trial%4])
		for e := range coef {
			coef[e][0], coef[e][1] = rng.NormFloat64(), rng.NormFloat64()
		}
		var got, want solver.Problem
		for _, pp := range []*solver.Problem{&got, &want} {
			if trial%2 == 0 {
				pp.JBlock = make([]solver.JBlock, 0, 64) // no growth
				pp.JData = make([]float64, 0, 256)
			}
			pp.Reset(nv)
			pp.Cliques = append(pp.Cliques, p.Cliques...)
			pp.AddConstraint(solver.Interval, 1, 0, 1)
			pp.AddJBlock(0, 0)[0] = 0.5
			for range coef {
				pp.AddConstraint(solver.Interval, 1, 0, 1)
			}
		}
		jb := edgeJ(p, &got, js[c], js[c+1], 1, coef)
		for e := range coef {
			for b := js[c]; b < js[c+1]; b++ {
				n := p.Cliques[p.JBlock[b].Clique].Size
				src := p.JBlockData(b)
				edgeRow(want.AddJBlock(1+e, p.JBlock[b].Clique), src[:n], src[n:2*n], src[2*n:3*n], coef[e][0], coef[e][1])
			}
		}
		if jb != 1 || !reflect.DeepEqual(got.JBlock, want.JBlock) || !sameBits(got.JData, want.JData) {
			t.Fatalf("trial %d: edgeJ gave first %d, blocks %v, data %v; want 1, %v, %v", trial, jb, got.JBlock, got.JData, want.JBlock, want.JData)
		}
	}
}
