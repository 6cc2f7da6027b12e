package mjref

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/sim"
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

// pgsBox is a 20 cm box of 1 kg on a free joint, 1 mm into a plane at
// t = 0 and turned 10° about the vertical, so that it rests on four
// corners (MuJoCo's four rows per corner: 16 pyramid edges), with PGS
// stopped after %d sweeps and the integrator %s.
const pgsBox = `<mujoco><option solver="PGS" iterations="%d" integrator="%s" timestep="0.002"/><worldbody>
  <geom type="plane" size="1 1 0.1" friction="0.4"/>
  <body pos="0 0 0.099" euler="0 0 10"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
</worldbody></mujoco>`

// TestPGSBallBoxMuJoCo: a ball and a box in contact from t = 0 with PGS
// stopped after 3 sweeps (unconverged: the answer depends on the warm
// start, the row order and every sweep) follow MuJoCo 2.2.2 step by step,
// with Euler and RK4, from their initial state and from the perturbed one
// (sliding and spinning).
func TestPGSBallBoxMuJoCo(t *testing.T) {
	for _, model := range []struct{ name, xml string }{{"ball", pgsBall}, {"box", pgsBox}} {
		for _, integ := range []string{"Euler", "RK4"} {
			path := writeModel(t, fmt.Sprintf(model.xml, 3, integ))
			ini, pert := pgsTrajectories(t, path, 100)
			t.Logf("%s, %s: max |Δqpos| over 100 steps: %.3g from the initial state, %.3g from the perturbed one", model.name, integ, ini, pert)
			if !(ini <= 1e-12) || !(pert <= 1e-12) {
				t.Errorf("%s, %s: max |Δqpos| %.3g / %.3g, want ≤ 1e-12", model.name, integ, ini, pert)
			}
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
		{"gymnasium/humanoidstandup.xml", 100, 1e-12},
		{"gymnasium/humanoid.xml", 141, 1e-12},
	} {
		ini, pert := pgsTrajectories(t, filepath.Join("testdata", c.file), c.steps)
		t.Logf("%s: max |Δqpos| over %d steps: %.3g from the initial state, %.3g from the perturbed one", c.file, c.steps, ini, pert)
		if !(ini <= c.level) || !(pert <= c.level) {
			t.Errorf("%s: max |Δqpos| %.3g / %.3g, want ≤ %g", c.file, ini, pert, c.level)
		}
	}
}

// TestPGSCheckpoint: PGS's warm start (MuJoCo's qacc_warmstart) is state:
// a restored checkpoint replays Gymnasium's humanoidstandup bit for bit,
// and the same checkpoint without its warm start does not (PGS stops
// after 50 sweeps, unconverged, so its answer depends on where it
// starts).
func TestPGSCheckpoint(t *testing.T) {
	b, _, err := stiction(filepath.Join("testdata", "gymnasium/humanoidstandup.xml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	steps := func(n int) []float64 { return stepQ(t, s, n) }
	steps(20)
	c := s.Checkpoint()
	if len(c.QAccWarm) != b.Model.NV {
		t.Fatalf("checkpoint holds %d warm-start accelerations, want %d", len(c.QAccWarm), b.Model.NV)
	}
	want := steps(20)
	if err := s.Restore(c); err != nil {
		t.Fatal(err)
	}
	if got := steps(20); !slices.Equal(got, want) {
		t.Errorf("restored run differs from the original")
	}
	c.QAccWarm = nil
	if err := s.Restore(c); err != nil {
		t.Fatal(err)
	}
	if got := steps(20); slices.Equal(got, want) {
		t.Errorf("the run without the warm start is the same: the warm start is not used")
	}
}

// pgsJoints is a chain of three hinges with no contact: the first with
// friction loss, the second with a range it swings past, the third coupled
// to the second by a joint equality, with PGS stopped after %d sweeps and
// the integrator %s: every row kind of MuJoCo's PGS but contacts.
const pgsJoints = `<mujoco><option solver="PGS" iterations="%d" integrator="%s" timestep="0.002"/><worldbody>
  <body><joint name="a" type="hinge" axis="0 1 0" frictionloss="0.3"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/>
    <body pos="0.3 0 0"><joint name="b" type="hinge" axis="0 1 0" range="-20 20" limited="true"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/>
      <body pos="0.3 0 0"><joint name="c" type="hinge" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/></body>
    </body>
  </body>
</worldbody><equality><joint joint1="c" joint2="b" polycoef="0 0.5 0 0 0"/></equality></mujoco>`

// TestPGSJointRowsMuJoCo: friction loss, a limit and a joint equality,
// solved by PGS for 3 sweeps, follow MuJoCo 2.2.2 with Euler and RK4.
func TestPGSJointRowsMuJoCo(t *testing.T) {
	for _, integ := range []string{"Euler", "RK4"} {
		path := writeModel(t, fmt.Sprintf(pgsJoints, 3, integ))
		ini, pert := pgsTrajectories(t, path, 100)
		t.Logf("%s: max |Δqpos| over 100 steps: %.3g from the initial state, %.3g from the perturbed one", integ, ini, pert)
		if !(ini <= 1e-12) || !(pert <= 1e-12) {
			t.Errorf("%s: max |Δqpos| %.3g / %.3g, want ≤ 1e-12", integ, ini, pert)
		}
	}
}
