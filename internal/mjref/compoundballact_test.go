package mjref

import (
	"fmt"
	"math"
	"testing"
)

// compoundBallActuators is a body with three joints, a slide, a hinge and
// a ball last (MuJoCo refuses a rotation after a ball), a child on a
// hinge, and actuators on the ball part as MuJoCo 2.2.2's mj_transmission
// drives a ball joint: a motor (torque gear in the frame after the ball),
// a position servo with jointinparent (the gear in the frame before it;
// the rotation vector along the gear its length), a velocity servo, a motor
// on the hinge part and an integrator <general> on the ball.
const compoundBallActuators = `<mujoco>
  <option integrator="%s" timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="a" pos="0 0 1" euler="10 -20 5">
      <joint name="s" type="slide" axis="1 0 0" stiffness="40" damping=".3"/>
      <joint name="h" axis="1 0 0" pos="0 .1 0" damping=".05"/>
      <joint name="b" type="ball" pos=".05 0 .2" damping=".02"/>
      <geom type="capsule" fromto="0 0 .2 .2 .1 -.2" size=".04" density="700"/>
      <body name="c" pos=".2 .1 -.2">
        <joint name="ch" axis="0 1 0" damping=".01"/>
        <geom type="box" size=".03 .05 .08" pos="0 0 -.08" density="600"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="b" gear="1 0.5 -0.2"/>
    <position jointinparent="b" gear="0 0.3 1" kp="4"/>
    <velocity joint="b" gear="0 1 0" kv=".2"/>
    <motor joint="h" gear="1"/>
    <general joint="b" gear=".2 0 .4" dyntype="integrator" gainprm="2"/>
  </actuator>
</mujoco>`

// TestCompoundBallActuatorsMuJoCo: actuators on the ball part of a
// compound joint (a body with several joints, one a ball; MuJoCo 2.2.2's
// mjTRN_JOINT and mjTRN_JOINTINPARENT on that ball, tendon.JointTransmission
// with DOF) follow MuJoCo under a control pattern, from the model's state
// and a perturbed one, under Euler, implicit and RK4: qpos and act to
// 1e-12 over 200 steps. Before, they warned and were not simulated. The
// check asserts that MuJoCo's ball turns by more than 0.1 rad, so that the
// actuators are seen to act.
func TestCompoundBallActuatorsMuJoCo(t *testing.T) {
	o := Options{Steps: 200, Every: 1, Ctrl: []float64{.3, .5, -1, .4, .8}, CtrlFreq: 2}
	followIntegrators(t, compoundBallActuators, o, true, func(t *testing.T, mj *Run) {
		q := mj.Steps[len(mj.Steps)-1].QPos[2:6] // the ball part's quaternion
		if a := 2 * math.Acos(math.Min(1, math.Abs(q[0]))); !(a > 0.1) {
			t.Errorf("MuJoCo's ball part turned by %.3g rad", a)
		}
	})
}

// TestCompoundBallActuatorsAct: the ball part's actuators matter (with
// their controls zeroed in Stiction, compoundBallActuators parts from
// MuJoCo's run by more than 1e-2 under Euler), and a warmed-up step with
// them allocates nothing.
func TestCompoundBallActuatorsAct(t *testing.T) {
	tool(t)
	path := writeModel(t, fmt.Sprintf(compoundBallActuators, "Euler"))
	o := Options{Steps: 200, Every: 1, Ctrl: []float64{.3, .5, -1, .4, .8}, CtrlFreq: 2}
	mj := run(t, path, o)
	b, mp := mappedModel(t, path, mj)
	off := o
	off.Ctrl = []float64{0, 0, 0, .4, 0}
	worstOff, _ := followControlled(t, b, mp, mj, off)
	t.Logf("ball part's actuators off in Stiction: max |Δqpos| %.3g", worstOff)
	if !(worstOff > 1e-2) {
		t.Errorf("ball part's actuators off: %.3g from MuJoCo's, want > 1e-2", worstOff)
	}
	if _, allocs := warmedAllocs(t, fmt.Sprintf(compoundBallActuators, "Euler"), o.Ctrl); allocs != 0 {
		t.Errorf("%v allocations per warmed-up step", allocs)
	}
}
