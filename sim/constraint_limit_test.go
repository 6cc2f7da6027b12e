package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/sim"
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
