package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestCylinderOnBoxMatchesHalfSpace: a cylinder resting on a large box's
// top face, away from its edges (flat, or tilted up to 0.5° about a random
// horizontal axis, or lying on its side, any yaw), gets a manifold with as
// many points as on a half-space through the face (4 on a flat cap, 4 or
// 5 on a tilted one, 2 on the side), whose deepest Phi is the true depth to 1e-12 when flat and within
// deepGap (the manifold's rule, manifold.go) when tilted, as on the
// half-space; and a warmed-up Collide allocates nothing.
func TestCylinderOnBoxMatchesHalfSpace(t *testing.T) {
	r := newRand(21)
	slab := NewBox(spatial.Vec3{2, 2, 0.2})
	ground := NewHalfSpace()
	xg := at(0, 0, 0.1)
	cyl := NewCylinder(0.1, 0.06)
	const pen, margin = 3e-4, 1e-3
	for trial := range 200 {
		yaw := rotAbout(ez, uniform(r, 0, 360))
		ta := uniform(r, 0, 2*math.Pi)
		flat := trial%4 < 2
		tilt := rotAbout(spatial.Vec3{math.Cos(ta), math.Sin(ta), 0}, uniform(r, 0, 0.5))
		if flat {
			tilt = spatial.QuatIdentity()
		}
		q := tilt.Mul(yaw)
		lying := trial%2 == 1
		if lying {
			q = tilt.Mul(yaw).Mul(rotAbout(ex, 90))
		}
		low := -supportShape(cyl, pose(spatial.Vec3{}, q), ez.Neg())[2]
		xb := pose(v3(uniform(r, -0.5, 0.5), uniform(r, -0.5, 0.5), 0.1+low-pen), q)
		cb := collideBoth(t, slab, spatial.PoseIdentity(), cyl, xb, margin)
		ch := collideBoth(t, ground, xg, cyl, xb, margin)
		lo, hi := 4, 4 // the four slots, and the deepest rim point when tilted
		if lying {
			lo, hi = 2, 2
		} else if !flat {
			hi = 5
		}
		if len(cb) < lo || len(cb) > hi || len(ch) < lo || len(ch) > hi {
			t.Fatalf("trial %d: %d contacts on the box, %d on the half-space, want %d to %d: %+v", trial, len(cb), len(ch), lo, hi, cb)
		}
		tol := 1e-12
		if !flat {
			tol = deepGap(2*cyl.Radius, margin, -pen, 0)
		}
		if db, dh := deepest(cb).Phi, deepest(ch).Phi; math.Abs(db+pen) > tol || math.Abs(dh+pen) > tol {
			t.Fatalf("trial %d: deepest Phi %g on the box, %g on the half-space, want %g within %g", trial, db, dh, -pen, tol)
		}
		out := make([]Contact, 0, 8)
		if n := testing.AllocsPerRun(20, func() { out = Collide(slab, spatial.PoseIdentity(), cyl, xb, margin, out[:0]) }); n != 0 {
			t.Fatalf("trial %d: %g allocations per Collide", trial, n)
		}
	}
}

// TestCylinderOnBoxProperties: for 500 random cylinders nearly flat (cap
// or side within 1.5°, so both sides of the 1° switch) on a box, anywhere
// over its top face including past its edges and corners, at margins 0 to
// 5 cm: the same contacts in both orders, the face manifold's witnesses
// on both surfaces to 1e-9, no
// contact deeper than the gap along its own normal, and within 1e-9 of
// the signed distance along EPA's normal when the pair overlaps at margin
// 0 (the depth is exact at margin 0).
func TestCylinderOnBoxProperties(t *testing.T) {
	r := newRand(5)
	box := NewBox(spatial.Vec3{0.4, 0.3, 0.2})
	id := spatial.PoseIdentity()
	manifolds := 0
	for trial := range 500 {
		cyl := NewCylinder(uniform(r, 0.02, 0.2), uniform(r, 0.02, 0.3))
		q := rotAbout(ez, uniform(r, 0, 360))
		if trial%3 == 0 {
			q = q.Mul(rotAbout(ex, 90))
		}
		ta := uniform(r, 0, 2*math.Pi)
		q = rotAbout(spatial.Vec3{math.Cos(ta), math.Sin(ta), 0}, uniform(r, 0, 1.5)).Mul(q)
		low := -supportShape(cyl, pose(spatial.Vec3{}, q), ez.Neg())[2]
		xb := pose(v3(uniform(r, -0.3, 0.3), uniform(r, -0.25, 0.25), 0.1+low+uniform(r, -2e-3, 2e-3)), q)
		margin := []float64{0, 1e-3, 0.05}[trial%3]
		cs := collideBoth(t, box, id, cyl, xb, margin)
		var faces []Contact // GJK/EPA's point is accurate to about 1e-7 near an edge
		for _, c := range cs {
			if c.Feature&featFace != 0 {
				faces = append(faces, c)
			}
		}
		checkWitnesses(t, box, id, cyl, xb, faces)
		if len(faces) > 0 {
			manifolds++
		}
		scale := shapeSize(box) + shapeSize(cyl)
		for _, c := range cs {
			if s := separationAlong(box, id, cyl, xb, c.Normal); c.Phi < s-1e-9*scale {
				t.Fatalf("trial %d: contact %+v deeper than the gap %g along its normal", trial, c, s)
			}
		}
		if phi, _ := oracle(box, id, cyl, xb); phi < 0 && margin == 0 {
			if d := deepest(cs); math.Abs(d.Phi-phi) > 1e-9*scale {
				t.Fatalf("trial %d: deepest Phi %.12g, signed distance %.12g: %+v", trial, d.Phi, phi, cs)
			}
		}
	}
	t.Logf("%d of 500 trials gave a face manifold", manifolds)
}
