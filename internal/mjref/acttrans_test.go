package mjref

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
)

// actTransArm is a two-link arm with a slide at its tip, under gravity,
// whose actuators carry activations on every transmission Stiction
// simulates: a filter <general> with a damping bias and a <general>
// muscle (dyntype, gaintype and biastype muscle, its length range found
// by the compiler's simulation) on a spatial tendon over both links, an
// integrator <general> with a limited activation on a slider-crank, a
// filter <general> on a jointinparent hinge, a <general> muscle with its
// own parameters on the slide and a <muscle> on the elbow hinge.
// INTEGRATOR is replaced by the integrator under test.
const actTransArm = `<mujoco><option integrator="INTEGRATOR" timestep="0.002"/>
<default><joint damping="0.05"/></default>
<worldbody>
  <site name="anchor" pos="0 0 1.2"/>
  <site name="slider" pos="0.3 0 0.7" zaxis="1 0 0.3"/>
  <body pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0" limited="true" range="-90 90"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
    <site name="s1" pos="0.2 0 0.03"/><site name="crank" pos="0.15 0 0"/>
    <body pos="0.3 0 0"><joint name="b" type="hinge" axis="0 1 0" limited="true" range="-100 100"/>
      <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.02" mass="0.6"/>
      <site name="s2" pos="0.1 0 0.02"/>
      <body pos="0.25 0 0"><joint name="c" type="slide" axis="1 0 0" limited="true" range="-0.1 0.1"/>
        <geom type="box" size="0.03 0.03 0.03" mass="0.3"/></body></body></body>
</worldbody>
<tendon><spatial name="sp"><site site="anchor"/><site site="s1"/><site site="s2"/></spatial></tendon>
<actuator>
  <general name="spf" tendon="sp" dyntype="filter" dynprm="0.05" gainprm="30" biastype="affine" biasprm="0 0 -1"/>
  <general name="spm" tendon="sp" dyntype="muscle" gaintype="muscle" biastype="muscle" dynprm="0.01 0.04"
    gainprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2" biasprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"/>
  <general name="crk" cranksite="crank" slidersite="slider" cranklength="0.2" dyntype="integrator" gainprm="5"
    ctrllimited="true" ctrlrange="-1 1" actlimited="true" actrange="-0.3 0.5"/>
  <general name="jip" jointinparent="b" dyntype="filter" dynprm="0.1" gainprm="2"/>
  <general name="slm" joint="c" dyntype="muscle" gaintype="muscle" biastype="muscle" dynprm="0.02 0.05"
    gainprm="0.8 1.1 20 1 0.6 1.5 2 1.2 1.3" biasprm="0.8 1.1 20 1 0.6 1.5 2 1.2 1.3" lengthrange="-0.1 0.1"/>
  <muscle name="mb" joint="b" force="5"/>
</actuator></mujoco>`

// TestActuatorTransmissionsMuJoCo: activation-carrying actuators (filter,
// integrator and muscle dynamics, <general> muscles) on a spatial tendon,
// a slider-crank, a jointinparent hinge, a slide and a hinge follow
// MuJoCo 2.2.2 under mujoco-euler, rk4 and mujoco-implicit over 300 steps
// with a control pattern, from rest and from a moving state (the
// slider-crank's activation held at its actrange's lower end): qpos to
// 1e-10 and the activations to 1e-12; the muscles' length ranges (found by
// simulation, 3e-11 m from MuJoCo's under Euler, which each muscle's
// trajectory then carries: 7e-12 rad alone, 1e-15 for each other
// actuator alone) to 1e-9 m, acc0 to 1e-12.
func TestActuatorTransmissionsMuJoCo(t *testing.T) {
	ctrl := []float64{2, 1, -3, 4, 0.9, 1}
	rest := Options{Steps: 300, Every: 1, Ctrl: ctrl, CtrlFreq: 2}
	moving := Options{Steps: 300, Every: 1, QPos: []float64{0.3, -0.8, 0.05}, QVel: []float64{-2, 3, 0.5}, Ctrl: ctrl, CtrlFreq: 3}
	eachScheme(t, actTransArm, rest, moving, func(t *testing.T, b *scene.Built, mp *Map, mj *Run, o Options) {
		worstLR, worstAcc := muscleSetupDiff(b, mj)
		worstQ, worstAct := followControlled(t, b, mp, mj, o)
		last := mj.Steps[len(mj.Steps)-1]
		t.Logf("length ranges %.3g m, acc0 %.3g relative; %d steps: max |Δqpos| %.3g, max |Δact| %.3g (final qpos %.4g, act %.4g)",
			worstLR, worstAcc, len(mj.Steps)-1, worstQ, worstAct, last.QPos, last.Act)
		if worstLR > 1e-9 || worstAcc > 1e-12 || !(worstQ <= 1e-10) || !(worstAct <= 1e-12) {
			t.Errorf("length ranges %.3g, acc0 %.3g, qpos %.3g, act %.3g from MuJoCo's", worstLR, worstAcc, worstQ, worstAct)
		}
		if lo, _ := actExtremes(mj, 2); lo != -0.3 {
			t.Errorf("MuJoCo's slider-crank activation reaches %g, not its actrange's lower end -0.3: the run does not test the clamp", lo)
		}
	})
}

// damperArm is a three-link arm under gravity with MuJoCo's affine-gain
// actuators: a <damper> on a hinge, one on a fixed tendon over two hinges
// and one on a spatial tendon, a <general> with an affine gain
// (g + g1 l + g2 l̇) on a hinge and one with an affine gain and filter
// dynamics. INTEGRATOR is replaced by the integrator under test.
const damperArm = `<mujoco><option integrator="INTEGRATOR" timestep="0.002"/>
<worldbody>
  <site name="anchor" pos="0 0 1.2"/>
  <body pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/><site name="s1" pos="0.2 0 0.03"/>
    <body pos="0.3 0 0"><joint name="b" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.02" mass="0.6"/><site name="s2" pos="0.1 0 0.02"/>
      <body pos="0.25 0 0"><joint name="c" type="hinge" axis="0 0 1"/>
        <geom type="capsule" fromto="0 0 0 0.2 0.05 0" size="0.02" mass="0.3"/></body></body></body>
</worldbody>
<tendon><fixed name="fx"><joint joint="a" coef="1"/><joint joint="b" coef="-0.5"/></fixed>
  <spatial name="sp"><site site="anchor"/><site site="s1"/><site site="s2"/></spatial></tendon>
<actuator>
  <damper joint="a" kv="0.8" ctrlrange="0 2"/>
  <damper tendon="fx" kv="0.5" ctrlrange="0 1" gear="2"/>
  <damper tendon="sp" kv="20" ctrlrange="0 1.5"/>
  <general joint="c" gaintype="affine" gainprm="0.5 0.4 -0.3" biastype="affine" biasprm="0 -0.2 -0.05"/>
  <general joint="b" gaintype="affine" gainprm="1 0.5 -0.2" dyntype="filter" dynprm="0.05"/>
</actuator></mujoco>`

// TestDamperMuJoCo: MuJoCo 2.2.2's <damper> (f = −kv l̇ u, u ≥ 0) on a
// hinge, a fixed tendon and a spatial tendon, and <general> actuators with
// an affine gain (one with filter dynamics) follow MuJoCo under
// mujoco-euler, rk4 and mujoco-implicit (the gain's rate term −g2 u or
// −g2 act in its implicit matrix, as mjd_actuator_vel puts it) over 300
// steps with a control pattern, from rest and from a moving state: qpos
// and act to 1e-12.
func TestDamperMuJoCo(t *testing.T) {
	ctrl := []float64{2, 1, 1.5, 3, -2}
	rest := Options{Steps: 300, Every: 1, Ctrl: ctrl, CtrlFreq: 2}
	moving := Options{Steps: 300, Every: 1, QPos: []float64{0.3, -0.8, 0.5}, QVel: []float64{-4, 6, 3}, Ctrl: ctrl, CtrlFreq: 3}
	eachScheme(t, damperArm, rest, moving, func(t *testing.T, b *scene.Built, mp *Map, mj *Run, o Options) {
		if n := len(b.Config.Constraints.Actuators); n != 5 {
			t.Fatalf("%d actuators simulated, want 5", n)
		}
		worstQ, worstAct := followControlled(t, b, mp, mj, o)
		last := mj.Steps[len(mj.Steps)-1]
		t.Logf("%d steps: max |Δqpos| %.3g, max |Δact| %.3g (final qpos %.4g, qvel %.4g)", len(mj.Steps)-1, worstQ, worstAct, last.QPos, last.QVel)
		if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) {
			t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
		}
	})
}

// siteArm is a free box with an arm on a hinge, driven through MuJoCo's
// site transmissions (a wrench in the site's frame, gear's six values): a
// motor pushing along a tilted site's z axis, a velocity servo on the
// arm's tip site (force and torque) and a filter <general> twisting the
// box. INTEGRATOR is replaced by the integrator under test.
const siteArm = `<mujoco><option integrator="INTEGRATOR" timestep="0.002" gravity="0 0 -2"/>
<worldbody>
  <body pos="0 0 1"><freejoint/>
    <geom type="box" size="0.1 0.08 0.05" mass="2"/><site name="thr" pos="0.1 0 0.02" euler="0 30 10"/>
    <body pos="0.1 0 0"><joint name="h" type="hinge" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.3"/><site name="tip" pos="0.2 0 0" euler="20 0 0"/></body></body>
</worldbody>
<actuator>
  <motor site="thr" gear="0 0 1 0 0 0"/>
  <velocity site="tip" kv="0.5" gear="1 0 0 0 0 0.3"/>
  <general site="thr" dyntype="filter" dynprm="0.1" gainprm="2" gear="0 0 0 0.1 0.2 0"/>
</actuator></mujoco>`

// TestSiteDynamicsMuJoCo: actuators with dynamics and gains (motor,
// velocity servo, filter <general>) on site transmissions (no refsite;
// tendon.SiteTransmission) follow MuJoCo 2.2.2 under mujoco-euler, rk4 and
// mujoco-implicit over 300 steps with a control pattern, from rest and
// from a moving state: qpos and act to 1e-12.
func TestSiteDynamicsMuJoCo(t *testing.T) {
	ctrl := []float64{3, 2, -1}
	rest := Options{Steps: 300, Every: 1, Ctrl: ctrl, CtrlFreq: 2}
	moving := Options{Steps: 300, Every: 1, QPos: []float64{0.1, -0.2, 1, 0.9, 0.1, -0.3, 0.2, 0.4}, QVel: []float64{0.5, -1, 0.3, 2, -1, 3, -2},
		Ctrl: ctrl, CtrlFreq: 3}
	eachScheme(t, siteArm, rest, moving, func(t *testing.T, b *scene.Built, mp *Map, mj *Run, o Options) {
		if n := len(b.Config.Constraints.Actuators); n != 3 {
			t.Fatalf("%d actuators simulated, want 3", n)
		}
		worstQ, worstAct := followControlled(t, b, mp, mj, o)
		last := mj.Steps[len(mj.Steps)-1]
		t.Logf("%d steps: max |Δqpos| %.3g, max |Δact| %.3g (final qpos %.4g)", len(mj.Steps)-1, worstQ, worstAct, last.QPos)
		if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) {
			t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
		}
	})
}
