package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// combine returns the inertia, in frame A, of a body of inertia a (in A)
// rigidly joined to a body of inertia b whose frame has pose x in A
// (parallel-axis theorem).
func combine(a, b spatial.SpatialInertia, x spatial.Pose) spatial.SpatialInertia {
	R := x.R.RotMat()
	cb := x.Apply(b.Com)
	m := a.Mass + b.Mass
	c := a.Com.Scale(a.Mass / m).Add(cb.Scale(b.Mass / m))
	shift := func(mass float64, d spatial.Vec3) spatial.Mat3 { // m (|d|² I − d dᵀ)
		return spatial.Identity3().Scale(mass * d.Dot(d)).Sub(spatial.Outer(d, d).Scale(mass))
	}
	i := a.Icom.Add(shift(a.Mass, a.Com.Sub(c))).Add(spatial.RotateInertia(R, b.Icom)).Add(shift(b.Mass, cb.Sub(c)))
	return spatial.SpatialInertia{Mass: m, Com: c, Icom: i}
}

// Payload test geometry: a link on a revolute joint about y at (0, 0, 2)
// and a box carried at xRel in the link's frame.
var (
	linkInertia = spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0, 0, -0.5}, Icom: spatial.Diag3(spatial.Vec3{0.08, 0.08, 0.002})}
	boxInertia  = spatial.SpatialInertia{Mass: 0.5, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.025})}
	xRel        = spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{1, 2, 3}.Scale(1/math.Sqrt(14)), 0.7), P: spatial.Vec3{0.1, 0.05, -1}}
)

// payload builds the link with the box as a separate free body, placed at
// xRel from the link at angle th0 with link rate w0, and returns the
// model, the state, the link and the box.
func payload(t *testing.T, th0, w0 float64) (*multibody.Model, *multibody.State, int, int) {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	link := mustAdd(t, m, "link", linkInertia, revolute(-1, at(0, 0, 2), spatial.Vec3{0, 1, 0}))
	box, err := m.AddFreeBody("box", boxInertia)
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewState()
	s.Q[0], s.V[0] = th0, w0
	xl := m.BodyPose(s, link)
	m.SetFreeBodyPose(s, box, xl.Compose(xRel))
	wl, _ := m.BodyVelocity(s, link)
	vb := m.PointVelocity(s, link, xl.Apply(xRel.P))
	m.SetFreeBodyVelocity(s, box, wl, vb)
	return m, s, link, box
}

// composite builds the same link with the box's inertia merged into it.
func composite(t *testing.T, th0, w0 float64, dt float64, sc sim.Scheme) *sim.Simulator {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	mustAdd(t, m, "link", combine(linkInertia, boxInertia, xRel), revolute(-1, at(0, 0, 2), spatial.Vec3{0, 1, 0}))
	s := m.NewState()
	s.Q[0], s.V[0] = th0, w0
	return newConstrained(t, m, s, nil, dt, sc)
}

// TestWeldMovesAsOneBody: a free box welded (near-rigid) to a pendulum link
// moves as one body with it: the weld's error stays within the
// regularization's bound (≤ 1.5× the error δt‖Rγ‖ it allows under the
// step's impulse plus the O(δt²) chord error of the velocity-level
// linearization, with symplectic Euler), and the link's angle follows the
// composite body's (the same pendulum built as one body) to within the
// error the regularization's O(δt²) compliance makes over 2 s. δt = 1 ms
// and 10 ms, two release angles.
func TestWeldMovesAsOneBody(t *testing.T) {
	for _, dt := range []float64{1e-3, 1e-2} {
		for _, th0 := range []float64{0.4, 1.3} {
			m, s, link, box := payload(t, th0, 0)
			set := &constraint.Set{Welds: []constraint.Weld{{Name: "weld", BodyA: link, FrameA: xRel, BodyB: box, FrameB: spatial.PoseIdentity()}}}
			set.ExcludeCollisions(m)
			sm := newConstrained(t, m, s, set, dt, sim.SymplecticEuler)
			ref := composite(t, th0, 0, dt, sim.SymplecticEuler)
			var ratio, werr, derr, allowed, curv float64
			for i := range int(math.Round(2 / dt)) {
				w := sm.State.V[0]
				step(t, sm)
				step(t, ref)
				r := report(t, sm, "weld")
				if i > 0 {
					ratio = math.Max(ratio, r.Violation/(allowed+curv))
				}
				// The error the regularization allows under this step's
				// impulse, plus the chord error ½ r (ω δt)² of moving the
				// box straight while the link turns (the velocity-level
				// constraint's linearization, r ≈ 1.01 m from the axis).
				allowed, curv = r.Allowed, 0.5*1.01*w*w*dt*dt
				werr = math.Max(werr, r.Violation)
				derr = math.Max(derr, math.Abs(sm.State.Q[0]-ref.State.Q[0]))
			}
			t.Logf("δt %g, θ0 %g: weld error max %.3g (%.3f× the regularization's bound), |θ − θ_composite| max %.3g rad", dt, th0, werr, ratio, derr)
			if ratio > 1.5 || derr > 200*dt*dt {
				t.Errorf("δt %g, θ0 %g: weld error %g× its bound, angle error %g", dt, th0, ratio, derr)
			}
		}
	}
}
