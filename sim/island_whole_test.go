package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
)

// TestIslandSolverOneIslandSameBits: on the peer scenes whose contacts form
// a single island at every step (the 10 perturbed cubes touch each other,
// the 100 spheres stand in one stack), the island solver (one worker)
// solves each step's problem whole with its inner solver, so its run is
// the whole-problem solve's (no islands) bit for bit, every step's state
// and e_m.
func TestIslandSolverOneIslandSameBits(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps int
	}{{"boxes-10-perturbed", 500}, {"stack-100-spheres", 150}} {
		mono, _ := newWholeSim(t, loadPeerScene(t, c.name))
		isl, bl := withSolver(t, loadPeerScene(t, c.name), islands(sap.AutoLinear, 1))
		is := bl.Config.Solver.(*island.Solver)
		for k := range c.steps {
			a, err := mono.Step()
			if err != nil {
				t.Fatal(err)
			}
			b, err := isl.Step()
			if err != nil {
				t.Fatal(err)
			}
			if a.Contacts > 0 && is.Islands() != 1 {
				t.Fatalf("%s step %d: %d islands, want 1", c.name, k+1, is.Islands())
			}
			if math.Float64bits(a.MomentumError) != math.Float64bits(b.MomentumError) || a.Iterations != b.Iterations {
				t.Fatalf("%s step %d: e_m %g in %d iterations, island solver %g in %d", c.name, k+1, a.MomentumError, a.Iterations, b.MomentumError, b.Iterations)
			}
			if !sameState(mono, isl) {
				t.Fatalf("%s step %d: the island solver's state differs from the default solve's", c.name, k+1)
			}
		}
		is.Close()
	}
}
