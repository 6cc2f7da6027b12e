package mjref

import (
	"fmt"
	"math"
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
	const r, hl = 0.03, 0.08
	roundBoxTest{
		geom: func(margin float64) string {
			return fmt.Sprintf(`<geom type="capsule" size="%g %g" margin="%g"/>`, r, hl, margin)
		},
		n: len(capsuleBoxPoses),
		pose: func(k int, pen float64) ([3]float64, [4]float64) {
			p := capsuleBoxPoses[k]
			cq := axisQuat(p.axis, p.angle)
			cm := mjccd.QuatToMat(cq)
			ax := [3]float64{cm[2], cm[5], cm[8]}
			var l [3]float64
			n := math.Sqrt(p.in[0]*p.in[0] + p.in[1]*p.in[1] + p.in[2]*p.in[2])
			for a := range 3 {
				l[a] = p.c[a] * roundBoxSize[a]
				if n > 0 { // outside: the surface just touching along in, then moved in by pen
					h := r + hl*math.Abs(ax[0]*p.in[0]+ax[1]*p.in[1]+ax[2]*p.in[2])/n
					l[a] += (pen - h) * p.in[a] / n
				}
			}
			return l, cq
		},
		pens:    func(margin float64) []float64 { return []float64{1e-4 * r, 0.2 * r, 0.5 * r, -0.5 * margin} },
		collide: mjccd.CapsuleBox,
	}.run(t)
}
