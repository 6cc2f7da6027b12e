package mjref

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// rk4SphereDrop is a 10 cm sphere on a free joint dropped from 15 cm
// (5 cm above the plane) with MuJoCo's RK4.
const rk4SphereDrop = `<mujoco><option integrator="RK4" timestep="0.002"/><worldbody>
  <geom type="plane" size="1 1 0.1"/>
  <body pos="0 0 0.15"><freejoint/><geom type="sphere" size="0.1" mass="1"/></body>
</worldbody></mujoco>`

// rk4CapsuleDrop is a capsule on a free joint dropped tilted and spinning.
const rk4CapsuleDrop = `<mujoco><option integrator="RK4" timestep="0.002"/><worldbody>
  <geom type="plane" size="1 1 0.1"/>
  <body pos="0 0 0.1" euler="0 20 0"><freejoint/><geom type="capsule" size="0.03" fromto="-0.1 0 0 0.1 0 0" mass="0.5"/></body>
</worldbody></mujoco>`

// afterContact runs path for steps steps in MuJoCo 2.2.2 (with the
// integrator of scheme sc: mujocoIntegrator) and in Stiction with scheme
// sc, and returns the largest qpos difference over the steps from
// MuJoCo's first contact on, the step of that contact, and Stiction's
// steps that fell back to mujoco-euler.
func afterContact(t *testing.T, path string, sc sim.Scheme, steps int) (worst float64, first, fallbacks int) {
	t.Helper()
	mj := run(t, path, Options{Steps: steps, Every: 1, Integrator: mujocoIntegrator(sc)})
	b, mp := mappedModel(t, path, mj)
	b.Config.Scheme = sc
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	first = -1
	q := make([]float64, mj.NQ)
	for k := 1; k <= steps; k++ {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.RK4Fallback {
			fallbacks++
		}
		if first < 0 && mj.Steps[k].NCon > 0 {
			first = k
		}
		if first < 0 {
			continue
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
		}
	}
	return worst, first, fallbacks
}

// TestRK4ContactStagesMuJoCo: scheme rk4 collides and solves its contacts
// at each of its four stages, as MuJoCo's mj_RungeKutta does, with MuJoCo's
// contact rows for MJCF's soft material (sim's rk4ContactVStar) and
// MuJoCo's default pyramidal friction cone (sim's solvePyramid), and
// follows MuJoCo 2.2.2's RK4 after the first contact: a sphere dropped on
// a plane to 1e-9 (0 over the 150 steps after the touch with K and B
// from the pair's solref, 6.7e-13 with B recovered from the slip time
// (1 + μ²)/B, a round-off; 1.7e-3 in the first step and
// 6.4e-3 over 150 when those steps were mujoco-euler steps), a capsule dropped tilted to round-off
// over 150 steps (2.6e-16; 5.9e-4 with the Lagged disk for MuJoCo's
// pyramid, 2.6e-2 with mujoco-euler steps), and the first step in contact
// of Gymnasium's walker2d and ant (1.5e-17 and 2.2e-16; 9.1e-5 and 7.4e-4
// with the disk, 6.6e-3 and 7.7e-3 with mujoco-euler steps), and
// Gymnasium's humanoid over 100 steps from its first contact when both
// engines solve to tolerance 1e-13 with Newton (4.0e-15; the file's PGS
// with 50 iterations leaves MuJoCo 1.4e-8 from ours in the first step in
// contact). Levels as measured, rounded up to 1e-12 for the solvers'
// tolerances.
func TestRK4ContactStagesMuJoCo(t *testing.T) {
	for _, c := range []struct {
		name, path string
		after      int     // steps compared from MuJoCo's first contact on
		level      float64 // max |Δqpos| allowed over them
	}{
		{"sphere", writeModel(t, rk4SphereDrop), 150, 1e-9},
		{"capsule", writeModel(t, rk4CapsuleDrop), 150, 1e-12},
		{"Gymnasium walker2d", filepath.Join("testdata", "gymnasium/walker2d.xml"), 1, 1e-12},
		{"Gymnasium ant", filepath.Join("testdata", "gymnasium/ant.xml"), 1, 1e-12},
		{"Gymnasium humanoid, Newton", writeModel(t, replaceOnce(t, readModel(t, "gymnasium/humanoid.xml"), `iterations="50" solver="PGS"`, `iterations="100" solver="Newton" tolerance="1e-13"`, 1)), 100, 1e-12},
	} {
		first := firstContact(t, c.path, sim.RK4)
		worst, _, fb := afterContact(t, c.path, sim.RK4, first+c.after-1)
		t.Logf("%s: first contact at step %d; max |Δqpos| over the %d steps from it %.3g (%d mujoco-euler fallbacks)", c.name, first, c.after, worst, fb)
		if fb > 0 || worst > c.level {
			t.Errorf("%s: max |Δqpos| %.3g over %d steps from the first contact, %d fallbacks (want ≤ %g, 0)", c.name, worst, c.after, fb, c.level)
		}
	}
}

// mujocoIntegrator returns MuJoCo's integrator of scheme sc: "rk4" for
// rk4, "implicit" for mujoco-implicit, else "euler".
func mujocoIntegrator(sc sim.Scheme) string {
	switch sc.Method {
	case sim.RungeKutta4:
		return "rk4"
	case sim.MuJoCoImplicitRule:
		return "implicit"
	}
	return "euler"
}

// firstContact returns the first step after which MuJoCo 2.2.2 (with the
// integrator of scheme sc) has a contact in the model at path.
func firstContact(t *testing.T, path string, sc sim.Scheme) int {
	t.Helper()
	mj := run(t, path, Options{Steps: 300, Every: 1, Integrator: mujocoIntegrator(sc)})
	for k, st := range mj.Steps {
		if k > 0 && st.NCon > 0 {
			return k
		}
	}
	t.Fatalf("%s: no contact in 300 steps", path)
	return 0
}

// TestRK4ContactStagesMuJoCoAllocateNothing: Gymnasium's ant and hopper
// (rk4), warmed up in contact (300 steps), allocate nothing in a step that
// collides and solves MuJoCo's contact rows at its stages, and neither do
// dm_control's hopper and quadruped (mujoco-euler, damped joints: MuJoCo's
// rows and pyramid in the step's own problem, impulses found with M).
func TestRK4ContactStagesMuJoCoAllocateNothing(t *testing.T) {
	for _, file := range []string{"gymnasium/ant.xml", "gymnasium/hopper.xml", "dm_control/suite/hopper.xml", "dm_control/suite/quadruped.xml"} {
		b, _, err := stiction(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			st, err := s.Step()
			if err != nil || st.RK4Fallback || st.Contacts == 0 {
				t.Fatalf("%s: step: %v, fallback %v, %d contacts", file, err, st.RK4Fallback, st.Contacts)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warmed-up step in contact", file, allocs)
		}
	}
}
