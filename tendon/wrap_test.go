package tendon

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestWrapClosedForms: the shortest path between two points at distance D
// from the centre of a sphere or cylinder of radius r, on opposite sides
// (the straight line through the centre), is two tangents √(D² − r²) and
// the arc r (π − 2 acos(r/D)); on a cylinder with the ends Δz apart it is
// the unrolled path's diagonal √(S² + Δz²). A segment that misses the
// obstacle does not wrap, and a side site picks the side the path takes.
func TestWrapClosedForms(t *testing.T) {
	const r, D = 0.1, 0.3
	tan, arc := math.Sqrt(D*D-r*r), r*(math.Pi-2*math.Acos(r/D))
	f := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{1, 2, 3}}
	x0, x1 := f.Apply(spatial.Vec3{-D, 0, 0}), f.Apply(spatial.Vec3{D, 0, 0})
	for _, cyl := range []bool{false, true} {
		t0, t1, a := wrap(x0, x1, f, r, cyl, nil)
		got := t0.Sub(x0).Norm() + a + x1.Sub(t1).Norm()
		if math.Abs(got-(2*tan+arc)) > 1e-14 {
			t.Errorf("cylinder %v: length %.17g, want 2√(D² − r²) + r (π − 2 acos(r/D)) = %.17g", cyl, got, 2*tan+arc)
		}
		for _, p := range []spatial.Vec3{t0, t1} {
			if d := f.ApplyInv(p).Norm(); math.Abs(d-r) > 1e-14 {
				t.Errorf("cylinder %v: tangent point %v at %.17g from the axis, want r", cyl, p, d)
			}
		}
	}
	// A cylinder along z with the ends 0.2 apart in height: the helix.
	const dz = 0.2
	y1 := f.Apply(spatial.Vec3{D, 0, dz})
	t0, t1, a := wrap(x0, y1, f, r, true, nil)
	got := t0.Sub(x0).Norm() + a + y1.Sub(t1).Norm()
	if want := math.Hypot(2*tan+arc, dz); math.Abs(got-want) > 1e-14 {
		t.Errorf("helix: length %.17g, want √(S² + Δz²) = %.17g", got, want)
	}
	// Missing the obstacle: no wrap.
	if _, _, a := wrap(f.Apply(spatial.Vec3{-D, 0.2, 0}), f.Apply(spatial.Vec3{D, 0.2, 0}), f, r, false, nil); a != -1 {
		t.Errorf("a segment 0.2 from the centre wraps a sphere of radius 0.1: arc %v", a)
	}
	// The side site picks the side: tangent points on its side (y > 0 or < 0).
	for _, s := range []float64{1, -1} {
		side := f.Apply(spatial.Vec3{0, s, 0})
		t0, t1, _ := wrap(x0, x1, f, r, true, &side)
		if f.ApplyInv(t0)[1]*s <= 0 || f.ApplyInv(t1)[1]*s <= 0 {
			t.Errorf("side %v: tangent points %v, %v on the other side", s, f.ApplyInv(t0), f.ApplyInv(t1))
		}
	}
}
