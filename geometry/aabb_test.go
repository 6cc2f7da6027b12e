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
