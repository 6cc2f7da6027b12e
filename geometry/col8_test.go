package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// swapPosesRef is swapPoses in its indexed form: the first axis k of
// largest |d[k]|, d = xb.P − xa.P, then d[k]'s sign or the coincident
// centres' keys.
func swapPosesRef(xa, xb *spatial.Pose, a, b *Shape) bool {
	d := xb.P.Sub(xa.P)
	k := 0
	for i := 1; i < 3; i++ {
		if math.Abs(d[i]) > math.Abs(d[k]) {
			k = i
		}
	}
	if d[k] != 0 {
		return d[k] < 0
	}
	return swapCoincident(a, xa, b, xb)
}

// TestCol8SwapPoses: swapPoses, in scalars, orders two shapes of one kind
// as its indexed form does on random centres whose coordinates are drawn
// from awkward values (signed zeros, ties of |d|, NaN, infinities), so
// that each axis wins and ties fall to the first. It fails when the
// scalar form picks the last of tied axes (>= for >), checked.
func TestCol8SwapPoses(t *testing.T) {
	r := newRand(8)
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, math.NaN(), math.Inf(1), math.Inf(-1)}
	a, b := NewCapsule(0.1, 0.3), NewCapsule(0.2, 0.3)
	pick := func() float64 {
		if r.Float64() < 0.7 {
			return vals[r.IntN(len(vals))]
		}
		return uniform(r, -1, 1)
	}
	swaps := 0
	for range 20000 {
		xa := pose(spatial.Vec3{pick(), pick(), pick()}, randQuat(r))
		xb := pose(spatial.Vec3{pick(), pick(), pick()}, randQuat(r))
		got, want := swapPoses(&xa, &xb, &a, &b), swapPosesRef(&xa, &xb, &a, &b)
		if got != want {
			t.Fatalf("centres %v and %v: swapPoses %v, its indexed form %v", xa.P, xb.P, got, want)
		}
		if got {
			swaps++
		}
	}
	if swaps < 2000 || swaps > 18000 {
		t.Errorf("%d swaps of 20000: the draws do not test both answers", swaps)
	}
}
