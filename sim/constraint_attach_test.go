package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// TestAttachmentMatchesCompositeBody: a free box attached to a pendulum
// link by elimination (null-space reduction, notes §0.17–0.19) follows the
// same trajectory as the pendulum built as one composite body to 1e-9 rad
// over 2 s, and the attachment error is zero to round-off (≤ 1e-12).
// Symplectic Euler, δt = 1 ms and 10 ms, two release angles, with an
// initial rate. The attached body's reaction (the master's impulse on it)
// balances its momentum: Σ impulse = m Δv − m g δt (checked on its linear
// part).
func TestAttachmentMatchesCompositeBody(t *testing.T) {
	for _, dt := range []float64{1e-3, 1e-2} {
		for _, th0 := range []float64{0.4, 1.3} {
			m, s, link, box := payload(t, th0, -1.5)
			set := &constraint.Set{Attachments: []constraint.Attachment{{Name: "box", Master: link, Body: box}}}
			set.ExcludeCollisions(m)
			sm := newConstrained(t, m, s, set, dt, sim.SymplecticEuler)
			ref := composite(t, th0, -1.5, dt, sim.SymplecticEuler)
			var derr, verr, aerr, ferr float64
			for range int(math.Round(2 / dt)) {
				_, v0 := m.BodyVelocity(sm.State, box)
				step(t, sm)
				step(t, ref)
				derr = math.Max(derr, math.Abs(sm.State.Q[0]-ref.State.Q[0]))
				verr = math.Max(verr, math.Abs(sm.State.V[0]-ref.State.V[0]))
				r := report(t, sm, "box")
				aerr = math.Max(aerr, r.Violation)
				_, v1 := m.BodyVelocity(sm.State, box)
				want := v1.Sub(v0).Scale(boxInertia.Mass).Sub(spatial.Vec3{0, 0, -g * boxInertia.Mass * dt})
				got := spatial.Vec3{r.Impulse[3], r.Impulse[4], r.Impulse[5]}
				ferr = math.Max(ferr, got.Sub(want).Norm())
			}
			t.Logf("δt %g, θ0 %g: |θ − θ_composite| max %.3g rad, |θ̇ − θ̇_composite| max %.3g rad/s, attachment error max %.3g, reaction error %.3g N·s",
				dt, th0, derr, verr, aerr, ferr)
			if derr > 1e-9 || verr > 1e-9 || aerr > 1e-12 || ferr > 1e-9 {
				t.Errorf("δt %g, θ0 %g: angle error %g, rate error %g, attachment error %g, reaction error %g", dt, th0, derr, verr, aerr, ferr)
			}
		}
	}
}

// TestAttachmentChain: a second box attached to the first (attachments to
// attached bodies, notes §0.18) still gives the composite body's
// trajectory to 1e-9 (the composite holds both boxes).
func TestAttachmentChain(t *testing.T) {
	const dt = 1e-3
	m, s, link, box := payload(t, 0.9, 0.5)
	x2 := spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, 0.3), P: spatial.Vec3{0.2, -0.1, 0.05}}
	box2, err := m.AddFreeBody("box2", boxInertia)
	if err != nil {
		t.Fatal(err)
	}
	s2 := m.NewState()
	copy(s2.Q, s.Q)
	copy(s2.V, s.V)
	m.SetFreeBodyPose(s2, box2, m.BodyPose(s2, box).Compose(x2))
	// Attachments listed child first: the order of elimination comes from the graph.
	set := &constraint.Set{Attachments: []constraint.Attachment{{Name: "b2", Master: box, Body: box2}, {Name: "b1", Master: link, Body: box}}}
	sm := newConstrained(t, m, s2, set, dt, sim.SymplecticEuler)
	both := combine(combine(linkInertia, boxInertia, xRel), boxInertia, xRel.Compose(x2))
	mc := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	mustAdd(t, mc, "link", both, revolute(-1, at(0, 0, 2), spatial.Vec3{0, 1, 0}))
	sc := mc.NewState()
	sc.Q[0], sc.V[0] = 0.9, 0.5
	ref := newConstrained(t, mc, sc, nil, dt, sim.SymplecticEuler)
	derr, aerr := 0.0, 0.0
	for range 2000 {
		step(t, sm)
		step(t, ref)
		derr = math.Max(derr, math.Abs(sm.State.Q[0]-ref.State.Q[0]))
		aerr = math.Max(aerr, math.Max(report(t, sm, "b1").Violation, report(t, sm, "b2").Violation))
	}
	t.Logf("chain: |θ − θ_composite| max %.3g rad, attachment errors max %.3g", derr, aerr)
	if derr > 1e-9 || aerr > 1e-12 {
		t.Errorf("chain: angle error %g, attachment error %g", derr, aerr)
	}
}

// TestPointAttachment: a box whose point is attached to the link (its
// rotation stays free) keeps that point on the link's material point to
// round-off, and converges to the same system built with a ball joint as
// δt → 0 (the two integrate the box's orientation in different frames, so
// they differ at O(δt)).
func TestPointAttachment(t *testing.T) {
	pt := spatial.Vec3{0.1, 0, 0.1} // in the box frame
	run := func(dt float64) (float64, float64) {
		m, s, link, box := payload(t, 0.9, 0)
		s.V[m.Bodies[box].VOff], s.V[m.Bodies[box].VOff+2] = 2, -1 // spin the box
		set := &constraint.Set{Attachments: []constraint.Attachment{{Name: "p", Master: link, Body: box, PointOnly: true, Point: pt}}}
		sm := newConstrained(t, m, s, set, dt, sim.SymplecticEuler)
		// The reference: the box on a ball joint at the same point.
		mr := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
		l := mustAdd(t, mr, "link", linkInertia, revolute(-1, at(0, 0, 2), spatial.Vec3{0, 1, 0}))
		ball := multibody.Joint{Type: multibody.JointBall, Parent: l, ParentFrame: xRel.Compose(at(pt[0], pt[1], pt[2])), ChildFrame: at(pt[0], pt[1], pt[2])}
		mustAdd(t, mr, "box", boxInertia, ball)
		sr := mr.NewState()
		sr.Q[0] = 0.9
		rwf := mr.BodyPose(sr, l).R.Mul(xRel.R)         // R_WF
		wf := rwf.Conj().Rotate(spatial.Vec3{2, 0, -1}) // relative ω in F (the link is at rest)
		copy(sr.V[1:], wf[:])
		ref := newConstrained(t, mr, sr, nil, dt, sim.SymplecticEuler)
		perr, derr := 0.0, 0.0
		for range int(math.Round(1 / dt)) {
			step(t, sm)
			step(t, ref)
			perr = math.Max(perr, report(t, sm, "p").Violation)
			derr = math.Max(derr, m.BodyPose(sm.State, box).P.Sub(mr.BodyPose(ref.State, 1).P).Norm())
		}
		return perr, derr
	}
	p1, d1 := run(2e-3)
	p2, d2 := run(1e-3)
	t.Logf("point attachment: point error max %.3g, %.3g; box position vs ball joint %.3g m (δt 2 ms), %.3g m (1 ms), ratio %.2f", p1, p2, d1, d2, d1/d2)
	if p1 > 1e-12 || p2 > 1e-12 || d1/d2 < 1.6 || d2 > 1e-2 {
		t.Errorf("point error %g, %g; difference to the ball joint %g → %g", p1, p2, d1, d2)
	}
}

// TestAttachmentMidpoint: with the midpoint rule the reduction takes T and
// its fictitious terms at the mid-step of the linearization velocities.
// Re-linearized at the solution (Config.Relinearizations), the attached
// payload follows the composite body to second order (halving δt divides
// the angle difference after 1 s by 3.5–4.5; the two place the payload's
// mid-step orientation differently, a free body's quaternion step against
// the master's rotation); with SAP's single linearization the difference
// is logged. The attachment error stays zero.
func TestAttachmentMidpoint(t *testing.T) {
	run := func(dt float64, relin int) (float64, float64) {
		m, s, link, box := payload(t, 0.9, 0.5)
		set := &constraint.Set{Attachments: []constraint.Attachment{{Name: "box", Master: link, Body: box}}}
		sm := newConstrained(t, m, s, set, dt, sim.Midpoint, func(c *sim.Config) { c.Relinearizations = relin })
		ref := composite(t, 0.9, 0.5, dt, sim.Midpoint)
		aerr := 0.0
		for range int(math.Round(1 / dt)) {
			step(t, sm)
			step(t, ref)
			aerr = math.Max(aerr, report(t, sm, "box").Violation)
		}
		return math.Abs(sm.State.Q[0] - ref.State.Q[0]), aerr
	}
	d1, a1 := run(2e-3, 10)
	d2, a2 := run(1e-3, 10)
	e1, _ := run(2e-3, 0)
	e2, _ := run(1e-3, 0)
	t.Logf("midpoint, re-linearized: |θ − θ_composite| after 1 s %.3g (δt 2 ms), %.3g (1 ms), ratio %.2f; attachment error %.3g, %.3g", d1, d2, d1/d2, a1, a2)
	t.Logf("midpoint, one linearization: %.3g, %.3g, ratio %.2f", e1, e2, e1/e2)
	if d1/d2 < 3.5 || d1/d2 > 4.5 || a1 > 1e-12 || a2 > 1e-12 || d2 > 1e-6 {
		t.Errorf("difference %g → %g, attachment error %g, %g", d1, d2, a1, a2)
	}
}
