package sim

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestCopyBlockMatchesPlain: copyBlock (through AddConstraint and
// AddJBlockFrom) gives the pyramid problem what copyBlockPlain, one
// append per slice, gives it (constraints, rows, parameters, J blocks
// and their data, each block's index), on random problems of one- and
// three-row blocks over two cliques, some without a J block, with
// pyramid contacts (which neither copies) between them, after an edge
// (shifted indices), and with J data laid out out of order.
func TestCopyBlockMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	for trial := range 200 {
		p := randomCopyProblem(rng, trial%4 == 3)
		js := pyramidJStart(p, nil)
		var plain, got solver.Problem
		for _, q := range []*solver.Problem{&plain, &got} {
			q.Reset(p.NV)
			q.Cliques = append(q.Cliques, p.Cliques...)
			if trial%2 == 1 { // an edge before the copies
				q.AddConstraint(solver.Interval, 1, 0, 1)
				q.AddJBlock(0, 1)[2] = 1
			}
		}
		for i := range p.Constraints {
			if rng.IntN(5) == 0 {
				continue // a pyramid contact: neither copies it
			}
			want := copyBlockPlain(p, &plain, i, js[i], js[i+1])
			if k := copyBlock(p, &got, i, js[i], js[i+1]); k != want {
				t.Fatalf("trial %d: block %d copied to %d, want %d", trial, i, k, want)
			}
		}
		if !reflect.DeepEqual(plain, got) {
			t.Fatalf("trial %d: copyBlock's problem\n%+v\nthe plain copy's\n%+v", trial, got, plain)
		}
	}
}

// copyBlockPlain is copyBlock as one append per slice of the problem.
func copyBlockPlain(p, pp *solver.Problem, i, b, end int) int {
	c := p.Constraints[i]
	k := len(pp.Constraints)
	pp.Constraints = append(pp.Constraints, solver.Constraint{Kind: c.Kind, Row: pp.NR, Size: c.Size, Par: len(pp.Params)})
	pp.NR += c.Size
	pp.VHat = append(pp.VHat, p.VHat[c.Row:c.Row+c.Size]...)
	pp.R = append(pp.R, p.R[c.Row:c.Row+c.Size]...)
	pp.Params = append(pp.Params, p.Par(i)...)
	for ; b < end; b++ {
		pp.JBlock = append(pp.JBlock, solver.JBlock{Constraint: k, Clique: p.JBlock[b].Clique, Off: len(pp.JData)})
		pp.JData = append(pp.JData, p.JBlockData(b)...)
	}
	return k
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
