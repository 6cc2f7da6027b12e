package pgs

import (
	"fmt"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
	"github.com/stiction-sim/stiction/solver/ipm"
	"github.com/stiction-sim/stiction/solver/sap"
)

// clutterSteps are the captured clutter steps (solver/internal/problems,
// TestCaptureClutter).
var clutterSteps = []int{20, 35, 60}

func loadClutter(t testing.TB, step int) *problems.Captured {
	t.Helper()
	c, err := problems.Load(fmt.Sprintf("../internal/problems/testdata/clutter_step_%d.gob", step))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestClutterSolversAgree: on contact problems of the clutter scene (SAP's
// contact model, near-rigid R of eq. 29–30, as simulated), SAP
// (εr = 1e-10), the interior-point solver and PGS with the same R
// (εr = 1e-8, SAP's criterion eq. 26) converge to the same velocities, to
// 1e-6 relative (‖Δv‖∞/‖v‖∞), each from the simulator's warm start.
func TestClutterSolversAgree(t *testing.T) {
	prm := sap.DefaultParams()
	prm.RelTolerance = 1e-10
	for _, step := range clutterSteps {
		c := loadClutter(t, step)
		g := NewGlobal()
		g.Settings.RelTolerance, g.Settings.MaxIterations = 1e-8, 100000
		res := map[string]*solver.Result{}
		for _, s := range []struct {
			name string
			sv   solver.Solver
		}{{"sap", sap.New(prm)}, {"ipm", ipm.New()}, {"pgs", g}} {
			r := &solver.Result{}
			start := time.Now()
			if err := s.sv.Solve(c.P, c.V0, r); err != nil {
				t.Fatalf("step %d, %s: %v", step, s.name, err)
			}
			t.Logf("clutter step %d (%d contacts): %s %v after %d iterations in %v, e_m %.1e",
				step, len(c.P.Constraints), s.name, r.Stats.Status, r.Stats.Iterations, time.Since(start), r.Stats.MomentumError)
			if r.Stats.Status != solver.Converged {
				t.Errorf("step %d, %s: %v after %d iterations", step, s.name, r.Stats.Status, r.Stats.Iterations)
			}
			res[s.name] = r
		}
		for _, other := range []string{"ipm", "pgs"} {
			if d := relDiff(res[other].V, res["sap"].V); d > 1e-6 {
				t.Errorf("step %d: %s's velocities differ from SAP's by %.1e relative", step, other, d)
			}
		}
	}
}
