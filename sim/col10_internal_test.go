package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// halfSpaceGapLoop is halfSpaceGap's plain form, the three-axis loop it
// unrolled (the 168th pass's), kept to test it against.
func halfSpaceGapLoop(b *geometry.AABB, n, p *spatial.Vec3) (low, scale float64) {
	for k := range 3 {
		mid, half := 0.5*(b.Min[k]+b.Max[k]), 0.5*(b.Max[k]-b.Min[k])
		low += n[k]*(mid-p[k]) - math.Abs(n[k])*half
		scale += math.Abs(n[k]) * (math.Abs(mid) + half + math.Abs(p[k]))
	}
	return low, scale
}

// sameOrZeros reports whether a and b have the same bits, are both NaN,
// or are both zeros (of either sign).
func sameOrZeros(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b || a == 0 && b == 0
}

// awkward draws a coordinate: mostly a normal variate at a random scale,
// else ±0, a subnormal, a huge value, ±Inf or NaN.
func awkward(rng *rand.Rand) float64 {
	switch rng.IntN(24) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 5e-324 * float64(rng.IntN(9)-4)
	case 3:
		return 1e300 * rng.NormFloat64()
	case 4:
		return math.Inf(1 - 2*rng.IntN(2))
	case 5:
		return math.NaN()
	}
	return rng.NormFloat64() * math.Pow(10, 6*rng.Float64()-3)
}

// TestCol10HalfSpaceGapMatchesLoop: the unrolled halfSpaceGap gives the
// loop's low and scale to the bit (but for the sign of a zero low, which
// its comparisons do not see), and aboveHalfSpace and
// boundAboveHalfSpace the loop's decisions, on 200 000 random boxes and
// planes: unit normals along an axis, in a coordinate plane (zero
// components of either sign) and slanted, boxes and points with ±0,
// subnormal, huge, infinite and NaN coordinates, inverted boxes, slacks
// about the edge. It fails when the terms are summed in another order
// (t_0 + (t_1 + t_2)), checked.
func TestCol10HalfSpaceGapMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 170))
	differ := 0
	for trial := range 200000 {
		var n spatial.Vec3
		switch trial % 3 {
		case 0:
			n[rng.IntN(3)] = 1 - 2*float64(rng.IntN(2))
		case 1:
			a := 2 * math.Pi * rng.Float64()
			n[rng.IntN(3)], n[rng.IntN(3)] = math.Cos(a), math.Sin(a)
		default:
			n, _ = spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
		}
		for k := range 3 {
			if n[k] == 0 && rng.IntN(2) == 0 {
				n[k] = math.Copysign(0, -1)
			}
		}
		var b geometry.AABB
		var p spatial.Vec3
		for k := range 3 {
			c, e := rng.NormFloat64(), math.Abs(rng.NormFloat64())*0.1
			b.Min[k], b.Max[k], p[k] = c-e, c+e, rng.NormFloat64()
			if trial%5 == 0 {
				b.Min[k], b.Max[k], p[k] = awkward(rng), awkward(rng), awkward(rng)
			}
		}
		hp := newHalfPlane(&n, &p)
		low, scale := halfSpaceGap(&b, &hp)
		wl, ws := halfSpaceGapLoop(&b, &n, &p)
		if !sameOrZeros(low, wl) || !sameOrZeros(scale, ws) {
			t.Fatalf("trial %d: box %v, n %v, p %v: (%v, %v), the loop (%v, %v)", trial, b, n, p, low, scale, wl, ws)
		}
		if math.Float64bits(low) != math.Float64bits(wl) {
			differ++
		}
		edge := wl - planeCullTol*(1+ws)
		for _, slack := range []float64{edge, math.Nextafter(edge, math.Inf(-1)), edge * 0.5, -edge, 0, math.Copysign(0, -1), math.NaN(), math.Inf(-1)} {
			want := wl > slack+planeCullTol*(1+ws)
			if got := aboveHalfSpace(&b, &hp, slack); got != want {
				t.Fatalf("trial %d slack %v: aboveHalfSpace %v, the loop's %v", trial, slack, got, want)
			}
			wantB := wl > slack+planeCullTol*(1+ws)+boundCullTol*(1+ws+math.Abs(slack))
			if got := boundAboveHalfSpace(&b, &hp, slack); got != wantB {
				t.Fatalf("trial %d slack %v: boundAboveHalfSpace %v, the loop's %v", trial, slack, got, wantB)
			}
		}
	}
	t.Logf("%d lows differ from the loop's in the sign of a zero", differ)
}
