package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// TestJointLimitRest: a pendulum released against a lower limit θ_L (gravity
// pushes it into the limit) stops at the limit. At rest the penetration is
// the near-rigid estimate p = β² τ δt²/(4π² I) (SAP eq. 29 for the joint's
// inverse inertia w = 1/I and the load τ = m g L sin(θ_L − p) at the rest
// angle), or τ/k for a compliant limit (k = 100, 1000 N·m/rad, critically
// damped τd = 2√(I/k)): to 1e-6 relative with symplectic Euler; with the midpoint rule
// the load is evaluated at the free motion's mid-step angle (SAP's
// linearization, an O(δt²) shift), so to 1e-3. A near-rigid limit is never
// passed by more than p plus one step's travel at the impact speed.
// δt = 1 ms and 10 ms, three limit angles.
func TestJointLimitRest(t *testing.T) {
	const inertia = 1 + 0.4e-4 // m L² + the bob's own 0.4 m r²
	for _, dt := range []float64{1e-3, 1e-2} {
		for _, lower := range []float64{0.3, 0.6, 1.0} {
			for _, k := range []float64{0, 100, 1000} {
				for _, sc := range []sim.Scheme{sim.SymplecticEuler, sim.Midpoint} {
					cp := constraint.Compliance{Stiffness: k}
					if k > 0 {
						cp.Dissipation = 2 * math.Sqrt(inertia/k) // critical damping
					}
					sm := limitPendulum(t, dt, lower+0.5, lower, cp, sc)
					var pen, speed float64
					for range int(math.Round(3 / dt)) {
						step(t, sm)
						pen = math.Max(pen, lower-sm.State.Q[0])
						speed = math.Max(speed, math.Abs(sm.State.V[0]))
					}
					got := lower - sm.State.Q[0]
					tau := g * math.Sin(sm.State.Q[0])
					want := tau * dt * dt / (4 * math.Pi * math.Pi * inertia)
					if k > 0 {
						want = tau / k
					}
					tol := 1e-6
					if sc == sim.Midpoint {
						tol = 1e-3
					}
					r := report(t, sm, "limit")
					t.Logf("δt %g, θ_L %.1f, k %g, %v: rest penetration %.6g, estimate %.6g (rel. err %.2g), max %.3g, |v| %.2g, impulse %.6g (τ δt %.6g), %v",
						dt, lower, k, sc, got, want, math.Abs(got-want)/want, pen, math.Abs(sm.State.V[0]), r.Impulse[0], tau*dt, r.State)
					if math.Abs(got-want) > tol*want || math.Abs(sm.State.V[0]) > 1e-7 || r.State != constraint.Active {
						t.Errorf("δt %g, θ_L %g, k %g, %v: rest penetration %g, want %g; speed %g; state %v", dt, lower, k, sc, got, want, sm.State.V[0], r.State)
					}
					if k == 0 && pen > want+speed*dt {
						t.Errorf("δt %g, θ_L %g, k %g: passed the limit by %g > %g + %g", dt, lower, k, pen, want, speed*dt)
					}
				}
			}
		}
	}
}

// freeLimitArm is a hinge (inertia 1 kg·m², no gravity) with the range
// [−0.5, 0.5] rad, started at θ0 at rest, pushed by the torque tau until
// the time stop (stop 0: no torque), with scenes' default recovery speed
// floor (contact.max_recovery_speed, 0.3).
func freeLimitArm(t *testing.T, dt, theta0 float64, cp constraint.Compliance, tau, stop float64) *sim.Simulator {
	m := &multibody.Model{}
	b := mustAdd(t, m, "arm", pointMass(1, spatial.Vec3{0, 0, -1}), revolute(-1, at(0, 0, 0), spatial.Vec3{0, 1, 0}))
	s := m.NewState()
	s.Q[0] = theta0
	set := &constraint.Set{Limits: []constraint.Limit{{Name: "limit", Body: b, Lower: -0.5, Upper: 0.5, Compliance: cp}}}
	return newConstrained(t, m, s, set, dt, sim.SymplecticEuler, func(c *sim.Config) {
		c.Contact.MaxRecoverySpeed = 0.3
		if stop > 0 {
			c.Forces = []forces.Element{&forces.JointMotor{Body: b, Torque: []float64{tau}, Profile: forces.Profile{Offset: 1, Stop: stop}}}
		}
	})
}

// mujocoLimit is MuJoCo's default joint limit (solreflimit 0.02 1,
// solimplimit 0.9 0.95 0.001 0.5 2).
var mujocoLimit = constraint.Compliance{SolRef: constraint.DefaultSolRef, SolImp: constraint.DefaultSolImp}

// TestLimitStartedOutside: a hinge started 0.1 rad past its upper bound
// comes back over the limit's time constant and is never launched. With
// MuJoCo's soft limit (solreflimit, solimplimit defaults) the trajectory
// is MuJoCo 2.2.2's (mj_step, Euler, the same model: a 1 kg point at 1 m
// on a hinge with range [−0.5, 0.5], no gravity) to 1e-9: it leaves the
// bound at 1.8558 rad/s after 19 steps at δt = 1 ms and at 2.5 rad/s after
// one step at δt = 10 ms (where solref's T is raised to 2δt). A near-rigid
// limit (the default of URDF, SDF and YAML limits) followed SAP's
// v̂ = −g0/δt and left at 100 rad/s (1 ms) and 10 rad/s (10 ms); its
// recovery is now capped at the velocity MuJoCo's default limit reaches, so
// it is never faster than MuJoCo's (peak 1.8102 and 2.4390 rad/s).
func TestLimitStartedOutside(t *testing.T) {
	type sample struct {
		n    int
		q, v float64
	}
	for _, c := range []struct {
		dt   float64
		mj   []sample // MuJoCo 2.2.2: step, qpos, qvel
		peak float64  // MuJoCo's peak speed
	}{
		{1e-3, []sample{{1, 0.59975, -0.25}, {2, 0.599275625, -0.474375}, {10, 0.589878623756279, -1.55969067714193},
			{19, 0.573879113430798, -1.85581288233508}, {60, 0.497790785255061, -1.85581288233508}}, 1.85581288233508},
		{1e-2, []sample{{1, 0.575, -2.5}, {2, 0.55, -2.5}, {3, 0.525, -2.5}}, 2.5},
	} {
		sm := freeLimitArm(t, c.dt, 0.6, mujocoLimit, 0, 0)
		n := 0
		for _, s := range c.mj {
			for ; n < s.n; n++ {
				step(t, sm)
			}
			q, v := sm.State.Q[0], sm.State.V[0]
			t.Logf("δt %g, MuJoCo's limit, step %d: θ %.12f (MuJoCo %.12f), ω %.12f (MuJoCo %.12f)", c.dt, s.n, q, s.q, v, s.v)
			if math.Abs(q-s.q) > 1e-9 || math.Abs(v-s.v) > 1e-9 {
				t.Errorf("δt %g, step %d: θ %.12g, ω %.12g; MuJoCo %.12g, %.12g", c.dt, s.n, q, v, s.q, s.v)
			}
		}
		sm = freeLimitArm(t, c.dt, 0.6, constraint.Compliance{}, 0, 0)
		peak, back := 0.0, -1.0
		for i := range int(math.Round(0.3 / c.dt)) {
			step(t, sm)
			peak = math.Max(peak, math.Abs(sm.State.V[0]))
			if back < 0 && sm.State.Q[0] <= 0.5 {
				back = float64(i+1) * c.dt
			}
		}
		t.Logf("δt %g, near-rigid limit: peak speed %.5g rad/s (MuJoCo %.5g), back within the range after %.3g s", c.dt, peak, c.peak, back)
		if peak > c.peak || peak < 0.9*c.peak || back < 0 || back > 0.1 {
			t.Errorf("δt %g, near-rigid limit: peak speed %g (MuJoCo %g), back after %g s", c.dt, peak, c.peak, back)
		}
	}
}

// TestLimitPushedOut: 100 N·m pushes the hinge of TestLimitStartedOutside,
// from 0.45 rad, into its upper bound for 0.5 s, then stops. With MuJoCo's
// soft limit the joint rests (1 − d)/d · τ/(I K d) = 2.000 mrad past the
// bound as in MuJoCo 2.2.2 (θ 0.502000000657 at δt = 1 ms and
// 0.502000010739 at 10 ms at the release, to 1e-7: the impact differs, as
// Stiction's limit is reached without passing it where MuJoCo's, inactive
// until violated, lets the joint in by 24 mrad) and leaves at MuJoCo's
// 0.03712 and 0.05000 rad/s (to 1e-3 relative). A near-rigid limit rests at
// β²τδt²/(4π²I) past it and leaves slower. No launch either way.
func TestLimitPushedOut(t *testing.T) {
	for _, c := range []struct {
		dt, release, exit float64 // MuJoCo 2.2.2: θ at the release, peak speed after it
	}{{1e-3, 0.502000000656625, 0.0371162702434908}, {1e-2, 0.502000010739134, 0.0500002684783618}} {
		for _, cp := range []constraint.Compliance{mujocoLimit, {}} {
			nPush := int(math.Round(0.5 / c.dt))
			sm := freeLimitArm(t, c.dt, 0.45, cp, 100, (float64(nPush)-0.5)*c.dt)
			var peak float64
			for i := range int(math.Round(0.8 / c.dt)) {
				step(t, sm)
				if i == nPush-1 {
					q := sm.State.Q[0]
					t.Logf("δt %g, solref %v: θ at the release %.12f (MuJoCo %.12f)", c.dt, cp.SolRef, q, c.release)
					if cp.SolRef[0] != 0 && math.Abs(q-c.release) > 1e-7 {
						t.Errorf("δt %g: θ at the release %.12g, MuJoCo %.12g", c.dt, q, c.release)
					}
				}
				if i >= nPush {
					peak = math.Max(peak, math.Abs(sm.State.V[0]))
				}
			}
			t.Logf("δt %g, solref %v: peak speed after the release %.6g rad/s (MuJoCo %.6g)", c.dt, cp.SolRef, peak, c.exit)
			if peak > c.exit*(1+1e-3) || (cp.SolRef[0] != 0 && peak < c.exit*(1-1e-3)) {
				t.Errorf("δt %g, solref %v: left at %g rad/s, MuJoCo %g", c.dt, cp.SolRef, peak, c.exit)
			}
		}
	}
}
