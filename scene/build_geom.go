package scene

import (
	"errors"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// This file holds the only uses of the convex-hull and ellipsoid shapes of
// package geometry.

// errNoHull is returned until package geometry has convex hulls.
var errNoHull = errors.New("convex hull collision shapes need geometry.NewConvexHull (not yet merged)")

// newHull returns the convex hull of the points as a collision shape.
func newHull(points []spatial.Vec3) (geometry.Shape, error) {
	return geometry.Shape{}, errNoHull
}

// newEllipsoid returns an ellipsoid with the given semi-axes.
func newEllipsoid(r spatial.Vec3) (geometry.Shape, error) {
	return geometry.Shape{}, errors.New("ellipsoid collision shapes need geometry's Ellipsoid kind (not yet merged)")
}

// shapeMassProps returns the volume, the centroid (shape frame) and the
// rotational inertia per unit mass about the centroid of a solid shape.
func shapeMassProps(s geometry.Shape) (float64, spatial.Vec3, spatial.Mat3, error) {
	unit, err := s.UnitInertia()
	return s.Volume(), spatial.Vec3{}, unit, err
}
