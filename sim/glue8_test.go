package sim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestSqNormIsDot checks that dot3(a, a), which curvatureError reads ω with in
// place, gives spatial.Vec3.Dot's a·a to the bit, on random vectors and on
// awkward entries (±0, subnormals, huge values that overflow, ±Inf, NaN).
func TestSqNormIsDot(t *testing.T) {
	odd := []float64{0, math.Copysign(0, -1), 5e-324, -2.2e-308, 1e200, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), 1, -3.5}
	r := rand.New(rand.NewSource(8))
	for n := range 4000 {
		var a spatial.Vec3
		for i := range a {
			if n%2 == 0 {
				a[i] = odd[r.Intn(len(odd))]
			} else {
				a[i] = r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
			}
		}
		got, want := dot3(&a, &a), a.Dot(a)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("dot3(%v, itself) = %v (%#x), Dot %v (%#x)", a, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}
