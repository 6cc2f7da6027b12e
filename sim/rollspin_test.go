package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
)

// sphereScene is a sphere of radius r and mass m on the ground, with
// rolling and spin friction lengths μ_r and μ_s, started with linear
// velocity v and angular velocity w.
func sphereScene(r, m, muR, muS, dt, duration float64, v, w scene.Vec) *scene.Scene {
	s := floorScene("sphere", dt, duration, 0.8, "")
	mat := s.Materials["m"]
	mat.RollingFriction, mat.SpinFriction = ptr(muR), ptr(muS)
	s.Materials["m"] = mat
	s.Bodies = append(s.Bodies, scene.Body{Name: "ball", Shape: &scene.Shape{Type: "sphere", Radius: ptr(r)}, Material: "m",
		Mass: ptr(m), Pose: scene.Pose{Position: &scene.Vec{0, 0, r}}, Velocity: &scene.Velocity{Linear: &v, Angular: &w}})
	return s
}

// TestRollingFriction: a sphere rolling without slip on the floor with
// rolling-resistance length μ_r decelerates at a = 5 μ_r g/(7 r) (energy:
// d/dt ½(m + I/r²)v² = −μ_r m g v/r with I = 2/5 m r²), within 2%, in
// any direction, at δt = 1 ms and 10 ms, for two radii; without rolling
// friction it keeps rolling.
func TestRollingFriction(t *testing.T) {
	const g, m = 9.81, 0.5
	for _, dt := range []float64{0.001, 0.01} {
		for _, c := range []struct{ r, muR, v0, dir float64 }{{0.05, 0.002, 1, 0}, {0.05, 0.002, 1.5, 130}, {0.1, 0.005, 2, 250}} {
			t.Run(fmt.Sprintf("dt=%g/r=%g/dir=%g", dt, c.r, c.dir), func(t *testing.T) {
				d := c.dir * math.Pi / 180
				u := scene.Vec{math.Cos(d), math.Sin(d), 0}
				v := scene.Vec{c.v0 * u[0], c.v0 * u[1], 0}
				w := scene.Vec{-u[1] * c.v0 / c.r, u[0] * c.v0 / c.r, 0} // rolling: v = ω × (0, 0, r)
				const T = 0.4
				s, _ := build(t, sphereScene(c.r, m, c.muR, 0, dt, T, v, w))
				b := s.Model.BodyByName("ball")
				steps := int(math.Round(T / dt))
				// skip the first 5 steps (the contact's lagged load builds up)
				runSteps(t, s, 5)
				_, va := s.Model.BodyVelocity(s.State, b)
				ta := s.State.T
				runSteps(t, s, steps-5)
				_, vb := s.Model.BodyVelocity(s.State, b)
				a := (va.Norm() - vb.Norm()) / (s.State.T - ta)
				want := 5 * c.muR * g / (7 * c.r)
				t.Logf("deceleration %.5g m/s², closed form %.5g (rel. error %.2g)", a, want, (a-want)/want)
				if math.Abs(a-want) > 0.02*want {
					t.Errorf("deceleration %g, want %g ± 2%%", a, want)
				}
				if dev := math.Abs(math.Remainder(math.Atan2(vb[1], vb[0])-d, 2*math.Pi)) * 180 / math.Pi; dev > 0.05 {
					t.Errorf("direction turned by %.3g°", dev)
				}
			})
		}
	}
	s, _ := build(t, sphereScene(0.05, m, 0, 0, 0.01, 1, scene.Vec{1, 0, 0}, scene.Vec{0, 20, 0}))
	runSteps(t, s, 100)
	if _, v := s.Model.BodyVelocity(s.State, 1); math.Abs(v.Norm()-1) > 1e-3 {
		t.Errorf("without rolling friction the sphere slowed to %g m/s", v.Norm())
	}
}

// TestSpinFriction: a sphere spinning about the vertical on the floor with
// spin-friction length μ_s decelerates at α = μ_s m g/I = 5 μ_s g/(2 r²),
// within 2%, at δt = 1 ms and 10 ms, either sense of rotation; and stops.
func TestSpinFriction(t *testing.T) {
	const g, m, r, muS = 9.81, 0.5, 0.05, 0.001
	want := 5 * muS * g / (2 * r * r)
	for _, dt := range []float64{0.001, 0.01} {
		for _, w0 := range []float64{30, -20} {
			t.Run(fmt.Sprintf("dt=%g/w0=%g", dt, w0), func(t *testing.T) {
				T := 0.8 * math.Abs(w0) / want // stops at |w0|/α
				s, _ := build(t, sphereScene(r, m, 0, muS, dt, 2*T, scene.Vec{}, scene.Vec{0, 0, w0}))
				runSteps(t, s, 5)
				wa, _ := s.Model.BodyVelocity(s.State, 1)
				ta := s.State.T
				runSteps(t, s, int(math.Round(T/dt)))
				wb, _ := s.Model.BodyVelocity(s.State, 1)
				alpha := (math.Abs(wa[2]) - math.Abs(wb[2])) / (s.State.T - ta)
				t.Logf("angular deceleration %.5g rad/s², closed form %.5g (rel. error %.2g)", alpha, want, (alpha-want)/want)
				if math.Abs(alpha-want) > 0.02*want {
					t.Errorf("angular deceleration %g, want %g ± 2%%", alpha, want)
				}
				runSteps(t, s, int(math.Round(T/dt)))
				if wc, _ := s.Model.BodyVelocity(s.State, 1); math.Abs(wc[2]) > 1e-3 {
					t.Errorf("still spinning at %g rad/s after 2× the stopping time", wc[2])
				}
			})
		}
	}
}

// TestRollingHoldsOnSlope: a sphere on a slope of angle θ is held by rolling
// friction while tan θ ≤ μ_r/r (the rolling torque μ_r n balances the
// friction force's moment r m g sin θ with n = m g cos θ). At tan θ =
// ½ μ_r/r it must not move by more than 0.01 mm in 60 s, in any downhill
// direction, at δt = 1 ms and 10 ms: rolling anchors keep the regularized
// rolling friction from creeping (measured 6e-6 mm at 1 ms, 2.4e-4 mm at
// 10 ms; with materials' anchors off it creeps 0.18 mm and 0.72 mm). At tan θ = 2 μ_r/r it rolls without slip
// and accelerates at a = 5/7 g (sin θ − μ_r cos θ/r), within 2%.
func TestRollingHoldsOnSlope(t *testing.T) {
	const g, m, r, muR = 9.81, 0.5, 0.05, 0.002
	for _, dt := range []float64{0.001, 0.01} {
		for _, c := range []struct{ ratio, dir float64 }{{0.5, 0}, {0.5, 117}, {2, 233}} {
			t.Run(fmt.Sprintf("dt=%g/tan=%gμr/r/dir=%g", dt, c.ratio, c.dir), func(t *testing.T) {
				th := math.Atan(c.ratio * muR / r)
				d := c.dir * math.Pi / 180
				T := 60.0
				if c.ratio > 1 {
					T = 1
				}
				s := sphereScene(r, m, muR, 0, dt, T, scene.Vec{}, scene.Vec{})
				// the slope: gravity tilted by θ towards the downhill direction d
				s.Gravity = &scene.Vec{g * math.Sin(th) * math.Cos(d), g * math.Sin(th) * math.Sin(d), -g * math.Cos(th)}
				s.Bodies[1].Pose.Position = &scene.Vec{0, 0, r - m*g*math.Cos(th)/1e12} // at rest on the compliant floor
				sm, _ := build(t, s)
				b := sm.Model.BodyByName("ball")
				p0 := sm.Model.BodyPose(sm.State, b)
				if c.ratio < 1 {
					runSteps(t, sm, int(math.Round(1/dt)))
					runSteps(t, sm, int(math.Round(T/dt)))
					p1 := sm.Model.BodyPose(sm.State, b)
					moved := math.Hypot(p1.P[0]-p0.P[0], p1.P[1]-p0.P[1]) // along the floor (it sinks to its regularized depth)
					t.Logf("moved %.3g mm in %g s", moved*1e3, T)
					if moved > 1e-5 {
						t.Errorf("the held sphere moved %.3g mm in %g s", moved*1e3, T)
					}
					return
				}
				runSteps(t, sm, 10)
				_, va := sm.Model.BodyVelocity(sm.State, b)
				ta := sm.State.T
				runSteps(t, sm, int(math.Round(T/dt))-10)
				_, vb := sm.Model.BodyVelocity(sm.State, b)
				a := (vb.Norm() - va.Norm()) / (sm.State.T - ta)
				want := 5.0 / 7 * g * (math.Sin(th) - muR*math.Cos(th)/r)
				t.Logf("acceleration %.5g m/s², closed form %.5g (rel. error %.2g)", a, want, (a-want)/want)
				if math.Abs(a-want) > 0.02*want {
					t.Errorf("acceleration %g, want %g ± 2%%", a, want)
				}
			})
		}
	}
}

// TestSphereOnSlope: a sphere (no rolling friction) released at rest on a
// slope of angle θ, in three downhill directions, at δt = 1 ms and 10 ms.
// Where μ ≥ (2/7) tan θ it rolls without slip: a = 5/7 g sin θ and
// ω = v/r; where μ < (2/7) tan θ it slides: a = g (sin θ − μ cos θ) and
// the spin accelerates at α = 5 μ g cos θ/(2 r). Both within 1%, over 1 s.
func TestSphereOnSlope(t *testing.T) {
	const g, m, r = 9.81, 0.5, 0.05
	for _, dt := range []float64{0.001, 0.01} {
		for _, c := range []struct{ deg, mu, dir float64 }{{10, 0.8, 0}, {20, 0.8, 71}, {35, 0.8, 200}, {60, 0.2, 300}, {45, 0.1, 45}} {
			t.Run(fmt.Sprintf("dt=%g/θ=%g/μ=%g/dir=%g", dt, c.deg, c.mu, c.dir), func(t *testing.T) {
				th, d := c.deg*math.Pi/180, c.dir*math.Pi/180
				s := sphereScene(r, m, 0, 0, dt, 1, scene.Vec{}, scene.Vec{})
				mat := s.Materials["m"]
				mat.Friction = ptr(c.mu)
				s.Materials["m"] = mat
				s.Gravity = &scene.Vec{g * math.Sin(th) * math.Cos(d), g * math.Sin(th) * math.Sin(d), -g * math.Cos(th)}
				s.Bodies[1].Pose.Position = &scene.Vec{0, 0, r - m*g*math.Cos(th)/1e12}
				sm, _ := build(t, s)
				b := sm.Model.BodyByName("ball")
				runSteps(t, sm, 10)
				wa, va := sm.Model.BodyVelocity(sm.State, b)
				ta := sm.State.T
				runSteps(t, sm, int(math.Round(1/dt))-10)
				wb, vb := sm.Model.BodyVelocity(sm.State, b)
				span := sm.State.T - ta
				a := (vb.Norm() - va.Norm()) / span
				alpha := (wb.Norm() - wa.Norm()) / span
				dirErr := math.Abs(math.Remainder(math.Atan2(vb[1], vb[0])-d, 2*math.Pi)) * 180 / math.Pi
				rolls := c.mu >= 2.0/7*math.Tan(th)
				wantA, wantAlpha := 5.0/7*g*math.Sin(th), 5.0/7*g*math.Sin(th)/r
				if !rolls {
					wantA, wantAlpha = g*(math.Sin(th)-c.mu*math.Cos(th)), 2.5*c.mu*g*math.Cos(th)/r
				}
				t.Logf("rolls %v: a %.5g (closed form %.5g, rel. %.2g), α %.5g (%.5g, rel. %.2g), direction %.2g°",
					rolls, a, wantA, (a-wantA)/wantA, alpha, wantAlpha, (alpha-wantAlpha)/wantAlpha, dirErr)
				if math.Abs(a-wantA) > 0.01*wantA || math.Abs(alpha-wantAlpha) > 0.01*wantAlpha || dirErr > 0.05 {
					t.Errorf("a %g (want %g), α %g (want %g), direction off by %g°", a, wantA, alpha, wantAlpha, dirErr)
				}
			})
		}
	}
}
