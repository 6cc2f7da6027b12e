package mjref

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/geometry/mjccd"
)

// sphereBoxPoints are sphere centres in the box's frame, in units of the
// box's half sizes s and the sphere's radius r (p = a∘s + b r): over a
// face (two), over an edge, over two corners (each moved in by the
// test's overlap along b), and inside near a face, near the centre and
// near another face.
var sphereBoxPoints = [][2][3]float64{
	{{0, 0, 1}, {0, 0, 1}},
	{{0.7, -0.4, 1}, {0, 0, 1}},
	{{1, 0.2, 1}, {0.6, 0, 0.6}},
	{{1, 1, 1}, {0.5, 0.5, 0.5}},
	{{-1, 1, -1}, {-0.4, 0.6, -0.5}},
	{{0.9, 0.1, 0.2}, {0, 0, 0}},
	{{0.01, 0.02, 0.03}, {0, 0, 0}},
	{{0.2, -0.95, 0.1}, {0, 0, 0}},
}

// TestSphereBoxContactsMuJoCo: mjccd.SphereBox, given MuJoCo's own posed
// spheres and boxes, returns MuJoCo 2.2.2's mjc_SphereBox contacts
// (count, dist, pos, frame normal, to 1e-12), for two box orientations,
// sphere centres over faces, edges and corners (at overlaps 1e-4 r to
// 0.3 r) and inside the box, with and without a margin.
func TestSphereBoxContactsMuJoCo(t *testing.T) {
	const r = 0.04
	roundBoxTest{
		geom: func(margin float64) string {
			return fmt.Sprintf(`<geom type="sphere" size="%g" margin="%g"/>`, r, margin)
		},
		n: len(sphereBoxPoints),
		pose: func(k int, pen float64) ([3]float64, [4]float64) {
			p := sphereBoxPoints[k]
			var l [3]float64
			for a := range 3 {
				l[a] = p[0][a]*roundBoxSize[a] + p[1][a]*r
			}
			if p[1] != [3]float64{} { // outside: pulled in by pen along the offset
				n := math.Sqrt(p[1][0]*p[1][0] + p[1][1]*p[1][1] + p[1][2]*p[1][2])
				for a := range 3 {
					l[a] -= pen * p[1][a] / n
				}
			}
			return l, [4]float64{1, 0, 0, 0}
		},
		pens:    func(margin float64) []float64 { return []float64{1e-4 * r, 0.3 * r, -0.5 * margin} },
		collide: mjccd.SphereBox,
	}.run(t)
}
