package sap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// TestResolveMatchesSolve: after a Solve, Resolve of the same problem with
// changed lagged impulses (as solver.LaggedRefiner re-solves) gives the
// bits that a fresh solver's Solve gives, on the dense and the sparse
// path, and Resolve of a problem that was not the last Solve's is Solve.
func TestResolveMatchesSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 41))
	kinds := []solver.Kind{solver.ContactLagged, solver.ContactLagged, solver.ContactCone, solver.Interval}
	for trial := range 24 {
		prm := DefaultParams()
		prm.Linear = []Linear{DenseLinear, SparseLinear}[trial%2]
		p := problems.Random(rng, 1+trial%4, kinds, 0.025)
		s := New(prm)
		var first, got, want solver.Result
		solveOK2(t, s.Solve, p, nil, &first)
		changed := 0
		for i, c := range p.Constraints {
			if c.Kind == solver.ContactLagged {
				p.SetLaggedNormal(i, max(first.Gamma[c.Row+2], 0))
				changed++
			}
		}
		if changed == 0 {
			continue
		}
		warm := slices.Clone(first.V)
		solveOK2(t, s.Resolve, p, warm, &got)
		solveOK2(t, New(prm).Solve, p, warm, &want)
		if !sameResult(&got, &want) {
			t.Errorf("trial %d (%v): Resolve %+v differs from Solve %+v", trial, prm.Linear, got.Stats, want.Stats)
		}
		// Another problem: Resolve is Solve.
		q := problems.Random(rng, 1+trial%3, kinds, 0.025)
		solveOK2(t, s.Resolve, q, nil, &got)
		solveOK2(t, New(prm).Solve, q, nil, &want)
		if !sameResult(&got, &want) {
			t.Errorf("trial %d: Resolve of a new problem differs from Solve", trial)
		}
	}
}

// TestResolveChecksWarmStart: Resolve rejects a warm start of the wrong
// length or not finite, and a nil result, as Solve does.
func TestResolveChecksWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	p := problems.Random(rng, 2, []solver.Kind{solver.ContactLagged}, 0.025)
	s := New(DefaultParams())
	var res solver.Result
	solveOK2(t, s.Solve, p, nil, &res)
	bad := slices.Clone(res.V)
	bad[1] = math.NaN()
	for _, v0 := range [][]float64{res.V[:1], bad} {
		if err := s.Resolve(p, v0, &res); err == nil {
			t.Errorf("Resolve accepted the warm start %v", v0)
		}
	}
	if err := s.Resolve(p, nil, nil); err == nil {
		t.Error("Resolve accepted a nil result")
	}
}

// solveOK2 runs solve (a Solve or Resolve) and fails t on an error.
func solveOK2(t *testing.T, solve func(*solver.Problem, []float64, *solver.Result) error, p *solver.Problem, v0 []float64, res *solver.Result) {
	t.Helper()
	if err := solve(p, v0, res); err != nil {
		t.Fatal(err)
	}
}

// sameResult reports whether two results hold the same bits.
func sameResult(a, b *solver.Result) bool {
	same := func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	return same(a.V, b.V) && same(a.Gamma, b.Gamma) && same(a.VC, b.VC) && a.Stats == b.Stats
}
