package sim_test

import (
	"fmt"
	"math"
	"testing"
)

// slideRun slides the 1 kg, 10 cm cube of slideScene on the ground
// (k = 1e12 N/m, μ = 0.5, and τd = 10 ms at every δt: the peer scene
// cube-slide's material), yawed by yaw degrees, at v0 in direction dir
// (degrees from x), for duration at δt. It returns the horizontal speed of
// its centre of mass after each step and its horizontal displacement at
// the end.
func slideRun(t *testing.T, dir, yaw, v0, dt, duration float64) (speed []float64, disp float64) {
	t.Helper()
	sc := slideScene(v0, dir, yaw, 0.5, dt, duration, "")
	m := sc.Materials["m"]
	m.Dissipation = ptr(0.01)
	sc.Materials["m"] = m
	s, b := build(t, sc)
	cube := s.Model.BodyByName("cube")
	p0 := s.Model.BodyPose(s.State, cube).P
	for range b.Steps {
		runSteps(t, s, 1)
		_, v := s.Model.BodyVelocity(s.State, cube)
		speed = append(speed, math.Hypot(v[0], v[1]))
	}
	d := s.Model.BodyPose(s.State, cube).P.Sub(p0)
	return speed, math.Hypot(d[0], d[1])
}

// TestSlideStops checks Coulomb friction from a slide's first step (issue
// 22): a cube sliding at v0 on μ = 0.5 loses μ g δt of speed per step from
// the first step on (on the first, 2.5% less: the cube, set at φ = 0,
// still sinks into its near-rigid contact, and its normal impulse is 2.5%
// under m g δt; friction is μ times it), is at rest (< 1% of v0, what is left being the
// rebound of its pitch) one step after v0/(μ g), and slides v0²/(2 μ g),
// in any direction and yaw, at δt = 10 ms and 1 ms.
func TestSlideStops(t *testing.T) {
	const mu, g = 0.5, 9.81
	for _, dt := range []float64{0.01, 0.001} {
		for _, v0 := range []float64{0.2, 2} {
			for _, dir := range []float64{0, 30, 45} {
				for _, yaw := range []float64{0, 20} {
					tStop := v0 / (mu * g)
					speed, disp := slideRun(t, dir, yaw, v0, dt, tStop+0.1)
					name := fmt.Sprintf("δt %g, v0 %g, direction %g°, yaw %g°", dt, v0, dir, yaw)
					first := (v0 - speed[0]) / dt
					k := int(math.Floor(tStop/dt)) - 1 // the last full step of sliding
					mean := (v0 - speed[k]) / (float64(k+1) * dt)
					after := speed[int(math.Ceil(tStop/dt))] // one step after the stop
					want := v0 * v0 / (2 * mu * g)
					t.Logf("%s: first-step deceleration %.3f, mean %.3f m/s² (μg %.3f); speed one step after v0/(μg) %.2e m/s; slid %.5f m (v0²/(2μg) %.5f)",
						name, first, mean, mu*g, after, disp, want)
					if math.Abs(first/(mu*g)-1) > 0.03 || math.Abs(mean/(mu*g)-1) > 0.005 {
						t.Errorf("%s: deceleration %.3f (first step), %.3f (mean); want μg = %.3f", name, first, mean, mu*g)
					}
					if after > 0.01*v0 {
						t.Errorf("%s: still moving at %.3g m/s one step after v0/(μg) = %.4f s", name, after, tStop)
					}
					if math.Abs(disp/want-1) > 0.01+v0*dt/want {
						t.Errorf("%s: slid %.5f m, want %.5f", name, disp, want)
					}
				}
			}
		}
	}
}
