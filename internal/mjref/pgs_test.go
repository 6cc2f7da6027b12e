package mjref

import (
	"fmt"
	"path/filepath"
	"testing"
)

// pgsBall is a 10 cm ball of 1 kg on a free joint, 1 mm into a plane at
// t = 0, with MuJoCo's PGS stopped after %d sweeps (far from converged)
// and the integrator %s; from the perturbed state (perturbedState) it
// spins and slides.
const pgsBall = `<mujoco><option solver="PGS" iterations="%d" integrator="%s" timestep="0.002"/><worldbody>
  <geom type="plane" size="1 1 0.1" friction="0.4"/>
  <body pos="0 0 0.099"><freejoint/><geom type="sphere" size="0.1" mass="1"/></body>
</worldbody></mujoco>`

// pgsTrajectories compares Stiction with MuJoCo 2.2.2 over steps steps
// from the model's initial state and from the parity table's perturbed
// state (perturbedState), and returns the largest |Δqpos| of each.
func pgsTrajectories(t *testing.T, path string, steps int) (initial, perturbed float64) {
	t.Helper()
	exe := tool(t)
	mj, err := Exec(exe, path, Options{Steps: steps, Every: 1})
	if err != nil {
		t.Fatal(err)
	}
	if mj.Solver != "pgs" {
		t.Fatalf("%s: MuJoCo's solver is %q, want pgs", path, mj.Solver)
	}
	_, mp := mappedModel(t, path, mj)
	initial, _, err = compareTrajectory(path, mj, nil, mp, steps)
	if err != nil {
		t.Fatal(err)
	}
	q, v := perturbedState(mj)
	pr, err := Exec(exe, path, Options{Steps: steps, Every: 1, QPos: q, QVel: v})
	if err != nil {
		t.Fatal(err)
	}
	perturbed, _, err = compareTrajectory(path, pr, pr, mp, steps)
	if err != nil {
		t.Fatal(err)
	}
	return initial, perturbed
}

// TestPGSBallMuJoCo: a ball in contact from t = 0 with PGS stopped after
// 3 sweeps (unconverged: the answer depends on the warm start, the row
// order and every sweep) follows MuJoCo 2.2.2 step by step, with Euler and
// RK4.
func TestPGSBallMuJoCo(t *testing.T) {
	for _, integ := range []string{"Euler", "RK4"} {
		path := writeModel(t, fmt.Sprintf(pgsBall, 3, integ))
		ini, pert := pgsTrajectories(t, path, 100)
		t.Logf("%s: max |Δqpos| over 100 steps: %.3g from the initial state, %.3g from the perturbed one", integ, ini, pert)
		if !(ini <= 1e-12) || !(pert <= 1e-12) {
			t.Errorf("%s: max |Δqpos| %.3g / %.3g, want ≤ 1e-12", integ, ini, pert)
		}
	}
}

// TestPGSGymnasiumHumanoids: Gymnasium's humanoids ask for PGS with 50
// iterations and RK4; Stiction follows MuJoCo 2.2.2 through their contacts.
func TestPGSGymnasiumHumanoids(t *testing.T) {
	for _, c := range []struct {
		file  string
		steps int
		level float64
	}{
		{"gymnasium/humanoidstandup.xml", 100, 1e-9},
		{"gymnasium/humanoid.xml", 141, 1e-9},
	} {
		ini, pert := pgsTrajectories(t, filepath.Join("testdata", c.file), c.steps)
		t.Logf("%s: max |Δqpos| over %d steps: %.3g from the initial state, %.3g from the perturbed one", c.file, c.steps, ini, pert)
		if !(ini <= c.level) || !(pert <= c.level) {
			t.Errorf("%s: max |Δqpos| %.3g / %.3g, want ≤ %g", c.file, ini, pert, c.level)
		}
	}
}
