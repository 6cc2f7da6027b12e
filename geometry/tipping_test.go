package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestTippingVerts: a 16-gon prism lying on a side face, rolled 10° toward
// one neighbour, reports that neighbour's two far corners as tipping
// vertices once they are within the margin (12.5° up, 5.1 mm above the
// plane), and not the other neighbour's (32.5° up, steeper than 30°); the
// same prism standing on its cap, thinner than the margin, reports none
// (its sides rise at 90°). At most 8 contacts, as Collide promises.
func TestTippingVerts(t *testing.T) {
	const r, h = 0.06, 0.025
	p16 := prism(t, 16, r, h)
	onSide := func(roll float64) spatial.Pose {
		q := spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0}, math.Pi/2).Mul(spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, math.Pi/16+roll))
		low := math.Inf(1)
		for _, v := range p16.Hull.verts {
			low = math.Min(low, q.Rotate(v)[2])
		}
		return pose(spatial.Vec3{0, 0, -low - 1e-4}, q) // the lowest corner 0.1 mm deep
	}
	tipping := func(c []Contact) (n int, phi []float64) {
		for _, x := range c {
			if x.Feature&^0x7ffffff == featVert {
				n++
				phi = append(phi, x.Phi)
			}
		}
		return n, phi
	}
	roll := 10 * math.Pi / 180
	edge := 2 * r * math.Sin(math.Pi/16)
	rise := edge * math.Sin(math.Pi/8-roll) // the near neighbour's far corners above the resting face's
	for _, c := range []struct {
		name   string
		x      spatial.Pose
		margin float64
		want   int
	}{
		{"rolled, margin 10 mm", onSide(roll), 0.01, 2},
		{"rolled, margin 2 mm", onSide(roll), 0.002, 0},
		{"on its cap, margin 0.1 m", at(0, 0, h-1e-4), 0.1, 0},
	} {
		got := Collide(NewHalfSpace(), spatial.PoseIdentity(), p16, c.x, c.margin, nil)
		n, phi := tipping(got)
		if n != c.want || len(got) > 8 {
			t.Errorf("%s: %d tipping vertices (want %d) among %d contacts", c.name, n, c.want, len(got))
		}
		for _, p := range phi {
			// the lowest corner is 0.1 mm deep and the far corners rise
			// by the neighbour's edge times its slope above it
			if math.Abs(p-(rise-1e-4)) > 1e-12 {
				t.Errorf("%s: tipping vertex at %.6g m, want %.6g", c.name, p, rise-1e-4)
			}
		}
	}
}

// TestDeepestCornerReported: a hexagonal prism 0.4 m wide on its cap,
// tilted 0.01 rad about 36 horizontal axes with its deepest corner 0.5 mm
// under the plane, reports a point within half that depth of the deepest
// corner at any margin up to 0.1 m (deepGap). With the margin and width
// terms alone, a corner between two slot points hid up to 1 mm deeper than
// every reported point at margin 5 cm.
func TestDeepestCornerReported(t *testing.T) {
	const r, h, depth = 0.2, 0.05, 5e-4
	p6 := prism(t, 6, r, h)
	for k := range 36 {
		a := float64(k) * math.Pi / 18
		q := spatial.QuatFromAxisAngle(spatial.Vec3{math.Cos(a), math.Sin(a), 0}, 0.01)
		low := math.Inf(1)
		for _, v := range p6.Hull.verts {
			low = math.Min(low, q.Rotate(v)[2])
		}
		x := pose(spatial.Vec3{0, 0, -low - depth}, q)
		for _, margin := range []float64{0.001, 0.01, 0.05, 0.1} {
			got := Collide(NewHalfSpace(), spatial.PoseIdentity(), p6, x, margin, nil)
			deepest := math.Inf(1)
			for _, c := range got {
				deepest = math.Min(deepest, c.Phi)
			}
			if deepest > -depth/2+1e-12 {
				t.Errorf("axis %d°, margin %g: deepest reported point at %.4g mm, corner at %.4g mm", k*10, margin, deepest*1e3, -depth*1e3)
			}
		}
	}
}
