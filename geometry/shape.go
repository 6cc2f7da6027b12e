package geometry

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/spatial"
)

// Kind identifies the type of a Shape.
type Kind int

// The shape kinds. Their order is also the canonical order in which Collide
// processes a pair.
const (
	HalfSpace   Kind = iota // the region z ≤ 0 of the shape frame
	Sphere                  // ball of radius Radius
	Box                     // box with half side lengths HalfExtents
	Capsule                 // segment of half length HalfLength along z, swept by a ball of radius Radius
	Cylinder                // solid cylinder of radius Radius and half length HalfLength along z
	Ellipsoid               // solid ellipsoid with semi-axes Radii along x, y, z
	ConvexHull              // convex polyhedron Hull, built by NewConvexHull
	HeightField             // height field Field (terrain), built by NewHeightMap; static only
	numKinds
)

var kindNames = [numKinds]string{"halfspace", "sphere", "box", "capsule", "cylinder", "ellipsoid", "convexhull", "heightfield"}

// String returns the lower-case name of the kind, such as "box".
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// ParseKind returns the kind named s, the inverse of Kind.String. Case and
// surrounding white space are ignored.
func ParseKind(s string) (Kind, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for k, name := range kindNames {
		if t == name {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown shape kind %q (want one of %s)", s, strings.Join(kindNames[:], ", "))
}

// Shape is a convex collision shape described in its own frame. Which
// dimension fields are used depends on Kind; the others are ignored.
type Shape struct {
	Kind        Kind
	Radius      float64      // sphere, capsule, cylinder
	HalfLength  float64      // capsule, cylinder: half length of the axis segment, along the shape's local z
	HalfExtents spatial.Vec3 // box: half the side lengths along local x, y, z
	Radii       spatial.Vec3 // ellipsoid: semi-axes along local x, y, z
	Hull        *Hull        // convex hull: immutable, shared by every copy of the shape
	Field       *HeightMap   // height field: immutable, shared by every copy of the shape
}

// NewHalfSpace returns the half-space z ≤ 0.
func NewHalfSpace() Shape { return Shape{Kind: HalfSpace} }

// NewSphere returns a sphere of radius r.
func NewSphere(r float64) Shape { return Shape{Kind: Sphere, Radius: r} }

// NewBox returns a box with the given full side lengths.
func NewBox(size spatial.Vec3) Shape { return Shape{Kind: Box, HalfExtents: size.Scale(0.5)} }

// NewCapsule returns a capsule of the given radius whose cylindrical part,
// along local z, has the given length (the total length is length + 2·radius).
func NewCapsule(radius, length float64) Shape {
	return Shape{Kind: Capsule, Radius: radius, HalfLength: length / 2}
}

// NewCylinder returns a cylinder of the given radius and length along local z.
func NewCylinder(radius, length float64) Shape {
	return Shape{Kind: Cylinder, Radius: radius, HalfLength: length / 2}
}

// NewEllipsoid returns the ellipsoid with semi-axes (radii) r along the
// local x, y and z axes.
func NewEllipsoid(r spatial.Vec3) Shape { return Shape{Kind: Ellipsoid, Radii: r} }

// Validate reports an error unless the kind is known and every dimension it
// uses is positive and finite. The message names the offending field and
// value, for example "radius 0 must be positive and finite".
func (s Shape) Validate() error {
	switch s.Kind {
	case HalfSpace:
		return nil
	case Sphere:
		return checkDim("radius", s.Radius)
	case Box:
		for i, name := range [3]string{"half extent x", "half extent y", "half extent z"} {
			if err := checkDim(name, s.HalfExtents[i]); err != nil {
				return err
			}
		}
		return nil
	case Capsule, Cylinder:
		if err := checkDim("radius", s.Radius); err != nil {
			return err
		}
		return checkDim("half length", s.HalfLength)
	case Ellipsoid:
		for i, name := range [3]string{"radius x", "radius y", "radius z"} {
			if err := checkDim(name, s.Radii[i]); err != nil {
				return err
			}
		}
		return nil
	case ConvexHull:
		if s.Hull == nil {
			return errors.New("convex hull has no hull data (build it with NewConvexHull)")
		}
		return nil
	case HeightField:
		if s.Field == nil {
			return errors.New("height field has no elevation data (build it with NewHeightMap)")
		}
		return nil
	}
	return fmt.Errorf("unknown shape kind %v", s.Kind)
}

// valid reports whether Validate would return nil, without allocating.
func (s *Shape) valid() bool {
	ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	switch s.Kind {
	case HalfSpace:
		return true
	case Sphere:
		return ok(s.Radius)
	case Box:
		return ok(s.HalfExtents[0]) && ok(s.HalfExtents[1]) && ok(s.HalfExtents[2])
	case Capsule, Cylinder:
		return ok(s.Radius) && ok(s.HalfLength)
	case Ellipsoid:
		return ok(s.Radii[0]) && ok(s.Radii[1]) && ok(s.Radii[2])
	case ConvexHull:
		return s.Hull != nil
	case HeightField:
		return s.Field != nil
	}
	return false
}

func checkDim(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s %v must be positive and finite", name, v)
	}
	return nil
}
