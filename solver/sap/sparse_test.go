package sap

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/solver"
)

// TestSparseMatchesDense: on random problems with 2–40 cliques the sparse
// path (both kernels) returns the dense path's v to 1e-10 relative, with the
// same status, and the Newton directions agree to round-off.
func TestSparseMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	worst := 0.0
	for trial := range 30 {
		nc := 2 + rng.IntN(39)
		p := randomProblem(rng, nc, 6, 1+rng.IntN(3*nc))
		dp := DefaultParams()
		dp.Linear = DenseLinear
		want := solveOK(t, New(dp), p, nil)
		for _, k := range []linalg.Kernels{linalg.AutoKernels, linalg.Loops, linalg.BLAS} {
			sp := DefaultParams()
			sp.Linear, sp.Kernels = SparseLinear, k
			got := solveOK(t, New(sp), p, nil)
			d := relDiff(got.V, want.V, 1e-300)
			worst = max(worst, d)
			if d > 1e-10 || got.Stats.Status != want.Stats.Status {
				t.Errorf("trial %d (%d cliques, %d contacts, %v): |v_sparse − v_dense|/|v_dense| = %g, status %v vs %v",
					trial, nc, p.NumConstraints(), k, d, got.Stats.Status, want.Stats.Status)
			}
		}
	}
	t.Logf("worst relative difference %.3g", worst)
}

// TestSymbolicReuse: solving problems with the same contact graph reuses
// the symbolic analysis; a different graph triggers a new one; and a warmed
// up sparse solve allocates nothing.
func TestSymbolicReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	p := randomProblem(rng, 20, 6, 40)
	q := randomProblem(rng, 20, 6, 40)
	prm := DefaultParams()
	prm.Linear = SparseLinear
	s := New(prm)
	var res solver.Result
	for range 3 {
		if err := s.Solve(p, nil, &res); err != nil {
			t.Fatal(err)
		}
	}
	if a, r := s.SymbolicStats(); a != 1 || r != 2 {
		t.Errorf("3 solves of one pattern: %d analyses, %d reuses; want 1, 2", a, r)
	}
	// Same pattern, new values: still reused.
	for i := range p.JData {
		p.JData[i] *= 1.01
	}
	if err := s.Solve(p, nil, &res); err != nil {
		t.Fatal(err)
	}
	if err := s.Solve(q, nil, &res); err != nil {
		t.Fatal(err)
	}
	if a, r := s.SymbolicStats(); a != 2 || r != 3 {
		t.Errorf("then one more of the same and one other pattern: %d analyses, %d reuses; want 2, 3", a, r)
	}
	allocs := testing.AllocsPerRun(10, func() {
		s.Solve(p, nil, &res)
		s.Solve(q, nil, &res)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pair of sparse solves, want 0", allocs)
	}
}

// TestOptimalWarmStartSkipsSetup: a solve whose warm start already meets
// eq. (26) takes no Newton step and runs no symbolic analysis (the Newton
// system is set up at the first Newton step only), and returns the warm
// start as it is.
func TestOptimalWarmStartSkipsSetup(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	p := randomProblem(rng, 12, 6, 30)
	prm := DefaultParams()
	prm.Linear = SparseLinear
	res := solveOK(t, New(prm), p, nil)
	if res.Stats.Iterations == 0 {
		t.Fatal("cold solve took no Newton step: the test needs a warm start that differs from v*")
	}
	v := append([]float64(nil), res.V...)
	s := New(prm)
	var again solver.Result
	if err := s.Solve(p, v, &again); err != nil {
		t.Fatal(err)
	}
	if again.Stats.Status != solver.Converged || again.Stats.Iterations != 0 {
		t.Fatalf("warm start at the solution: status %v after %d iterations, want converged after 0", again.Stats.Status, again.Stats.Iterations)
	}
	if a, r := s.SymbolicStats(); a != 0 || r != 0 {
		t.Errorf("%d symbolic analyses and %d reuses for a solve without Newton steps, want 0 and 0", a, r)
	}
	for i := range v {
		if again.V[i] != v[i] {
			t.Fatalf("v[%d] = %v, want the warm start %v", i, again.V[i], v[i])
		}
	}
}

// TestLinearAuto: AutoLinear takes the dense path below AutoSparseCliques
// cliques and the sparse one from there on; unknown values are rejected.
func TestLinearAuto(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for _, nc := range []int{1, AutoSparseCliques - 1, AutoSparseCliques, 10} {
		p := randomProblem(rng, nc, 6, 2*nc)
		s := New(DefaultParams())
		solveOK(t, s, p, nil)
		a, _ := s.SymbolicStats()
		if sparse := a > 0; sparse != (nc >= AutoSparseCliques) {
			t.Errorf("%d cliques: sparse path taken = %v", nc, sparse)
		}
	}
	bad := DefaultParams()
	bad.Linear = 7
	if err := bad.Validate(); err == nil {
		t.Error("Linear = 7 accepted")
	}
}

// TestSparseDegenerate: the sparse path handles an empty problem, one
// clique, and cliques without contacts, as the dense path does.
func TestSparseDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	empty := &solver.Problem{}
	empty.Reset(0)
	for _, p := range []*solver.Problem{empty, randomProblem(rng, 1, 6, 3), randomProblem(rng, 5, 6, 0), randomProblem(rng, 4, 3, 1)} {
		dp, sp := DefaultParams(), DefaultParams()
		dp.Linear, sp.Linear = DenseLinear, SparseLinear
		want := solveOK(t, New(dp), p, nil)
		got := solveOK(t, New(sp), p, nil)
		if d := relDiff(got.V, want.V, 1e-300); d > 1e-12 || got.Stats.Status != want.Stats.Status {
			t.Errorf("NV %d, NC %d: sparse vs dense %g, status %v vs %v", p.NV, p.NumConstraints(), d, got.Stats.Status, want.Stats.Status)
		}
	}
}
