package mjref

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// noslipScene is a body of 1 kg resting 1 mm into a plane (μ = 0.4) under
// gravity tilted by a horizontal component gx along x, with MuJoCo's
// pyramidal cone (the default) and <option noslip_iterations="%d"
// solver integrator timestep>. With gx = 1 m/s² the tangential load is
// below μ m g (3.9 N): the soft contact lets the body creep, noslip stops
// it; with gx = 6 m/s² it slides. %s is the body's geom.
const noslipScene = `<mujoco><option noslip_iterations="%d" solver="%s" integrator="%s" timestep="%g" gravity="%g 0 -9.81"/><worldbody>
  <geom type="plane" size="2 2 0.1" friction="0.4"/>
  <body pos="0 0 0.099"><freejoint/>%s</body>
</worldbody></mujoco>`

// noslipBodies are the bodies of the noslip scenes: a box on its four
// corners (MuJoCo's 16 pyramid edges) turned 10° about the vertical, and a
// sphere.
var noslipBodies = []struct{ name, geom string }{
	{"box", `<geom type="box" size="0.1 0.1 0.1" mass="1" euler="0 0 10"/>`},
	{"sphere", `<geom type="sphere" size="0.1" mass="1"/>`},
}

// noslipTrajectories compares Stiction with MuJoCo 2.2.2 over steps steps
// from the model's initial state and from the perturbed state
// (perturbedState, sliding and spinning), and returns the largest
// |Δqpos| of each and MuJoCo's root x displacement from the initial
// state.
func noslipTrajectories(t *testing.T, path string, steps int) (initial, perturbed, creep float64) {
	t.Helper()
	exe := tool(t)
	mj, err := Exec(exe, path, Options{Steps: steps, Every: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, mp := mappedModel(t, path, mj)
	if initial, _, err = compareTrajectory(path, mj, nil, mp, steps); err != nil {
		t.Fatal(err)
	}
	q, v := perturbedState(mj)
	pr, err := Exec(exe, path, Options{Steps: steps, Every: 1, QPos: q, QVel: v})
	if err != nil {
		t.Fatal(err)
	}
	if perturbed, _, err = compareTrajectory(path, pr, pr, mp, steps); err != nil {
		t.Fatal(err)
	}
	last := mj.Steps[len(mj.Steps)-1]
	return initial, perturbed, last.QPos[0] - mj.QInit[0]
}

// TestNoSlipMuJoCo: with noslip_iterations 2 (multiple_objects.xml's) and
// 10, a box and a sphere creeping (tangential load below μ m g) and
// sliding on a plane follow MuJoCo 2.2.2 over 300 steps with Euler at 2
// and 10 ms and with RK4 and implicit at 2 ms, after Newton (Stiction's
// converged solve) and after PGS (3 sweeps: the warm start is the main
// solver's acceleration, before noslip), from the initial and the
// perturbed state (TestNoSlipStopsCreep checks that the creeping box
// tests what noslip is for).
func TestNoSlipMuJoCo(t *testing.T) {
	type run struct {
		solver, integ string
		dt            float64
	}
	runs := []run{{"Newton", "Euler", 0.002}, {"Newton", "Euler", 0.01}, {"Newton", "RK4", 0.002}, {"Newton", "implicit", 0.002}, {"PGS", "Euler", 0.002}, {"PGS", "RK4", 0.002}, {"PGS", "implicit", 0.002}}
	for _, body := range noslipBodies {
		for _, gx := range []float64{1, 6} {
			for _, r := range runs {
				for _, it := range []int{2, 10} {
					name := fmt.Sprintf("%s gx=%g %s %s dt=%g noslip=%d", body.name, gx, r.solver, r.integ, r.dt, it)
					solver := r.solver
					if solver == "PGS" {
						solver = `PGS" iterations="3`
					}
					path := writeModel(t, fmt.Sprintf(noslipScene, it, solver, r.integ, r.dt, gx, body.geom))
					ini, pert, creep := noslipTrajectories(t, path, 300)
					t.Logf("%s: max |Δqpos| over 300 steps %.3g (initial), %.3g (perturbed); MuJoCo's x drift %.3g m", name, ini, pert, creep)
					if !(ini <= 1e-9) || !(pert <= 1e-9) {
						t.Errorf("%s: max |Δqpos| %.3g / %.3g, want ≤ 1e-9", name, ini, pert)
					}
				}
			}
		}
	}
}

// TestNoSlipStopsCreep: MuJoCo 2.2.2's box under a tangential load of a
// quarter of μ m g creeps with the soft contact alone, and noslip stops
// most of it; Stiction's box does the same (its creep equals MuJoCo's to
// 1e-9 m with and without noslip).
func TestNoSlipStopsCreep(t *testing.T) {
	creep := func(it int) (mj, st float64) {
		path := writeModel(t, fmt.Sprintf(noslipScene, it, "Newton", "Euler", 0.002, 1.0, noslipBodies[0].geom))
		exe := tool(t)
		ref, err := Exec(exe, path, Options{Steps: 300, Every: 1})
		if err != nil {
			t.Fatal(err)
		}
		_, mp := mappedModel(t, path, ref)
		d, _, err := compareTrajectory(path, ref, nil, mp, 300)
		if err != nil {
			t.Fatal(err)
		}
		mj = ref.Steps[len(ref.Steps)-1].QPos[0] - ref.QInit[0]
		return mj, d
	}
	soft, dSoft := creep(0)
	hard, dHard := creep(2)
	t.Logf("box x drift over 300 steps of 2 ms: %.3g m without noslip, %.3g m with noslip_iterations 2 (Stiction's qpos to %.3g / %.3g)", soft, hard, dSoft, dHard)
	if !(math.Abs(hard) < 0.1*math.Abs(soft)) {
		t.Errorf("noslip drift %.3g m, want below a tenth of the soft contact's %.3g m", hard, soft)
	}
	if !(dSoft <= 1e-9) || !(dHard <= 1e-9) {
		t.Errorf("Stiction's qpos differs from MuJoCo's by %.3g / %.3g, want ≤ 1e-9", dSoft, dHard)
	}
}

// TestNoSlipCheckpointAllocs: with noslip after PGS (whose warm start is
// state) under Euler and RK4, a restored checkpoint replays the creeping
// box bit for bit, and a warmed-up step allocates nothing.
func TestNoSlipCheckpointAllocs(t *testing.T) {
	for _, integ := range []string{"Euler", "RK4"} {
		path := writeModel(t, fmt.Sprintf(noslipScene, 2, `PGS" iterations="3`, integ, 0.002, 1.0, noslipBodies[0].geom))
		b, _, err := stiction(path)
		if err != nil {
			t.Fatal(err)
		}
		if b.Config.Contact.NoSlipIterations != 2 {
			t.Fatalf("%s: contact.Params.NoSlipIterations %d, want 2", integ, b.Config.Contact.NoSlipIterations)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		steps := func(n int) []float64 { return stepQ(t, s, n) }
		steps(50)
		c := s.Checkpoint()
		want := steps(50)
		if err := s.Restore(c); err != nil {
			t.Fatal(err)
		}
		if got := steps(50); !slices.Equal(got, want) {
			t.Errorf("%s: restored run differs from the original", integ)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warmed-up step", integ, allocs)
		}
	}
}

// noslipHold is a horizontal rod of 1 kg on a hinge whose friction loss
// (3 N m) exceeds gravity's torque (1.47 N m): MuJoCo's soft friction loss
// row lets it sag, noslip (noslip_iterations="%d") holds it; solver %s,
// integrator %s, no contact.
const noslipHold = `<mujoco><option noslip_iterations="%d" solver="%s" integrator="%s" timestep="0.002"/><worldbody>
  <body><joint name="a" type="hinge" axis="0 1 0" frictionloss="3"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/></body>
</worldbody></mujoco>`

// TestNoSlipFrictionLossMuJoCo: noslip's friction loss rows in a step
// without contacts, after Newton and after PGS, with Euler and RK4: the rod
// follows MuJoCo 2.2.2 over 300 steps, and MuJoCo's sag with noslip is
// below a thousandth of the sag without it.
func TestNoSlipFrictionLossMuJoCo(t *testing.T) {
	for _, sol := range []string{"Newton", `PGS" iterations="3`} {
		for _, integ := range []string{"Euler", "RK4"} {
			sag := [2]float64{}
			for k, it := range []int{0, 2} {
				path := writeModel(t, fmt.Sprintf(noslipHold, it, sol, integ))
				ini, pert, drift := noslipTrajectories(t, path, 300)
				sag[k] = math.Abs(drift)
				t.Logf("%s, %s, noslip %d: max |Δqpos| over 300 steps %.3g / %.3g; MuJoCo's sag %.3g rad", solverName(sol), integ, it, ini, pert, drift)
				if !(ini <= 1e-12) || !(pert <= 1e-12) {
					t.Errorf("%s, %s, noslip %d: max |Δqpos| %.3g / %.3g, want ≤ 1e-12", solverName(sol), integ, it, ini, pert)
				}
			}
			if !(sag[1] < 1e-3*sag[0]) {
				t.Errorf("%s, %s: MuJoCo's sag %.3g with noslip, %.3g without: the scene does not test noslip", solverName(sol), integ, sag[1], sag[0])
			}
		}
	}
}

// TestNoSlipCondimMuJoCo: a creeping box with condim 4 and 6 (torsional and
// rolling friction: MuJoCo's 6 and 10 pyramid edges per corner, the
// contact's spin and rolling blocks absorbed into them) follows MuJoCo
// 2.2.2 over 300 steps with noslip after Newton and after PGS (3 sweeps),
// and with PGS alone. PGS's row order once took an absorbed block for a
// limit row (0.29 off MuJoCo).
func TestNoSlipCondimMuJoCo(t *testing.T) {
	for _, cd := range []int{4, 6} {
		for _, c := range []struct {
			solver string
			it     int
		}{{"Newton", 2}, {`PGS" iterations="3`, 0}, {`PGS" iterations="3`, 2}} {
			g := fmt.Sprintf(`<geom type="box" size="0.1 0.1 0.1" mass="1" euler="0 0 10" condim="%d" friction="0.4 0.01 0.001"/>`, cd)
			path := writeModel(t, fmt.Sprintf(noslipScene, c.it, c.solver, "Euler", 0.002, 1.0, g))
			ini, pert, _ := noslipTrajectories(t, path, 300)
			name := fmt.Sprintf("condim %d, %s, noslip %d", cd, solverName(c.solver), c.it)
			t.Logf("%s: max |Δqpos| over 300 steps %.3g / %.3g", name, ini, pert)
			if !(ini <= 1e-12) || !(pert <= 1e-12) {
				t.Errorf("%s: max |Δqpos| %.3g / %.3g, want ≤ 1e-12", name, ini, pert)
			}
		}
	}
}

// solverName is the solver of an option value such as `PGS" iterations="3`.
func solverName(s string) string {
	name, _, _ := strings.Cut(s, `"`)
	return name
}

// stepQ takes n steps of s and returns a copy of its configuration.
func stepQ(t *testing.T, s *sim.Simulator, n int) []float64 {
	t.Helper()
	for range n {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return slices.Clone(s.State.Q)
}
