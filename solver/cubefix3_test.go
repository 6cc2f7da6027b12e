package solver

import (
	"math"
	"slices"
	"testing"
)

// cubefix3Dirty fills the spare capacity of p's per-row and J storage
// with NaN, as a problem reused after Reset holds old numbers there.
func cubefix3Dirty(p *Problem) {
	for _, s := range [][]float64{p.VHat, p.R, p.Params, p.JData} {
		full := s[:cap(s)]
		for i := len(s); i < len(full); i++ {
			full[i] = math.NaN()
		}
	}
}

// TestCubefix3ReusedStorage: on a problem reused after Reset, whose
// storage holds NaN beyond its lengths, AddConstraint gives its rows
// v̂ = R = 0 and keeps its parameters, AddJBlock returns a zeroed block and
// AddJBlockFrom a copy of its source, zero where the source ends; the
// same problem as one built fresh. Fails when a row or block keeps the
// old storage's numbers.
func TestCubefix3ReusedStorage(t *testing.T) {
	build := func(p *Problem) {
		p.Reset(5)
		cubefix3Clique(p, 2)
		cubefix3Clique(p, 3)
		c := p.AddConstraint(ContactCone, 3, 0.5)
		p.AddJBlockFrom(c, 0, []float64{1, 2, 3, 4, 5, 6})
		p.AddJBlockFrom(c, 1, []float64{7, 8, 9, 10}) // short: the rest is zero
		d := p.AddConstraint(Interval, 1, -1, 2)
		copy(p.AddJBlock(d, 1), []float64{0, 1})
		e := p.AddConstraint(Disk, 2, 0.25)
		p.AddJBlock(e, 0)
	}
	var fresh, reused Problem
	build(&fresh)
	reused.Reset(5)
	for range 4 { // grow the storage with other numbers
		cubefix3Clique(&reused, 3)
		c := reused.AddConstraint(Disk, 3, 7)
		blk := reused.AddJBlock(c, len(reused.Cliques)-1)
		for i := range blk {
			blk[i] = -3
		}
		for r := range 3 {
			reused.VHat[reused.NR-3+r], reused.R[reused.NR-3+r] = 5, 6
		}
	}
	cubefix3Dirty(&reused)
	build(&reused)
	for _, f := range []struct {
		name      string
		got, want []float64
	}{{"VHat", reused.VHat, fresh.VHat}, {"R", reused.R, fresh.R}, {"Params", reused.Params, fresh.Params}, {"JData", reused.JData, fresh.JData}} {
		if !slices.Equal(f.got, f.want) {
			t.Fatalf("%s = %v, a fresh problem's %v", f.name, f.got, f.want)
		}
	}
	if want := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}; !slices.Equal(fresh.JData, want) {
		t.Fatalf("JData = %v, want %v", fresh.JData, want)
	}
}

// cubefix3Clique appends a clique of n velocities with A = I.
func cubefix3Clique(p *Problem, n int) {
	off := 0
	if k := len(p.Cliques); k > 0 {
		off = p.Cliques[k-1].Offset + p.Cliques[k-1].Size
	}
	p.Cliques = append(p.Cliques, Clique{Offset: off % p.NV, Size: n, AOff: len(p.A)})
	for i := range n {
		for j := range n {
			p.A = append(p.A, float64(max(0, 1-cubefix3Abs(i-j))))
		}
	}
}

// cubefix3Abs is |x|.
func cubefix3Abs(x int) int { return max(x, -x) }
