package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// Closed-form cases for every pair. Each case is run in its own frame and
// in four random world frames (both poses premultiplied by a random rigid
// transform, results mapped back), and in both orders (collideBoth checks
// that the swapped order negates the normals and keeps points and Phi).

type want struct {
	point, normal spatial.Vec3
	phi           float64
}

type pairCase struct {
	name   string
	a      Shape
	xa     spatial.Pose
	b      Shape
	xb     spatial.Pose
	margin float64
	want   []want                           // expected contacts, in any order
	check  func(t *testing.T, cs []Contact) // replaces want where points are not unique
	tol    float64                          // default 1e-9
}

func v3(x, y, z float64) spatial.Vec3 { return spatial.Vec3{x, y, z} }

var (
	ex = v3(1, 0, 0)
	ey = v3(0, 1, 0)
	ez = v3(0, 0, 1)
)

func boxH(x, y, z float64) Shape   { return Shape{Kind: Box, HalfExtents: v3(x, y, z)} }
func capsuleH(r, l float64) Shape  { return Shape{Kind: Capsule, Radius: r, HalfLength: l} }
func cylinderH(r, l float64) Shape { return Shape{Kind: Cylinder, Radius: r, HalfLength: l} }
func posed3(p spatial.Vec3, axis spatial.Vec3, deg float64) spatial.Pose {
	return pose(p, rotAbout(axis, deg))
}

// alongX and alongY are poses whose local z axis is the world x or y axis.
func alongX(x, y, z float64) spatial.Pose { return posed3(v3(x, y, z), ey, 90) }
func alongY(x, y, z float64) spatial.Pose { return posed3(v3(x, y, z), ex, -90) }

func one(p spatial.Vec3, n spatial.Vec3, phi float64) []want { return []want{{p, n, phi}} }

// worldFrames returns the identity and four random rigid transforms.
func worldFrames() []spatial.Pose {
	r := newRand(99)
	fs := []spatial.Pose{spatial.PoseIdentity()}
	for range 4 {
		fs = append(fs, pose(randUnit(r).Scale(uniform(r, 0, 5)), randQuat(r)))
	}
	return fs
}

func runPairCases(t *testing.T, cases []pairCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for fi, w := range worldFrames() {
				cs := collideBoth(t, c.a, w.Compose(c.xa), c.b, w.Compose(c.xb), c.margin)
				local := make([]Contact, len(cs))
				for i, k := range cs {
					local[i] = Contact{Point: w.ApplyInv(k.Point), Normal: w.R.Conj().Rotate(k.Normal), Phi: k.Phi}
				}
				if c.check != nil {
					c.check(t, local)
				} else {
					tol := c.tol
					if tol == 0 {
						tol = 1e-9
					}
					matchContacts(t, fi, local, c.want, tol)
				}
			}
		})
	}
}

// matchContacts checks that cs and ws are the same sets of contacts.
func matchContacts(t *testing.T, frame int, cs []Contact, ws []want, tol float64) {
	t.Helper()
	if len(cs) != len(ws) {
		t.Fatalf("frame %d: got %d contacts %+v, want %d %+v", frame, len(cs), cs, len(ws), ws)
	}
	used := make([]bool, len(cs))
	for _, w := range ws {
		found := false
		for i, c := range cs {
			if !used[i] && vecClose(c.Point, w.point, tol) && vecClose(c.Normal, w.normal, tol) && math.Abs(c.Phi-w.phi) <= 1e-9 {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Fatalf("frame %d: no contact matches %+v in %+v", frame, w, cs)
		}
	}
}

// checkAll returns a check that there are n contacts, each with the given
// Phi (to 1e-9), normal (to tol) and a point that satisfies pointOK.
func checkAll(n int, phi float64, normal spatial.Vec3, tol float64, pointOK func(p spatial.Vec3) bool) func(*testing.T, []Contact) {
	return func(t *testing.T, cs []Contact) {
		t.Helper()
		if len(cs) != n {
			t.Fatalf("got %d contacts %+v, want %d", len(cs), cs, n)
		}
		for _, c := range cs {
			if math.Abs(c.Phi-phi) > 1e-9 || !vecClose(c.Normal, normal, tol) || !pointOK(c.Point) {
				t.Fatalf("contact %+v, want Phi %g normal %v", c, phi, normal)
			}
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestHalfSpaceSphere(t *testing.T) {
	hs, s := NewHalfSpace(), NewSphere(0.5)
	id := spatial.PoseIdentity()
	runPairCases(t, []pairCase{
		{name: "separated", a: hs, xa: id, b: s, xb: at(0.3, -0.2, 1.5), margin: 2, want: one(v3(0.3, -0.2, 0.5), ez, 1)},
		{name: "beyond margin", a: hs, xa: id, b: s, xb: at(0.3, -0.2, 1.5), margin: 0.5},
		{name: "touching", a: hs, xa: id, b: s, xb: at(0.3, -0.2, 0.5), margin: 1e-9, want: one(v3(0.3, -0.2, 0), ez, 0)},
		{name: "shallow", a: hs, xa: id, b: s, xb: at(0.3, -0.2, 0.4), want: one(v3(0.3, -0.2, -0.05), ez, -0.1)},
		{name: "deep", a: hs, xa: id, b: s, xb: at(0.3, -0.2, -0.3), want: one(v3(0.3, -0.2, -0.4), ez, -0.8)},
		{name: "rotated plane", a: hs, xa: posed3(v3(0, 0, 0), ex, 90), b: s, xb: at(0, -2, 0), margin: 2,
			want: one(v3(0, -0.75, 0), v3(0, -1, 0), 1.5)},
	})
}

func TestHalfSpaceBox(t *testing.T) {
	hs, b := NewHalfSpace(), boxH(0.5, 0.3, 0.2)
	id := spatial.PoseIdentity()
	corners := func(z, phi float64) []want {
		var ws []want
		for _, x := range []float64{-0.5, 0.5} {
			for _, y := range []float64{-0.3, 0.3} {
				ws = append(ws, want{v3(x, y, z), ez, phi})
			}
		}
		return ws
	}
	th := 30 * math.Pi / 180
	low := 0.3*math.Sin(th) + 0.2*math.Cos(th) // depth of the lowest edge below the centre
	yLow := -0.3*math.Cos(th) + 0.2*math.Sin(th)
	tilted := pose(v3(0, 0, low-0.02), rotAbout(ex, 30))
	skew := pose(v3(0.1, 0.2, 0.3), rotAbout(v3(1, 1, 0), 25))
	runPairCases(t, []pairCase{
		{name: "flat resting", a: hs, xa: id, b: b, xb: at(0, 0, 0.19), want: corners(-0.005, -0.01)},
		{name: "flat within margin", a: hs, xa: id, b: b, xb: at(0, 0, 0.25), margin: 0.1, want: corners(0.025, 0.05)},
		{name: "flat beyond margin", a: hs, xa: id, b: b, xb: at(0, 0, 0.25), margin: 0.01},
		{name: "flat touching", a: hs, xa: id, b: b, xb: at(0, 0, 0.2), margin: 1e-9, want: corners(0, 0)},
		{name: "deep keeps 4 deepest", a: hs, xa: id, b: b, xb: at(0, 0, -0.1), margin: 0.25, want: corners(-0.15, -0.3)},
		{name: "resting on an edge", a: hs, xa: id, b: b, xb: tilted,
			want: []want{{v3(-0.5, yLow, -0.01), ez, -0.02}, {v3(0.5, yLow, -0.01), ez, -0.02}}},
		// Resting on a corner, tilted 25°: the lowest corner, and the
		// corners of the face most opposed to the normal that lie below the
		// keep limit keepLimit(margin, w) (w = the face diagonal 2√(0.5² +
		// 0.3²)): here one more corner.
		{name: "resting on a corner", a: hs, xa: id, b: b, xb: skew, margin: 0.05, check: func(t *testing.T, cs []Contact) {
			p := supportShape(b, skew, ez.Neg()) // lowest vertex
			if len(cs) != 2 || !vecClose(deepest(cs).Point, p.AddScaled(-p[2]/2, ez), 1e-9) || !near(deepest(cs).Phi, p[2], 1e-12) {
				t.Fatalf("contacts %+v, want 2 with the deepest at %v", cs, p)
			}
			for _, c := range cs {
				q := skew.ApplyInv(c.Point.AddScaled(c.Phi/2, ez)) // the corner in the box frame
				if !vecClose(q.Abs(), v3(0.5, 0.3, 0.2), 1e-9) || c.Phi > keepLimit(0.05, 2*math.Hypot(0.5, 0.3)) {
					t.Fatalf("contact %+v is not a kept corner (local %v)", c, q)
				}
			}
		}},
	})
}

func TestHalfSpaceCapsule(t *testing.T) {
	hs, c := NewHalfSpace(), capsuleH(0.2, 0.5)
	id := spatial.PoseIdentity()
	s60, c60 := math.Sin(math.Pi/3), math.Cos(math.Pi/3)
	runPairCases(t, []pairCase{
		{name: "lying", a: hs, xa: id, b: c, xb: alongX(0, 0, 0.19),
			want: []want{{v3(-0.5, 0, -0.005), ez, -0.01}, {v3(0.5, 0, -0.005), ez, -0.01}}},
		{name: "upright", a: hs, xa: id, b: c, xb: at(0, 0, 0.75), margin: 0.1, want: one(v3(0, 0, 0.025), ez, 0.05)},
		{name: "upright, touching", a: hs, xa: id, b: c, xb: at(0, 0, 0.7), margin: 1e-9, want: one(v3(0, 0, 0), ez, 0)},
		{name: "upright, deep", a: hs, xa: id, b: c, xb: at(0, 0, 0.3), want: one(v3(0, 0, -0.2), ez, -0.4)},
		{name: "tilted", a: hs, xa: id, b: c, xb: posed3(v3(0, 0, 0.5*c60+0.2-0.03), ey, 60),
			want: one(v3(-0.5*s60, 0, -0.015), ez, -0.03)},
	})
}

func TestHalfSpaceCylinder(t *testing.T) {
	hs, c := NewHalfSpace(), cylinderH(0.3, 0.4)
	id := spatial.PoseIdentity()
	th := math.Pi / 6
	zc := 0.4*math.Cos(th) + 0.3*math.Sin(th) - 0.02
	yd := 0.4*math.Sin(th) - 0.3*math.Cos(th)
	rim := func(phi float64) func(*testing.T, []Contact) {
		return checkAll(4, phi, ez, 1e-9, func(p spatial.Vec3) bool {
			return near(p[2], phi/2, 1e-9) && near(math.Hypot(p[0]-0.1, p[1]-0.2), 0.3, 1e-9)
		})
	}
	runPairCases(t, []pairCase{
		{name: "standing, separated", a: hs, xa: id, b: c, xb: at(0.1, 0.2, 0.45), margin: 0.1, check: rim(0.05)},
		{name: "standing, deep", a: hs, xa: id, b: c, xb: at(0.1, 0.2, 0.1), check: rim(-0.3)},
		{name: "lying, touching", a: hs, xa: id, b: c, xb: alongY(0, 0, 0.3), margin: 1e-9,
			want: []want{{v3(0, -0.4, 0), ez, 0}, {v3(0, 0.4, 0), ez, 0}}},
		{name: "standing on a cap", a: hs, xa: id, b: c, xb: at(0.1, 0.2, 0.38), check: func(t *testing.T, cs []Contact) {
			checkAll(4, -0.02, ez, 1e-9, func(p spatial.Vec3) bool {
				return near(p[2], -0.01, 1e-9) && near(math.Hypot(p[0]-0.1, p[1]-0.2), 0.3, 1e-9)
			})(t, cs)
			for i := range cs { // four rim points a quarter turn apart
				d := cs[i].Point.Sub(cs[(i+1)%4].Point).Norm()
				e := cs[i].Point.Sub(cs[(i+2)%4].Point).Norm()
				if !(near(d, 0.3*math.Sqrt2, 1e-9) || near(d, 0.6, 1e-9)) || !(near(e, 0.3*math.Sqrt2, 1e-9) || near(e, 0.6, 1e-9)) {
					t.Fatalf("rim points %+v are not a quarter turn apart", cs)
				}
			}
		}},
		{name: "lying on its side", a: hs, xa: id, b: c, xb: alongY(0, 0, 0.29),
			want: []want{{v3(0, -0.4, -0.005), ez, -0.01}, {v3(0, 0.4, -0.005), ez, -0.01}}},
		{name: "tilted", a: hs, xa: id, b: c, xb: posed3(v3(0, 0, zc), ex, 30), want: one(v3(0, yd, -0.01), ez, -0.02)},
		// Tilted 30°, margin 0.03: the deepest rim point (slot 4) and the
		// two rim slots at ±45° from it, whose height
		// 0.3(1 − cos 45°) sin 30° − 0.02 = 0.024 is below the keep limit
		// 0.03 + min(keepSlope·0.6, 0.03) = 0.06 (those at ±135° are not).
		{name: "tilted, margin", a: hs, xa: id, b: c, xb: posed3(v3(0, 0, zc), ex, 30), margin: 0.03, want: append(one(v3(0, yd, -0.01), ez, -0.02),
			rimWant(posed3(v3(0, 0, zc), ex, 30), v3(0.3*math.Sqrt(0.5), -0.3*math.Sqrt(0.5), -0.4)),
			rimWant(posed3(v3(0, 0, zc), ex, 30), v3(-0.3*math.Sqrt(0.5), -0.3*math.Sqrt(0.5), -0.4)))},
	})
}

// rimWant is the contact of the point p (local to x) of a shape above the
// ground z = 0.
func rimWant(x spatial.Pose, p spatial.Vec3) want {
	w := x.Apply(p)
	return want{w.AddScaled(-w[2]/2, ez), ez, w[2]}
}

func TestSphereSphere(t *testing.T) {
	a, b := NewSphere(0.5), NewSphere(0.3)
	id := spatial.PoseIdentity()
	runPairCases(t, []pairCase{
		{name: "separated", a: a, xa: id, b: b, xb: at(1, 0, 0), margin: 1, want: one(v3(0.6, 0, 0), ex, 0.2)},
		{name: "beyond margin", a: a, xa: id, b: b, xb: at(1, 0, 0), margin: 0.1},
		{name: "touching", a: a, xa: id, b: b, xb: at(0.8, 0, 0), margin: 1e-9, want: one(v3(0.5, 0, 0), ex, 0)},
		{name: "shallow", a: a, xa: id, b: b, xb: at(0.7, 0, 0), want: one(v3(0.45, 0, 0), ex, -0.1)},
		{name: "deep", a: a, xa: id, b: b, xb: at(0.1, 0, 0), want: one(v3(0.15, 0, 0), ex, -0.7)},
		{name: "concentric", a: a, xa: id, b: b, xb: id, check: func(t *testing.T, cs []Contact) {
			if len(cs) != 1 || !near(cs[0].Phi, -0.8, 1e-12) || !vecClose(cs[0].Point, cs[0].Normal.Scale(0.1), 1e-12) {
				t.Fatalf("concentric spheres: %+v", cs)
			}
		}},
	})
}

func TestSphereBox(t *testing.T) {
	s, b := NewSphere(0.2), boxH(0.5, 0.4, 0.3)
	id := spatial.PoseIdentity()
	corner := v3(1, 2, 2).Scale(1.0 / 3)
	runPairCases(t, []pairCase{
		{name: "face", a: s, xa: at(0, 0, 0.6), b: b, xb: id, margin: 1, want: one(v3(0, 0, 0.35), ez.Neg(), 0.1)},
		{name: "edge", a: s, xa: at(0.8, 0, 0.7), b: b, xb: id, margin: 1, want: one(v3(0.59, 0, 0.42), v3(-0.6, 0, -0.8), 0.3)},
		{name: "corner", a: s, xa: at(0.6, 0.6, 0.5), b: b, xb: id, margin: 1,
			want: one(v3(0.5, 0.4, 0.3).Add(v3(0.6, 0.6, 0.5).AddScaled(-0.2, corner)).Scale(0.5), corner.Neg(), 0.1)},
		{name: "touching", a: s, xa: at(0, 0, 0.5), b: b, xb: id, margin: 1e-9, want: one(v3(0, 0, 0.3), ez.Neg(), 0)},
		{name: "shallow", a: s, xa: at(0, 0, 0.45), b: b, xb: id, want: one(v3(0, 0, 0.275), ez.Neg(), -0.05)},
		{name: "centre inside, top face nearest", a: s, xa: at(0.1, 0.05, 0.2), b: b, xb: id,
			want: one(v3(0.1, 0.05, 0.15), ez.Neg(), -0.3)},
		{name: "centre inside, side face nearest", a: s, xa: at(0.45, 0.1, -0.05), b: b, xb: id,
			want: one(v3(0.375, 0.1, -0.05), ex.Neg(), -0.25)},
	})
}

func TestSphereCapsule(t *testing.T) {
	s, c := NewSphere(0.3), capsuleH(0.2, 0.5)
	id := spatial.PoseIdentity()
	runPairCases(t, []pairCase{
		{name: "side", a: s, xa: at(0.7, 0, 0.1), b: c, xb: id, margin: 1, want: one(v3(0.3, 0, 0.1), ex.Neg(), 0.2)},
		{name: "end", a: s, xa: at(0, 0, 1.2), b: c, xb: id, margin: 1, want: one(v3(0, 0, 0.8), ez.Neg(), 0.2)},
		{name: "touching", a: s, xa: at(0, 0.5, 0.3), b: c, xb: id, margin: 1e-9, want: one(v3(0, 0.2, 0.3), ey.Neg(), 0)},
		{name: "deep", a: s, xa: at(0.1, 0, 0), b: c, xb: id, want: one(v3(0, 0, 0), ex.Neg(), -0.4)},
		{name: "centre on the axis", a: s, xa: at(0, 0, 0.2), b: c, xb: id, check: func(t *testing.T, cs []Contact) {
			// Any direction across the axis is a minimum translation.
			if len(cs) != 1 || !near(cs[0].Phi, -0.5, 1e-12) || !near(cs[0].Normal[2], 0, 1e-12) ||
				!vecClose(cs[0].Point, v3(0, 0, 0.2).AddScaled(0.05, cs[0].Normal), 1e-12) {
				t.Fatalf("sphere centre on the capsule axis: %+v", cs)
			}
		}},
	})
}

func TestSphereCylinder(t *testing.T) {
	s, c := NewSphere(0.2), cylinderH(0.4, 0.5)
	id := spatial.PoseIdentity()
	const tol = 1e-5 // GJK/EPA normals and points on curved surfaces (Phi is checked to 1e-9)
	runPairCases(t, []pairCase{
		{name: "side", a: s, xa: at(0.7, 0, 0.1), b: c, xb: id, margin: 1, want: one(v3(0.45, 0, 0.1), ex.Neg(), 0.1), tol: tol},
		{name: "cap", a: s, xa: at(0.1, 0, 0.8), b: c, xb: id, margin: 1, want: one(v3(0.1, 0, 0.55), ez.Neg(), 0.1), tol: tol},
		{name: "rim", a: s, xa: at(0.58, 0, 0.74), b: c, xb: id, margin: 1, want: one(v3(0.43, 0, 0.54), v3(-0.6, 0, -0.8), 0.1), tol: tol},
		{name: "touching the side", a: s, xa: at(0.6, 0, 0.1), b: c, xb: id, margin: 1e-9, want: one(v3(0.4, 0, 0.1), ex.Neg(), 0), tol: tol},
		{name: "shallow, cap", a: s, xa: at(0.1, 0, 0.65), b: c, xb: id, want: one(v3(0.1, 0, 0.475), ez.Neg(), -0.05), tol: tol},
		{name: "deep, cap nearest", a: s, xa: at(0.1, 0, 0.35), b: c, xb: id, want: one(v3(0.1, 0, 0.325), ez.Neg(), -0.35), tol: tol},
		{name: "deep, side nearest", a: s, xa: at(0.3, 0, 0), b: c, xb: id, want: one(v3(0.25, 0, 0), ex.Neg(), -0.3), tol: tol},
	})
}

func TestBoxBox(t *testing.T) {
	a, b := boxH(0.5, 0.5, 0.5), boxH(0.3, 0.3, 0.3)
	id := spatial.PoseIdentity()
	face := func(xs, ys []float64, z, phi float64) []want {
		var ws []want
		for _, x := range xs {
			for _, y := range ys {
				ws = append(ws, want{v3(x, y, z), ez, phi})
			}
		}
		return ws
	}
	d := 0.45*math.Sqrt2 - 0.5 // octagon: diamond |x|+|y| ≤ 0.45√2 cut by |x|, |y| ≤ 0.5
	var oct []want
	for _, p := range [][2]float64{{0.5, d}, {0.5, -d}, {-0.5, d}, {-0.5, -d}, {d, 0.5}, {-d, 0.5}, {d, -0.5}, {-d, -0.5}} {
		oct = append(oct, want{v3(p[0], p[1], 0.495), ez, -0.01})
	}
	m := (0.5 + d) / 2
	var octSlots []want
	for _, p := range [][2]float64{{m, m}, {-m, m}, {-m, -m}, {m, -m}} {
		octSlots = append(octSlots, want{v3(p[0], p[1], 0.495), ez, -0.01})
	}
	var octSlotsB []want
	for _, p := range [][2]float64{{0.5, 0}, {-0.5, 0}, {0, 0.5}, {0, -0.5}} {
		octSlotsB = append(octSlotsB, want{v3(p[0], p[1], 0.495), ez, -0.01})
	}
	var half []want
	for _, y := range []float64{-0.5, 0.5} {
		for _, z := range []float64{-0.5, 0.5} {
			half = append(half, want{v3(0.25, y, z), ex, -0.5})
		}
	}
	ea, eb := 0.5*math.Sqrt2, 0.4*math.Sqrt2 // edge heights of the crossed boxes
	edgeA := posed3(v3(0, 0, 0), ex, 45)
	th := 20 * math.Pi / 180
	low := 0.3*math.Sin(th) + 0.3*math.Cos(th)
	yLow := -0.3*math.Cos(th) + 0.3*math.Sin(th)
	corner := v3(1, 2, 2).Scale(1.0 / 3)
	runPairCases(t, []pairCase{
		{name: "stacked with a gap", a: a, xa: id, b: b, xb: at(0.1, 0.05, 0.85), margin: 0.1,
			want: face([]float64{-0.2, 0.4}, []float64{-0.25, 0.35}, 0.525, 0.05)},
		{name: "stacked beyond margin", a: a, xa: id, b: b, xb: at(0.1, 0.05, 0.85), margin: 0.01},
		{name: "stacked, touching", a: a, xa: id, b: b, xb: at(0.1, 0.05, 0.8), margin: 1e-9,
			want: face([]float64{-0.2, 0.4}, []float64{-0.25, 0.35}, 0.5, 0)},
		{name: "stacked, shallow", a: a, xa: id, b: b, xb: at(0.1, 0.05, 0.79),
			want: face([]float64{-0.2, 0.4}, []float64{-0.25, 0.35}, 0.495, -0.01)},
		{name: "stacked, overhanging", a: a, xa: id, b: b, xb: at(0.6, 0, 0.79),
			want: face([]float64{0.3, 0.5}, []float64{-0.3, 0.3}, 0.495, -0.01)},
		// The octagon's edges between the corner pairs are orthogonal to
		// the diagonal slot directions: each slot point is the midpoint of
		// such an edge.
		{name: "octagon", a: a, xa: id, b: boxH(0.45, 0.45, 0.3), xb: posed3(v3(0, 0, 0.79), ez, 45), check: func(t *testing.T, cs []Contact) {
			// The canonical order (so the reference face) depends on the
			// world frame: A's slots are the midpoints along the
			// diagonals, B's (turned 45°) those along the axes.
			for _, set := range [][]want{octSlots, octSlotsB} {
				ok := len(cs) == 4
				for _, c := range cs {
					found := false
					for _, w := range set {
						found = found || vecClose(c.Point, w.point, 1e-9) && near(c.Phi, w.phi, 1e-9) && vecClose(c.Normal, w.normal, 1e-9)
					}
					ok = ok && found
				}
				if ok {
					return
				}
			}
			t.Fatalf("octagon contacts %+v", cs)
		}},
		{name: "overlapping by half", a: a, xa: id, b: a, xb: at(0.5, 0, 0), want: half},
		{name: "concentric", a: boxH(0.5, 0.4, 0.3), xa: id, b: boxH(0.45, 0.35, 0.25), xb: id, check: func(t *testing.T, cs []Contact) {
			n := cs[0].Normal
			if !vecClose(n, ez, 1e-9) && !vecClose(n, ez.Neg(), 1e-9) {
				t.Fatalf("normal %v, want ±z", n)
			}
			checkAll(4, -0.55, n, 1e-9, func(p spatial.Vec3) bool {
				return near(math.Abs(p[0]), 0.45, 1e-9) && near(math.Abs(p[1]), 0.35, 1e-9) && near(math.Abs(p[2]), 0.025, 1e-9)
			})(t, cs)
		}},
		{name: "crossed edges, penetrating", a: a, xa: edgeA, b: boxH(0.4, 0.4, 0.4), xb: posed3(v3(0, 0, ea+eb-0.05), ey, 45),
			want: one(v3(0, 0, ea-0.025), ez, -0.05)},
		{name: "crossed edges, separated", a: a, xa: edgeA, b: boxH(0.4, 0.4, 0.4), xb: posed3(v3(0, 0, ea+eb+0.05), ey, 45), margin: 0.1,
			want: one(v3(0, 0, ea+0.025), ez, 0.05)},
		{name: "corner to corner", a: a, xa: id, b: b, xb: at(0.9, 1, 1), margin: 0.5,
			want: one(v3(0.55, 0.6, 0.6), corner, 0.3)},
		{name: "resting on an edge", a: a, xa: id, b: b, xb: pose(v3(0.1, 0, 0.49+low), rotAbout(ex, 20)),
			want: []want{{v3(-0.2, yLow, 0.495), ez, -0.01}, {v3(0.4, yLow, 0.495), ez, -0.01}}},
	})
}

func TestBoxCapsule(t *testing.T) {
	b, c := boxH(0.5, 0.4, 0.3), capsuleH(0.1, 0.3)
	id := spatial.PoseIdentity()
	runPairCases(t, []pairCase{
		{name: "lying on the top face", a: b, xa: id, b: c, xb: alongX(0.1, 0, 0.42), margin: 0.05,
			want: []want{{v3(-0.2, 0, 0.31), ez, 0.02}, {v3(0.4, 0, 0.31), ez, 0.02}}},
		{name: "lying, touching", a: b, xa: id, b: c, xb: alongX(0.1, 0, 0.4), margin: 1e-9,
			want: []want{{v3(-0.2, 0, 0.3), ez, 0}, {v3(0.4, 0, 0.3), ez, 0}}},
		{name: "lying across the edge", a: b, xa: id, b: c, xb: alongX(0.4, 0, 0.39),
			want: []want{{v3(0.1, 0, 0.295), ez, -0.01}, {v3(0.5, 0, 0.295), ez, -0.01}}},
		{name: "upright", a: b, xa: id, b: c, xb: at(0.1, 0.1, 0.75), margin: 0.1, want: one(v3(0.1, 0.1, 0.325), ez, 0.05)},
		{name: "parallel to an edge", a: b, xa: id, b: c, xb: alongY(0.8, 0, 0.7), margin: 1,
			check: checkAll(1, 0.4, v3(0.6, 0, 0.8), 1e-9, func(p spatial.Vec3) bool {
				return near(p[0], 0.62, 1e-9) && near(p[2], 0.46, 1e-9) && math.Abs(p[1]) <= 0.3+1e-9
			})},
		{name: "inside", a: b, xa: id, b: c, xb: alongX(0.1, 0, 0.1),
			want: []want{{v3(-0.2, 0, 0.15), ez, -0.3}, {v3(0.4, 0, 0.15), ez, -0.3}}},
	})
}

func TestBoxCylinder(t *testing.T) {
	b, c := boxH(0.5, 0.5, 0.3), cylinderH(0.2, 0.25)
	id := spatial.PoseIdentity()
	const tol = 1e-5 // GJK/EPA normals and points on curved surfaces (Phi is checked to 1e-9)
	runPairCases(t, []pairCase{
		{name: "standing on the box", a: b, xa: id, b: c, xb: at(0.1, 0.1, 0.6), margin: 0.1,
			check: checkAll(4, 0.05, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.325, tol) && math.Hypot(p[0]-0.1, p[1]-0.1) <= 0.2+tol
			})},
		{name: "standing, touching", a: b, xa: id, b: c, xb: at(0.1, 0.1, 0.55), margin: 1e-9,
			check: checkAll(4, 0, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.3, tol) && math.Hypot(p[0]-0.1, p[1]-0.1) <= 0.2+tol
			})},
		{name: "lying on the box", a: b, xa: id, b: c, xb: alongX(0, 0, 0.48),
			check: checkAll(2, -0.02, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.29, tol) && near(p[1], 0, tol) && math.Abs(p[0]) <= 0.25+tol
			})},
		{name: "against a side", a: b, xa: id, b: c, xb: at(0.6, 0, 0),
			check: checkAll(2, -0.1, ex, tol, func(p spatial.Vec3) bool {
				return near(p[0], 0.45, tol) && near(p[1], 0, tol) && math.Abs(p[2]) <= 0.25+tol
			})},
	})
}

func TestCapsuleCapsule(t *testing.T) {
	a, b := capsuleH(0.2, 0.5), capsuleH(0.1, 0.4)
	xa := alongX(0, 0, 0)
	runPairCases(t, []pairCase{
		{name: "crossed", a: a, xa: xa, b: b, xb: alongY(0.1, 0.2, 0.5), margin: 1, want: one(v3(0.1, 0, 0.3), ez, 0.2)},
		{name: "parallel", a: a, xa: xa, b: b, xb: alongX(0.2, 0, 0.25), want: one(v3(0.15, 0, 0.175), ez, -0.05)},
		{name: "end to end", a: a, xa: xa, b: b, xb: alongX(1.2, 0, 0), margin: 1e-9, want: one(v3(0.7, 0, 0), ex, 0)},
		{name: "axes intersecting", a: a, xa: xa, b: b, xb: alongY(0.1, 0, 0), check: func(t *testing.T, cs []Contact) {
			if len(cs) != 1 || !near(cs[0].Phi, -0.3, 1e-12) || !near(math.Abs(cs[0].Normal[2]), 1, 1e-12) {
				t.Fatalf("intersecting axes: %+v", cs)
			}
		}},
	})
}

func TestCapsuleCylinder(t *testing.T) {
	cy, c := cylinderH(0.4, 0.25), capsuleH(0.1, 0.3)
	id := spatial.PoseIdentity()
	const tol = 1e-5 // GJK/EPA normals and points on curved surfaces (Phi is checked to 1e-9)
	runPairCases(t, []pairCase{
		{name: "upright above the cap", a: cy, xa: id, b: c, xb: at(0.1, 0, 0.7), margin: 0.1, want: one(v3(0.1, 0, 0.275), ez, 0.05), tol: tol},
		{name: "across the side", a: cy, xa: id, b: c, xb: alongY(0.52, 0, 0.1), margin: 0.1, want: one(v3(0.41, 0, 0.1), ex, 0.02), tol: tol},
		{name: "upright, touching", a: cy, xa: id, b: c, xb: at(0.1, 0, 0.65), margin: 1e-9, want: one(v3(0.1, 0, 0.25), ez, 0), tol: tol},
		{name: "upright, shallow", a: cy, xa: id, b: c, xb: at(0.1, 0, 0.64), want: one(v3(0.1, 0, 0.245), ez, -0.01), tol: tol},
		{name: "through the top", a: cy, xa: id, b: c, xb: alongX(0, 0, 0.2),
			check: checkAll(1, -0.15, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.175, tol) && near(p[1], 0, tol) && math.Abs(p[0]) <= 0.3+tol
			})},
	})
}

func TestCylinderCylinder(t *testing.T) {
	a, b := cylinderH(0.4, 0.25), cylinderH(0.3, 0.2)
	id := spatial.PoseIdentity()
	const tol = 1e-5 // GJK/EPA normals and points on curved surfaces (Phi is checked to 1e-9)
	runPairCases(t, []pairCase{
		{name: "stacked", a: a, xa: id, b: b, xb: at(0.05, 0, 0.48), margin: 0.1,
			check: checkAll(1, 0.03, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.265, tol) && math.Hypot(p[0]-0.05, p[1]) <= 0.3+tol
			})},
		{name: "stacked, touching", a: a, xa: id, b: b, xb: at(0.05, 0, 0.45), margin: 1e-9,
			check: checkAll(1, 0, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.25, tol) && math.Hypot(p[0]-0.05, p[1]) <= 0.3+tol
			})},
		{name: "stacked, shallow", a: a, xa: id, b: b, xb: at(0.05, 0, 0.43),
			check: checkAll(1, -0.02, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.24, tol) && math.Hypot(p[0]-0.05, p[1]) <= 0.3+tol
			})},
		{name: "side by side", a: a, xa: id, b: b, xb: at(0.75, 0, 0.1), margin: 0.1,
			check: checkAll(1, 0.05, ex, tol, func(p spatial.Vec3) bool {
				return near(p[0], 0.425, tol) && near(p[1], 0, tol) && p[2] >= -0.1-tol && p[2] <= 0.25+tol
			})},
		{name: "crossed", a: a, xa: id, b: b, xb: alongX(0, 0, 0.57), margin: 0.1,
			check: checkAll(1, 0.02, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.26, tol) && near(p[1], 0, tol) && math.Abs(p[0]) <= 0.2+tol
			})},
		{name: "rim to rim", a: a, xa: id, b: b, xb: at(0.76, 0, 0.53), margin: 0.2, want: one(v3(0.43, 0, 0.29), v3(0.6, 0, 0.8), 0.1), tol: tol},
		{name: "coaxial, deep", a: a, xa: id, b: b, xb: at(0, 0, 0.3),
			check: checkAll(1, -0.15, ez, tol, func(p spatial.Vec3) bool {
				return near(p[2], 0.175, tol) && math.Hypot(p[0], p[1]) <= 0.3+tol
			})},
	})
}
