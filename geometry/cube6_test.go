package geometry

import (
	"math"
	"math/rand/v2"
	"testing"
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
