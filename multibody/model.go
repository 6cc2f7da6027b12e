package multibody

import (
	"fmt"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// JointType is the joint that connects a body to its parent (the world for a
// tree's root).
type JointType int

const (
	// JointWeld fixes the body to the world: no coordinates, no velocities.
	JointWeld JointType = iota
	// JointFree gives the body six degrees of freedom: q = (quaternion,
	// position), v = (ω, v), both in the world frame.
	JointFree
)

// Body is a rigid body.
type Body struct {
	Name    string
	Joint   JointType
	Inertia spatial.SpatialInertia // about the body origin; Com must be zero for a free body
	Tree    int                    // index into Model.Trees; −1 for a welded body
	Pose    spatial.Pose           // the fixed pose of a welded body (unused for others)
}

// Tree is one kinematic tree of the forest: its bodies and the slices of q
// and v that belong to it.
type Tree struct {
	Bodies  []int
	QOffset int
	NQ      int
	VOffset int
	NV      int
}

// Geometry is a collision shape attached to a body.
type Geometry struct {
	Body     int
	Shape    geometry.Shape
	Pose     spatial.Pose // pose of the shape in the body frame
	Material int          // index into the caller's contact materials
}

// Model is the static description of a multibody system. Build it with
// AddFreeBody, AddWeldedBody and AddGeometry; it does not change while a
// simulation runs and can be shared by many States.
type Model struct {
	Bodies     []Body
	Trees      []Tree
	Geometries []Geometry
	Gravity    spatial.Vec3
	NQ, NV     int
}

// AddFreeBody adds a body on a free joint, as a tree of its own, and returns
// its index. The body origin must be its centre of mass.
func (m *Model) AddFreeBody(name string, inertia spatial.SpatialInertia) (int, error) {
	if err := inertia.Validate(); err != nil {
		return -1, fmt.Errorf("multibody: body %q: %w", name, err)
	}
	if inertia.Com != (spatial.Vec3{}) {
		return -1, fmt.Errorf("multibody: body %q: free-body origin must be the centre of mass, got com %v", name, inertia.Com)
	}
	b := len(m.Bodies)
	m.Trees = append(m.Trees, Tree{Bodies: []int{b}, QOffset: m.NQ, NQ: 7, VOffset: m.NV, NV: 6})
	m.Bodies = append(m.Bodies, Body{Name: name, Joint: JointFree, Inertia: inertia, Tree: len(m.Trees) - 1})
	m.NQ += 7
	m.NV += 6
	return b, nil
}

// AddWeldedBody adds a body fixed to the world at pose x and returns its
// index.
func (m *Model) AddWeldedBody(name string, x spatial.Pose) int {
	m.Bodies = append(m.Bodies, Body{Name: name, Joint: JointWeld, Tree: -1, Pose: x})
	return len(m.Bodies) - 1
}

// AddGeometry attaches shape s to body b at pose x (in the body frame) with
// contact material index mat, and returns the geometry index.
func (m *Model) AddGeometry(b int, s geometry.Shape, x spatial.Pose, mat int) (int, error) {
	if b < 0 || b >= len(m.Bodies) {
		return -1, fmt.Errorf("multibody: geometry on body %d: no such body", b)
	}
	if err := s.Validate(); err != nil {
		return -1, fmt.Errorf("multibody: geometry on body %q: %w", m.Bodies[b].Name, err)
	}
	if s.Kind == geometry.HalfSpace && m.Bodies[b].Joint != JointWeld {
		return -1, fmt.Errorf("multibody: body %q: a half-space can only be attached to a welded body", m.Bodies[b].Name)
	}
	m.Geometries = append(m.Geometries, Geometry{Body: b, Shape: s, Pose: x, Material: mat})
	return len(m.Geometries) - 1, nil
}

// BodyByName returns the index of the named body, or −1.
func (m *Model) BodyByName(name string) int {
	for i, b := range m.Bodies {
		if b.Name == name {
			return i
		}
	}
	return -1
}
