package mjref

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// marginHinge is a pendulum on a hinge whose upper bound (40°) has a
// margin of 0.15 rad: MuJoCo 2.2.2 makes its limit row when the distance
// to the bound is below the margin, and measures the row from the margin
// (mj_instantiateLimit, aref = −B v − K d (dist − margin)). INTEGRATOR is
// replaced by Euler or RK4, MARGIN by the margin.
const marginHinge = `<mujoco><compiler angle="degree"/>
  <option timestep="0.002" integrator="INTEGRATOR" gravity="0 0 -9.81"/>
  <worldbody><body name="arm" pos="0 0 1">
    <joint name="h" type="hinge" axis="0 1 0" range="-30 40" limited="true" margin="MARGIN" damping="0.02"/>
    <geom type="capsule" size="0.02" fromto="0 0 0 0.3 0 0" mass="0.5"/>
  </body></worldbody>
</mujoco>`

// TestJointMarginMatchesMuJoCo: the hinge, started at 0 turning towards its
// upper bound at 4 rad/s, follows MuJoCo 2.2.2 to 1e-9 over 300 steps under
// mujoco-euler and rk4, through MuJoCo's limit rows that act while it is
// within the margin of the bound. With the margin ignored it parts from
// MuJoCo by more than 1e-3 rad, so the comparison sees it.
func TestJointMarginMatchesMuJoCo(t *testing.T) {
	const steps = 300
	for _, integ := range []string{"Euler", "RK4"} {
		t.Run(integ, func(t *testing.T) {
			xml := strings.NewReplacer("INTEGRATOR", integ, "MARGIN", "0.15").Replace(marginHinge)
			path := writeModel(t, xml)
			mj, mp, worst, first := compareFrom(t, path, Options{Steps: steps, Every: 1, QPos: []float64{0}, QVel: []float64{4}})
			inMargin := -1 // first state with a limit row and the hinge not past its bound
			upper := 40 * math.Pi / 180
			for k, s := range mj.Steps {
				if s.NLimit > 0 && s.QPos[0] < upper && inMargin < 0 {
					inMargin = k
				}
			}
			if inMargin < 0 {
				t.Fatalf("%s: MuJoCo never has a limit row within the margin", integ)
			}
			t.Logf("%s: max |Δqpos| over %d steps %.3g (MuJoCo's first limit row within the margin at state %d, q = %.4f, bound %.4f)",
				integ, steps, worst, inMargin, mj.Steps[inMargin].QPos[0], upper)
			if worst > trajTol {
				t.Errorf("%s: qpos %.3g from MuJoCo's over %d steps (first over %g at step %d)", integ, worst, steps, trajTol, first)
			}
			// The same hinge without its margin in Stiction only.
			bare := writeModel(t, strings.NewReplacer("INTEGRATOR", integ, "MARGIN", "0").Replace(marginHinge))
			ignored, _, err := compareTrajectory(bare, mj, mj, mp, steps)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: with the margin ignored, max |Δqpos| %.3g", integ, ignored)
			if ignored < 1e-3 {
				t.Errorf("%s: ignoring the margin moves qpos by only %.3g: the model does not exercise it", integ, ignored)
			}
		})
	}
}

// TestBallMarginMatchesMuJoCo: a pendulum on a ball joint whose cone (40°)
// has a margin of 0.1 rad, swung towards it at 6.3 rad/s, follows MuJoCo 2.2.2
// to 1e-9 over 300 steps under mujoco-euler, through MuJoCo's limit rows
// within the margin; with the margin ignored it parts by more than 1e-3.
func TestBallMarginMatchesMuJoCo(t *testing.T) {
	const steps = 300
	doc := func(margin string) string {
		return `<mujoco><compiler angle="degree"/><option timestep="0.002"/>
  <worldbody><body name="arm" pos="0 0 1">
    <joint name="b" type="ball" range="0 40" limited="true" margin="` + margin + `"/>
    <geom type="capsule" size="0.02" fromto="0 0 0 0 0 -0.3" mass="0.5"/>
  </body></worldbody></mujoco>`
	}
	path := writeModel(t, doc("0.1"))
	mj, mp, worst, first := compareFrom(t, path, Options{Steps: steps, Every: 1, QPos: []float64{1, 0, 0, 0}, QVel: []float64{6, 2, 0.5}})
	limits := limitStates(mj)
	if limits == 0 {
		t.Fatal("MuJoCo has no limit row: the pendulum does not reach the margin")
	}
	ignored, _, err := compareTrajectory(writeModel(t, doc("0")), mj, mj, mp, steps)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ball margin (MuJoCo's limit rows in %d states): max |Δqpos| over %d steps %.3g; %.3g with the margin ignored", limits, steps, worst, ignored)
	if worst > trajTol {
		t.Errorf("qpos %.3g from MuJoCo's over %d steps (first over %g at step %d)", worst, steps, trajTol, first)
	}
	if ignored < 1e-3 {
		t.Errorf("ignoring the margin moves qpos by only %.3g", ignored)
	}
}

// compareFrom runs MuJoCo on path with o (o.Steps recorded steps from the
// state o.QPos, o.QVel) and Stiction from MuJoCo's initial state, and
// returns MuJoCo's run, the map, the largest qpos difference and the first
// step over trajTol (−1 if none).
func compareFrom(t *testing.T, path string, o Options) (*Run, *Map, float64, int) {
	t.Helper()
	mj := run(t, path, o)
	_, mp := mappedModel(t, path, mj)
	worst, first, err := compareTrajectory(path, mj, mj, mp, o.Steps)
	if err != nil {
		t.Fatal(err)
	}
	return mj, mp, worst, first
}

// TestMarginStepsAllocateNothing: warmed-up steps of the hinge with a
// margin (mujoco-euler and rk4) and of the double pendulum with tendon
// margins, taken while their limits act within the margins, allocate
// nothing.
func TestMarginStepsAllocateNothing(t *testing.T) {
	tendons := strings.NewReplacer(`range="-0.4 0.4">`, `range="-0.4 0.4" margin="0.1">`).Replace(tendonLimitArm)
	hinge := func(q []float64) bool { return q[0] > 40*math.Pi/180-0.15 }
	for _, c := range []struct {
		name, xml string
		q, v      []float64
		warm      int                    // steps before the measured ones
		in        func(q []float64) bool // the state is within a margin
	}{
		{"hinge, Euler", strings.NewReplacer("INTEGRATOR", "Euler", "MARGIN", "0.15").Replace(marginHinge), []float64{0}, []float64{4}, 50, hinge},
		{"hinge, RK4", strings.NewReplacer("INTEGRATOR", "RK4", "MARGIN", "0.15").Replace(marginHinge), []float64{0}, []float64{4}, 50, hinge},
		{"tendon", tendons, []float64{0.2, 0.3}, []float64{1, 2}, 3, func(q []float64) bool { return math.Abs(q[0]+q[1]) > 0.3 }},
	} {
		b, _, err := stiction(writeModel(t, c.xml))
		if err != nil {
			t.Fatal(err)
		}
		copy(b.State.Q, c.q) // hinges without ref: Stiction's q is MuJoCo's qpos
		copy(b.State.V, c.v)
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range c.warm {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		within := 0
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			if c.in(s.State.Q) {
				within++
			}
		})
		if within == 0 {
			t.Errorf("%s: no measured step within the margin", c.name)
		}
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warmed-up step", c.name, allocs)
		}
	}
}

// TestCompoundMarginMatchesMuJoCo: a body with two hinges (one compound
// joint), the second limited with margin 0.15, swung into its bound,
// follows MuJoCo 2.2.2 to 1e-9 over 300 steps (mujoco-euler), through
// MuJoCo's limit rows within the margin; 1e-3 or more apart with the margin
// ignored.
func TestCompoundMarginMatchesMuJoCo(t *testing.T) {
	const steps = 300
	doc := func(margin string) string {
		return `<mujoco><compiler angle="degree"/><option timestep="0.002"/>
  <worldbody><body name="arm" pos="0 0 1">
    <joint name="hx" type="hinge" axis="1 0 0" damping="0.01"/>
    <joint name="hy" type="hinge" axis="0 1 0" pos="0 0 0.05" range="-30 40" limited="true" margin="` + margin + `"/>
    <geom type="capsule" size="0.02" fromto="0 0 0 0.3 0 -0.1" mass="0.5"/>
  </body></worldbody></mujoco>`
	}
	path := writeModel(t, doc("0.15"))
	mj, mp, worst, first := compareFrom(t, path, Options{Steps: steps, Every: 1, QPos: []float64{0.1, 0}, QVel: []float64{1, 4}})
	limits := limitStates(mj)
	ignored, _, err := compareTrajectory(writeModel(t, doc("0")), mj, mj, mp, steps)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compound joint margin (MuJoCo's limit row in %d states): max |Δqpos| over %d steps %.3g; %.3g with the margin ignored", limits, steps, worst, ignored)
	if limits == 0 {
		t.Fatal("MuJoCo has no limit row")
	}
	if worst > trajTol {
		t.Errorf("qpos %.3g from MuJoCo's over %d steps (first over %g at step %d)", worst, steps, trajTol, first)
	}
	if ignored < 1e-3 {
		t.Errorf("ignoring the margin moves qpos by only %.3g", ignored)
	}
}
