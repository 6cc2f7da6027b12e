package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// flywheel is a body on a vertical revolute joint (no gravity torque),
// I = 0.5 kg·m² about the axis, with dry friction τf = 2 N·m and a motor
// actuator whose torque is set from Go.
func flywheel(t *testing.T, dt float64) *sim.Simulator {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	in := spatial.SpatialInertia{Mass: 3, Icom: spatial.Diag3(spatial.Vec3{0.3, 0.3, 0.5})}
	b := mustAdd(t, m, "wheel", in, revolute(-1, at(0, 0, 1), spatial.Vec3{0, 0, 1}))
	set := &constraint.Set{
		Frictions: []constraint.JointFriction{{Name: "friction", Body: b, Force: 2}},
		Actuators: []constraint.Actuator{{Name: "motor", Type: constraint.Motor, Body: b}},
	}
	return newConstrained(t, m, m.NewState(), set, dt, sim.SymplecticEuler)
}

// TestJointFriction: a joint with dry friction τf under a motor torque τ.
// Below the limit (τ = 0.5 τf, 0.9 τf) it sticks: over 1 s it turns less
// than 1e-6 rad, and its creep is the closed form of the regularized
// friction, v = σ_f w τ δt (R = σ_f w as SAP eq. 30, w = 1/I), to 1e-3
// relative; the friction reports active (sticking). δt = 1 ms and 10 ms. Above it (τ = 1.5 τf, 3 τf) the joint accelerates at
// (τ − τf)/I within 1% and the friction reports saturated (sliding).
func TestJointFriction(t *testing.T) {
	const inertia, tauF, sigma = 0.5, 2.0, constraint.FrictionSigma
	for _, dt := range []float64{1e-3, 1e-2} {
		for _, ratio := range []float64{0.5, 0.9, 1.5, 3} {
			sm := flywheel(t, dt)
			tau := ratio * tauF
			if err := sm.SetControl(0, tau, 0); err != nil {
				t.Fatal(err)
			}
			n := int(math.Round(1 / dt))
			var v1 float64
			for i := range n {
				step(t, sm)
				if i == 0 {
					v1 = sm.State.V[0]
				}
			}
			st := report(t, sm, "friction").State
			if ratio < 1 {
				creep := sigma / inertia * tau * dt
				drift := sm.State.Q[0]
				t.Logf("δt %g, τ = %.1f τf: drift %.3g rad in 1 s, creep %.6g rad/s (closed form %.6g), %v", dt, ratio, drift, sm.State.V[0], creep, st)
				if math.Abs(sm.State.V[0]-creep) > 1e-3*creep || st != constraint.Active || drift > 1e-6 {
					t.Errorf("δt %g, τ = %g τf: creep %g, want %g; drift %g; state %v", dt, ratio, sm.State.V[0], creep, drift, st)
				}
				continue
			}
			acc := (sm.State.V[0] - v1) / (float64(n-1) * dt)
			want := (tau - tauF) / inertia
			t.Logf("δt %g, τ = %.1f τf: acceleration %.6g rad/s², (τ − τf)/I = %.6g (rel. err %.2g), %v", dt, ratio, acc, want, math.Abs(acc-want)/want, st)
			if math.Abs(acc-want) > 0.01*want || st != constraint.Saturated {
				t.Errorf("δt %g, τ = %g τf: acceleration %g, want %g; state %v", dt, ratio, acc, want, st)
			}
		}
	}
}
