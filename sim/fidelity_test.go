package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Everyday contact (issue 12), with the default contact model: the Lagged
// approximation, stable manifolds, speculative contact, friction anchors
// and load-aware near-rigid regularization (docs/CONTACT.md).

// tiltDeg returns the angle in degrees between body b's z axis and the
// vertical.
func tiltDeg(x spatial.Pose) float64 {
	z := x.R.Rotate(spatial.Vec3{0, 0, 1})
	return math.Acos(math.Max(-1, math.Min(1, z[2]))) * 180 / math.Pi
}

// TestCubeStacksStand: stacks of 10 and 30 cubes (10 cm, 1 kg, μ 0.5),
// each displaced by up to 2 mm and yawed by up to 1° at random (three
// seeds), stand for 5 s at δt = 1 ms and 10 ms: the top cube drifts
// < 1 mm, no cube tilts by 0.1° or more, every cube ends slower than
// 1 mm/s, every step converges with e_m ≤ εr, and the number of contact
// points never changes. So do 100 cubes at δt = 10 ms (three seeds), and,
// with STICTION_LONG=1, at δt = 1 ms.
func TestCubeStacksStand(t *testing.T) {
	type run struct {
		n    int
		dt   float64
		seed uint64
	}
	var runs []run
	for _, n := range []int{10, 30} {
		for _, dt := range []float64{0.001, 0.01} {
			for seed := uint64(1); seed <= 3; seed++ {
				if n == 30 && dt == 0.001 && seed > 1 && !long() {
					continue // the other seeds of the slowest case run with STICTION_LONG
				}
				runs = append(runs, run{n, dt, seed})
			}
		}
	}
	for seed := uint64(1); seed <= 3; seed++ {
		runs = append(runs, run{100, 0.01, seed}) // issue 22: a column past the buckling length of uniformly compliant interfaces
	}
	if long() {
		runs = append(runs, run{100, 0.001, 1})
	}
	for _, r := range runs {
		t.Run(fmt.Sprintf("n=%d/dt=%g/seed=%d", r.n, r.dt, r.seed), func(t *testing.T) {
			const T = 5.0
			s, b := build(t, stackScene(r.n, r.seed, 0.002, 1, r.dt, T, ""))
			top := s.Model.BodyByName(fmt.Sprintf("c%d", r.n-1))
			p0 := s.Model.BodyPose(s.State, top).P
			contacts := -1
			for _, st := range runSteps(t, s, b.Steps) {
				if st.Status != solver.Converged || st.MomentumError > 1e-6 {
					t.Fatalf("step %d: %v, e_m %g", st.Step, st.Status, st.MomentumError)
				}
				if contacts >= 0 && st.Contacts != contacts {
					t.Errorf("step %d: %d contact points, %d before", st.Step, st.Contacts, contacts)
				}
				contacts = st.Contacts
			}
			p1 := s.Model.BodyPose(s.State, top).P
			drift := math.Hypot(p1[0]-p0[0], p1[1]-p0[1])
			tilt, speed := 0.0, 0.0
			for i := range s.Model.Bodies {
				if s.Model.Bodies[i].Tree < 0 {
					continue
				}
				tilt = math.Max(tilt, tiltDeg(s.Model.BodyPose(s.State, i)))
				w, v := s.Model.BodyVelocity(s.State, i)
				speed = math.Max(speed, v.Norm()+w.Norm()*cubeSide*math.Sqrt(3)/2) // fastest point
			}
			t.Logf("top drift %.3g mm, max tilt %.3g°, max final speed %.3g mm/s, %d contact points", drift*1e3, tilt, speed*1e3, contacts)
			if drift >= 1e-3 || tilt >= 0.1 || speed >= 1e-3 {
				t.Errorf("drift %g m, tilt %g°, speed %g m/s: the stack does not stand", drift, tilt, speed)
			}
		})
	}
}

// TestSlidingCube: a cube sliding at 2 m/s on the floor (μ 0.5), at
// several yaws and directions of travel and both time steps, stays on the
// floor (its centre rises < 0.5 mm), keeps its direction (< 0.05°), and
// stops after v0²/(2μg) − v0δt/2 within 0.5% + v0δt/2 (the second term is
// symplectic Euler's offset for a constant deceleration, within the issue's
// tolerance).
func TestSlidingCube(t *testing.T) {
	const v0, mu, g = 2.0, 0.5, 9.81
	for _, dt := range []float64{0.001, 0.01} {
		for _, c := range [][2]float64{{0, 0}, {45, 30}, {100, 17}, {215, 73}, {300, -41}} {
			dir, yaw := c[0], c[1]
			t.Run(fmt.Sprintf("dt=%g/dir=%g/yaw=%g", dt, dir, yaw), func(t *testing.T) {
				const T = 0.6
				s, b := build(t, slideScene(v0, dir, yaw, mu, dt, T, ""))
				cube := s.Model.BodyByName("cube")
				z0 := s.Model.BodyPose(s.State, cube).P[2]
				d := dir * math.Pi / 180
				rise, dev := 0.0, 0.0
				for range b.Steps {
					runSteps(t, s, 1)
					x := s.Model.BodyPose(s.State, cube)
					rise = math.Max(rise, x.P[2]-z0)
					dev = math.Max(dev, slideTurnDeg(s, cube, d))
				}
				p := s.Model.BodyPose(s.State, cube).P
				stop := math.Hypot(p[0], p[1])
				want := v0 * v0 / (2 * mu * g)
				t.Logf("rise %.3g mm, stop %.5f m (v0²/(2μg) = %.5f, rel. %.3g%%), direction %.2g°", rise*1e3, stop, want, 100*(stop-want)/want, dev)
				if rise >= 0.5e-3 {
					t.Errorf("centre rose %g m", rise)
				}
				if tol := 0.005*want + v0*dt/2; math.Abs(stop-want) > tol {
					t.Errorf("stopped after %g m, want %g ± %g", stop, want, tol)
				}
				if dev >= 0.05 {
					t.Errorf("velocity turned by %g°", dev)
				}
			})
		}
	}
}

// TestSlidingCubeSAPHops measures, for the record, the SAP approximation's
// hop on the same slide (the paper's gliding artifact: while sliding, the
// normal velocity is about μ‖v_t‖); it checks the artifact is there, so
// that the comparison in docs/CONTACT.md stays true.
func TestSlidingCubeSAPHops(t *testing.T) {
	s, b := build(t, slideScene(2, 0, 0, 0.5, 0.01, 0.6, "sap"))
	cube := s.Model.BodyByName("cube")
	z0 := s.Model.BodyPose(s.State, cube).P[2]
	rise := 0.0
	for range b.Steps {
		runSteps(t, s, 1)
		rise = math.Max(rise, s.Model.BodyPose(s.State, cube).P[2]-z0)
	}
	t.Logf("SAP approximation: the sliding cube's centre rises %.3g mm", rise*1e3)
	if rise < 0.01 {
		t.Errorf("SAP approximation rose only %g m; docs/CONTACT.md reports a hop of centimetres", rise)
	}
}

// TestPushedCube: a cube pushed horizontally through its centre (half its
// height) with F = 0.95, 1.05 and 1.5 μmg: at 0.95 it sticks (drift < 1 mm
// in 1 s); above μmg it slides with acceleration F/m − μg within 2%; it
// never tilts by 1° or more (a rigid cube only slides: F h/2 < m g a/2).
func TestPushedCube(t *testing.T) {
	const mu, g = 0.5, 9.81
	for _, dt := range []float64{0.001, 0.01} {
		for _, f := range []float64{0.95, 1.05, 1.5} {
			for _, c := range [][2]float64{{0, 0}, {70, 25}, {200, -10}} {
				t.Run(fmt.Sprintf("dt=%g/F=%gμmg/dir=%g", dt, f, c[0]), func(t *testing.T) {
					const T = 1.0
					s, b := build(t, pushScene(f*mu*cubeMass*g, c[0], c[1], mu, dt, T, ""))
					cube := s.Model.BodyByName("cube")
					p0 := s.Model.BodyPose(s.State, cube).P
					tilt, half := 0.0, b.Steps/2
					var va spatial.Vec3
					var ta float64
					for i := range b.Steps {
						runSteps(t, s, 1)
						tilt = math.Max(tilt, tiltDeg(s.Model.BodyPose(s.State, cube)))
						if i == half {
							_, va = s.Model.BodyVelocity(s.State, cube)
							ta = s.State.T
						}
					}
					_, vb := s.Model.BodyVelocity(s.State, cube)
					drift := s.Model.BodyPose(s.State, cube).P.Sub(p0).Norm()
					if f < 1 {
						t.Logf("sticks: drift %.3g mm, tilt %.3g°", drift*1e3, tilt)
						if drift >= 1e-3 {
							t.Errorf("drifted %g m, want < 1 mm", drift)
						}
					} else {
						acc := (vb.Norm() - va.Norm()) / (s.State.T - ta)
						want := f*mu*g - mu*g
						t.Logf("slides: acceleration %.5g m/s² (F/m − μg = %.5g, rel. %.2g), tilt %.3g°", acc, want, (acc-want)/want, tilt)
						if math.Abs(acc-want) > 0.02*want {
							t.Errorf("acceleration %g, want %g ± 2%%", acc, want)
						}
					}
					if tilt >= 1 {
						t.Errorf("tilted by %g°", tilt)
					}
				})
			}
		}
	}
}

// TestSphereStack100: the peer scene's 100 spheres (r = 5 cm, 1 cm apart)
// dropped into a column at δt = 10 ms come to rest within 5 s (every
// sphere slower than 1 mm/s) and the column sags by less than 1 cm from
// the rigid stack's height (load-aware near-rigid regularization; with
// the paper's regularization it sags 0.69 m and still moves at 0.36 m/s).
func TestSphereStack100(t *testing.T) {
	for _, gap := range []float64{0.01, 0.002} {
		t.Run(fmt.Sprintf("gap=%g", gap), func(t *testing.T) { sphereStack100(t, gap) })
	}
}

// sphereStack100 drops a column of 100 spheres (r = 5 cm) with the given
// gap between neighbours at δt = 10 ms for 5 s: every step converges,
// the column settles (< 1 mm/s) and sags < 1 cm, no sphere passes
// through its neighbour (their order along z is kept), and the peak
// penetration while the column piles up stays below 1 mm. (Before
// speculative contacts counted chained impacts, a pair falling together
// was not a contact until it closed: at 1 cm gaps 6 spheres, at 2 mm 8
// ended below their lower neighbour, with 10 cm of penetration.)
func sphereStack100(t *testing.T, gap float64) {
	s, b := build(t, sphereColumn(100, gap, 0.01, 5))
	peak := 0.0
	for _, st := range runSteps(t, s, b.Steps) {
		if st.Status != solver.Converged || st.MomentumError > 1e-6 {
			t.Fatalf("step %d: %v, e_m %g", st.Step, st.Status, st.MomentumError)
		}
		peak = max(peak, st.MaxPenetration)
	}
	speed, top, swaps, prev := 0.0, 0.0, 0, math.Inf(-1)
	for i := range 100 {
		k := s.Model.BodyByName(fmt.Sprintf("b%d", i))
		w, v := s.Model.BodyVelocity(s.State, k)
		speed = math.Max(speed, v.Norm()+w.Norm()*0.05)
		z := s.Model.BodyPose(s.State, k).P[2]
		top = math.Max(top, z)
		if z < prev {
			swaps++
		}
		prev = z
	}
	sag := 0.05 + 99*0.1 - top
	t.Logf("final max speed %.3g mm/s, sag %.4g m, peak penetration %.3g mm, %d spheres below their lower neighbour", speed*1e3, sag, peak*1e3, swaps)
	if speed >= 1e-3 {
		t.Errorf("still moving at %g m/s", speed)
	}
	if sag >= 0.01 {
		t.Errorf("sags %g m", sag)
	}
	if swaps > 0 || peak >= 1e-3 {
		t.Errorf("%d spheres passed through a neighbour; peak penetration %g m", swaps, peak)
	}
}

// sphereColumn is the peer comparison's stack scene
// (shared/bench/stack-100-spheres.yaml): n spheres of radius 5 cm and
// 0.5236 kg, the lowest 1 cm above the ground and 1 cm apart, k = 1e12 N/m,
// τd = δt, μ = 1.
func sphereColumn(n int, gap, dt, duration float64) *scene.Scene {
	s := floorScene("stack", dt, duration, 1, "")
	for i := range n {
		z := 0.05 + gap + (0.1+gap)*float64(i)
		s.Bodies = append(s.Bodies, scene.Body{Name: fmt.Sprintf("b%d", i), Shape: &scene.Shape{Type: "sphere", Radius: ptr(0.05)},
			Material: "m", Mass: ptr(0.5236), Pose: scene.Pose{Position: &scene.Vec{0, 0, z}}})
	}
	return s
}
