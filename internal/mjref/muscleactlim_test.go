package mjref

import "testing"

// limitedMuscles is a two-link arm driven by two <general> muscles on its
// hinges (dyntype, gaintype and biastype muscle), one with its activation
// limited to [0.1, 0.45] (actlimited, actrange: MuJoCo 2.2.2 clamps act
// in mj_advance after the update), one unlimited, and an integrator
// <general> limited to [-0.3, 0.2].
const limitedMuscles = `<mujoco>
  <option integrator="%s" timestep="0.002"/>
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" axis="0 1 0" damping=".05"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <body name="lower" pos=".3 0 0">
        <joint name="elbow" axis="0 1 0" damping=".05"/>
        <geom type="capsule" fromto="0 0 0 .25 0 0" size=".025"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <general name="lim" joint="shoulder" lengthrange="-2 2" dyntype="muscle" gaintype="muscle" biastype="muscle"
      dynprm="0.01 0.04" gainprm="0.75 1.05 5 200 0.5 1.6 1.5 1.3 1.2" biasprm="0.75 1.05 5 200 0.5 1.6 1.5 1.3 1.2"
      actlimited="true" actrange="0.1 0.45"/>
    <general name="free" joint="elbow" lengthrange="-2 2" dyntype="muscle" gaintype="muscle" biastype="muscle"
      dynprm="0.01 0.04" gainprm="0.75 1.05 3 200 0.5 1.6 1.5 1.3 1.2" biasprm="0.75 1.05 3 200 0.5 1.6 1.5 1.3 1.2"/>
    <general name="int" joint="elbow" dyntype="integrator" gainprm="0.5" actlimited="true" actrange="-0.3 0.2"/>
  </actuator>
</mujoco>`

// TestMuscleActLimitedMuJoCo: a muscle whose activation is limited
// (<general> muscle with actlimited and actrange) is clamped after each
// step as MuJoCo 2.2.2's mj_advance clamps it: qpos and act follow MuJoCo
// to 1e-12 over 300 steps under Euler, implicit and RK4, with controls
// that drive the limited muscle's act to both bounds. Before, the muscle
// warned and was not simulated.
func TestMuscleActLimitedMuJoCo(t *testing.T) {
	o := Options{Steps: 300, Every: 1, Ctrl: []float64{1, .7, 3}, CtrlFreq: 2}
	followIntegrators(t, limitedMuscles, o, false, func(t *testing.T, mj *Run) {
		lo, hi := 1.0, 0.0
		for _, s := range mj.Steps[1:] { // act starts at 0, below the range
			lo, hi = min(lo, s.Act[0]), max(hi, s.Act[0])
		}
		if lo != 0.1 || hi != 0.45 {
			t.Errorf("MuJoCo's limited act spans [%g, %g]; the test wants it at both bounds", lo, hi)
		}
	})
}
