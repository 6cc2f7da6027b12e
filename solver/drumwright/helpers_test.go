package drumwright

import (
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// particle returns a problem of one point mass m (NV = 3, A = m I) with
// free velocity vstar.
func particle(m float64, vstar [3]float64) *solver.Problem {
	p := &solver.Problem{}
	p.Reset(3)
	p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: 3, AOff: 0})
	p.A = append(p.A, m, 0, 0, 0, m, 0, 0, 0, m)
	copy(p.VStar, vstar[:])
	for i := range p.MDiag {
		p.MDiag[i] = m
	}
	return p
}

// addRows appends a constraint of kind k with the rows of the identity
// (the axes listed), v̂ and R.
func addRows(p *solver.Problem, k solver.Kind, axes []int, vhat, r []float64, params ...float64) {
	c := p.AddConstraint(k, len(axes), params...)
	lo, _ := p.Rows(c)
	for a := range axes {
		p.VHat[lo+a], p.R[lo+a] = vhat[a], r[a]
	}
	j := p.AddJBlock(c, 0)
	for a, ax := range axes {
		j[a*3+ax] = 1
	}
}

func solve(t *testing.T, p *solver.Problem, prm Params) *solver.Result {
	t.Helper()
	res := &solver.Result{}
	if err := New(prm).Solve(p, nil, res); err != nil {
		t.Fatal(err)
	}
	return res
}
