package sim_test

import (
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/sim"
)

// TestCodefootWaitingRowsFreeSolution: a direct step whose constraint
// rows wait (deferRows) takes freeSolution's v = v* in place of
// directSolution; a simulator that assembles every step's rows at once
// (SlowPaths: directSolution on the assembled rows) must give the same
// states, statistics and impulses, bit for bit, every step. The deferral
// must have happened (RowsWaiting), or the test proves nothing.
func TestCodefootWaitingRowsFreeSolution(t *testing.T) {
	acts := func(c *sim.Config) {
		c.Constraints = &constraint.Set{
			Limits: []constraint.Limit{{Name: "stop", Body: 0, Lower: -3, Upper: 3}},
			Actuators: []constraint.Actuator{
				{Name: "motor", Type: constraint.Motor, Body: 0, Gear: 2, Target: constraint.Constant(0.3)},
				{Name: "servo", Type: constraint.Position, Body: 1, Kp: 0.5, Kd: 0.1, Target: constraint.Constant(0.2), Explicit: true},
			},
		}
	}
	for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
		lazy, eager := doublePendulum(t, sc, mjH, acts), doublePendulum(t, sc, mjH, acts)
		sim.SlowPaths(eager)
		waited := 0
		for i := range 80 {
			if err := lazy.Advance(); err != nil {
				t.Fatal(err)
			}
			if err := eager.Advance(); err != nil {
				t.Fatal(err)
			}
			if sim.RowsWaiting(lazy) {
				waited++
			}
			if !sameBits(lazy.State.Q, eager.State.Q) || !sameBits(lazy.State.V, eager.State.V) {
				t.Fatalf("%s step %d: state %v %v, want %v %v", sc.Name, i+1, lazy.State.Q, lazy.State.V, eager.State.Q, eager.State.V)
			}
			if i%3 == 0 {
				if got, want := lazy.Stats(), eager.Stats(); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s step %d: stats\n%+v\nwant\n%+v", sc.Name, i+1, got, want)
				}
				if !sameBits(lazy.Impulses(), eager.Impulses()) {
					t.Fatalf("%s step %d: impulses %v, want %v", sc.Name, i+1, lazy.Impulses(), eager.Impulses())
				}
			}
		}
		if waited == 0 {
			t.Fatalf("%s: no step's rows waited", sc.Name)
		}
	}
}
