package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/solver/stack"
)

// withSolver builds sc and replaces its SAP solver by mk(params), where
// params are the scene's SAP parameters, in the scene's solver stack (the
// same refinement of Lagged contacts, and islands as the scene has them).
func withSolver(t testing.TB, sc *scene.Scene, mk func(sap.Params) solver.Solver) (*sim.Simulator, *scene.Built) {
	return withSolverLag(t, sc, mk, nil)
}

// withSolverLag is withSolver with the stack's refinement changed by lag
// (when not nil) before the stack is built.
func withSolverLag(t testing.TB, sc *scene.Scene, mk func(sap.Params) solver.Solver, lag func(*stack.Lag)) (*sim.Simulator, *scene.Built) {
	t.Helper()
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	s0, ok := b.Stack.Solver().(*sap.Solver)
	if !ok {
		t.Fatalf("scene's solver is %T, want *sap.Solver", b.Stack.Solver())
	}
	prm := s0.Params()
	if lag != nil {
		lag(&b.Stack.Lag)
	}
	if inner := mk(prm); isIslands(inner) {
		b.Config.Solver = inner // islands: mk refines island by island
	} else {
		b.Stack.Solver = func() solver.Solver { return mk(prm) }
		if b.Config.Solver, err = b.Stack.Build(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// isIslands reports whether sv is an island solver.
func isIslands(sv solver.Solver) bool {
	_, ok := sv.(*island.Solver)
	return ok
}

// linear returns a maker of SAP solvers with the given linear algebra.
func linear(l sap.Linear) func(sap.Params) solver.Solver {
	return func(p sap.Params) solver.Solver {
		p.Linear = l
		return sap.New(p)
	}
}

// islands returns a maker of island solvers over SAP with the given
// linear algebra and workers (each island's SAP refined for Lagged contacts
// as the scenes' solvers are).
func islands(l sap.Linear, workers int) func(sap.Params) solver.Solver {
	return func(p sap.Params) solver.Solver {
		p.Linear = l
		is := island.New(func() solver.Solver {
			return &solver.LaggedRefiner{Inner: sap.New(p), Tolerance: scene.LagTolerance, SlideTolerance: scene.LagSlideTolerance, MaxResolves: scene.DefaultLagIterations}
		}, workers)
		is.SetTolerance(p.AbsTolerance, p.RelTolerance)
		return is
	}
}

func loadScene(t testing.TB, name string, sets ...string) *scene.Scene {
	t.Helper()
	sc, err := scene.Load(name, sets)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// compare is a solver.Solver that solves with a and also with b, and
// records the largest relative difference of v.
type compare struct {
	a, b      solver.Solver
	other     solver.Result
	worst     float64
	worstStep int
	diffIters int
	step      int
}

func (c *compare) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	c.step++
	if err := c.a.Solve(p, v0, res); err != nil {
		return err
	}
	if err := c.b.Solve(p, v0, &c.other); err != nil {
		return err
	}
	num, den := 0.0, 0.0
	for i, x := range res.V {
		d := x - c.other.V[i]
		num += d * d
		den += x * x
	}
	if d := math.Sqrt(num / max(den, 1e-300)); d > c.worst {
		c.worst, c.worstStep = d, c.step
	}
	if res.Stats.Iterations != c.other.Stats.Iterations {
		c.diffIters++
	}
	return nil
}

// TestSparseEqualsDenseClutter: on 300 steps of clutter (with walls: one
// coupled pile) and clutter-nowalls, the sparse path returns the dense
// path's v to 1e-10 relative at every step, solving the same problems
// (the trajectory follows the sparse one).
func TestSparseEqualsDenseClutter(t *testing.T) {
	for _, name := range []string{"clutter", "clutter-nowalls"} {
		c := &compare{}
		s, _ := withSolver(t, loadScene(t, name), func(p sap.Params) solver.Solver {
			c.a, c.b = linear(sap.SparseLinear)(p), linear(sap.DenseLinear)(p)
			return c
		})
		runSteps(t, s, 300)
		a, r := c.a.(*sap.Solver).SymbolicStats()
		t.Logf("%s: worst |v_sparse − v_dense|/|v_sparse| = %.3g (step %d), %d steps with different iteration counts; symbolic analyses %d, reuses %d",
			name, c.worst, c.worstStep, c.diffIters, a, r)
		if c.worst > 1e-10 {
			t.Errorf("%s: sparse and dense differ by %g at step %d", name, c.worst, c.worstStep)
		}
	}
}

// TestStepAllocatesNothingSparse: once warmed up, a clutter step allocates
// nothing with the sparse path, with the island solver (serial and with 2
// workers).
func TestStepAllocatesNothingSparse(t *testing.T) {
	for _, c := range []struct {
		name string
		mk   func(sap.Params) solver.Solver
	}{
		{"sparse", linear(sap.SparseLinear)},
		{"islands-1", islands(sap.AutoLinear, 1)},
		{"islands-2", islands(sap.AutoLinear, 2)},
	} {
		for _, sc := range []string{"clutter", "clutter-nowalls"} {
			s, b := withSolver(t, loadScene(t, sc), c.mk)
			runSteps(t, s, 300)
			allocs := testing.AllocsPerRun(50, func() {
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			})
			if is, ok := b.Config.Solver.(*island.Solver); ok {
				is.Close()
			}
			t.Logf("%s, %s: %v allocations per step", c.name, sc, allocs)
			if allocs != 0 {
				t.Errorf("%s, %s: %v allocations per step, want 0", c.name, sc, allocs)
			}
		}
	}
}

// TestIslandWorkersBitIdentical: 300 steps of clutter-nowalls with the
// island solver and 1 or 4 workers give bit-identical states.
func TestIslandWorkersBitIdentical(t *testing.T) {
	var q, v [2][]float64
	for k, w := range []int{1, 4} {
		s, b := withSolver(t, loadScene(t, "clutter-nowalls"), islands(sap.AutoLinear, w))
		runSteps(t, s, 300)
		b.Config.Solver.(*island.Solver).Close()
		q[k], v[k] = append([]float64(nil), s.State.Q...), append([]float64(nil), s.State.V...)
	}
	for i := range q[0] {
		if math.Float64bits(q[0][i]) != math.Float64bits(q[1][i]) {
			t.Fatalf("q[%d]: %v with 1 worker, %v with 4", i, q[0][i], q[1][i])
		}
	}
	for i := range v[0] {
		if math.Float64bits(v[0][i]) != math.Float64bits(v[1][i]) {
			t.Fatalf("v[%d]: %v with 1 worker, %v with 4", i, v[0][i], v[1][i])
		}
	}
}

// benchStep times one step of sc after warm steps.
func benchStep(b *testing.B, sc *scene.Scene, warm int, mk func(sap.Params) solver.Solver) {
	s, bl := withSolver(b, sc, mk)
	runSteps(b, s, warm)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
	if is, ok := bl.Config.Solver.(*island.Solver); ok {
		is.Close()
	}
}

// BenchmarkStepLinear times a clutter step (after 300 warm-up steps) with
// the dense and the sparse Newton system, and with islands.
func BenchmarkStepLinear(b *testing.B) {
	for _, name := range []string{"clutter", "clutter-nowalls"} {
		for _, c := range []struct {
			name string
			mk   func(sap.Params) solver.Solver
		}{
			{"dense", linear(sap.DenseLinear)},
			{"sparse", linear(sap.SparseLinear)},
			{"islands", islands(sap.AutoLinear, 1)},
		} {
			b.Run(fmt.Sprintf("%s/%s", name, c.name), func(b *testing.B) {
				benchStep(b, loadScene(b, name, "duration=1000"), 300, c.mk)
			})
		}
	}
}

// BenchmarkStepClutterN times a step of scene.ClutterN(n, walls) after
// 100 warm-up steps, sparse path, for the scaling study (the full study is
// "stiction bench").
func BenchmarkStepClutterN(b *testing.B) {
	for _, walls := range []bool{true, false} {
		for _, n := range []int{40, 160, 640} {
			b.Run(fmt.Sprintf("walls=%v/n=%d", walls, n), func(b *testing.B) {
				sc, err := scene.LoadClutterN(n, walls, []string{"duration=1000"})
				if err != nil {
					b.Fatal(err)
				}
				benchStep(b, sc, 100, linear(sap.SparseLinear))
			})
		}
	}
}

// TestClutterIterationsSparse: on the 40-body clutter with walls, 10 s with
// the sparse path, the mean SAP iterations per step over the settled last
// 2 s is at most 3 (SAP §VI-C: "about 3 iterations per time step"); the
// distribution is logged.
func TestClutterIterationsSparse(t *testing.T) {
	if testing.Short() {
		t.Skip("1000 steps")
	}
	s, b := withSolver(t, loadScene(t, "clutter"), linear(sap.SparseLinear))
	stats := runSteps(t, s, b.Steps)
	hist := map[int]int{}
	sum, n, all := 0, 0, 0
	for _, st := range stats {
		all += st.Iterations
		if st.T > b.Duration-2+1e-9 {
			hist[st.Iterations]++
			sum += st.Iterations
			n++
		}
	}
	mean := float64(sum) / float64(n)
	t.Logf("clutter, sparse: mean iterations %.2f over all %d steps; %.2f over the last 2 s (%d steps), histogram %v",
		float64(all)/float64(len(stats)), len(stats), mean, n, hist)
	if mean > 3 {
		t.Errorf("mean iterations over the last 2 s = %.2f, want ≤ 3", mean)
	}
}
