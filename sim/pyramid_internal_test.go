package sim

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestCopyRunMatchesCopyBlock: copyRun gives the pyramid problem what
// copyBlock gives it block by block (constraints, rows, parameters, J
// blocks and their data), on random problems of one- and three-row
// blocks over two cliques, some without a J block, with pyramid contacts
// (left out of the runs) between them, and on a problem whose J data is
// laid out out of order, which ends a run.
func TestCopyRunMatchesCopyBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	for trial := range 200 {
		p := randomCopyProblem(rng, trial%4 == 3)
		blocks := make([]pyramidBlock, len(p.Constraints))
		for i := range blocks {
			if rng.IntN(5) == 0 {
				blocks[i].edges = 4 // a pyramid contact: neither copies it
			}
		}
		js := pyramidJStart(p, nil)
		var one, run solver.Problem
		one.Reset(p.NV)
		run.Reset(p.NV)
		one.Cliques = append(one.Cliques, p.Cliques...)
		run.Cliques = append(run.Cliques, p.Cliques...)
		want := make([]int, len(blocks))
		for i := range blocks {
			if blocks[i].edges == 0 {
				want[i] = copyBlock(p, &one, i, js[i], js[i+1])
			}
		}
		for i := 0; i < len(blocks); {
			if blocks[i].edges != 0 {
				i++
				continue
			}
			i = copyRun(p, &run, blocks, js, i)
		}
		for i := range blocks {
			if blocks[i].edges == 0 && blocks[i].first != want[i] {
				t.Fatalf("trial %d: block %d first %d, copyBlock's %d", trial, i, blocks[i].first, want[i])
			}
		}
		if !reflect.DeepEqual(one, run) {
			t.Fatalf("trial %d: copyRun's problem\n%+v\ncopyBlock's\n%+v", trial, run, one)
		}
	}
}

// randomCopyProblem returns a problem of 1–12 random blocks over two
// cliques of 2 and 3 velocities; with shuffled, the J data of its last
// two J blocks trade places in JData.
func randomCopyProblem(rng *rand.Rand, shuffled bool) *solver.Problem {
	p := &solver.Problem{}
	p.Reset(5)
	p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: 2}, solver.Clique{Offset: 2, Size: 3})
	for range 1 + rng.IntN(12) {
		kind, size := solver.Interval, 1
		if rng.IntN(3) == 0 {
			kind, size = solver.ContactCone, 3
		}
		prm := make([]float64, kind.NumParams())
		for k := range prm {
			prm[k] = rng.Float64()
		}
		c := p.AddConstraint(kind, size, prm...)
		for r := range size {
			p.VHat[p.Constraints[c].Row+r], p.R[p.Constraints[c].Row+r] = rng.NormFloat64(), rng.Float64()
		}
		for q := range 2 {
			if rng.IntN(3) == 0 {
				continue
			}
			for k := range p.AddJBlock(c, q) {
				p.JData[len(p.JData)-size*p.Cliques[q].Size+k] = rng.NormFloat64()
			}
		}
	}
	if n := len(p.JBlock); shuffled && n >= 2 {
		a, b := &p.JBlock[n-2], &p.JBlock[n-1]
		da, db := append([]float64(nil), p.JBlockData(n-2)...), append([]float64(nil), p.JBlockData(n-1)...)
		b.Off = a.Off
		a.Off = b.Off + len(db)
		copy(p.JData[b.Off:], db)
		copy(p.JData[a.Off:], da)
	}
	return p
}
