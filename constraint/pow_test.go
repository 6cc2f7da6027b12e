package constraint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPowMatchesMathPow: pow gives math.Pow's bits, for p = 2 over x
// spread across the normal range and at the edges of its x·x path, and
// for other powers (math.Pow itself).
func TestPowMatchesMathPow(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 6))
	xs := []float64{0, 0x1p-511, math.Nextafter(0x1p-511, 0), 0x1p511, math.Nextafter(0x1p511, math.Inf(1)),
		0.5, 1, math.Nextafter(1, 0), 1e-300, 1e300, math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(1), math.NaN()}
	for range 200000 {
		xs = append(xs, rng.Float64(), math.Ldexp(rng.Float64(), rng.IntN(2100)-1075))
	}
	for _, p := range []float64{2, 1, 3, 2.5, 0.5} {
		for _, x := range xs {
			got, want := pow(x, p), math.Pow(x, p)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("pow(%v, %v) = %v, math.Pow = %v", x, p, got, want)
			}
		}
	}
}
