package mjref

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/sim"
)

// newtonRun steps path's model (MuJoCo's default solver, Newton) for steps
// steps with MuJoCo 2.2.2's Newton on MuJoCo's rows on (newton) or off
// (SAP to convergence), and returns the largest |Δqpos| against MuJoCo,
// the first step parting by more than 1e-9 (−1: none), and how many
// steps' Newton iteration counts equal MuJoCo's solver_iter.
func newtonRun(t *testing.T, path string, steps int, newton bool) (worst float64, first, sameIter int) {
	t.Helper()
	mj := run(t, path, Options{Steps: steps, Every: 1, KeepWarm: true})
	b, mp := mappedModel(t, path, mj)
	c := &b.Config.Contact
	c.Newton, c.CG, c.PGSIterations, c.PGSTolerance = false, false, 0, 0
	if newton {
		usePort(c, mj)
	}
	s := startedSim(t, b, mp, mj)
	q := make([]float64, mj.NQ)
	first = -1
	for k := 1; k <= steps && k < len(mj.Steps); k++ {
		st, err := s.Step()
		if err != nil {
			t.Fatalf("%s: step %d: %v", path, k, err)
		}
		if st.Iterations == mj.Steps[k].SolverIter {
			sameIter++
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			d := math.Abs(q[i] - mj.Steps[k].QPos[i])
			if math.IsNaN(d) {
				d = math.Inf(1)
			}
			if d > 1e-9 && first < 0 {
				first = k
			}
			worst = math.Max(worst, d)
		}
	}
	return worst, first, sameIter
}

// usePort sets c to solve MuJoCo's rows as MuJoCo's run mj does: the port
// of its Newton, or of its CG for solver="CG", at its iterations and
// tolerance.
func usePort(c *contact.Params, mj *Run) {
	c.Newton, c.CG, c.PGSIterations, c.PGSTolerance = true, mj.Solver == "cg", mj.Iterations, mj.Tolerance
}

// newtonBox is a 20 cm box of 1 kg, 1 mm into a plane and turned 10°
// about the vertical, pushed sideways by gravity on a slope of %g rad
// (creeping under friction 0.4 below atan 0.4, sliding above).
const newtonBox = `<mujoco><option gravity="%g 0 -9.81"/><worldbody>
  <geom type="plane" size="1 1 0.1" friction="0.4"/>
  <body pos="0 0 0.099" euler="0 0 10"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
</worldbody></mujoco>`

// newtonSphere is a ball of 1 kg, 1 mm into a plane, pushed sideways.
const newtonSphere = `<mujoco><option gravity="2 0 -9.81"/><worldbody>
  <geom type="plane" size="1 1 0.1" friction="0.4"/>
  <body pos="0 0 0.099"><freejoint/><geom type="sphere" size="0.1" mass="1"/></body>
</worldbody></mujoco>`

// newtonStack is three boxes stacked on a plane.
const newtonStack = `<mujoco><worldbody>
  <geom type="plane" size="1 1 0.1"/>
  <body pos="0 0 0.1"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
  <body pos="0.01 0 0.3" euler="0 0 5"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
  <body pos="0 0.01 0.5" euler="0 0 10"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
</worldbody></mujoco>`

// newtonPendulum is a damped pendulum falling onto its joint limit, with
// friction loss.
const newtonPendulum = `<mujoco><worldbody>
  <body><joint type="hinge" axis="0 1 0" range="-30 30" limited="true" damping="0.1" frictionloss="0.05"/>
  <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/></body>
</worldbody></mujoco>`

// TestNewtonMuJoCo compares Stiction with MuJoCo's Newton port on
// (Contact.Newton) and off with MuJoCo 2.2.2 over 300 steps, and logs
// max |Δqpos| and the steps whose Newton iteration counts equal MuJoCo's.
func TestNewtonMuJoCo(t *testing.T) {
	// check: the port must follow MuJoCo to 1e-11 with MuJoCo's iteration
	// count on at least 290 of the 300 steps; the others are logged (see
	// docs/MODELS.md: cylinder_box parts at step 2, stacked_boxes'
	// contacts differ from step 61).
	cases := []struct {
		name, path string
		check      bool
	}{
		{"box creeping", writeModel(t, fmt.Sprintf(newtonBox, 2.0)), true},
		{"box sliding", writeModel(t, fmt.Sprintf(newtonBox, 6.0)), true},
		{"sphere", writeModel(t, newtonSphere), true},
		{"3-box stack", writeModel(t, newtonStack), true},
		{"pendulum on its limit", writeModel(t, newtonPendulum), true},
		{"cylinder_box", "testdata/mujoco/test/engine/testdata/collision_convex/cylinder_box.xml", false},
		{"stacked_boxes", "testdata/mujoco/test/engine/testdata/collision_convex/stacked_boxes.xml", false},
		{"hopper", "testdata/dm_control/suite/hopper.xml", true},
		{"walker", "testdata/dm_control/suite/walker.xml", true},
		{"humanoid", "testdata/dm_control/suite/humanoid.xml", true},
	}
	const steps = 300
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, bf, _ := newtonRun(t, c.path, steps, false)
			after, af, same := newtonRun(t, c.path, steps, true)
			t.Logf("%s: max |Δqpos| over %d steps: SAP %.3g (parts > 1e-9 at step %d), Newton port %.3g (step %d); %d/%d steps with MuJoCo's iteration count",
				c.name, steps, before, bf, after, af, same, steps)
			if c.check && (!(after <= 1e-11) || same < 290) {
				t.Errorf("%s: Newton port %.3g from MuJoCo, %d/%d steps with its iteration count; want ≤ 1e-11 and ≥ 290", c.name, after, same, steps)
			}
		})
	}
}

// TestNewtonCheckpoint: under MuJoCo's Newton (whose answer depends on its
// warm start, which the checkpoint keeps) a run restored from a
// checkpoint taken in contact repeats the original bit for bit.
func TestNewtonCheckpoint(t *testing.T) {
	path := writeModel(t, newtonStack)
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &b.Config.Contact
	c.Newton, c.PGSIterations, c.PGSTolerance = true, 100, 1e-8
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	steps := func(n int) []float64 {
		for range n {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		return append(slices.Clone(s.State.Q), s.State.V...)
	}
	steps(50)
	cp := s.Checkpoint()
	want := steps(50)
	if err := s.Restore(cp); err != nil {
		t.Fatal(err)
	}
	if got := steps(50); !slices.Equal(got, want) {
		t.Errorf("restored run differs from the original: %v vs %v", got, want)
	}
}

// TestNewtonAllocatesNothing: a warmed-up step under MuJoCo's Newton port
// (dm_control's walker, with its contacts and limits; the 3-box stack;
// the elliptic cone's box creeping on its corners, condim 3 and, as the
// twist box, 4) and under its CG port (the 3-box stack) allocates nothing.
func TestNewtonAllocatesNothing(t *testing.T) {
	ell := strings.Replace(fmt.Sprintf(ellipticScene, "Euler", "0.002", "10", "1 0.5 -9.81", ellipticBox), ` tolerance="1e-13"`, "", 1)
	twist := strings.Replace(fmt.Sprintf(twistBox, "RK4", "0.002", "10"), ` tolerance="1e-13"`, "", 1)
	for _, c := range []struct {
		path string
		cg   bool
	}{
		{"testdata/dm_control/suite/walker.xml", false}, {writeModel(t, newtonStack), false},
		{writeModel(t, ell), false}, {writeModel(t, twist), false}, {writeModel(t, newtonStack), true},
	} {
		b, _, err := stiction(c.path)
		if err != nil {
			t.Fatal(err)
		}
		cfg := &b.Config.Contact
		cfg.Newton, cfg.CG, cfg.PGSIterations, cfg.PGSTolerance = true, c.cg, 100, 1e-8
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			if _, err := s.Step(); err != nil {
				t.Fatalf("%s: %v", c.path, err)
			}
		}
		if len(s.Contacts()) == 0 {
			t.Fatalf("%s: no contacts after 300 steps", c.path)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s (CG %v): %v allocations per warmed-up step", c.path, c.cg, allocs)
		}
	}
}
