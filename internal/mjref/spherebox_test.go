package mjref

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
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
	exe := tool(t)
	dir := t.TempDir()
	const r = 0.04
	size := [3]float64{0.1, 0.07, 0.05}
	total, worst := 0, 0.0
	for _, margin := range []float64{0, 0.01} {
		var b strings.Builder
		b.WriteString(`<mujoco><option gravity="0 0 0"/><worldbody>`)
		for range sphereBoxPoints {
			fmt.Fprintf(&b, `<body><freejoint/><geom type="sphere" size="%g" margin="%g"/></body>`, r, margin)
			fmt.Fprintf(&b, `<body><freejoint/><geom type="box" size="%g %g %g" margin="%g"/></body>`, size[0], size[1], size[2], margin)
		}
		b.WriteString(`</worldbody></mujoco>`)
		path := filepath.Join(dir, "spherebox.xml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, rot := range []struct {
			axis  [3]float64
			angle float64
		}{{[3]float64{0, 0, 1}, 0}, {[3]float64{0.3, -0.5, 0.8}, 1.1}} {
			for _, pen := range []float64{1e-4 * r, 0.3 * r, -0.5 * margin} {
				q := make([]float64, 14*len(sphereBoxPoints))
				quat := axisQuat(rot.axis, rot.angle)
				m := mjccd.QuatToMat(quat)
				for k, p := range sphereBoxPoints {
					var l [3]float64
					for a := range 3 {
						l[a] = p[0][a]*size[a] + p[1][a]*r
					}
					if p[1] != [3]float64{} { // outside: pull in by pen along the offset
						n := math.Sqrt(p[1][0]*p[1][0] + p[1][1]*p[1][1] + p[1][2]*p[1][2])
						for a := range 3 {
							l[a] -= pen * p[1][a] / n
						}
					}
					x := [3]float64{3 * float64(k), 0, 1}
					copy(q[14*k:], []float64{x[0] + m[0]*l[0] + m[1]*l[1] + m[2]*l[2], x[1] + m[3]*l[0] + m[4]*l[1] + m[5]*l[2], x[2] + m[6]*l[0] + m[7]*l[1] + m[8]*l[2], 1, 0, 0, 0})
					copy(q[14*k+7:], []float64{x[0], x[1], x[2], quat[0], quat[1], quat[2], quat[3]})
				}
				c, err := Collide(exe, path, 0, q, make([]float64, 12*len(sphereBoxPoints)))
				if err != nil {
					t.Fatal(err)
				}
				k, w, err := comparePairs(c, len(sphereBoxPoints), mjccd.SphereBox, margin, func(k int) string { return fmt.Sprintf("point %d", k) })
				if err != nil {
					t.Errorf("margin %g, turn %v, overlap %g: %v", margin, rot, pen, err)
				}
				total += k
				worst = math.Max(worst, w)
			}
		}
	}
	t.Logf("%d contacts compared, largest difference %.3g", total, worst)
	if worst > 1e-12 || total == 0 {
		t.Errorf("%d contacts, differing from MuJoCo's by %.3g", total, worst)
	}
}
