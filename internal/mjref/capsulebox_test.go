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

// capsuleBoxPoses are capsules in a box's frame: the centre in units of
// the box's half sizes, the axis turned from z (axis, angle), and the
// direction along which the test moves the capsule into the box by its
// overlap: lying on a face (along x, yawed, off centre), across an edge
// (X), along an edge, end down on a face (upright, tilted), into a
// corner (end first and lying), over an edge end-on (T), and with the
// centre inside the box.
var capsuleBoxPoses = []struct {
	c, axis, in [3]float64
	angle       float64
}{
	{[3]float64{0, 0, 1}, [3]float64{0, 1, 0}, [3]float64{0, 0, -1}, math.Pi / 2},
	{[3]float64{0.3, -0.2, 1}, [3]float64{0.3, 1, 0}, [3]float64{0, 0, -1}, math.Pi / 2},
	{[3]float64{0.9, 0.5, 1}, [3]float64{1, 1, 0}, [3]float64{0, 0, -1}, math.Pi / 2},
	{[3]float64{1, 0.1, 1}, [3]float64{1, 0, 0}, [3]float64{-1, 0, -1}, math.Pi / 2},
	{[3]float64{1, 0, 1}, [3]float64{1, 0, 0}, [3]float64{-1, 0, -1}, 1.3},
	{[3]float64{0.2, 0.3, 1}, [3]float64{1, 0, 0}, [3]float64{0, 0, -1}, 0},
	{[3]float64{-0.3, 0.1, 1}, [3]float64{1, 0.5, 0}, [3]float64{0, 0, -1}, 0.5},
	{[3]float64{1, 1, 1}, [3]float64{1, -1, 0}, [3]float64{-1, -1, -1}, math.Atan(math.Sqrt2)},
	{[3]float64{1, 1, 1}, [3]float64{1, -1, 0}, [3]float64{-1, -1, -1}, 2},
	{[3]float64{1, 0, 1}, [3]float64{0, 1, 0}, [3]float64{-1, 0, -1}, math.Pi / 4},
	{[3]float64{0.1, 0.2, 0.3}, [3]float64{0.2, 1, 0.3}, [3]float64{0, 0, 0}, 0.8},
	{[3]float64{0.3, 0.7, 1}, [3]float64{0.6, -0.2, 1}, [3]float64{0, -0.2, -1}, 2.5},
}

// TestCapsuleBoxContactsMuJoCo: mjccd.CapsuleBox, given MuJoCo's own posed
// capsules and boxes, returns MuJoCo 2.2.2's mjc_CapsuleBox contacts
// (count, order, dist, pos, frame normal, to 1e-12) for capsuleBoxPoses,
// two box orientations, overlaps from 1e-4 to 0.5 of the radius, and
// within a margin.
func TestCapsuleBoxContactsMuJoCo(t *testing.T) {
	exe := tool(t)
	dir := t.TempDir()
	const r, hl = 0.03, 0.08
	size := [3]float64{0.1, 0.07, 0.05}
	total, worst := 0, 0.0
	for _, margin := range []float64{0, 0.01} {
		var b strings.Builder
		b.WriteString(`<mujoco><option gravity="0 0 0"/><worldbody>`)
		for range capsuleBoxPoses {
			fmt.Fprintf(&b, `<body><freejoint/><geom type="capsule" size="%g %g" margin="%g"/></body>`, r, hl, margin)
			fmt.Fprintf(&b, `<body><freejoint/><geom type="box" size="%g %g %g" margin="%g"/></body>`, size[0], size[1], size[2], margin)
		}
		b.WriteString(`</worldbody></mujoco>`)
		path := filepath.Join(dir, "capsulebox.xml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, rot := range []struct {
			axis  [3]float64
			angle float64
		}{{[3]float64{0, 0, 1}, 0}, {[3]float64{0.3, -0.5, 0.8}, 1.1}} {
			for _, pen := range []float64{1e-4 * r, 0.2 * r, 0.5 * r, -0.5 * margin} {
				q := make([]float64, 14*len(capsuleBoxPoses))
				bq := axisQuat(rot.axis, rot.angle)
				m := mjccd.QuatToMat(bq)
				for k, p := range capsuleBoxPoses {
					cq := axisQuat(p.axis, p.angle)
					cm := mjccd.QuatToMat(cq)
					ax := [3]float64{cm[2], cm[5], cm[8]}
					var l [3]float64
					n := math.Sqrt(p.in[0]*p.in[0] + p.in[1]*p.in[1] + p.in[2]*p.in[2])
					for a := range 3 {
						l[a] = p.c[a] * size[a]
						if n > 0 { // outside: the capsule's surface just touching along in, then moved in by pen
							h := r + hl*math.Abs(ax[0]*p.in[0]+ax[1]*p.in[1]+ax[2]*p.in[2])/n
							l[a] += (pen - h) * p.in[a] / n
						}
					}
					x := [3]float64{3 * float64(k), 0, 1}
					wq := mulQuatT(bq, cq)
					copy(q[14*k:], []float64{x[0] + m[0]*l[0] + m[1]*l[1] + m[2]*l[2], x[1] + m[3]*l[0] + m[4]*l[1] + m[5]*l[2], x[2] + m[6]*l[0] + m[7]*l[1] + m[8]*l[2], wq[0], wq[1], wq[2], wq[3]})
					copy(q[14*k+7:], []float64{x[0], x[1], x[2], bq[0], bq[1], bq[2], bq[3]})
				}
				c, err := Collide(exe, path, 0, q, make([]float64, 12*len(capsuleBoxPoses)))
				if err != nil {
					t.Fatal(err)
				}
				k, w, err := comparePairs(c, len(capsuleBoxPoses), mjccd.CapsuleBox, margin, func(k int) string { return fmt.Sprintf("pose %d", k) })
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

// mulQuatT is the Hamilton product a b of unit quaternions (w, x, y, z).
func mulQuatT(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}
