package geometry

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

func TestKindStringAndParse(t *testing.T) {
	names := map[Kind]string{HalfSpace: "halfspace", Sphere: "sphere", Box: "box", Capsule: "capsule", Cylinder: "cylinder",
		Ellipsoid: "ellipsoid", ConvexHull: "convexhull"}
	for k, name := range names {
		if k.String() != name {
			t.Errorf("%d.String() = %q, want %q", int(k), k.String(), name)
		}
		for _, s := range []string{name, strings.ToUpper(name), " " + name + "\n"} {
			if got, err := ParseKind(s); err != nil || got != k {
				t.Errorf("ParseKind(%q) = %v, %v; want %v", s, got, err, k)
			}
		}
	}
	if s := Kind(9).String(); s != "Kind(9)" {
		t.Errorf("Kind(9).String() = %q", s)
	}
	for _, s := range []string{"", "plane", "boxes", "Kind(2)"} {
		if _, err := ParseKind(s); err == nil || !strings.Contains(err.Error(), "unknown shape kind") {
			t.Errorf("ParseKind(%q): error %v", s, err)
		}
	}
}

func TestConstructors(t *testing.T) {
	cases := []struct {
		got, want Shape
	}{
		{NewHalfSpace(), Shape{Kind: HalfSpace}},
		{NewSphere(0.5), Shape{Kind: Sphere, Radius: 0.5}},
		{NewBox(spatial.Vec3{1, 2, 3}), Shape{Kind: Box, HalfExtents: spatial.Vec3{0.5, 1, 1.5}}},
		{NewCapsule(0.2, 1.4), Shape{Kind: Capsule, Radius: 0.2, HalfLength: 0.7}},
		{NewCylinder(0.3, 0.8), Shape{Kind: Cylinder, Radius: 0.3, HalfLength: 0.4}},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %+v, want %+v", c.got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	valid := []Shape{NewHalfSpace(), NewSphere(1), NewBox(spatial.Vec3{1, 2, 3}), NewCapsule(1, 2), NewCylinder(1, 2),
		{Kind: Sphere, Radius: 1, HalfLength: -5}} // unused fields are ignored
	for _, s := range valid {
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: unexpected error %v", s, err)
		}
	}
	invalid := []struct {
		s    Shape
		want string
	}{
		{NewSphere(0), "radius 0 must be positive and finite"},
		{NewSphere(-1), "radius -1 must be positive and finite"},
		{NewSphere(nan), "radius NaN must be positive and finite"},
		{NewSphere(inf), "radius +Inf must be positive and finite"},
		{Shape{Kind: Box, HalfExtents: spatial.Vec3{1, -2, 1}}, "half extent y -2 must be positive and finite"},
		{Shape{Kind: Box, HalfExtents: spatial.Vec3{1, 1, 0}}, "half extent z 0 must be positive and finite"},
		{Shape{Kind: Box, HalfExtents: spatial.Vec3{inf, 1, 1}}, "half extent x +Inf must be positive and finite"},
		{Shape{Kind: Capsule, Radius: 0, HalfLength: 1}, "radius 0 must be positive and finite"},
		{Shape{Kind: Capsule, Radius: 1, HalfLength: 0}, "half length 0 must be positive and finite"},
		{Shape{Kind: Cylinder, Radius: 1, HalfLength: nan}, "half length NaN must be positive and finite"},
		{Shape{Kind: Cylinder, Radius: -3, HalfLength: 1}, "radius -3 must be positive and finite"},
		{Shape{Kind: Kind(8)}, "unknown shape kind Kind(8)"},
		{Shape{Kind: HeightField}, "height field has no elevation data (build it with NewHeightMap)"},
	}
	for _, c := range invalid {
		if err := c.s.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: error %v, want %q", c.s, err, c.want)
		}
		if c.s.valid() {
			t.Errorf("%+v: valid() disagrees with Validate", c.s)
		}
	}
	for _, s := range valid {
		if !s.valid() {
			t.Errorf("%+v: valid() disagrees with Validate", s)
		}
	}
}
