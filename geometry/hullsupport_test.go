package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// supportHulls returns hulls of several kinds for the support tests: the
// iiwa link 6 cloud (670 vertices, large flat faces), a D prism with
// 200-vertex caps, points on a sphere (no ties), a prism over a regular
// 48-gon (exact ties along its axis and symmetric pairs) and a box.
func supportHulls(t testing.TB) map[string]*Hull {
	out := map[string]*Hull{}
	out["link6"] = mustHull(t, readPoints(t, "testdata/iiwa14_link_6/link_6_points.obj")).Hull
	d, _ := dPrism(200, 6, 1e-8, 0.5)
	out["dprism"] = mustHull(t, d).Hull
	r := newRand(7)
	var sph, prism []spatial.Vec3
	for range 1000 {
		sph = append(sph, randUnit(r))
	}
	for i := range 48 {
		a := 2 * math.Pi * float64(i) / 48
		prism = append(prism, spatial.Vec3{math.Cos(a), math.Sin(a), -1}, spatial.Vec3{math.Cos(a), math.Sin(a), 1})
	}
	out["sphere"] = mustHull(t, sph).Hull
	out["prism48"] = mustHull(t, prism).Hull
	out["box"] = mustHull(t, boxPoints(spatial.Vec3{1, 2, 3}, spatial.PoseIdentity())).Hull
	return out
}

// TestHullSupportClimb: the hill-climbing support returns exactly the
// scan's vertex (largest value, ties to the lowest index) for random
// directions, the axes, and every face normal and edge direction of each
// hull (exact and near ties), and for the zero direction.
func TestHullSupportClimb(t *testing.T) {
	r := newRand(11)
	for name, h := range supportHulls(t) {
		dirs := []spatial.Vec3{{}, {1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {1, 1, 0}, {1, 1, 1}}
		for range 2000 {
			dirs = append(dirs, randUnit(r).Scale(uniform(r, 0.1, 10)))
		}
		for _, f := range h.faces {
			dirs = append(dirs, f.n, f.n.Scale(3))
		}
		for _, e := range h.edges {
			n := h.faces[e.left].n.Add(h.faces[e.right].n)
			dirs = append(dirs, n)
		}
		for _, d := range dirs {
			if got, want := h.supportClimb(d), h.supportScan(d); got != want {
				t.Fatalf("%s: d %v: climb %d (%.17g), scan %d (%.17g)", name, d, got, h.verts[got].Dot(d), want, h.verts[want].Dot(d))
			}
		}
	}
}

// TestHullSupportAllocs: the climb allocates nothing.
func TestHullSupportAllocs(t *testing.T) {
	h := supportHulls(t)["link6"]
	d := spatial.Vec3{0.3, -0.2, 0.9}
	if n := testing.AllocsPerRun(100, func() { h.support(d); h.support(h.faces[3].n) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

// BenchmarkHullSupport compares the scan and the climb on each hull, for
// random directions.
func BenchmarkHullSupport(b *testing.B) {
	hulls := supportHulls(b)
	small := []spatial.Vec3{}
	r := newRand(3)
	for range 32 {
		small = append(small, randUnit(r))
	}
	hulls["sphere32"] = mustHull(b, small).Hull
	var dirs [256]spatial.Vec3
	for i := range dirs {
		dirs[i] = randUnit(r)
	}
	for _, name := range []string{"box", "sphere32", "prism48", "dprism", "link6", "sphere"} {
		h := hulls[name]
		b.Run(name+"/scan", func(b *testing.B) {
			i := 0
			for b.Loop() {
				h.supportScan(dirs[i&255])
				i++
			}
		})
		b.Run(name+"/climb", func(b *testing.B) {
			i := 0
			for b.Loop() {
				h.supportClimb(dirs[i&255])
				i++
			}
		})
	}
}

// BenchmarkCollideLink6 collides the iiwa link 6 hull (670 vertices) with
// a half-space it rests on, a box it touches and a copy of itself: the
// narrow phase calls support many times per pair.
func BenchmarkCollideLink6(b *testing.B) {
	h := mustHull(b, readPoints(b, "testdata/iiwa14_link_6/link_6_points.obj"))
	x := spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{1, 0.3, 0}, 0.4), P: spatial.Vec3{0.01, 0.02, 0.12}}
	box := NewBox(spatial.Vec3{0.2, 0.2, 0.2})
	xb := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0.05, 0.03, 0.2}}
	x2 := spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0.2}, 2), P: spatial.Vec3{0.03, 0.1, 0.2}}
	cases := []struct {
		name   string
		a      Shape
		xa     spatial.Pose
		b      Shape
		xb     spatial.Pose
		margin float64
	}{
		{"halfspace", NewHalfSpace(), spatial.PoseIdentity(), h, x, 0.1},
		{"box", box, xb, h, x, 0.01},
		{"hull", h, x, h, x2, 0.01},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			out := make([]Contact, 0, 16)
			if out = Collide(c.a, c.xa, c.b, c.xb, c.margin, out[:0]); len(out) == 0 {
				b.Fatal("no contact")
			}
			for b.Loop() {
				out = Collide(c.a, c.xa, c.b, c.xb, c.margin, out[:0])
			}
		})
	}
}
