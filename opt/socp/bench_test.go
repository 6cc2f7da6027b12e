package socp

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSAP solves a random SAP problem of 60 velocities (ten free
// bodies) and 40 contacts: 180 variables (v and σ) and 40 cones of
// dimension 3, warm workspace.
func BenchmarkSAP(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := randomSAP(rng, 60, 40)
	s := NewSAPSolver()
	sol, err := s.Solve(p)
	if err != nil || sol.Status != Solved {
		b.Fatalf("%v %v", err, sol.Status)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Solve(p)
	}
	b.ReportMetric(float64(sol.Stats.Iterations), "iterations")
}

// BenchmarkSOCP solves a random strongly convex SOCP with 100 variables,
// 50 orthant rows and 30 cones of dimension 4.
func BenchmarkSOCP(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	soc := make([]int, 30)
	for i := range soc {
		soc[i] = 4
	}
	c := Cones{NonNeg: 50, SOC: soc}
	p, _ := randomProblem(rng, c, 100, c.Dim(), true)
	s := NewSolver()
	res, err := s.Solve(p)
	if err != nil || res.Status != Solved {
		b.Fatalf("%v %v", err, res.Status)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Solve(p)
	}
	b.ReportMetric(float64(res.Stats.Iterations), "iterations")
}
