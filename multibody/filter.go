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

// Collidable reports whether geometries i and j may touch: they are on
// different bodies, not both welded to the world, not on adjacent bodies
// (Adjacent), their collision bits match (Geometry.Contype and
// Conaffinity, as in MuJoCo) and their bodies are not an excluded pair. It
// does not allocate.
func (m *Model) Collidable(i, j int) bool {
	ga, gb := &m.Geometries[i], &m.Geometries[j]
	if ga.Body == gb.Body || (m.Bodies[ga.Body].Tree < 0 && m.Bodies[gb.Body].Tree < 0) || m.Adjacent(ga.Body, gb.Body) {
		return false
	}
	if ga.Contype&gb.Conaffinity == 0 && gb.Contype&ga.Conaffinity == 0 {
		return false
	}
	return !m.Excluded(ga.Body, gb.Body)
}
