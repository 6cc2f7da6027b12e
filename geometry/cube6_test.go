package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestCube6MaxMinKeep: maxKeep and minKeep give the built-in max and min
// to the bit on every pair drawn from values with zeros of both signs,
// infinities, NaNs, equal values and random numbers, in both orders.
func TestCube6MaxMinKeep(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 6))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, -math.MaxFloat64}
	for range 200 {
		vals = append(vals, awkward(rng, 1))
	}
	for _, a := range vals {
		for _, b := range vals {
			if got, want := maxKeep(a, b), max(a, b); !sameBits(got, want) {
				t.Fatalf("maxKeep(%v, %v) = %v (bits %x), max %v (bits %x)", a, b, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			if got, want := minKeep(a, b), min(a, b); !sameBits(got, want) {
				t.Fatalf("minKeep(%v, %v) = %v (bits %x), min %v (bits %x)", a, b, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
	}
}

// TestCube6EdgeOverlap: on random frames (B's axes and centre with zeros
// of either sign, infinities and NaNs now and then, A's half extents
// sometimes zero, negative or not finite), edgeOverlap gives overlap's
// bits for every edge axis whenever lean holds, and lean fails for a
// frame with a non-finite entry or a half extent of A that is not
// positive.
func TestCube6EdgeOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 7))
	leans := 0
	for trial := range 50000 {
		p := boxPairFrame{ha: awkwardVec(rng, 1), hb: awkwardVec(rng, 1), t: awkwardVec(rng, 3)}
		if trial%2 == 0 {
			p.ha = spatial.Vec3{math.Abs(p.ha[0]), math.Abs(p.ha[1]), math.Abs(p.ha[2])}
		}
		for j := range 3 {
			p.cols[j] = awkwardVec(rng, 1)
		}
		want := p.finite()
		for k := range 3 {
			want = want && p.ha[k] > 0 && !math.IsInf(p.ha[k], 0)
		}
		if got := p.lean(); got != want {
			t.Fatalf("trial %d: lean %v, want %v; frame %+v", trial, got, want, p)
		}
		if !want {
			continue
		}
		leans++
		for k := range 9 {
			var u spatial.Vec3
			if !p.edgeAxis(&u, k/3, k%3) {
				continue
			}
			if got, want := p.edgeOverlap(&u, k/3), p.overlap(&u); !sameBits(got, want) {
				t.Fatalf("trial %d: edge %d: %v (bits %x), overlap %v (bits %x); frame %+v", trial, k, got, math.Float64bits(got), want, math.Float64bits(want), p)
			}
		}
	}
	if leans < 5000 {
		t.Fatalf("only %d of the frames lean", leans)
	}
}
