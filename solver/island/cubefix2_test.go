package island

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// oneCliqueProblem returns a problem of one clique of 6 velocities with nc
// random constraints on it and, with blockless, one more constraint that
// touches no clique (J = 0).
func oneCliqueProblem(rng *rand.Rand, nc int, blockless bool) *solver.Problem {
	p := randomProblem(rng, 1, 1, nc)
	if blockless {
		c := p.AddConstraint(solver.Interval, 1, -1, 1)
		lo, _ := p.Rows(c)
		p.R[lo] = 0.5
	}
	return p
}

// TestCubefix2SplitOneMatchesSplit: on one-clique problems (with and
// without a blockless constraint) splitOne makes the island split makes:
// one island, clique 0, the same constraint list, and Solve reports it
// through Islands and Island(0) after a solve of a many-island problem on
// the same solver; the solution and statistics are the inner solver's
// alone, bit for bit.
func TestCubefix2SplitOneMatchesSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 2))
	for trial := range 20 {
		p := oneCliqueProblem(rng, 1+trial%5, trial%2 == 1)
		ref := New(sapFactory(1e-10), 1)
		ref.split(p)
		want := ref.islands[0]
		if ref.n != 1 || !slices.Equal(want.cliques, []int32{0}) {
			t.Fatalf("trial %d: split made %d islands, cliques %v", trial, ref.n, want.cliques)
		}
		s := New(sapFactory(1e-10), 1)
		var res, alone solver.Result
		if err := s.Solve(randomProblem(rng, 12, 3, 15), nil, &res); err != nil { // lists of several islands first
			t.Fatal(err)
		}
		if err := s.Solve(p, nil, &res); err != nil {
			t.Fatal(err)
		}
		if err := sapFactory(1e-10)().Solve(p, nil, &alone); err != nil {
			t.Fatal(err)
		}
		got := s.islands[0]
		if s.Islands() != 1 || !slices.Equal(got.cliques, want.cliques) || !slices.Equal(got.cons, want.cons) ||
			got.nCliques != want.nCliques || got.nCons != want.nCons {
			t.Fatalf("trial %d: %d islands, cliques %v cons %v (%d, %d), split's %v %v (%d, %d)", trial, s.Islands(),
				got.cliques, got.cons, got.nCliques, got.nCons, want.cliques, want.cons, want.nCliques, want.nCons)
		}
		if nq, nc, st := s.Island(0); nq != 1 || nc != len(want.cons) || st != alone.Stats {
			t.Fatalf("trial %d: Island(0) = %d cliques, %d constraints, stats %+v; want 1, %d, %+v", trial, nq, nc, st, len(want.cons), alone.Stats)
		}
		if !slices.Equal(res.V, alone.V) || !slices.Equal(res.Gamma, alone.Gamma) || !slices.Equal(res.VC, alone.VC) || res.Stats != alone.Stats {
			t.Fatalf("trial %d: the island solver's result differs from the inner solver's alone", trial)
		}
	}
}

// TestCubefix2OneCliqueMalformed: a one-clique problem, which Solve hands
// to the inner solver without a shape check of its own, is still rejected
// when its shape is wrong (the inner solver's validation), and the solver
// then solves a good problem.
func TestCubefix2OneCliqueMalformed(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 3))
	breaks := map[string]func(p *solver.Problem){
		"J block on clique 1":          func(p *solver.Problem) { p.JBlock[0].Clique = 1 },
		"J block of constraint 99":     func(p *solver.Problem) { p.JBlock[len(p.JBlock)-1].Constraint = 99 },
		"J blocks not sorted":          func(p *solver.Problem) { p.JBlock[0], p.JBlock[1] = p.JBlock[1], p.JBlock[0] },
		"J block outside JData":        func(p *solver.Problem) { p.JBlock[0].Off = len(p.JData) },
		"clique size 5":                func(p *solver.Problem) { p.Cliques[0].Size = 5 },
		"constraint rows do not tile":  func(p *solver.Problem) { p.Constraints[1].Row++ },
		"short VHat":                   func(p *solver.Problem) { p.VHat = p.VHat[:len(p.VHat)-1] },
		"R negative (a number, inner)": func(p *solver.Problem) { p.R[0] = -1 },
	}
	for name, brk := range breaks {
		s := New(sapFactory(1e-10), 1)
		var res solver.Result
		p := oneCliqueProblem(rng, 4, false)
		good := p.Clone()
		if err := s.Solve(p, nil, &res); err != nil {
			t.Fatalf("%s: the good problem: %v", name, err)
		}
		brk(p)
		if err := s.Solve(p, nil, &res); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if err := s.Solve(good, nil, &res); err != nil {
			t.Errorf("%s: the good problem after the bad one: %v", name, err)
		}
	}
}
