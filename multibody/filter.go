package multibody

import "fmt"

// ExcludePair makes bodies a and b never collide with each other (MJCF's
// contact exclude, Drake's collision filter groups).
func (m *Model) ExcludePair(a, b int) error {
	if a < 0 || a >= len(m.Bodies) || b < 0 || b >= len(m.Bodies) {
		return fmt.Errorf("multibody: exclude pair (%d, %d): no such body", a, b)
	}
	if m.excluded == nil {
		m.excluded = map[[2]int32]struct{}{}
	}
	m.excluded[pairKey(a, b)] = struct{}{}
	return nil
}

// Excluded reports whether the pair of bodies was excluded by ExcludePair.
func (m *Model) Excluded(a, b int) bool {
	if m.excluded == nil {
		return false
	}
	_, ok := m.excluded[pairKey(a, b)]
	return ok
}

func pairKey(a, b int) [2]int32 {
	if a > b {
		a, b = b, a
	}
	return [2]int32{int32(a), int32(b)}
}

// RigidGroup returns the body that starts b's rigid group: b's nearest
// ancestor, b included, whose joint is not a weld (the bodies welded to
// it, directly or through other welded bodies, massless frames included,
// move with it as one rigid body: MuJoCo's weld group, body_weldid); −1 for
// the bodies welded to the world.
func (m *Model) RigidGroup(b int) int {
	for b >= 0 {
		bd := &m.Bodies[b]
		if bd.Tree < 0 {
			return -1
		}
		if bd.Joint.Type != JointWeld {
			return b
		}
		b = bd.Joint.Parent
	}
	return -1
}

// ParentFilter is the rule by which a body and its parent never collide
// (Collidable).
type ParentFilter int

const (
	// FilterAdjacent filters the bodies joined by a joint (Adjacent),
	// including a body and a parent welded to the world (Drake's adjacent
	// bodies).
	FilterAdjacent ParentFilter = iota
	// FilterMuJoCo is MuJoCo's parent filter on weld groups
	// (engine_collision_driver.c, mj_contactFilter, with filterparent on):
	// a body never collides with its parent's rigid group, unless either
	// group is the world's, so a child of the world, or of a body welded
	// to it, touches the world's geometries.
	FilterMuJoCo
	// FilterNone filters no parent (MuJoCo's <flag filterparent="disable">);
	// rigid groups still never collide with themselves.
	FilterNone
)

// parentGroup returns the rigid group of the parent of group root g (−1:
// the world, or a body welded to it).
func (m *Model) parentGroup(g int) int {
	if g < 0 {
		return -1
	}
	return m.RigidGroup(m.Bodies[g].Joint.Parent)
}

// Collidable reports whether geometries i and j may touch: they are on
// different bodies, not in one rigid group (RigidGroup: welded together,
// directly or through massless frames, or both welded to the world; such a
// contact could move nothing, and its Delassus block would be 0), not on
// adjacent bodies
// (Adjacent), their collision bits match (Geometry.Contype and
// Conaffinity, as in MuJoCo) and their bodies are not an excluded pair. It
// does not allocate.
func (m *Model) Collidable(i, j int) bool {
	ga, gb := &m.Geometries[i], &m.Geometries[j]
	if ga.Body == gb.Body {
		return false
	}
	ra, rb := m.RigidGroup(ga.Body), m.RigidGroup(gb.Body)
	if ra == rb {
		return false
	}
	switch m.ParentFilter {
	case FilterAdjacent:
		if m.Adjacent(ga.Body, gb.Body) {
			return false
		}
	case FilterMuJoCo:
		if ra >= 0 && rb >= 0 && (ra == m.parentGroup(rb) || rb == m.parentGroup(ra)) {
			return false
		}
	}
	if ga.Contype&gb.Conaffinity == 0 && gb.Contype&ga.Conaffinity == 0 {
		return false
	}
	return !m.Excluded(ga.Body, gb.Body)
}
