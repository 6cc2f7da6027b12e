package urdf

import (
	"fmt"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
)

// collisionFilter sets which pairs of the robot's links may collide, as ROS
// users expect of a URDF: links joined by a joint never do (the scene's
// parent filter), nor links that cannot move relative to each other
// (welded together or both fixed: multibody.RigidGroup). Without
// model.Options.SelfCollision no two links of the robot collide (PyBullet's
// default and Gazebo's); with it, the remaining pairs collide except those
// whose collision shapes overlap at q0 (convex hulls of neighbouring links
// often do), which are excluded with a warning naming both links and the
// depth: in contact from the first step they would be pushed apart, adding
// energy, or stop the run.
func (im *importer) collisionFilter() error {
	s := im.out.Scene
	if !im.opts.SelfCollision {
		im.excludeAll(s)
		return nil
	}
	m, st, err := scene.BuildModel(s)
	if err != nil {
		return fmt.Errorf("%s: collision filter: %w", im.r.File, err)
	}
	for _, o := range initialOverlaps(m, st) {
		a, b := m.Bodies[o.a].Name, m.Bodies[o.b].Name
		im.exclude(a, b)
		im.r.Warnf(im.links[a], "", "the collision shapes of links %q and %q overlap by %.3g m in the initial pose: the pair never collides (it would be pushed apart from the first step, adding energy)", a, b, o.depth)
	}
	return nil
}

// excludeAll excludes every pair of the robot's bodies that have collision
// shapes.
func (im *importer) excludeAll(s *scene.Scene) {
	var shaped []string
	for _, b := range s.Bodies {
		if b.Shape != nil || len(b.Collisions) > 0 {
			shaped = append(shaped, b.Name)
		}
	}
	for i, a := range shaped {
		for _, b := range shaped[i+1:] {
			im.exclude(a, b)
		}
	}
}

// exclude adds the body pair a, b to the scene's excluded pairs, once.
func (im *importer) exclude(a, b string) {
	if im.excludedSet == nil {
		im.excludedSet = map[[2]string]bool{}
		for _, p := range im.out.Scene.Exclude {
			im.excludedSet[p], im.excludedSet[[2]string{p[1], p[0]}] = true, true
		}
	}
	if im.excludedSet[[2]string{a, b}] {
		return
	}
	im.excludedSet[[2]string{a, b}], im.excludedSet[[2]string{b, a}] = true, true
	im.out.Scene.Exclude = append(im.out.Scene.Exclude, [2]string{a, b})
}

// overlap is a pair of bodies whose collision shapes overlap by depth.
type overlap struct {
	a, b  int
	depth float64
}

// initialOverlaps returns the pairs of bodies that may collide
// (multibody.Model.Collidable) and whose shapes overlap at the state st,
// each once, with the deepest overlap of their shapes.
func initialOverlaps(m *multibody.Model, st *multibody.State) []overlap {
	kin := multibody.NewWorkspace(m)
	kin.Update(st.Q, st.V)
	n := len(m.Geometries)
	boxes := make([]geometry.AABB, n)
	for i, g := range m.Geometries {
		boxes[i] = g.Shape.AABB(kin.Pose(g.Body).Compose(g.Pose))
	}
	index := map[[2]int]int{}
	var out []overlap
	var buf []geometry.Contact
	for i := range n {
		for j := i + 1; j < n; j++ {
			gi, gj := &m.Geometries[i], &m.Geometries[j]
			if !boxes[i].Overlaps(boxes[j]) || !m.Collidable(i, j) {
				continue
			}
			buf = geometry.Collide(gi.Shape, kin.Pose(gi.Body).Compose(gi.Pose), gj.Shape, kin.Pose(gj.Body).Compose(gj.Pose), 0, buf[:0])
			depth := 0.0
			for _, c := range buf {
				depth = max(depth, -c.Phi)
			}
			if depth == 0 {
				continue
			}
			key := [2]int{min(gi.Body, gj.Body), max(gi.Body, gj.Body)}
			if k, ok := index[key]; ok {
				out[k].depth = max(out[k].depth, depth)
				continue
			}
			index[key] = len(out)
			out = append(out, overlap{a: key[0], b: key[1], depth: depth})
		}
	}
	return out
}
