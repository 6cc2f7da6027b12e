package mjref

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// ballFreeMotors is a pendulum on a ball joint (its pivot off the body
// origin) and a free body, each driven through its joint as MuJoCo
// 2.2.2's mj_transmission drives ball and free joints: a torque gear
// (ball: 3 values) or a wrench gear (free: 6), in the body's frame with
// joint=, in the parent's (the world's for the free joint) with
// jointinparent=; motor, position (the ball's rotation vector along the
// gear as its length), velocity and an integrator <general>.
const ballFreeMotors = `<mujoco>
  <option gravity="0 0 -9.81" integrator="%s" timestep="0.002"/>
  <worldbody>
    <body name="arm" pos="0 0 1" euler="20 -10 30">
      <joint name="ball" type="ball" pos="0 0 .3" damping="0.05"/>
      <geom type="capsule" fromto="0 0 .3 .1 .05 -.2" size=".04" density="800"/>
      <body name="tip" pos=".1 .05 -.2">
        <joint name="hinge" axis="0 1 0" damping=".01"/>
        <geom type="box" size=".05 .03 .08" pos="0 0 -.08" density="600"/>
      </body>
    </body>
    <body name="box" pos="1 0 2" euler="10 20 30">
      <freejoint name="free"/>
      <geom type="box" size=".1 .2 .3" density="500"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="ball" gear="1 0.5 -0.2"/>
    <position jointinparent="ball" gear="0 0.3 1" kp="4"/>
    <velocity joint="ball" gear="0 1 0" kv=".2"/>
    <motor joint="hinge" gear="2"/>
    <motor joint="free" gear="1 0 2 0.1 0 0.3"/>
    <motor jointinparent="free" gear="0 1 0 0 0 .5"/>
    <general joint="ball" gear=".2 0 .4" dyntype="integrator" gainprm="2"/>
    <general jointinparent="free" gear="0 0 0 .3 .2 0" dyntype="filter" dynprm=".1" gainprm="3"/>
  </actuator>
</mujoco>`

// TestJointTransmissionBallFreeMuJoCo: actuators on ball and free joints
// (mj_transmission's mjTRN_JOINT and mjTRN_JOINTINPARENT) follow MuJoCo
// 2.2.2 under a control pattern, from the model's state and from a
// perturbed one, under Euler, implicit and RK4: qpos and act to 1e-12 over
// 200 steps; so does MuJoCo's rotations.xml (integrator <general>s on a
// ball and a free joint) under a control pattern. Before, these actuators
// warned and were ignored.
func TestJointTransmissionBallFreeMuJoCo(t *testing.T) {
	o := Options{Steps: 200, Every: 1, Ctrl: []float64{.3, .5, -1, .4, 6, -4, .8, 1}, CtrlFreq: 2}
	followIntegrators(t, ballFreeMotors, o, true, nil)
	t.Run("rotations.xml", func(t *testing.T) { // MuJoCo's: integrator <general>s on a ball and a free joint
		o := Options{Steps: 200, Every: 1, Ctrl: []float64{40, -60}, CtrlFreq: 1}
		follows(t, "testdata/mujoco/test/engine/testdata/rotations.xml", o, nil)
	})
}

// followIntegrators runs doc (an MJCF model whose one %s is the
// integrator) under Euler, implicit and RK4 with o's controls, from the
// model's state and, with perturb, from a perturbed one (perturbedState),
// and checks that qpos and act follow MuJoCo 2.2.2 to 1e-12; check, when
// not nil, checks MuJoCo's run first.
func followIntegrators(t *testing.T, doc string, o Options, perturb bool, check func(*testing.T, *Run)) {
	tool(t)
	for _, integ := range []string{"Euler", "implicit", "RK4"} {
		for _, perturbed := range []bool{false, true} {
			if perturbed && !perturb {
				continue
			}
			t.Run(fmt.Sprintf("%s/perturbed=%v", integ, perturbed), func(t *testing.T) {
				path := writeModel(t, fmt.Sprintf(doc, integ))
				o := o
				if perturbed {
					mj0 := run(t, path, Options{Steps: 1, Every: 1})
					o.QPos, o.QVel = perturbedState(mj0)
				}
				follows(t, path, o, check)
			})
		}
	}
}

// follows checks that the model at path follows MuJoCo 2.2.2 under o to
// 1e-12 in qpos and act; check, when not nil, checks MuJoCo's run first.
func follows(t *testing.T, path string, o Options, check func(*testing.T, *Run)) {
	mj := run(t, path, o)
	if check != nil {
		check(t, mj)
	}
	b, mp := mappedModel(t, path, mj)
	worstQ, worstAct := followControlled(t, b, mp, mj, o)
	t.Logf("%d steps: max |Δqpos| %.3g, max |Δact| %.3g", len(mj.Steps)-1, worstQ, worstAct)
	if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) {
		t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
	}
}

// TestJointTransmissionStepsAllocateNothing: a warmed-up step of the
// models with actuators on ball and free joints, a compound joint's
// sprung ball and limited muscles allocates nothing, under Euler,
// implicit and RK4.
func TestJointTransmissionStepsAllocateNothing(t *testing.T) {
	for _, doc := range []string{ballFreeMotors, compoundBallSpring, limitedMuscles} {
		for _, integ := range []string{"Euler", "implicit", "RK4"} {
			b, _, err := stiction(writeModel(t, fmt.Sprintf(doc, integ)))
			if err != nil {
				t.Fatal(err)
			}
			s, err := sim.New(b.Model, b.State, b.Config)
			if err != nil {
				t.Fatal(err)
			}
			for k := range b.Config.Constraints.Actuators {
				if err := s.SetControl(k, 0.5, 0); err != nil {
					t.Fatal(err)
				}
			}
			for range 50 {
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			if allocs := testing.AllocsPerRun(20, func() {
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}); allocs != 0 {
				t.Errorf("%s: %v allocations per warmed-up step", integ, allocs)
			}
		}
	}
}
