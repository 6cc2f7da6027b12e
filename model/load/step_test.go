package load

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// runModel loads a model file (with --set overrides), builds it and steps
// it n times; it returns the simulator and the built scene.
func runModel(t *testing.T, rel string, n int, opts Options, sets ...string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	s, _, err := Scene(modelPath(t, rel), sets, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if st, err := sm.Step(); err != nil || st.Status != solver.Converged {
			t.Fatalf("step: %v %v", st.Status, err)
		}
	}
	return sm, b
}

// TestRobotStepsAllocateNothing: a warmed-up step of the imported robots —
// contact with mesh hulls, spheres and boxes, collision bits and excluded
// pairs, visuals — allocates nothing, as every other scene's.
func TestRobotStepsAllocateNothing(t *testing.T) {
	for _, c := range []struct {
		file   string
		ground bool
	}{{iiwaScene, false}, {iiwaPolyURD, true}, {handScene, false}} {
		s, _ := runModel(t, c.file, 100, Options{Ground: c.ground})
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step", c.file, allocs)
		}
	}
}

// TestRobotDeterminism: two runs of the Allegro scene (contact between the
// fingers, the floor and a free ellipsoid) end bit for bit in the same
// state.
func TestRobotDeterminism(t *testing.T) {
	_, a := runModel(t, handScene, 150, Options{})
	_, b := runModel(t, handScene, 150, Options{})
	for i := range a.State.Q {
		if math.Float64bits(a.State.Q[i]) != math.Float64bits(b.State.Q[i]) {
			t.Fatalf("q[%d] differs: %v vs %v", i, a.State.Q[i], b.State.Q[i])
		}
	}
	for i := range a.State.V {
		if math.Float64bits(a.State.V[i]) != math.Float64bits(b.State.V[i]) {
			t.Fatalf("v[%d] differs: %v vs %v", i, a.State.V[i], b.State.V[i])
		}
	}
}
