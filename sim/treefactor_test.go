package sim_test

import (
	"math"
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// treeFactorModels are branched robots with ground contact and joint
// limits (dm_control's humanoid: 27 velocities, a tree fill of 0.64;
// Gymnasium's humanoid, 23 and 0.67; dm_control's quadruped, 22 and 0.62).
var treeFactorModels = []string{
	"../internal/mjref/testdata/dm_control/suite/humanoid.xml",
	"../internal/mjref/testdata/gymnasium/humanoid.xml",
	"../internal/mjref/testdata/dm_control/suite/quadruped.xml",
}

// TestTreeFactorMatchesDense: the free-motion blocks of branched trees
// factored along the tree (solver.Clique.Parent, linalg.TreeLDL) give the
// trajectory of the dense Cholesky factor to round-off: over the first 20
// steps (the robots fall and land) q and v agree to 1e-9 of their scale,
// entry by entry; the two factors differ in the order of their operations
// only, so the trajectories are not bit-identical.
func TestTreeFactorMatchesDense(t *testing.T) {
	for _, f := range treeFactorModels {
		dense := treeFactorRun(t, f, false)
		tree := treeFactorRun(t, f, true)
		worst := 0.0
		for i := range dense {
			for k := range dense[i] {
				d := math.Abs(dense[i][k]-tree[i][k]) / (1 + math.Abs(dense[i][k]))
				worst = math.Max(worst, d)
			}
		}
		t.Logf("%s: largest relative difference of q, v over %d steps: %.3g", f, len(dense), worst)
		if worst > 1e-9 {
			t.Errorf("%s: tree factor differs from the dense one by %.3g", f, worst)
		}
	}
}

// treeFactorRun steps the model file 20 times with the tree factor on or
// off and returns (q, v) after every step.
func treeFactorRun(t *testing.T, file string, on bool) [][]float64 {
	t.Helper()
	defer sim.SetTreeFactor(on)()
	s, _, err := modelload.Scene(file, nil, modelload.Options{})
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
	var out [][]float64
	for i := range 20 {
		if _, err := sm.Step(); err != nil {
			t.Fatalf("%s: step %d: %v", file, i+1, err)
		}
		out = append(out, append(append([]float64(nil), sm.State.Q...), sm.State.V...))
	}
	return out
}
