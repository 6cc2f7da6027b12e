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

// roundBoxSize is the box of the sphere–box and capsule–box contact tests.
var roundBoxSize = [3]float64{0.1, 0.07, 0.05}

// roundBoxTest is a contact test of a sphere or capsule against a box:
// geom, the round geom's MJCF (given the margin); n poses, each pose(k,
// pen) the geom's centre and orientation in the box's frame at overlap
// pen; pens(margin) the overlaps; collide the port.
type roundBoxTest struct {
	geom    func(margin float64) string
	n       int
	pose    func(k int, pen float64) ([3]float64, [4]float64)
	pens    func(margin float64) []float64
	collide pairCollider
}

// run compares rt.collide with MuJoCo's contacts for every pose, overlap,
// margin (0, 0.01) and two box orientations, contact by contact (count,
// order, dist, pos, frame normal, to 1e-12).
func (rt roundBoxTest) run(t *testing.T) {
	exe := tool(t)
	dir := t.TempDir()
	total, worst := 0, 0.0
	for _, margin := range []float64{0, 0.01} {
		var b strings.Builder
		b.WriteString(`<mujoco><option gravity="0 0 0"/><worldbody>`)
		for range rt.n {
			fmt.Fprintf(&b, `<body><freejoint/>%s</body>`, rt.geom(margin))
			s := roundBoxSize
			fmt.Fprintf(&b, `<body><freejoint/><geom type="box" size="%g %g %g" margin="%g"/></body>`, s[0], s[1], s[2], margin)
		}
		b.WriteString(`</worldbody></mujoco>`)
		path := filepath.Join(dir, "roundbox.xml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, rot := range []struct {
			axis  [3]float64
			angle float64
		}{{[3]float64{0, 0, 1}, 0}, {[3]float64{0.3, -0.5, 0.8}, 1.1}} {
			bq := axisQuat(rot.axis, rot.angle)
			m := mjccd.QuatToMat(bq)
			for _, pen := range rt.pens(margin) {
				q := make([]float64, 14*rt.n)
				for k := range rt.n {
					l, lq := rt.pose(k, pen)
					x := [3]float64{3 * float64(k), 0, 1}
					wq := mulQuatT(bq, lq)
					copy(q[14*k:], []float64{x[0] + m[0]*l[0] + m[1]*l[1] + m[2]*l[2], x[1] + m[3]*l[0] + m[4]*l[1] + m[5]*l[2], x[2] + m[6]*l[0] + m[7]*l[1] + m[8]*l[2], wq[0], wq[1], wq[2], wq[3]})
					copy(q[14*k+7:], []float64{x[0], x[1], x[2], bq[0], bq[1], bq[2], bq[3]})
				}
				c, err := Collide(exe, path, 0, q, make([]float64, 12*rt.n))
				if err != nil {
					t.Fatal(err)
				}
				k, w, err := comparePairs(c, rt.n, rt.collide, margin, func(k int) string { return fmt.Sprintf("pose %d", k) })
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
