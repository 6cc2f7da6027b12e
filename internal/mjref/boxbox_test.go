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

// boxPairCase is a box 2 over a box 1, each turned (axis, angle) in the
// world, box 2 shifted by (dx, dy) across and lowered onto box 1 until
// their vertical extents overlap by pen (a negative pen is a gap).
type boxPairCase struct {
	name         string
	axis1, axis2 [3]float64
	ang1, ang2   float64
	dx, dy       float64
}

// boxPairCases: face on face (aligned, yawed, offset), edge on face, edge
// on edge (crossed), corner on face, corner on edge, nearly parallel and
// general tilts.
var boxPairCases = []boxPairCase{
	{"face aligned", [3]float64{0, 0, 1}, [3]float64{0, 0, 1}, 0, 0, 0, 0},
	{"face yawed", [3]float64{0, 0, 1}, [3]float64{0, 0, 1}, 0, 0.3, 0, 0},
	{"face yawed 45", [3]float64{0, 0, 1}, [3]float64{0, 0, 1}, 0.1, 0.1 + math.Pi/4, 0.01, -0.02},
	{"face offset", [3]float64{0, 0, 1}, [3]float64{0, 0, 1}, 0, 0.2, 0.07, 0.04},
	{"edge on face", [3]float64{0, 0, 1}, [3]float64{1, 0, 0}, 0, math.Pi / 4, 0.01, 0},
	{"edge on face yawed", [3]float64{0, 0, 1}, [3]float64{1, 0.4, 0}, 0.2, math.Pi / 4, 0, 0.02},
	{"edge on edge", [3]float64{0, 1, 0}, [3]float64{1, 0, 0}, math.Pi / 4, math.Pi / 4, 0, 0},
	{"edge on edge skew", [3]float64{0, 1, 0.2}, [3]float64{1, 0.3, 0}, math.Pi / 4, math.Pi / 4, 0.01, 0.02},
	{"corner on face", [3]float64{0, 0, 1}, [3]float64{1, -1, 0}, 0, math.Atan(math.Sqrt2), 0, 0.01},
	{"corner on edge", [3]float64{0, 1, 0}, [3]float64{1, -1, 0}, math.Pi / 4, math.Atan(math.Sqrt2), 0.02, 0},
	{"nearly parallel", [3]float64{0, 0, 1}, [3]float64{1, 0.3, 0}, 0, 1e-3, 0.03, 0},
	{"nearly parallel both", [3]float64{0.2, 1, 0}, [3]float64{1, 0.3, 0}, 2e-4, 1e-3, 0, 0.02},
	{"general", [3]float64{0.3, 0.5, 0.8}, [3]float64{-0.6, 0.1, 0.2}, 2.1, 3.0, 0.02, -0.01},
	{"general 2", [3]float64{1, 2, 3}, [3]float64{-3, 1, 0.5}, 0.7, 1.9, -0.03, 0.01},
}

// boxPairXML is a model of len(boxPairCases) pairs of free boxes of half
// sizes s1 and s2, far apart, with geom margin margin.
func boxPairXML(s1, s2 [3]float64, margin float64) string {
	var b strings.Builder
	b.WriteString(`<mujoco><option gravity="0 0 0"/><worldbody>`)
	for range boxPairCases {
		for _, s := range [][3]float64{s1, s2} {
			fmt.Fprintf(&b, `<body><freejoint/><geom type="box" size="%g %g %g" margin="%g"/></body>`, s[0], s[1], s[2], margin)
		}
	}
	b.WriteString(`</worldbody></mujoco>`)
	return b.String()
}

// boxPairState is the qpos that poses boxPairXML's pairs as
// boxPairCases say, with overlap pen.
func boxPairState(s1, s2 [3]float64, pen float64) []float64 {
	q := make([]float64, 14*len(boxPairCases))
	for k, c := range boxPairCases {
		q1, q2 := axisQuat(c.axis1, c.ang1), axisQuat(c.axis2, c.ang2)
		m1, m2 := mjccd.QuatToMat(q1), mjccd.QuatToMat(q2)
		h := 0.0 // the boxes' half extents along z
		for a := range 3 {
			h += s1[a]*math.Abs(m1[6+a]) + s2[a]*math.Abs(m2[6+a])
		}
		x := 3 * float64(k)
		copy(q[14*k:], []float64{x, 0, 1, q1[0], q1[1], q1[2], q1[3]})
		copy(q[14*k+7:], []float64{x + c.dx, c.dy, 1 + h - pen, q2[0], q2[1], q2[2], q2[3]})
	}
	return q
}

// pairCollider is a port of one of MuJoCo's pair functions: the contacts
// of g1 and g2 within margin appended to out.
type pairCollider func(g1, g2 *mjccd.Geom, margin float64, out []mjccd.Contact) []mjccd.Contact

// comparePairs runs collide on geoms 2k, 2k+1 of c for k < pairs with
// margin and returns the number of contacts compared and the largest
// difference from MuJoCo's; a count that differs is an error naming the
// pair by name(k).
func comparePairs(c *Collision, pairs int, collide pairCollider, margin float64, name func(int) string) (int, float64, error) {
	gs := mjccdGeoms(c)
	n, worst := 0, 0.0
	for k := range pairs {
		var want []CollisionContact
		for _, w := range c.Contacts {
			if w.Geom == [2]int{2 * k, 2*k + 1} {
				want = append(want, w)
			}
		}
		got := collide(&gs[2*k], &gs[2*k+1], margin, nil)
		if len(got) != len(want) {
			return n, worst, fmt.Errorf("%s: %d contacts, MuJoCo %d", name(k), len(got), len(want))
		}
		worst = math.Max(worst, contactsDiff(got, want))
		n += len(want)
	}
	return n, worst, nil
}

// TestBoxBoxContactsMuJoCo: mjccd.BoxBox, given MuJoCo's own posed boxes,
// returns MuJoCo 2.2.2's mjc_BoxBox contacts, contact by contact (count,
// order, dist, pos, frame normal, to 1e-12), for cubes, different sizes
// and thin plates in boxPairCases' poses, at overlaps from 1e-4 to 0.3 of
// the smallest half size, and within a margin (gaps).
func TestBoxBoxContactsMuJoCo(t *testing.T) {
	exe := tool(t)
	dir := t.TempDir()
	total, worst := 0, 0.0
	sizes := [][2][3]float64{
		{{0.1, 0.1, 0.1}, {0.1, 0.1, 0.1}},
		{{0.3, 0.2, 0.1}, {0.05, 0.08, 0.04}},
		{{0.05, 0.08, 0.04}, {0.3, 0.2, 0.1}},
		{{0.2, 0.12, 0.01}, {0.15, 0.1, 0.02}},
	}
	for _, margin := range []float64{0, 0.01} {
		for _, sz := range sizes {
			path := filepath.Join(dir, "boxbox.xml")
			if err := os.WriteFile(path, []byte(boxPairXML(sz[0], sz[1], margin)), 0o644); err != nil {
				t.Fatal(err)
			}
			smin := min(sz[0][0], sz[0][1], sz[0][2], sz[1][0], sz[1][1], sz[1][2])
			pens := []float64{1e-4 * smin, 0.05 * smin, 0.3 * smin}
			if margin > 0 {
				pens = []float64{-0.5 * margin, -0.9 * margin, 0.01 * smin}
			}
			for _, pen := range pens {
				c, err := Collide(exe, path, 0, boxPairState(sz[0], sz[1], pen), make([]float64, 12*len(boxPairCases)))
				if err != nil {
					t.Fatal(err)
				}
				k, w, err := comparePairs(c, len(boxPairCases), mjccd.BoxBox, margin, func(k int) string { return boxPairCases[k].name })
				if err != nil {
					t.Errorf("sizes %v, margin %g, overlap %g: %v", sz, margin, pen, err)
				}
				if k == 0 {
					t.Errorf("sizes %v, margin %g, overlap %g: no box–box contacts", sz, margin, pen)
				}
				total += k
				worst = math.Max(worst, w)
			}
		}
	}
	t.Logf("%d contacts compared, largest difference %.3g", total, worst)
	if worst > 1e-12 {
		t.Errorf("contacts differ from MuJoCo's by %.3g", worst)
	}
}
