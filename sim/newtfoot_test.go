package sim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestFitMatchesResize checks fit, Resize with its growth out of line,
// against solver.Resize: the same length, the kept values and the same
// reuse of storage, from empty, shrinking, equal and growing sizes.
func TestFitMatchesResize(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	for trial := range 200 {
		n0, c0, n := rng.Intn(9), rng.Intn(9), rng.Intn(20)
		c0 = max(c0, n0)
		src := make([]float64, n0, c0)
		for i := range src {
			src[i] = rng.NormFloat64()
		}
		a := append(make([]float64, 0, c0), src...)
		b := append(make([]float64, 0, c0), src...)
		got, want := fit(a, n), solver.Resize(b, n)
		if len(got) != len(want) || cap(got) != cap(want) {
			t.Fatalf("trial %d: fit len %d cap %d, Resize len %d cap %d", trial, len(got), cap(got), len(want), cap(want))
		}
		for i := range min(n0, n) {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: entry %d: %v, want %v", trial, i, got[i], want[i])
			}
		}
		if same := n <= c0 && n > 0; same && &got[0] != &a[:1][0] {
			t.Fatalf("trial %d: fit reallocated storage that fits", trial)
		}
	}
}

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
