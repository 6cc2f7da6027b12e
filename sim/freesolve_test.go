package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// TestFreeSolutionMatchesSolver: a step whose problem has no rows takes
// v = v* without the solver, and reports e_m = 0 with no iteration. The
// clutter scene's bodies fall freely before their first contact; those
// steps, taken with and without the solver, give states that agree to
// round-off (the solver reaches v* from the warm start by a Newton step,
// A⁻¹A (v0 − v*) in floating point).
func TestFreeSolutionMatchesSolver(t *testing.T) {
	restore := sim.SetFreeSolutions(false)
	withSolver, _ := load(t, "clutter", "duration=2")
	restore()
	free, _ := load(t, "clutter", "duration=2")
	steps := 0
	for steps < 200 {
		a, err := withSolver.Step()
		if err != nil {
			t.Fatal(err)
		}
		b, err := free.Step()
		if err != nil {
			t.Fatal(err)
		}
		if a.Contacts > 0 || b.Contacts > 0 || a.Constraints > 0 {
			break
		}
		steps++
		if b.MomentumError != 0 || b.Iterations != 0 || b.Status != solver.Converged {
			t.Fatalf("step %d without rows: e_m %g, %d iterations, status %v; want 0, 0, converged", b.Step, b.MomentumError, b.Iterations, b.Status)
		}
		for _, xs := range [][2][]float64{{withSolver.State.Q, free.State.Q}, {withSolver.State.V, free.State.V}} {
			scale := 1.0
			for _, x := range xs[0] {
				scale = max(scale, math.Abs(x))
			}
			for i := range xs[0] {
				if d := math.Abs(xs[0][i] - xs[1][i]); d > 1e-13*scale {
					t.Fatalf("step %d: entry %d is %v with the solver and %v without (|Δ| %.3g > 1e-13 × %g)", b.Step, i, xs[0][i], xs[1][i], d, scale)
				}
			}
		}
	}
	if steps < 5 {
		t.Fatalf("only %d steps before the first contact; the test needs free flight", steps)
	}
	t.Logf("%d steps of free flight agree", steps)
}
