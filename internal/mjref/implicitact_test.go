package mjref

import (
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// implicitServoArm is a three-link arm under gravity with MuJoCo's
// actuator kinds whose velocity term mj_implicit differentiates: a
// position servo with damping (biasprm 0 −kp −kv, imported as a position
// actuator) that saturates its forcerange, a velocity servo, a
// general actuator with an affine bias (b2 < 0) and one on a fixed tendon
// coupling two joints.
const implicitServoArm = `<mujoco><option integrator="implicit" timestep="0.002"/><worldbody>
  <body pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0" damping="0.1"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
    <body pos="0.3 0 0"><joint name="b" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.02" mass="0.6"/>
      <body pos="0.25 0 0"><joint name="c" type="slide" axis="1 0 0" range="-0.1 0.1" limited="true"/>
        <geom type="sphere" size="0.03" mass="0.3"/></body></body></body>
</worldbody>
<tendon><fixed name="t"><joint joint="b" coef="1"/><joint joint="c" coef="-2"/></fixed></tendon>
<actuator>
  <general biastype="affine" joint="a" gainprm="40" biasprm="0 -40 -3" forcerange="-2 2" forcelimited="true"/>
  <velocity joint="b" kv="0.5"/>
  <general biastype="affine" joint="c" gainprm="30" biasprm="0.5 -30 -4" gear="1.5"/>
  <general biastype="affine" tendon="t" gainprm="2" biasprm="0 -5 -0.8" forcerange="-1 1" forcelimited="true"/>
</actuator></mujoco>`

// implicitForkedTendon is a base hinge with two sibling links and a
// separate pendulum, one damped <general> actuator on a fixed tendon over
// both siblings and the pendulum: mj_implicit keeps of its kv mᵀm only
// the entries in M's pattern (each joint with itself and with the base),
// dropping the siblings' and the two trees' cross terms.
const implicitForkedTendon = `<mujoco><option integrator="implicit" timestep="0.002"/><worldbody>
  <body pos="0 0 1"><joint name="base" type="hinge" axis="0 0 1"/>
    <geom type="box" size="0.1 0.02 0.02" mass="1"/>
    <body pos="0.1 0 0"><joint name="l" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.4"/></body>
    <body pos="-0.1 0 0"><joint name="r" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 -0.2 0 0" size="0.02" mass="0.5"/></body></body>
  <body pos="1 0 1"><joint name="p" type="hinge" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.02" mass="0.3"/></body>
</worldbody>
<tendon><fixed name="t"><joint joint="l" coef="1"/><joint joint="r" coef="0.7"/><joint joint="p" coef="-1.5"/></fixed></tendon>
<actuator><general biastype="affine" tendon="t" gainprm="2" biasprm="0 -3 -0.6"/></actuator></mujoco>`

// TestImplicitActuatorsMuJoCo: under mujoco-implicit every actuator force
// is explicit, clamped to its forcerange, and only its velocity derivative
// kv mᵀm enters M̂ = M − h qDeriv, as MuJoCo 2.2.2's mj_implicit does
// (mjd_actuator_vel). Menagerie's Panda (position servos as <general>
// affine actuators, joint4 starting outside its range, so limit rows from
// step 0) and an arm with position, velocity, general and tendon
// actuators follow MuJoCo from their initial state and from a perturbed
// one under a control pattern, and a tendon actuator over sibling
// branches and two trees. The level, 1e-9, was set before measuring;
// measured 1.4e-17, 6.7e-15, 1.1e-16, 3.8e-16 and 2.8e-15. With the
// servos solved as implicit constraint rows, or explicit without kv in M̂,
// the runs part by 3.1e-3 to 0.97 from step 1; with the tendon's entries
// outside M's pattern kept, by 0.16.
func TestImplicitActuatorsMuJoCo(t *testing.T) {
	panda := filepath.Join("testdata", "menagerie/franka_emika_panda/panda_nohand.xml")
	arm := writeModel(t, implicitServoArm)
	fork := writeModel(t, implicitForkedTendon)
	for _, c := range []struct {
		name, path string
		o          Options
	}{
		{"panda, initial", panda, Options{Steps: 100}},
		{"panda, perturbed, control pattern", panda, Options{Steps: 300,
			QPos: []float64{0.3, -0.4, 0.2, -1.8, 0.5, 1.2, -0.6}, QVel: []float64{1, -0.5, 0.8, 0.3, -1.2, 0.7, 2},
			Ctrl: []float64{0.5, -0.6, 0.4, -2, 1, 2, -1}, CtrlFreq: 2}},
		{"arm, initial", arm, Options{Steps: 300}},
		{"arm, perturbed, control pattern", arm, Options{Steps: 300,
			QPos: []float64{0.4, -0.7, 0.05}, QVel: []float64{-1, 2, 0.3},
			Ctrl: []float64{1.2, -3, 0.08, 0.5}, CtrlFreq: 3}},
		{"forked tendon, perturbed, control pattern", fork, Options{Steps: 300,
			QPos: []float64{0.2, 0.5, -0.4, 0.3}, QVel: []float64{3, -2, 4, 1},
			Ctrl: []float64{0.8}, CtrlFreq: 2}},
	} {
		worst, over, _, _, _ := trajectoryGap(t, c.path, sim.MuJoCoImplicit, c.o, 1e-9)
		t.Logf("%s: max |Δqpos| over %d steps %.3g", c.name, c.o.Steps, worst)
		if !(worst <= 1e-9) {
			t.Errorf("%s: max |Δqpos| %.3g over %d steps, first over 1e-9 at step %d (want ≤ 1e-9)", c.name, worst, c.o.Steps, over)
		}
	}
}
