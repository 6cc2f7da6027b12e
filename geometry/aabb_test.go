package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestShapeAABBTight checks that the box of every finite shape at random
// poses has, on each side, exactly the shape's support value along that
// axis (computed by the independent supportShape).
func TestShapeAABBTight(t *testing.T) {
	r := newRand(21)
	for _, k := range allKinds[1:] {
		for range 50 {
			s := randShape(r, k)
			x := pose(randUnit(r).Scale(uniform(r, 0, 5)), randQuat(r))
			b := s.AABB(x)
			for i := range 3 {
				var e spatial.Vec3
				e[i] = 1
				hi, lo := supportShape(s, x, e)[i], supportShape(s, x, e.Neg())[i]
				if math.Abs(b.Max[i]-hi) > 1e-12 || math.Abs(b.Min[i]-lo) > 1e-12 {
					t.Fatalf("%v at %+v: AABB %+v, extent along %d is [%g, %g]", k, x, b, i, lo, hi)
				}
			}
		}
	}
}

func TestHalfSpaceAABB(t *testing.T) {
	inf := math.Inf(1)
	hs := NewHalfSpace()
	cases := []struct {
		x    spatial.Pose
		want AABB
	}{
		{at(1, 2, 3), AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{inf, inf, 3}}},
		{pose(v3(1, 2, 3), rotAbout(ex, 180)), AABB{spatial.Vec3{-inf, -inf, 3}, spatial.Vec3{inf, inf, inf}}},
		{pose(v3(1, 2, 3), spatial.Quat{W: math.Sqrt2 / 2, Y: math.Sqrt2 / 2}), AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{1, inf, inf}}}, // normal +x
		{pose(v3(1, 2, 3), rotAbout(v3(1, 1, 0), 30)), AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{inf, inf, inf}}},
	}
	for _, c := range cases {
		if got := hs.AABB(c.x); got != c.want {
			t.Errorf("half-space at %+v: AABB %+v, want %+v", c.x, got, c.want)
		}
	}
}

func TestAABBOverlapsInflate(t *testing.T) {
	inf := math.Inf(1)
	unit := AABB{spatial.Vec3{0, 0, 0}, spatial.Vec3{1, 1, 1}}
	shift := func(b AABB, d spatial.Vec3) AABB { return AABB{b.Min.Add(d), b.Max.Add(d)} }
	cases := []struct {
		a, b AABB
		want bool
	}{
		{unit, shift(unit, v3(0.5, 0.5, 0.5)), true},
		{unit, shift(unit, v3(1, 0, 0)), true}, // touching faces
		{unit, shift(unit, v3(1, 1, 1)), true}, // touching corners
		{unit, shift(unit, v3(1.0000001, 0, 0)), false},
		{unit, shift(unit, v3(0, -1.5, 0)), false},
		{unit, shift(unit, v3(0.2, 0.2, 3)), false},
		{unit, AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{inf, inf, 0}}, true},
		{unit, AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{inf, inf, -0.1}}, false},
		{unit, AABB{spatial.Vec3{0.3, 0.3, 0.3}, spatial.Vec3{0.3, 0.3, 0.3}}, true}, // a point inside
	}
	for _, c := range cases {
		if got := c.a.Overlaps(c.b); got != c.want {
			t.Errorf("%+v overlaps %+v = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := c.b.Overlaps(c.a); got != c.want {
			t.Errorf("%+v overlaps %+v = %v, want %v (swapped)", c.b, c.a, got, c.want)
		}
	}
	if got, want := unit.Inflate(0.5), (AABB{spatial.Vec3{-0.5, -0.5, -0.5}, spatial.Vec3{1.5, 1.5, 1.5}}); got != want {
		t.Errorf("Inflate: %+v, want %+v", got, want)
	}
	if !unit.Overlaps(shift(unit, v3(1.05, 0, 0)).Inflate(0.05)) {
		t.Error("inflated neighbour should overlap")
	}
}

// TestAABBShortcutsSameBits: a sphere's and a capsule's boxes, which AABB
// forms without the whole rotation matrix (zAxis), have the bits of
// aabbMat's from q.RotMat(), signed zeros included, at random poses,
// unnormalized rotations and the axis-aligned ones.
func TestAABBShortcutsSameBits(t *testing.T) {
	r := newRand(23)
	same := func(a, b AABB) bool {
		for i := range 3 {
			for _, p := range [][2]float64{{a.Min[i], b.Min[i]}, {a.Max[i], b.Max[i]}} {
				if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
					return false
				}
			}
		}
		return true
	}
	quats := []spatial.Quat{spatial.QuatIdentity(), {W: 0, X: 1}, {W: 0, Y: -1}, {W: 0, Z: 1}, {W: math.Sqrt(0.5), X: -math.Sqrt(0.5)}}
	for range 200 {
		q := randQuat(r)
		quats = append(quats, q, q.Scale(1+1e-9*uniform(r, -1, 1)))
	}
	for _, k := range []Kind{Sphere, Capsule} {
		for _, q := range quats {
			s := randShape(r, k)
			x := pose(randUnit(r).Scale(uniform(r, 0, 5)), q)
			if got, want := s.AABB(x), s.aabbMat(q.RotMat(), x.P); !same(got, want) {
				t.Fatalf("%v at %+v: AABB %+v, aabbMat %+v", k, x, got, want)
			}
		}
	}
	if a, b := zAxis(&spatial.Quat{W: 0.3, X: -0.5, Y: 0.1, Z: 0.7}), (spatial.Quat{W: 0.3, X: -0.5, Y: 0.1, Z: 0.7}).RotMat().Col(2); a != b {
		t.Fatalf("zAxis %v, RotMat's third column %v", a, b)
	}
}
