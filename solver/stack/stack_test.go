package stack_test

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/solver/stack"
)

// TestBuild: without workers the stack is the chosen solver inside the
// refiner with the Lag settings; with workers, an island solver whose
// islands are solved by such refined solvers; a spec without a solver or
// with negative counts is refused.
func TestBuild(t *testing.T) {
	made := 0
	spec := stack.Spec{Solver: func() solver.Solver { made++; return sap.New(sap.DefaultParams()) },
		Lag: stack.Lag{Resolves: 3, Tolerance: 0.5, SlideTolerance: 0.25}, AbsTolerance: 1e-16, RelTolerance: 1e-6}
	sv, err := spec.Build()
	if err != nil {
		t.Fatal(err)
	}
	lr, ok := sv.(*solver.LaggedRefiner)
	if !ok || lr.MaxResolves != 3 || lr.Tolerance != 0.5 || lr.SlideTolerance != 0.25 || made != 1 {
		t.Fatalf("stack without workers: %#v (%d solvers made)", sv, made)
	}
	if _, ok := lr.Inner.(*sap.Solver); !ok {
		t.Errorf("refined solver %T, want *sap.Solver", lr.Inner)
	}
	spec.Workers = 2
	sv, err = spec.Build()
	if err != nil {
		t.Fatal(err)
	}
	is, ok := sv.(*island.Solver)
	if !ok || is.Workers() != 2 {
		t.Fatalf("stack with 2 workers: %T", sv)
	}
	if lr, ok := is.Inner(1).(*solver.LaggedRefiner); !ok || lr.MaxResolves != 3 || is.Inner(2) != nil || is.Inner(-1) != nil {
		t.Errorf("worker 1's solver %T, want the refiner; workers 2 and -1: %v, %v", is.Inner(1), is.Inner(2), is.Inner(-1))
	}
	is.Close()
	for _, bad := range []stack.Spec{{}, {Solver: spec.Solver, Workers: -1}, {Solver: spec.Solver, Lag: stack.Lag{Resolves: -1}}} {
		if _, err := bad.Build(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestSceneStack: a scene's solver is its stack's: the island solver with
// stack.DefaultWorkers around SAP inside the refiner with the engine's
// default refinement (and the scene's lag_iterations), the scene's
// tolerances for the island solver.
func TestSceneStack(t *testing.T) {
	sc, err := scene.Load("clutter", []string{"contact.lag_iterations=5"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	want := stack.DefaultLag()
	want.Resolves = 5
	if b.Stack.Lag != want || b.Stack.Workers != stack.DefaultWorkers || b.Stack.RelTolerance != scene.DefaultTolerance || b.Stack.AbsTolerance != scene.DefaultAbsTolerance {
		t.Errorf("stack %+v, want lag %+v, %d workers and the default tolerances", b.Stack, want, stack.DefaultWorkers)
	}
	is, ok := b.Config.Solver.(*island.Solver)
	if !ok || is.Workers() != stack.DefaultWorkers {
		t.Fatalf("Config.Solver %T, want the island solver with %d workers", b.Config.Solver, stack.DefaultWorkers)
	}
	lr, ok := is.Inner(0).(*solver.LaggedRefiner)
	if !ok || lr.MaxResolves != 5 || lr.Tolerance != stack.DefaultLagTolerance || lr.SlideTolerance != stack.DefaultLagSlideTolerance {
		t.Fatalf("Config.Solver %#v", b.Config.Solver)
	}
	if _, ok := lr.Inner.(*sap.Solver); !ok {
		t.Errorf("inner solver %T, want SAP", lr.Inner)
	}
}
