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

// fakeInner is an inner solver (not a Resolver) whose solves return the
// normal impulses of a fixed sequence, one per call, counting its calls.
type fakeInner struct {
	normals         []float64
	solves, resolve int
}

func (f *fakeInner) Solve(p *Problem, v0 []float64, res *Result) error {
	f.solves++
	return f.fill(p, res)
}

func (f *fakeInner) fill(p *Problem, res *Result) error {
	k := min(f.solves+f.resolve-1, len(f.normals)-1)
	res.V = Resize(res.V, p.NV)
	res.Gamma = Resize(res.Gamma, p.NR)
	res.Gamma[2] = f.normals[k]
	return nil
}

// resolvingInner is fakeInner with Resolve: a Resolver.
type resolvingInner struct{ fakeInner }

func (f *resolvingInner) Resolve(p *Problem, v0 []float64, res *Result) error {
	f.resolve++
	return f.fill(p, res)
}

// TestRefinerResolves: the refiner's re-solves go through the inner
// solver's Resolve when it is a Resolver, else through its Solve; the first
// solve is always Solve.
func TestRefinerResolves(t *testing.T) {
	normals := []float64{2, 3, 4, 4}
	for _, resolver := range []bool{true, false} {
		var p Problem
		p.Reset(1)
		p.AddConstraint(ContactLagged, 3, 0.5, 1.0, 1e-4, 0, 0)
		var in Solver
		var f *fakeInner
		if resolver {
			r := &resolvingInner{fakeInner{normals: normals}}
			in, f = r, &r.fakeInner
		} else {
			f = &fakeInner{normals: normals}
			in = f
		}
		l := &LaggedRefiner{Inner: in, Tolerance: 0.01, MaxResolves: 5}
		var res Result
		if err := l.Solve(&p, nil, &res); err != nil {
			t.Fatal(err)
		}
		wantSolves, wantResolves := 1, 3 // n0 = 1 → 2, 3, 4 relag; 4 again does not
		if !resolver {
			wantSolves, wantResolves = 4, 0
		}
		if f.solves != wantSolves || f.resolve != wantResolves || res.Stats.Resolves != 3 {
			t.Errorf("resolver %v: %d solves, %d resolves, Stats.Resolves %d; want %d, %d, 3",
				resolver, f.solves, f.resolve, res.Stats.Resolves, wantSolves, wantResolves)
		}
	}
}
