package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestCubeslide4NearestInPolyN: the fused searches of nearestInPolyN (the
// four slots of faceManifold in one pass over the edges) each return bit
// for bit the point of the math.Hypot version searched alone, on random
// polygons, with targets at the slot directions and, now and then, one
// target NaN or infinite among them (its search must not disturb the
// others').
func TestCubeslide4NearestInPolyN(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 11))
	var buf, ebuf [16]spatial.Vec3
	h := math.Sqrt(0.5)
	for trial := range 20000 {
		p, cx, cy, s := randomClipPoly(rng, trial, buf[:])
		edges := polyEdges(&p, ebuf[:])
		var ss [numSlots]nearSearch
		for k, d := range [numSlots][2]float64{{h, h}, {-h, h}, {-h, -h}, {h, -h}} {
			r := s * (1 + 10*rng.Float64())
			ss[k] = nearSearch{x: cx + r*d[0], y: cy + r*d[1], bk: -1}
		}
		switch trial % 5 {
		case 1:
			ss[rng.IntN(numSlots)].x = math.NaN()
		case 2:
			ss[rng.IntN(numSlots)].y = math.Inf(1 - 2*rng.IntN(2))
		}
		targets := ss
		nearestInPolyN(&p, edges, ss[:])
		for k := range ss {
			got, want := ss[k].point(&p), nearestInPolyHypot(&p, targets[k].x, targets[k].y)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d slot %d: nearestInPolyN(%v, %g, %g) = %v, the math.Hypot version %v",
						trial, k, p.v[:p.n], targets[k].x, targets[k].y, got, want)
				}
			}
		}
	}
}
