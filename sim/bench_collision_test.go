package sim_test

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// BenchmarkCollisionClutterN times collision detection as sim does it
// (world poses and inflated AABBs of every geometry, sweep-and-prune broad
// phase, narrow phase on every candidate pair of different bodies, not both
// fixed) on scene.ClutterN(n, true) after 150 steps (a settled pile), for
// n = 40, 160, 640. It reports the candidate pairs and contacts.
func BenchmarkCollisionClutterN(b *testing.B) {
	for _, n := range []int{40, 160, 640} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			sc, err := scene.LoadClutterN(n, true, []string{"duration=1000"})
			if err != nil {
				b.Fatal(err)
			}
			s, bl := withSolver(b, sc, linear(sap.SparseLinear))
			runSteps(b, s, 150)
			m, margin := s.Model, bl.Config.Contact.Margin
			poses := make([]spatial.Pose, len(m.Geometries))
			boxes := make([]geometry.AABB, len(m.Geometries))
			var bp geometry.BroadPhase
			var cand [][2]int32
			var hits []geometry.Contact
			contacts := 0
			b.ReportAllocs()
			for b.Loop() {
				contacts = collide(s, margin, poses, boxes, &bp, &cand, &hits)
			}
			b.ReportMetric(float64(len(cand)), "candidates")
			b.ReportMetric(float64(contacts), "contacts")
		})
	}
}

// collide is sim's collision detection (sim/collision.go) written with the
// public API, returning the number of contacts.
func collide(s *sim.Simulator, margin float64, poses []spatial.Pose, boxes []geometry.AABB,
	bp *geometry.BroadPhase, cand *[][2]int32, hits *[]geometry.Contact) int {
	m := s.Model
	for i, g := range m.Geometries {
		poses[i] = m.BodyPose(s.State, g.Body).Compose(g.Pose)
		boxes[i] = g.Shape.AABB(poses[i]).Inflate(margin)
	}
	*cand = bp.Pairs(boxes, (*cand)[:0])
	n := 0
	for _, c := range *cand {
		i, j := int(c[0]), int(c[1])
		ga, gb := &m.Geometries[i], &m.Geometries[j]
		if ga.Body == gb.Body || (m.Bodies[ga.Body].Tree < 0 && m.Bodies[gb.Body].Tree < 0) {
			continue
		}
		*hits = geometry.Collide(ga.Shape, poses[i], gb.Shape, poses[j], margin, (*hits)[:0])
		n += len(*hits)
	}
	return n
}
