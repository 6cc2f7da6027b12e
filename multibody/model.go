package multibody

import (
	"fmt"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// Body is a rigid body and the joint that connects it to its parent. The
// fields that every step reads come first (see Joint).
type Body struct {
	Tree    int                    // index into Model.Trees; −1 for a body welded to the world
	QOff    int                    // first coordinate of the joint in q
	VOff    int                    // first velocity of the joint in v
	Inertia spatial.SpatialInertia // about the body origin, in the body frame (Com may be non-zero)
	Joint   Joint
	Name    string
	Pose    spatial.Pose // the fixed world pose of a body welded to the world (unused for others)
	// Anchor is the body welded to the world that the joint was declared
	// on before it was re-parented to the world (−1 if none); it still
	// counts as adjacent for collision filtering.
	Anchor int
}

// Tree is one kinematic tree of the forest: its bodies (parents before
// children) and the contiguous slices of q and v that belong to it.
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
	// Contype and Conaffinity are MuJoCo-style collision bits: geometries
	// i and j may collide when Contype_i & Conaffinity_j or Contype_j &
	// Conaffinity_i is non-zero. AddGeometry sets both to 1.
	Contype, Conaffinity uint32
	Name                 string // optional, for messages and inspection
	// Standoff is how far apart this geometry's contacts hold the surfaces
	// (MuJoCo's geom margin − gap): a pair's contact acts as if its gap
	// were smaller by the larger standoff of its two geometries. 0 acts at
	// touch.
	Standoff float64
	// Margin is MuJoCo's geom margin: a pair of geometries has a contact
	// once its surfaces are closer than the larger of their margins, in
	// the margin's gap (beyond Standoff) a contact that exerts no force
	// but that MuJoCo's body transmission counts (tendon.BodyTransmission).
	// 0 for none.
	Margin float64
}

// Model is the static description of a multibody system. Build it with
// AddBody (or AddFreeBody, AddWeldedBody) and AddGeometry; it does not change
// while a simulation runs and can be shared by many States. Adding a body
// re-lays out q and v tree by tree, so create States after the last body.
type Model struct {
	Bodies     []Body
	Trees      []Tree
	Geometries []Geometry
	Gravity    spatial.Vec3
	NQ, NV     int
	// Visuals are drawn by the viewer and the glTF export; they take no
	// part in the dynamics or in contact.
	Visuals []Visual
	// ParentFilter chooses which bodies joined by a joint never collide
	// (Collidable): FilterAdjacent (the default, Drake's) or FilterMuJoCo.
	ParentFilter ParentFilter
	// excluded holds the body pairs (smaller index first) whose
	// geometries never collide (ExcludePair).
	excluded map[[2]int32]struct{}
}

// AddBody adds a body connected by joint j to its parent (an earlier body, or
// the world when j.Parent is −1) and returns its index. A body whose parent
// is welded to the world is re-parented to the world with the composed frame;
// a body welded to the world belongs to no tree; a free joint must connect to
// the world.
func (m *Model) AddBody(name string, inertia spatial.SpatialInertia, j Joint) (int, error) {
	if err := j.validate(); err != nil {
		return -1, fmt.Errorf("multibody: body %q: %w", name, err)
	}
	if j.Parent < -1 || j.Parent >= len(m.Bodies) {
		return -1, fmt.Errorf("multibody: body %q: parent %d is not an earlier body", name, j.Parent)
	}
	anchor := -1
	if j.Parent >= 0 && m.Bodies[j.Parent].Tree < 0 {
		j.ParentFrame = m.Bodies[j.Parent].Pose.Compose(j.ParentFrame)
		anchor, j.Parent = j.Parent, -1
	}
	if j.Type == JointFree && j.Parent != -1 {
		return -1, fmt.Errorf("multibody: body %q: a free joint must connect to the world, not to body %q", name, m.Bodies[j.Parent].Name)
	}
	b := len(m.Bodies)
	body := Body{Name: name, Joint: j, Inertia: inertia, Tree: -1, Anchor: anchor}
	switch {
	case j.Type == JointWeld && j.Parent == -1:
		body.Pose = j.ParentFrame.Compose(j.ChildFrame.Inverse())
	case j.Parent == -1:
		if err := inertia.Validate(); err != nil {
			return -1, fmt.Errorf("multibody: body %q: %w", name, err)
		}
		body.Tree = len(m.Trees)
		m.Trees = append(m.Trees, Tree{})
	case j.Type == JointWeld && inertia == (spatial.SpatialInertia{}):
		body.Tree = m.Bodies[j.Parent].Tree // a massless frame welded to a moving body
	default:
		if err := inertia.Validate(); err != nil {
			return -1, fmt.Errorf("multibody: body %q: %w", name, err)
		}
		body.Tree = m.Bodies[j.Parent].Tree
	}
	m.Bodies = append(m.Bodies, body)
	if body.Tree >= 0 {
		m.Trees[body.Tree].Bodies = append(m.Trees[body.Tree].Bodies, b)
	}
	m.layout()
	return b, nil
}

// layout assigns the q and v offsets, tree by tree.
func (m *Model) layout() {
	m.NQ, m.NV = 0, 0
	for ti := range m.Trees {
		t := &m.Trees[ti]
		t.QOffset, t.VOffset = m.NQ, m.NV
		for _, b := range t.Bodies {
			body := &m.Bodies[b]
			body.QOff, body.VOff = m.NQ, m.NV
			m.NQ += body.Joint.NQ()
			m.NV += body.Joint.NV()
		}
		t.NQ, t.NV = m.NQ-t.QOffset, m.NV-t.VOffset
	}
}

// AddFreeBody adds a body on a free joint, as a tree of its own, and returns
// its index. This helper keeps the core convention that the body origin is
// its centre of mass; use AddBody with a JointFree joint for an offset one.
func (m *Model) AddFreeBody(name string, inertia spatial.SpatialInertia) (int, error) {
	if inertia.Com != (spatial.Vec3{}) {
		return -1, fmt.Errorf("multibody: body %q: AddFreeBody needs the origin at the centre of mass, got com %v (use AddBody)", name, inertia.Com)
	}
	return m.AddBody(name, inertia, Joint{Type: JointFree, Parent: -1})
}

// AddWeldedBody adds a body fixed to the world at pose x and returns its
// index.
func (m *Model) AddWeldedBody(name string, x spatial.Pose) int {
	b, _ := m.AddBody(name, spatial.SpatialInertia{}, Joint{Type: JointWeld, Parent: -1, ParentFrame: x, ChildFrame: spatial.PoseIdentity()})
	return b
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
	if s.Kind == geometry.HalfSpace && m.Bodies[b].Tree >= 0 {
		return -1, fmt.Errorf("multibody: body %q: a half-space can only be attached to a body welded to the world", m.Bodies[b].Name)
	}
	if s.Kind == geometry.HeightField && m.Bodies[b].Tree >= 0 {
		return -1, fmt.Errorf("multibody: body %q: a height field can only be attached to a body welded to the world", m.Bodies[b].Name)
	}
	m.Geometries = append(m.Geometries, Geometry{Body: b, Shape: s, Pose: x, Material: mat, Contype: 1, Conaffinity: 1})
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

// Adjacent reports whether bodies a and b are joined by a joint (one is the
// other's parent). Collision between adjacent bodies is filtered, as in
// Drake (Collidable).
func (m *Model) Adjacent(a, b int) bool {
	ba, bb := &m.Bodies[a], &m.Bodies[b]
	return (ba.Tree >= 0 && (ba.Joint.Parent == b || ba.Anchor == b)) ||
		(bb.Tree >= 0 && (bb.Joint.Parent == a || bb.Anchor == a))
}

// ExcludeCollision excludes the pair of bodies a and b from collision
// (ExcludePair): bodies joined by a constraint (a weld, a ball joint closing
// a loop, an attachment) touch by design. Indices out of range (such as −1,
// the world) and a == b are ignored. Call it while building the model.
func (m *Model) ExcludeCollision(a, b int) {
	if a < 0 || b < 0 || a >= len(m.Bodies) || b >= len(m.Bodies) || a == b {
		return
	}
	m.ExcludePair(a, b) // in range: no error
}

// TreeVelocityParents returns, for each velocity of tree t (numbered from
// the tree's VOffset), the velocity it hangs from: the joint's previous
// velocity for all but a joint's first, and for the first the last
// velocity of the nearest ancestor body that has one (−1 at the root).
// Every entry is smaller than its index. It is MuJoCo's dof_parentid, the
// structure of M's non-zeros (M_ij = 0 unless i or j is an ancestor of the
// other) that solver.Clique.Parent carries to the tree factor. It
// allocates; callers keep the result.
func (m *Model) TreeVelocityParents(t int) []int {
	tr := &m.Trees[t]
	parent := make([]int, tr.NV)
	last := make(map[int]int, len(tr.Bodies)) // body → its last velocity (or its ancestor's)
	for _, b := range tr.Bodies {
		body := &m.Bodies[b]
		p := -1
		if a := body.Joint.Parent; a >= 0 {
			if l, ok := last[a]; ok {
				p = l
			}
		}
		for k := range body.Joint.NV() {
			i := body.VOff + k - tr.VOffset
			parent[i] = p
			p = i
		}
		last[b] = p
	}
	return parent
}
