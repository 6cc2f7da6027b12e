package island_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	_ "github.com/stiction-sim/stiction/solver/all"
	"github.com/stiction-sim/stiction/solver/internal/problems"
	"github.com/stiction-sim/stiction/solver/island"
)

// TestAnyRegisteredSolver: the island solver works with every registered
// solver made by name (solver.Maker): on a problem of several islands
// (the clutter step 20 capture) its velocities equal those of the same
// solver on the whole problem to 1e-6 relative, its merged status is
// Converged with SetTolerance (e_m of the whole problem ≤ εr), and two
// workers give the same bits as one.
func TestAnyRegisteredSolver(t *testing.T) {
	c, err := problems.Load("../internal/problems/testdata/clutter_step_20.gob")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sap", "pgs", "ipm"} {
		prm := solver.DefaultParams()
		prm.Tolerance, prm.MaxIterations = 1e-8, 100000
		mk, err := solver.Maker(name, prm)
		if err != nil {
			t.Fatal(err)
		}
		var mono, one, two solver.Result
		if err := mk().Solve(c.P, c.V0, &mono); err != nil {
			t.Fatal(err)
		}
		for w, res := range map[int]*solver.Result{1: &one, 2: &two} {
			is := island.New(mk, w)
			is.SetTolerance(prm.AbsTolerance, prm.Tolerance)
			if err := is.Solve(c.P, c.V0, res); err != nil {
				t.Fatal(err)
			}
			if w == 1 {
				t.Logf("%s: %d islands, merged %v, e_m %.1e (whole problem: %v, e_m %.1e)", name, is.Islands(), res.Stats.Status, res.Stats.MomentumError, mono.Stats.Status, mono.Stats.MomentumError)
			}
			is.Close()
		}
		d, n := 0.0, 0.0
		for i := range one.V {
			d, n = max(d, math.Abs(one.V[i]-mono.V[i])), max(n, math.Abs(mono.V[i]))
		}
		if d > 1e-6*n || one.Stats.Status != solver.Converged {
			t.Errorf("%s: islands %v, ‖Δv‖/‖v‖ = %.1e against the whole problem", name, one.Stats.Status, d/n)
		}
		for i := range one.V {
			if one.V[i] != two.V[i] {
				t.Errorf("%s: 2 workers differ from 1 at v[%d]", name, i)
				break
			}
		}
	}
}
