package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// armJoints are the actuators of the embedded arm scene, one per joint in
// model order.
var armJoints = []string{"base", "shoulder", "elbow", "forearm", "wrist1", "wrist2", "wrist3"}

// armHoldError returns, for the arm with every target constant, the largest
// residual of the PD equilibrium |kp (u − q) + τ_g(q)| relative to
// max |τ_g|, the largest speed and the largest holding error |u − q| after
// 3 s, and max |τ_g|/kp, the error that equilibrium predicts.
func armHoldError(t *testing.T, sets ...string) (resid, speed, hold, predicted float64) {
	sets = append([]string{"actuators.shoulder.target={constant: 0.6}", "duration=2.5"}, sets...)
	sm, b := load(t, "arm", sets...)
	for range b.Steps {
		step(t, sm)
	}
	set := b.Config.Constraints
	kin := multibody.NewWorkspace(sm.Model)
	kin.Update(sm.State.Q, nil)
	tg := make([]float64, sm.Model.NV)
	kin.GravityForces(tg)
	gmax := 0.0
	for _, x := range tg {
		gmax = math.Max(gmax, math.Abs(x))
	}
	for i, name := range armJoints {
		ac := set.Actuators[set.ActuatorIndex(name)]
		u, _ := ac.Target.Eval(sm.State.T)
		q := sm.State.Q[sm.Model.Bodies[ac.Body].QOff]
		resid = math.Max(resid, math.Abs(ac.Kp*(u-q)+tg[i])/gmax)
		hold = math.Max(hold, math.Abs(u-q))
		speed = math.Max(speed, math.Abs(sm.State.V[i]))
		predicted = math.Max(predicted, math.Abs(tg[i])/ac.Kp)
	}
	return resid, speed, hold, predicted
}

// TestArmHoldsPose: the 7-link arm of the embedded scene "arm" (YAML),
// every PD target constant, holds its pose against gravity: after 2.5 s it
// is at rest (|v| ≤ 1e-6) in the PD equilibrium kp (u − q) = −τ_g(q) to
// 1e-6 of the largest gravity torque, so its holding error is the closed
// form τ_g/kp; doubling kp (and kd) halves it. δt = 1 ms and 10 ms.
func TestArmHoldsPose(t *testing.T) {
	for _, dt := range []string{"dt=0.001", "dt=0.01"} {
		r1, v1, h1, p1 := armHoldError(t, dt)
		var stiff []string
		for _, j := range armJoints {
			stiff = append(stiff, "actuators."+j+".kp=6000", "actuators."+j+".kd=300")
		}
		r2, v2, h2, p2 := armHoldError(t, append(stiff, dt)...)
		t.Logf("%s: equilibrium residual %.3g, speed %.3g, holding error %.4g rad (τ_g/kp %.4g); kp doubled: %.3g, %.3g, %.4g rad (%.4g), ratio %.3f",
			dt, r1, v1, h1, p1, r2, v2, h2, p2, h1/h2)
		if r1 > 1e-6 || r2 > 1e-6 || v1 > 1e-6 || v2 > 1e-6 || h1/h2 < 1.9 || h1/h2 > 2.1 {
			t.Errorf("%s: residual %g, %g, speed %g, %g, error ratio %g", dt, r1, r2, v1, v2, h1/h2)
		}
	}
}

// TestArmTracksSinusoid: the arm's shoulder follows its sinusoidal target
// (0.6 ± 0.2 rad at 0.5 Hz, with the target's rate as velocity target):
// after the first second its tracking error |q − u(t)| stays within 1.5×
// the static error that the shoulder's gravity torque along the motion
// gives, max τ_g/kp (the PD's compliance; the remaining part is the
// inertial load), and doubling the gains halves it (ratio 1.8–2.2).
func TestArmTracksSinusoid(t *testing.T) {
	track := func(sets ...string) (e, pred float64) {
		sm, b := load(t, "arm", append(sets, "duration=3")...)
		set := b.Config.Constraints
		ac := set.Actuators[set.ActuatorIndex("shoulder")]
		qi := sm.Model.Bodies[ac.Body].QOff
		kin := multibody.NewWorkspace(sm.Model)
		tg := make([]float64, sm.Model.NV)
		for range b.Steps {
			st := step(t, sm)
			if st.T >= 1 {
				u, _ := ac.Target.Eval(st.T)
				e = math.Max(e, math.Abs(sm.State.Q[qi]-u))
				kin.Update(sm.State.Q, nil)
				kin.GravityForces(tg)
				pred = math.Max(pred, math.Abs(tg[1])/ac.Kp)
			}
		}
		return e, pred
	}
	e1, p1 := track()
	var stiff []string
	for _, j := range armJoints {
		stiff = append(stiff, "actuators."+j+".kp=6000", "actuators."+j+".kd=300")
	}
	e2, p2 := track(stiff...)
	t.Logf("shoulder tracking error max %.4g rad (kp 3000; gravity alone %.4g), %.4g rad (kp 6000; %.4g), ratio %.3f", e1, p1, e2, p2, e1/e2)
	if e1 > 1.5*p1 || e2 > 1.5*p2 || e1/e2 < 1.8 || e1/e2 > 2.2 {
		t.Errorf("tracking error %g (bound %g), %g (bound %g)", e1, 1.5*p1, e2, 1.5*p2)
	}
}

// TestArmEffortLimit: with the shoulder's effort limit set to half the
// gravity torque it must hold, the arm sags: the shoulder leaves its
// target (by more than 0.3 rad), its actuator reports saturation, and its
// torque never exceeds the limit (|γ|/δt ≤ e to 1e-9 relative) while the
// other actuators stay within theirs.
func TestArmEffortLimit(t *testing.T) {
	sm, b := load(t, "arm", "actuators.shoulder.target={constant: 0.6}", "duration=2")
	kin := multibody.NewWorkspace(sm.Model)
	kin.Update(sm.State.Q, nil)
	tg := make([]float64, sm.Model.NV)
	kin.GravityForces(tg)
	effort := 0.5 * math.Abs(tg[1])
	sm, b = load(t, "arm", "actuators.shoulder.target={constant: 0.6}", "duration=2", "actuators.shoulder.effort="+ftoa(effort))
	dt := b.Config.DT
	saturated, over := 0, 0.0
	for range b.Steps {
		step(t, sm)
		r := report(t, sm, "shoulder")
		if r.State == constraint.Saturated {
			saturated++
		}
		over = math.Max(over, math.Abs(r.Impulse[0])/dt/effort-1)
	}
	sag := math.Abs(sm.State.Q[1] - 0.6)
	t.Logf("shoulder effort %.4g N·m (half its gravity load %.4g): saturated in %d of %d steps, max |τ|/e − 1 = %.3g, sag %.3g rad",
		effort, math.Abs(tg[1]), saturated, b.Steps, over, sag)
	if saturated == 0 || over > 1e-9 || sag < 0.3 {
		t.Errorf("saturated %d steps, torque over the limit by %g, sag %g", saturated, over, sag)
	}
}

// ftoa formats a number for --set.
func ftoa(x float64) string { return strconvFormat(x) }

var _ = sim.SymplecticEuler
