package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
)

// TestStepAllocatesNothingLarge: 0 allocations per warmed-up step at large
// N too: clutter-160 (the peer scene, default settings: the island solver on one worker) and
// ClutterN(640, no walls) with the island solver, each after 100 warm-up
// steps, over the next 30 steps. The symbolic analyses of new contact
// graphs keep happening there (the cache holds 16 patterns); they run in
// a workspace the cache shares and in storage grown to the largest
// analysis seen (linalg.Cache), so they stop allocating once the largest
// pattern has been met. Before, 313 of 900 such steps allocated at 640.
func TestStepAllocatesNothingLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("260 steps of 160 and 640 bodies")
	}
	big, err := scene.LoadClutterN(640, false, []string{"duration=1000"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		make func() (*sim.Simulator, *scene.Built)
	}{
		{"clutter-160", func() (*sim.Simulator, *scene.Built) { return loadPeer(t, "clutter-160", "duration=1000") }},
		{"clutter-n640-islands", func() (*sim.Simulator, *scene.Built) { return withSolver(t, big, islands(sap.AutoLinear, 1)) }},
	} {
		s, b := c.make()
		runSteps(t, s, 100)
		allocs := testing.AllocsPerRun(30, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if is, ok := b.Config.Solver.(*island.Solver); ok {
			is.Close()
		}
		t.Logf("%s: %v allocations per step (%d contacts)", c.name, allocs, len(s.Contacts()))
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step, want 0", c.name, allocs)
		}
	}
}
