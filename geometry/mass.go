package geometry

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Volume returns the volume of the solid shape: +Inf for a half-space and
// 0 for an unknown kind.
func (s Shape) Volume() float64 {
	r, l := s.Radius, s.HalfLength
	switch s.Kind {
	case HalfSpace:
		return math.Inf(1)
	case Sphere:
		return 4 * math.Pi * r * r * r / 3
	case Box:
		h := s.HalfExtents
		return 8 * h[0] * h[1] * h[2]
	case Capsule:
		return math.Pi*r*r*2*l + 4*math.Pi*r*r*r/3
	case Cylinder:
		return math.Pi * r * r * 2 * l
	case Ellipsoid:
		return 4 * math.Pi * s.Radii[0] * s.Radii[1] * s.Radii[2] / 3
	case ConvexHull:
		if s.Hull != nil {
			return s.Hull.volume
		}
	case HeightField:
		if s.Field != nil {
			return s.Field.volume
		}
	}
	return 0
}

// Centroid returns the centroid of the solid shape in the shape frame: the
// origin for every kind but ConvexHull, whose frame is that of its input
// points.
func (s Shape) Centroid() spatial.Vec3 {
	if s.Kind == ConvexHull && s.Hull != nil {
		return s.Hull.centroid
	}
	return spatial.Vec3{}
}

// MassProperties returns the spatial inertia of the uniform solid of the
// given density about the shape frame's origin: mass density·Volume,
// centre of mass Centroid and rotational inertia mass·UnitInertia about
// it, in the shape frame. A half-space, an invalid shape and a density
// that is not positive and finite give an error.
func (s Shape) MassProperties(density float64) (spatial.SpatialInertia, error) {
	if !(density > 0) || math.IsInf(density, 0) {
		return spatial.SpatialInertia{}, fmt.Errorf("density %v must be positive and finite", density)
	}
	u, err := s.UnitInertia()
	if err != nil {
		return spatial.SpatialInertia{}, err
	}
	m := density * s.Volume()
	return spatial.SpatialInertia{Mass: m, Com: s.Centroid(), Icom: u.Scale(m)}, nil
}

// UnitInertia returns the rotational inertia per unit mass of the solid
// shape with uniform density, about its centroid and in the shape frame.
// Multiply by the mass to get the inertia. For a ConvexHull it is about
// its Centroid, which need not be the frame origin. A half-space has no finite
// inertia and gives an error, as does a shape that fails Validate.
func (s Shape) UnitInertia() (spatial.Mat3, error) {
	if s.Kind == HalfSpace {
		return spatial.Mat3{}, errors.New("a half-space has no finite inertia")
	}
	if s.Kind == HeightField {
		return spatial.Mat3{}, errors.New("a height field is static terrain: it has no mass properties")
	}
	if err := s.Validate(); err != nil {
		return spatial.Mat3{}, err
	}
	r, l := s.Radius, s.HalfLength
	switch s.Kind {
	case Sphere:
		i := 2 * r * r / 5
		return spatial.Diag3(spatial.Vec3{i, i, i}), nil
	case Box:
		a, b, c := 2*s.HalfExtents[0], 2*s.HalfExtents[1], 2*s.HalfExtents[2]
		return spatial.Diag3(spatial.Vec3{(b*b + c*c) / 12, (a*a + c*c) / 12, (a*a + b*b) / 12}), nil
	case Cylinder:
		t := r*r/4 + l*l/3
		return spatial.Diag3(spatial.Vec3{t, t, r * r / 2}), nil
	case Ellipsoid:
		a2, b2, c2 := s.Radii[0]*s.Radii[0], s.Radii[1]*s.Radii[1], s.Radii[2]*s.Radii[2]
		return spatial.Diag3(spatial.Vec3{(b2 + c2) / 5, (a2 + c2) / 5, (a2 + b2) / 5}), nil
	case ConvexHull:
		return s.Hull.unitI, nil
	}
	return capsuleUnitInertia(r, l), nil
}

// capsuleUnitInertia composes the cylinder of half length l with the two
// hemispheres. A hemisphere of mass m_h whose flat face is at height l has,
// about the capsule centre, I_xx = m_h (2r²/5 + l² + 3lr/4) (parallel-axis
// theorem from its centroid at l + 3r/8) and I_zz = 2 m_h r²/5.
func capsuleUnitInertia(r, l float64) spatial.Mat3 {
	mc := math.Pi * r * r * 2 * l     // cylinder, unit density
	ms := 4 * math.Pi * r * r * r / 3 // both hemispheres
	m := mc + ms
	ixx := mc*(r*r/4+l*l/3) + ms*(2*r*r/5+l*l+3*l*r/4)
	izz := mc*r*r/2 + ms*2*r*r/5
	return spatial.Diag3(spatial.Vec3{ixx / m, ixx / m, izz / m})
}
