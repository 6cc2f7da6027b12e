package scene

import (
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// This file holds the scene's uses of the convex-hull and ellipsoid shapes
// of package geometry.

// newHull returns the convex hull of the points as a collision shape.
func newHull(points []spatial.Vec3) (geometry.Shape, error) {
	return geometry.NewConvexHull(points)
}

// newEllipsoid returns an ellipsoid with the given semi-axes.
func newEllipsoid(r spatial.Vec3) (geometry.Shape, error) {
	g := geometry.NewEllipsoid(r)
	return g, g.Validate()
}

// shapeMassProps returns the volume, the centroid (shape frame) and the
// rotational inertia per unit mass about the centroid of a solid shape.
func shapeMassProps(s geometry.Shape) (float64, spatial.Vec3, spatial.Mat3, error) {
	unit, err := s.UnitInertia()
	return s.Volume(), s.Centroid(), unit, err
}
