package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
)

// detectContacts finds the contact pairs at q0: broad phase on inflated
// bounding boxes, then the narrow phase on each candidate pair of geometries
// that multibody.Model.Collidable admits (different bodies, not both welded
// to the world, not joined by a joint as in Drake, matching contype and
// conaffinity bits, not an excluded body pair). Pairs keep the broad phase's
// deterministic (i, j) order, so geometry i is A and j is B.
func (sim *Simulator) detectContacts() {
	m, s, w := sim.Model, sim.State, &sim.ws
	margin := sim.cfg.Contact.Margin
	w.kin0.Update(s.Q, s.V) // one forward-kinematics pass at q0 for poses and Jacobians
	for i, g := range m.Geometries {
		w.poses[i] = w.kin0.Pose(g.Body).Compose(g.Pose)
		w.boxes[i] = g.Shape.AABB(w.poses[i]).Inflate(margin)
	}
	w.cand = w.broad.Pairs(w.boxes, w.cand[:0])
	w.pairs = w.pairs[:0]
	for _, c := range w.cand {
		i, j := int(c[0]), int(c[1])
		if !m.Collidable(i, j) {
			continue
		}
		ga, gb := &m.Geometries[i], &m.Geometries[j]
		w.hits = geometry.Collide(ga.Shape, w.poses[i], gb.Shape, w.poses[j], margin, w.hits[:0])
		for _, h := range w.hits {
			w.pairs = append(w.pairs, contact.Pair{GeomA: i, GeomB: j, BodyA: ga.Body, BodyB: gb.Body, Contact: h})
		}
	}
}
