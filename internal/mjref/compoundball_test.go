package mjref

import "testing"

// compoundBallSpring is a body with three joints, a slide along x (the
// hinge and ball share rotations about x, which differ by a translation
// across x: with a slide across x, M would turn singular), a hinge and a
// sprung ball (its pivot off the body origin; MuJoCo refuses a rotation
// after a ball), the hinge driven by a motor, and a child on a sprung ball of its own.
const compoundBallSpring = `<mujoco>
  <option integrator="%s" timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="a" pos="0 0 1" euler="10 -20 5">
      <joint name="s" type="slide" axis="1 0 0" stiffness="40" damping=".3"/>
      <joint name="h" axis="1 0 0" pos="0 .1 0" stiffness="1"/>
      <joint name="b" type="ball" pos=".05 0 .2" stiffness="3" damping=".02"/>
      <geom type="capsule" fromto="0 0 .2 .2 .1 -.2" size=".04" density="700"/>
      <body name="c" pos=".2 .1 -.2">
        <joint name="cb" type="ball" stiffness="0.5"/>
        <geom type="box" size=".03 .05 .08" pos="0 0 -.08" density="600"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="h" gear="1"/>
  </actuator>
</mujoco>`

// TestCompoundBallSpringMuJoCo: the spring of a ball joint that is one of
// several joints of a body (MuJoCo 2.2.2's mj_passive, τ = −k
// mju_subQuat(q, qpos_spring) on the ball's velocities) follows MuJoCo to
// 1e-12 over 300 steps, from the model's state and a perturbed one, under
// Euler, implicit and RK4. Before, the ball part's stiffness warned and was
// ignored.
func TestCompoundBallSpringMuJoCo(t *testing.T) {
	followIntegrators(t, compoundBallSpring, Options{Steps: 300, Every: 1, Ctrl: []float64{.5}, CtrlFreq: 2}, true, nil)
}
