package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestManifoldCounts checks the number of contact points of resting
// configurations with random sizes, random turns about the vertical and a
// random world frame w (the ground or lower box is at w, the other shape
// rests on it with penetration pen): every point must report Phi = −pen
// (or at least −pen when the points differ) and the ground's normal.
func TestManifoldCounts(t *testing.T) {
	r := newRand(41)
	for trial := range 40 {
		w := pose(randUnit(r).Scale(uniform(r, 0, 3)), randQuat(r))
		up := w.R.Rotate(ez)
		yaw := rotAbout(ez, uniform(r, 0, 360))
		pen := uniform(r, 1e-4, 1e-2)
		place := func(s Shape, local spatial.Pose) spatial.Pose { return w.Compose(local) }
		check := func(name string, a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, lo, hi int, exact bool) {
			t.Helper()
			cs := collideBoth(t, a, xa, b, xb, 0)
			if len(cs) < lo || len(cs) > hi {
				t.Fatalf("trial %d, %s: %d contacts, want %d..%d: %+v", trial, name, len(cs), lo, hi, cs)
			}
			for _, c := range cs {
				if !vecClose(c.Normal, up, 1e-9) || (exact && math.Abs(c.Phi+pen) > 1e-9) || c.Phi < -pen-1e-9 {
					t.Fatalf("trial %d, %s: contact %+v, want normal %v and Phi %g", trial, name, c, up, -pen)
				}
			}
			if d := deepest(cs); math.Abs(d.Phi+pen) > 1e-9 {
				t.Fatalf("trial %d, %s: deepest Phi %g, want %g", trial, name, d.Phi, -pen)
			}
		}
		ground := NewHalfSpace()
		box := randShape(r, Box)
		h := box.HalfExtents
		check("box flat on the ground", ground, w, box, place(box, pose(v3(0, 0, h[2]-pen), yaw)), 4, 4, true)

		// Box on a box of similar size, centred, turned: the faces overlap
		// in a centrally symmetric polygon with 4 to 8 corners.
		check("box on box", boxH(0.6, 0.6, 0.5), w, box, place(box, pose(v3(0, 0, 0.5+h[2]-pen), yaw)), 4, 8, true)
		base := boxH(2, 2, 0.5) // large enough to hold the tilted shapes below

		// Tilted box: one corner (or an edge) lowest.
		tilt := rotAbout(randUnit(r).Mul(v3(1, 1, 0)), uniform(r, 5, 40)).Mul(yaw)
		low := -supportShape(box, pose(spatial.Vec3{}, tilt), ez.Neg())[2]
		check("tilted box on the ground", ground, w, box, place(box, pose(v3(0, 0, low-pen), tilt)), 1, 4, false)
		check("tilted box on box", base, w, box, place(box, pose(v3(0, 0, 0.5+low-pen), tilt)), 1, 5, false)

		capsule := randShape(r, Capsule)
		lying := yaw.Mul(rotAbout(ey, 90))
		check("capsule lying on the ground", ground, w, capsule, place(capsule, pose(v3(0, 0, capsule.Radius-pen), lying)), 2, 2, true)
		check("capsule lying on a box", base, w, capsule, place(capsule, pose(v3(0, 0, 0.5+capsule.Radius-pen), lying)), 2, 2, true)
		check("capsule standing", ground, w, capsule, place(capsule, pose(v3(0, 0, capsule.HalfLength+capsule.Radius-pen), yaw)), 1, 1, true)

		cyl := randShape(r, Cylinder)
		check("cylinder standing", ground, w, cyl, place(cyl, pose(v3(0, 0, cyl.HalfLength-pen), yaw)), 4, 4, true)
		check("cylinder lying", ground, w, cyl, place(cyl, pose(v3(0, 0, cyl.Radius-pen), lying)), 2, 2, true)
		tiltC := rotAbout(ex, uniform(r, 10, 60))
		lowC := -supportShape(cyl, pose(spatial.Vec3{}, tiltC), ez.Neg())[2]
		check("cylinder tilted", ground, w, cyl, place(cyl, pose(v3(0, 0, lowC-pen), tiltC)), 1, 5, false)
	}
}

// TestBoxOnBoxPolygons: for random boxes turned about the vertical on a
// box (the face intersection is a polygon of 4 to 8 corners), the manifold
// has exactly the 4 slot points, each inside both faces, and each is the
// polygon's extreme point along its slot direction (±1, ±1) up to the
// sliding allowed near ties: checked against the maximum of d·p over a
// fine grid of points inside both faces.
func TestBoxOnBoxPolygons(t *testing.T) {
	r := newRand(42)
	base := boxH(0.6, 0.6, 0.5)
	for trial := range 50 {
		box := randShape(r, Box)
		yaw := uniform(r, 0, 360)
		xb := pose(v3(0, 0, 0.5+box.HalfExtents[2]-1e-3), rotAbout(ez, yaw))
		cs := Collide(base, spatial.PoseIdentity(), box, xb, 0, nil)
		if len(cs) != 4 {
			t.Fatalf("trial %d: %d contacts, want 4: %+v", trial, len(cs), cs)
		}
		inside := func(p spatial.Vec3, tol float64) bool {
			q := xb.ApplyInv(p)
			return math.Abs(p[0]) <= 0.6+tol && math.Abs(p[1]) <= 0.6+tol &&
				math.Abs(q[0]) <= box.HalfExtents[0]+tol && math.Abs(q[1]) <= box.HalfExtents[1]+tol
		}
		for _, c := range cs {
			if !inside(c.Point, 1e-9) || !near(c.Phi, -1e-3, 1e-12) {
				t.Fatalf("trial %d: contact %+v outside the faces", trial, c)
			}
			k := c.Feature & 7
			d := [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}}[k]
			best := math.Inf(-1)
			n := 150
			for i := range n + 1 {
				for j := range n + 1 {
					p := v3(-0.6+1.2*float64(i)/float64(n), -0.6+1.2*float64(j)/float64(n), 0.5)
					if inside(p, 0) {
						best = math.Max(best, d[0]*p[0]+d[1]*p[1])
					}
				}
			}
			// Grid spacing 0.008: the grid maximum is within 0.016 of the
			// true one; sliding near a tie costs a few mm more.
			if got := d[0]*c.Point[0] + d[1]*c.Point[1]; got < best-0.03 {
				t.Fatalf("trial %d: slot %d point %v reaches %g along %v, polygon %g", trial, k, c.Point, got, d, best)
			}
		}
	}
}
