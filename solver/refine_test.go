package solver

import "testing"

// TestRelagSlideTolerance: a sliding block (friction at μ n0) is relagged
// for a change of its normal impulse beyond SlideTolerance, a sticking
// block only beyond Tolerance.
func TestRelagSlideTolerance(t *testing.T) {
	const mu, n0 = 0.5, 1.0
	for _, c := range []struct {
		name      string
		ft, n     float64 // friction magnitude and normal impulse of the solve
		slideTol  float64
		wantRelag bool
	}{
		{"sliding, 0.1% change", mu * n0, 1.001, 1e-4, true},
		{"sliding, 0.1% change, no slide tolerance", mu * n0, 1.001, 0, false},
		{"sticking, 0.1% change", 0.5 * mu * n0, 1.001, 1e-4, false},
		{"sticking, 2% change", 0.5 * mu * n0, 1.02, 1e-4, true},
		{"sliding, 0.001% change", mu * n0, 1.00001, 1e-4, false},
	} {
		var p Problem
		p.AddConstraint(ContactLagged, 3, mu, n0, 1e-4, 0, 0)
		l := &LaggedRefiner{Tolerance: 0.01, SlideTolerance: c.slideTol}
		gamma := []float64{c.ft * 0.6, c.ft * 0.8, c.n}
		if got := l.relag(&p, gamma); got != c.wantRelag {
			t.Errorf("%s: relag %v, want %v", c.name, got, c.wantRelag)
		}
		if want := map[bool]float64{true: c.n, false: n0}[c.wantRelag]; p.Params[1] != want {
			t.Errorf("%s: n0 = %v, want %v", c.name, p.Params[1], want)
		}
	}
}
