package mjref

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// arm26 is MuJoCo's two-link arm with six muscles on spatial tendons.
var arm26 = filepath.Join("testdata", "mujoco/model/tendon_arm/arm26.xml")

// TestMuscleCurvesAgainstMuJoCo: the muscle's active force per unit
// activation (gain), passive force (bias) and activation rate (dynamics)
// equal MuJoCo 2.2.2's mju_muscleGain, mju_muscleBias and
// mju_muscleDynamics pointwise, on grids that reach past both ends of the
// length range (where MuJoCo's length curve turns negative below lmin),
// over shortening and lengthening velocities, and over controls and
// activations outside [0, 1], with each of arm26's six muscles' own
// parameters (MuJoCo's lengthrange and acc0 given to ours).
func TestMuscleCurvesAgainstMuJoCo(t *testing.T) {
	exe := tool(t)
	const n = 41
	cv, err := ExecCurves(exe, arm26, n)
	if err != nil {
		t.Fatal(err)
	}
	mj := run(t, arm26, Options{Steps: 0})
	if len(cv.Curves) != 6 {
		t.Fatalf("MuJoCo lists %d muscles, want 6", len(cv.Curves))
	}
	var worstG, worstB, worstD, scaleG float64
	for _, c := range cv.Curves {
		a := mj.Actuators[c.Actuator]
		p := constraint.MuscleParams{TimeConst: [2]float64{a.DynPrm[0], a.DynPrm[1]}, Range: [2]float64{a.GainPrm[0], a.GainPrm[1]},
			Force: a.GainPrm[2], Scale: a.GainPrm[3], LMin: a.GainPrm[4], LMax: a.GainPrm[5], VMax: a.GainPrm[6],
			FPMax: a.GainPrm[7], FVMax: a.GainPrm[8], LengthRange: a.LengthRange, Acc0: a.Acc0}
		for i, l := range c.Len {
			for j, v := range c.Vel {
				worstG = math.Max(worstG, math.Abs(p.Gain(l, v)-c.Gain[i*n+j]))
				scaleG = math.Max(scaleG, math.Abs(c.Gain[i*n+j]))
			}
			worstB = math.Max(worstB, math.Abs(p.Bias(l)-c.Bias[i]))
		}
		for i, u := range c.X {
			for j, act := range c.X {
				worstD = math.Max(worstD, math.Abs(p.Dynamics(u, act)-c.Dyn[i*n+j]))
			}
		}
	}
	t.Logf("6 muscles, %d×%d grids: max |Δgain| %.3g (of %.4g), max |Δbias| %.3g, max |Δdynamics| %.3g", n, n, worstG, scaleG, worstB, worstD)
	if worstG > 1e-12*scaleG || worstB > 1e-12*scaleG || worstD > 1e-12 {
		t.Errorf("muscle curves differ from MuJoCo's: gain %.3g, bias %.3g, dynamics %.3g", worstG, worstB, worstD)
	}
}

// TestMuscleSetupAgainstMuJoCo: each arm26 muscle's acc0 (‖M⁻¹ moment‖ at
// qpos0) and its length range, which MuJoCo's compiler finds by
// simulation (mj_setLengthRange) and Stiction's import by the same
// simulation with its own engine (sim.ActuatorLengthRange), equal
// MuJoCo's.
func TestMuscleSetupAgainstMuJoCo(t *testing.T) {
	mj := run(t, arm26, Options{Steps: 0})
	b, _ := mappedModel(t, arm26, mj)
	set := b.Config.Constraints
	var worstAcc, worstLR float64
	for i, a := range mj.Actuators {
		ac := &set.Actuators[i]
		if ac.Name != a.Name || ac.Muscle == nil {
			t.Fatalf("actuator %d: %q (muscle %v), MuJoCo's %q", i, ac.Name, ac.Muscle != nil, a.Name)
		}
		worstAcc = math.Max(worstAcc, math.Abs(ac.Muscle.Acc0-a.Acc0)/a.Acc0)
		for k := range 2 {
			worstLR = math.Max(worstLR, math.Abs(ac.Muscle.LengthRange[k]-a.LengthRange[k]))
		}
		t.Logf("%s: acc0 %.15g (MuJoCo %.15g), length range %.12g (MuJoCo %.12g)", a.Name, ac.Muscle.Acc0, a.Acc0,
			ac.Muscle.LengthRange, a.LengthRange)
	}
	t.Logf("max relative |Δacc0| %.3g, max |Δlengthrange| %.3g m", worstAcc, worstLR)
	if worstAcc > 1e-12 || worstLR > 1e-9 {
		t.Errorf("acc0 %.3g relative, length range %.3g m from MuJoCo's", worstAcc, worstLR)
	}
}

// TestArm26MusclesAgainstMuJoCo: arm26 driven by its six muscles follows
// MuJoCo 2.2.2 (mujoco-euler) over the parity suite's short horizon, from
// the initial state and from a perturbed state with velocities, with zero
// control (passive muscle forces only) and with a control pattern that
// switches each muscle on and off (activation and deactivation time
// constants both at work): qpos and the activations.
func TestArm26MusclesAgainstMuJoCo(t *testing.T) {
	const steps = 100
	ctrl := []float64{1, 0.8, 0.6, 1, 0.9, 0.7}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"rk4, perturbed, control pattern", Options{Steps: steps, Every: 1, QPos: []float64{0.6, 1.1}, QVel: []float64{2, -3}, Ctrl: ctrl, CtrlFreq: 3, Integrator: "rk4"}},
		{"initial, zero control", Options{Steps: steps, Every: 1}},
		{"perturbed, zero control", Options{Steps: steps, Every: 1, QPos: []float64{0.6, 1.1}, QVel: []float64{2, -3}}},
		{"initial, control pattern", Options{Steps: steps, Every: 1, Ctrl: ctrl, CtrlFreq: 2}},
		{"perturbed, control pattern", Options{Steps: steps, Every: 1, QPos: []float64{0.6, 1.1}, QVel: []float64{2, -3}, Ctrl: ctrl, CtrlFreq: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mj := run(t, arm26, c.o)
			b, mp := mappedModel(t, arm26, mj)
			if c.o.Integrator == "rk4" {
				b.Config.Scheme = sim.RK4
			}
			worstQ, worstAct := followControlled(t, b, mp, mj, c.o)
			last := mj.Steps[len(mj.Steps)-1]
			t.Logf("%d steps: max |Δqpos| %.3g rad, max |Δact| %.3g (final qpos %.4g, act %.3g)", len(mj.Steps)-1, worstQ, worstAct, last.QPos, last.Act)
			if !(worstQ <= 1e-9) || !(worstAct <= 1e-12) {
				t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
			}
		})
	}
}

// jointMuscles is a double pendulum under gravity with a muscle on the
// shoulder hinge (gear 0.04), one on a fixed tendon over both hinges, and
// one on the elbow with its own lengthrange, force, scale and curve
// parameters; the hinges are limited, so MuJoCo's compiler finds the
// first two length ranges by simulation.
const jointMuscles = `<mujoco>
  <option timestep="0.002"/>
  <default><joint damping="0.05" limited="true"/><muscle ctrllimited="true" ctrlrange="0 1"/></default>
  <worldbody>
    <body pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" range="-80 80"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.3" size="0.03"/>
      <body pos="0 0 -0.3">
        <joint name="elbow" type="hinge" axis="0 1 0" range="0 130"/>
        <geom type="capsule" fromto="0 0 0 0.05 0 -0.25" size="0.025"/>
      </body>
    </body>
  </worldbody>
  <tendon><fixed name="bi"><joint joint="shoulder" coef="0.03"/><joint joint="elbow" coef="-0.02"/></fixed></tendon>
  <actuator>
    <muscle name="sh" joint="shoulder" gear="0.04"/>
    <muscle name="bi" tendon="bi" timeconst="0.02 0.06"/>
    <muscle name="el" joint="elbow" lengthrange="0 2.2" force="40" lmin="0.6" lmax="1.4" vmax="2" fpmax="1.1" fvmax="1.4" range="0.8 1.1"/>
  </actuator>
</mujoco>`

// TestJointMusclesAgainstMuJoCo: muscles on hinge joints and on a fixed
// tendon (explicit forces, no constraint solve) follow MuJoCo 2.2.2 over
// 300 steps with a control pattern, from rest and from a moving state,
// under Euler; their length ranges (two found by simulation) and acc0
// equal MuJoCo's.
func TestJointMusclesAgainstMuJoCo(t *testing.T) {
	path := writeModel(t, jointMuscles)
	ctrl := []float64{1, 0.9, 0.8}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"rest", Options{Steps: 300, Every: 1, Ctrl: ctrl, CtrlFreq: 2}},
		{"moving", Options{Steps: 300, Every: 1, QPos: []float64{0.3, 0.8}, QVel: []float64{-2, 3}, Ctrl: ctrl, CtrlFreq: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mj := run(t, path, c.o)
			b, mp := mappedModel(t, path, mj)
			worstLR, worstAcc := muscleSetupDiff(b, mj)
			worstQ, worstAct := followControlled(t, b, mp, mj, c.o)
			t.Logf("length ranges %.3g m, acc0 %.3g relative; 300 steps: max |Δqpos| %.3g rad, max |Δact| %.3g (final qpos %.4g)",
				worstLR, worstAcc, worstQ, worstAct, mj.Steps[len(mj.Steps)-1].QPos)
			if worstLR > 1e-9 || worstAcc > 1e-12 || !(worstQ <= 1e-9) || !(worstAct <= 1e-12) {
				t.Errorf("length ranges %.3g, acc0 %.3g, qpos %.3g, act %.3g from MuJoCo's", worstLR, worstAcc, worstQ, worstAct)
			}
		})
	}
}

// muscleSetupDiff is the largest difference of the muscles' length ranges
// (m) and relative one of their acc0 between Stiction's build b and
// MuJoCo's run mj (the other actuators are skipped).
func muscleSetupDiff(b *scene.Built, mj *Run) (worstLR, worstAcc float64) {
	for i, a := range mj.Actuators {
		mu := b.Config.Constraints.Actuators[i].Muscle
		if mu == nil {
			continue
		}
		worstAcc = math.Max(worstAcc, math.Abs(mu.Acc0-a.Acc0)/a.Acc0)
		for k := range 2 {
			worstLR = math.Max(worstLR, math.Abs(mu.LengthRange[k]-a.LengthRange[k]))
		}
	}
	return worstLR, worstAcc
}

// followControlled steps Stiction's build b of MuJoCo's run mj from its
// initial state with the run's controls (Options.CtrlPattern at each
// step's start) and returns the largest qpos and act differences over the
// run's steps.
func followControlled(t *testing.T, b *scene.Built, mp *Map, mj *Run, o Options) (worstQ, worstAct float64) {
	t.Helper()
	s := startedSim(t, b, mp, mj)
	q := make([]float64, mj.NQ)
	for k := 1; k < len(mj.Steps); k++ {
		for i := range mj.Actuators {
			if err := s.SetControl(i, o.CtrlPattern(i, s.State.T), 0); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worstQ = math.Max(worstQ, math.Abs(q[i]-mj.Steps[k].QPos[i]))
		}
		// MuJoCo's act holds the stateful actuators', which MuJoCo
		// requires last; Stiction's has one entry per actuator.
		off := len(mj.Actuators) - len(mj.Steps[k].Act)
		for i, a := range mj.Steps[k].Act {
			worstAct = math.Max(worstAct, math.Abs(s.State.Act[off+i]-a))
		}
	}
	return worstQ, worstAct
}
