package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// load builds an embedded scene with overrides and returns its simulator.
func load(t testing.TB, name string, sets ...string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	sc, err := scene.Load(name, sets)
	if err != nil {
		t.Fatal(err)
	}
	return newSim(t, sc)
}

// newSim builds a scene and returns its simulator.
func newSim(t testing.TB, sc *scene.Scene) (*sim.Simulator, *scene.Built) {
	t.Helper()
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	return mustSim(t, b), b
}

// newWholeSim is newSim with the scene's stack built without islands: one
// solve of each whole problem by the refined solver.
func newWholeSim(t testing.TB, sc *scene.Scene) (*sim.Simulator, *scene.Built) {
	t.Helper()
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	b.Stack.Workers = 0
	if b.Config.Solver, err = b.Stack.Build(); err != nil {
		t.Fatal(err)
	}
	return mustSim(t, b), b
}

// mustSim returns the simulator of b, failing on an error.
func mustSim(t testing.TB, b *scene.Built) *sim.Simulator {
	t.Helper()
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runSteps takes n steps, failing on an error, and returns their stats.
func runSteps(t testing.TB, s *sim.Simulator, n int) []sim.StepStats {
	t.Helper()
	out := make([]sim.StepStats, 0, n)
	for range n {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, st)
	}
	return out
}

// position returns the world position of the named body.
func position(t testing.TB, s *sim.Simulator, name string) spatial.Vec3 {
	t.Helper()
	b := s.Model.BodyByName(name)
	if b < 0 {
		t.Fatalf("no body %q", name)
	}
	return s.Model.BodyPose(s.State, b).P
}
