package sap

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// BenchmarkSolveTiny times SAP on the problem of one free body with four
// Lagged contacts (a box on the ground, the cube-slide peer scene's
// size): the fixed cost of a solve. "warm" starts at the solution (the
// solve evaluates ℓp once and stops), "cold" at v*; "resolve-warm" is
// "warm" through Resolve (solver.LaggedRefiner's re-solves), which skips
// the validation and J's packing.
func BenchmarkSolveTiny(b *testing.B) {
	k := solver.ContactLagged
	p := problems.Random(rand.New(rand.NewPCG(1, 2)), 1, []solver.Kind{k, k, k, k}, 0.025)
	s := New(DefaultParams())
	var res solver.Result
	if err := s.Solve(p, nil, &res); err != nil {
		b.Fatal(err)
	}
	warm := append([]float64(nil), res.V...)
	for _, c := range []struct {
		name  string
		v0    []float64
		solve func(*solver.Problem, []float64, *solver.Result) error
	}{{"warm", warm, s.Solve}, {"resolve-warm", warm, s.Resolve}, {"cold", nil, s.Solve}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			it := 0
			for b.Loop() {
				if err := c.solve(p, c.v0, &res); err != nil {
					b.Fatal(err)
				}
				it += res.Stats.Iterations
			}
			b.ReportMetric(float64(it)/float64(b.N), "iterations/op")
		})
	}
}
