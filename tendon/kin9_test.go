package tendon_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/tendon"
)

// TestKin9OneSegmentMatchesLoop: Path.Jacobian's one straight segment
// (two sites, no wrap, no pulley) gives the bits of its general loop,
// which a pulley of divisor 1 at site 0 (the same path) takes, for
// segments between two moving bodies, a moving body and the world, and
// one body (no Jacobian), at random configurations of the arm.
func TestKin9OneSegmentMatchesLoop(t *testing.T) {
	im, m := build(t, "arm.xml", arm)
	ws := multibody.NewWorkspace(m)
	over := scene.TendonPath(m, im.Scene.Tendon("over"))
	sites := over.Sites // s0 (world), s1 (a), s2 (b), s3 (c)
	pairs := [][2]int{{2, 3}, {0, 1}, {1, 3}, {3, 0}, {2, 2}}
	g, gl, local := make([]float64, m.NV), make([]float64, m.NV), make([]float64, 3*m.NV)
	q, v := make([]float64, m.NQ), make([]float64, m.NV)
	for k := range 20 {
		for i := range q {
			q[i] = 1.5 * math.Sin(1.9*float64(k)+0.7*float64(i))
		}
		ws.Update(q, v)
		for _, pr := range pairs {
			one := &tendon.Path{Sites: []tendon.Site{sites[pr[0]], sites[pr[1]]}}
			loop := &tendon.Path{Sites: one.Sites, Pulleys: []tendon.Pulley{{Site: 0, Divisor: 1}}}
			l, ll := one.Jacobian(m, ws, g, local), loop.Jacobian(m, ws, gl, local)
			if math.Float64bits(l) != math.Float64bits(ll) {
				t.Fatalf("sites %v: L %v, the loop's %v", pr, l, ll)
			}
			for j := range g {
				if math.Float64bits(g[j]) != math.Float64bits(gl[j]) {
					t.Fatalf("sites %v: G[%d] %v, the loop's %v", pr, j, g[j], gl[j])
				}
			}
		}
	}
}
