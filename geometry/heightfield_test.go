package geometry

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// hfBoth is collideBoth for a height field a and a shape b, whose width
// bounds the face manifolds' keep limit.
func hfBoth(t *testing.T, a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, margin float64) []Contact {
	t.Helper()
	ab := Collide(a, xa, b, xb, margin, nil)
	ba := Collide(b, xb, a, xa, margin, nil)
	if len(ab) != len(ba) {
		t.Fatalf("%v/%v: %d contacts, %d swapped", a.Kind, b.Kind, len(ab), len(ba))
	}
	for i := range ab {
		if ab[i].Point != ba[i].Point || ab[i].Phi != ba[i].Phi || ab[i].Normal != ba[i].Normal.Neg() || ab[i].Feature != ba[i].Feature {
			t.Fatalf("%v/%v: contact %d = %+v, swapped %+v", a.Kind, b.Kind, i, ab[i], ba[i])
		}
	}
	pb := newPosed(b, xb)
	checkContacts(t, ab, margin, 2*pb.size())
	return ab
}

func mustField(t testing.TB, rows, cols int, hx, hy, base float64, h []float64) Shape {
	t.Helper()
	f, err := NewHeightMap(rows, cols, hx, hy, base, h)
	if err != nil {
		t.Fatal(err)
	}
	return NewHeightFieldShape(f)
}

func TestHeightMapErrors(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		hx, hy, b  float64
		h          []float64
		want       string
	}{
		{1, 3, 1, 1, 0.1, nil, "1 rows and 3 columns"},
		{3, 3, 0, 1, 0.1, nil, "half extent x 0"},
		{3, 3, 1, math.Inf(1), 0.1, nil, "half extent y +Inf"},
		{3, 3, 1, 1, -1, nil, "base -1"},
		{2, 2, 1, 1, 0.1, []float64{0, 0, 0}, "3 heights, want rows × columns = 2 × 2 = 4"},
		{2, 2, 1, 1, 0.1, []float64{0, 0, math.NaN(), 0}, "height NaN at row 1, column 0"},
		{2, 2, 1, 1, 0.1, []float64{0, -0.2, 0, 0}, "height -0.2 at row 0, column 1"},
	} {
		_, err := NewHeightMap(tc.rows, tc.cols, tc.hx, tc.hy, tc.b, tc.h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewHeightMap(%d, %d, %v, %v, %v, %v) = %v, want an error containing %q", tc.rows, tc.cols, tc.hx, tc.hy, tc.b, tc.h, err, tc.want)
		}
	}
	if err := (Shape{Kind: HeightField}).Validate(); err == nil {
		t.Error("a height-field shape without data validates")
	}
	if k, err := ParseKind("heightfield"); err != nil || k != HeightField {
		t.Errorf("ParseKind(heightfield) = %v, %v", k, err)
	}
}

func TestHeightMapGeometry(t *testing.T) {
	// 2 rows × 3 columns over [−1, 1] × [−2, 2]; MuJoCo's layout: row r at
	// y = −2 + 4r, column c at x = −1 + c.
	s := mustField(t, 2, 3, 1, 2, 0.5, []float64{0, 1, 2, 3, 4, 5})
	f := s.Field
	if p := f.Point(1, 2); p != (spatial.Vec3{1, 2, 5}) {
		t.Errorf("Point(1, 2) = %v, want (1, 2, 5)", p)
	}
	// Volume: prisms down to z = −0.5; closed form by corners.
	want := 0.0
	for _, tri := range f.Triangles() {
		var hs float64
		for _, v := range tri {
			hs += f.h[v] + 0.5
		}
		want += 1 * 4 / 2 * hs / 3
	}
	if got := s.Volume(); math.Abs(got-want) > 1e-12 {
		t.Errorf("Volume = %v, want %v", got, want)
	}
	if _, err := s.UnitInertia(); err == nil {
		t.Error("a height field has an inertia")
	}
	b := s.AABB(at(10, 0, 1))
	if b.Min != (spatial.Vec3{9, -2, 0.5}) || b.Max != (spatial.Vec3{11, 2, 6}) {
		t.Errorf("AABB = %+v, want [9 −2 0.5]–[11 2 6]", b)
	}
	// Every point of the rectangle has exactly one owner triangle, whose
	// footprint holds it.
	r := newRand(5)
	for range 1000 {
		x, y := uniform(r, -1, 1), uniform(r, -2, 2)
		id := f.owner(x, y)
		cell, tt := id/2, id%2
		tri := f.triangle(cell/2, cell%2, tt)
		if !inFootprint(tri, x, y, 1e-12) {
			t.Fatalf("owner(%v, %v) = %d, whose triangle %v does not hold it", x, y, id, tri)
		}
	}
	if f.owner(1.0001, 0) != -1 || f.owner(0, -2.0001) != -1 {
		t.Error("a point outside the rectangle has an owner")
	}
}

func inFootprint(tri [3]spatial.Vec3, x, y, tol float64) bool {
	for k := range 3 {
		a, b := tri[k], tri[(k+1)%3]
		if (b[0]-a[0])*(y-a[1])-(b[1]-a[1])*(x-a[0]) < -tol {
			return false
		}
	}
	return true
}

// A shape on a flat height field touches it exactly as it touches the
// half-space of the same pose: same points, normals and Phi to rounding.
func TestHeightFieldFlatIsHalfSpace(t *testing.T) {
	field := mustField(t, 21, 31, 3, 2, 0.1, nil)
	xf := pose(spatial.Vec3{0.3, -0.2, 0.05}, rotAbout(spatial.Vec3{1, 2, 0}, 7))
	hull, err := NewConvexHull([]spatial.Vec3{{0, 0, 0}, {0.4, 0, 0}, {0, 0.3, 0}, {0, 0, 0.5}, {0.3, 0.3, 0.2}})
	if err != nil {
		t.Fatal(err)
	}
	shapes := []Shape{NewSphere(0.3), NewBox(spatial.Vec3{0.5, 0.7, 0.3}), NewCapsule(0.1, 0.6), NewCylinder(0.2, 0.4),
		NewEllipsoid(spatial.Vec3{0.2, 0.3, 0.1}), hull}
	r := newRand(11)
	n := 0
	for _, s := range shapes {
		for range 40 {
			q := randQuat(r)
			if r.IntN(2) == 0 { // nearly resting: small tilts keep face manifolds
				q = rotAbout(randUnit(r), uniform(r, 0, 3))
			}
			// Local position over the field, low enough to touch.
			sb := s.AABB(pose(spatial.Vec3{}, q))
			lp := spatial.Vec3{uniform(r, -2, 2), uniform(r, -1.2, 1.2), -sb.Min[2] + uniform(r, -0.05, 0.02)}
			xb := xf.Compose(pose(lp, q))
			margin := 0.01
			got := hfBoth(t, field, xf, s, xb, margin)
			want := Collide(NewHalfSpace(), xf, s, xb, margin, nil)
			if len(got) != len(want) {
				t.Fatalf("%v at %v: %d contacts on the field, %d on the half-space:\n%+v\n%+v", s.Kind, lp, len(got), len(want), got, want)
			}
			for _, w := range want {
				found := false
				for _, g := range got {
					if vecClose(g.Point, w.Point, 1e-12) && vecClose(g.Normal, w.Normal, 1e-12) && math.Abs(g.Phi-w.Phi) <= 1e-12 {
						found = true
					}
				}
				if !found {
					t.Fatalf("%v at %v: half-space contact %+v not on the field: %+v", s.Kind, lp, w, got)
				}
			}
			n += len(got)
		}
	}
	if n < 200 {
		t.Fatalf("only %d contacts compared", n)
	}
	t.Logf("%d contacts equal the half-space's", n)
}

// A sphere on a uniformly sloped field feels the slope's normal: Phi is
// the distance of its centre from the plane less its radius.
func TestHeightFieldSphereOnSlope(t *testing.T) {
	const rows, cols, hx, hy, slope = 9, 11, 2.0, 1.5, 0.3
	h := make([]float64, rows*cols)
	for r := range rows {
		for c := range cols {
			h[r*cols+c] = 1 + slope*(-hx+2*hx*float64(c)/(cols-1)) // z = 1 + 0.3 x
		}
	}
	field := mustField(t, rows, cols, hx, hy, 0.2, h)
	n := spatial.Vec3{-slope, 0, 1}.Scale(1 / math.Hypot(slope, 1))
	rng := newRand(3)
	for range 200 {
		x, y, d := uniform(rng, -1.5, 1.5), uniform(rng, -1, 1), uniform(rng, -0.05, 0.01)
		foot := spatial.Vec3{x, y, 1 + slope*x}
		c := foot.AddScaled(0.25+d, n)
		cs := hfBoth(t, field, at(0, 0, 0), NewSphere(0.25), at(c[0], c[1], c[2]), 0.02)
		if len(cs) != 1 {
			t.Fatalf("sphere at %v: %d contacts, want 1: %+v", c, len(cs), cs)
		}
		if !vecClose(cs[0].Normal, n, 1e-12) || math.Abs(cs[0].Phi-d) > 1e-12 || !vecClose(cs[0].Point, foot.AddScaled(d/2, n), 1e-12) {
			t.Fatalf("sphere at %v: %+v, want normal %v, Phi %v", c, cs[0], n, d)
		}
	}
}

// closestOnTriangle returns the point of triangle abc nearest p (Ericson,
// Real-Time Collision Detection, 5.1.5).
func closestOnTriangle(p, a, b, c spatial.Vec3) spatial.Vec3 {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.AddScaled(d1/(d1-d3), ab)
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.AddScaled(d2/(d2-d6), ac)
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.AddScaled((d4-d3)/((d4-d3)+(d5-d6)), c.Sub(b))
	}
	den := 1 / (va + vb + vc)
	return a.AddScaled(vb*den, ab).AddScaled(vc*den, ac)
}

// bumpy returns a random field of rows × cols heights in [0, amp].
func bumpy(t testing.TB, seed uint64, rows, cols int, hx, hy, amp float64) Shape {
	r := newRand(seed)
	h := make([]float64, rows*cols)
	for i := range h {
		h[i] = uniform(r, 0, amp)
	}
	return mustField(t, rows, cols, hx, hy, 0.1, h)
}

// A sphere over a bumpy field: the deepest contact is the nearest point of
// the triangulated surface found by brute force over every triangle (its
// distance less the radius, and the direction from it to the centre), and
// no contact is deeper.
func TestHeightFieldSphereBruteForce(t *testing.T) {
	const rows, cols, hx, hy = 7, 8, 1.0, 1.2
	field := bumpy(t, 9, rows, cols, hx, hy, 0.25)
	f := field.Field
	xf := pose(spatial.Vec3{0.5, 0.1, -0.3}, rotAbout(spatial.Vec3{0.3, -1, 0.2}, 20))
	rng := newRand(21)
	checked := 0
	for range 3000 {
		rad := uniform(rng, 0.05, 0.3)
		lc := spatial.Vec3{uniform(rng, -0.8, 0.8), uniform(rng, -1, 1), uniform(rng, -0.1, 0.6)}
		// Brute force: the nearest point of the surface.
		best, bp := math.Inf(1), spatial.Vec3{}
		for _, tri := range f.Triangles() {
			q := closestOnTriangle(lc, f.Point(tri[0]/cols, tri[0]%cols), f.Point(tri[1]/cols, tri[1]%cols), f.Point(tri[2]/cols, tri[2]%cols))
			if d := q.Sub(lc).Norm(); d < best {
				best, bp = d, q
			}
		}
		// Keep centres above the surface (the signed distance is then the
		// distance) and not deeper than half the radius.
		if id := f.owner(lc[0], lc[1]); id < 0 || lc[2] <= surfaceZ(f, lc[0], lc[1]) || best < rad/2 {
			continue
		}
		margin := 0.05
		xb := xf.Compose(at(lc[0], lc[1], lc[2]))
		cs := hfBoth(t, field, xf, NewSphere(rad), xb, margin)
		want := best - rad
		if want > margin {
			if len(cs) != 0 {
				t.Fatalf("sphere %v at %v, gap %v > margin: %+v", rad, lc, want, cs)
			}
			continue
		}
		if len(cs) == 0 {
			t.Fatalf("sphere %v at %v: no contact, want Phi %v", rad, lc, want)
		}
		d := deepest(cs)
		wn := xf.R.Rotate(lc.Sub(bp).Scale(1 / best))
		if math.Abs(d.Phi-want) > 1e-9 || !vecClose(d.Normal, wn, 1e-6) {
			t.Fatalf("sphere %v at %v: deepest %+v, want Phi %v normal %v (all: %+v)", rad, lc, d, want, wn, cs)
		}
		checked++
	}
	if checked < 300 {
		t.Fatalf("only %d spheres in contact checked", checked)
	}
	t.Logf("%d spheres match the brute-force nearest surface point", checked)
}

// surfaceZ is the height of the surface at (x, y).
func surfaceZ(f *HeightMap, x, y float64) float64 {
	id := f.owner(x, y)
	cell := id / 2
	tri := f.triangle(cell/(f.cols-1), cell%(f.cols-1), id%2)
	n := tri[1].Sub(tri[0]).Cross(tri[2].Sub(tri[0]))
	return tri[0][2] - (n[0]*(x-tri[0][0])+n[1]*(y-tri[0][1]))/n[2]
}

// A box resting across a ridge touches the ridge line, with the box's
// face normal; a box over a peak touches the peak.
func TestHeightFieldRidgeAndPeak(t *testing.T) {
	// Ridge along y at x = 0: z = 0.5 − 0.4|x|, on a 5 × 3 grid (x = −1…1).
	h := make([]float64, 15)
	for r := range 3 {
		for c := range 5 {
			h[r*5+c] = 0.5 - 0.4*math.Abs(-1+0.5*float64(c))
		}
	}
	field := mustField(t, 3, 5, 1, 1, 0.1, h)
	box := NewBox(spatial.Vec3{0.6, 0.4, 0.2})
	cs := hfBoth(t, field, at(0, 0, 0), box, at(0.05, 0, 0.5+0.1-0.002), 0.001)
	// Two grid edges (rows 0–1 and 1–2) make the ridge under the box.
	if len(cs) != 2 {
		t.Fatalf("box on the ridge: %+v, want two edge contacts", cs)
	}
	for _, c := range cs {
		if !vecClose(c.Normal, spatial.Vec3{0, 0, 1}, 1e-9) || math.Abs(c.Phi+0.002) > 1e-12 || c.Feature&featHFVertex != featHFEdge || math.Abs(c.Point[0]) > 1e-12 {
			t.Fatalf("box on the ridge: %+v, want edge contacts on x = 0 of normal +z and Phi −0.002", cs)
		}
	}
	// A single peak at the centre of a 3 × 3 grid.
	peak := mustField(t, 3, 3, 1, 1, 0.1, []float64{0, 0, 0, 0, 0.3, 0, 0, 0, 0})
	cs = hfBoth(t, peak, at(0, 0, 0), box, at(0.05, 0.02, 0.3+0.1-0.003), 0.001)
	if len(cs) != 1 || !vecClose(cs[0].Normal, spatial.Vec3{0, 0, 1}, 1e-9) || math.Abs(cs[0].Phi+0.003) > 1e-12 || cs[0].Feature&featHFVertex != featHFVertex {
		t.Fatalf("box on the peak: %+v, want one point contact of normal +z and Phi −0.003", cs)
	}
	// Off the field, or above it, nothing; height field pairs, nothing.
	for _, x := range []spatial.Pose{at(3, 0, 0.5), at(0, 0, 2)} {
		if cs := Collide(field, at(0, 0, 0), box, x, 0.01, nil); len(cs) != 0 {
			t.Errorf("box at %v: %+v", x.P, cs)
		}
	}
	if cs := Collide(field, at(0, 0, 0), field, at(0, 0, 0.1), 0.01, nil); len(cs) != 0 {
		t.Errorf("two height fields: %+v", cs)
	}
	if cs := Collide(NewHalfSpace(), at(0, 0, 0), field, at(0, 0, 0.1), 0.01, nil); len(cs) != 0 {
		t.Errorf("half-space and height field: %+v", cs)
	}
}

// Every shape over a bumpy field: contacts are well formed, symmetric
// under swapping, deterministic, and found without allocating.
func TestHeightFieldAllShapes(t *testing.T) {
	field := bumpy(t, 4, 12, 10, 1.5, 1.8, 0.2)
	hull, err := NewConvexHull([]spatial.Vec3{{0, 0, 0}, {0.4, 0, 0}, {0, 0.3, 0}, {0, 0, 0.5}, {0.3, 0.3, 0.2}})
	if err != nil {
		t.Fatal(err)
	}
	shapes := []Shape{NewSphere(0.2), NewBox(spatial.Vec3{0.5, 0.3, 0.2}), NewCapsule(0.1, 0.5), NewCylinder(0.15, 0.3),
		NewEllipsoid(spatial.Vec3{0.2, 0.15, 0.1}), hull}
	r := newRand(8)
	xf := at(0, 0, 0)
	buf := make([]Contact, 0, 256)
	total := 0
	for _, s := range shapes {
		for range 40 {
			xb := pose(spatial.Vec3{uniform(r, -1.2, 1.2), uniform(r, -1.5, 1.5), uniform(r, 0.05, 0.35)}, randQuat(r))
			cs := hfBoth(t, field, xf, s, xb, 0.01)
			again := Collide(field, xf, s, xb, 0.01, buf[:0])
			if len(again) != len(cs) {
				t.Fatalf("not deterministic")
			}
			for i := range cs {
				if cs[i] != again[i] {
					t.Fatalf("not deterministic: %+v vs %+v", cs[i], again[i])
				}
			}
			if a := testing.AllocsPerRun(3, func() { buf = Collide(field, xf, s, xb, 0.01, buf[:0]) }); a != 0 {
				t.Fatalf("%v: %v allocations", s.Kind, a)
			}
			total += len(cs)
		}
	}
	t.Logf("%d contacts", total)
}

// FuzzCollideHeightField: a field of fuzzed heights (one byte each, on a
// grid of 2–9 columns) against every convex kind at a fuzzed pose never
// panics and gives well-formed contacts, the same in both orders.
func FuzzCollideHeightField(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30})
	f.Add([]byte{2, 255, 0, 255, 0, 128, 1, 2, 3, 200, 100, 50})
	f.Add([]byte{7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		cols := 2 + int(data[0])%8
		body := data[1:]
		rows := max(2, len(body)/cols)
		h := make([]float64, rows*cols)
		for i := range h {
			if len(body) > 0 {
				h[i] = float64(body[i%len(body)]) / 255
			}
		}
		field := mustField(t, rows, cols, 1, 1.5, 0.1, h)
		var q [7]float64
		for i := range q {
			q[i] = float64(int8(data[(len(data)-1-i+len(data))%len(data)])) / 64
		}
		xb := pose(spatial.Vec3{q[0], q[1], 0.5 + q[2]}, spatial.Quat{W: 1 + q[3], X: q[4], Y: q[5], Z: q[6]}.Normalize())
		hull, err := NewConvexHull([]spatial.Vec3{{0, 0, 0}, {0.4, 0, 0}, {0, 0.3, 0}, {0, 0, 0.5}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Shape{NewSphere(0.3), NewBox(spatial.Vec3{0.6, 0.4, 0.3}), NewCapsule(0.1, 0.6), NewCylinder(0.2, 0.3), NewEllipsoid(spatial.Vec3{0.3, 0.2, 0.1}), hull} {
			for _, margin := range []float64{0, 0.05} {
				hfBoth(t, field, spatial.PoseIdentity(), s, xb, margin)
			}
		}
	})
}
