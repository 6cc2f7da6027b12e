package sim

import (
	"math"
	"math/rand"
	"testing"
)

// TestWholeDotMatchesNonZeros checks wholeDot (the sum over every entry,
// redone over the non-zeros when it comes out NaN) against the sum over
// the non-zeros, bit for bit, on rows with zeros and x with ±Inf and NaN
// on some entries.
func TestWholeDotMatchesNonZeros(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	odd := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1)}
	for trial := range 500 {
		n := rng.Intn(11)
		a, x := make([]float64, n), make([]float64, n)
		for i := range a {
			if rng.Intn(3) > 0 {
				a[i] = rng.NormFloat64()
			}
			x[i] = rng.NormFloat64()
			if rng.Intn(6) == 0 {
				x[i] = odd[rng.Intn(len(odd))]
			}
		}
		want := 0.0
		for i, ai := range a {
			if ai != 0 {
				want += ai * x[i]
			}
		}
		got := wholeDot(a, x)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("trial %d: wholeDot %v, want %v (a %v, x %v)", trial, got, want, a, x)
		}
	}
}
