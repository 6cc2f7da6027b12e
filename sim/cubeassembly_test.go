package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCubeassemblyFiniteAll: finiteAll answers as testing every element
// for NaN and ±Inf does, on vectors of lengths 0 to 40 of ordinary
// numbers, zeros of both signs, the largest finite numbers (whose sum
// would overflow) and one or two NaN or ±Inf at random places.
func TestCubeassemblyFiniteAll(t *testing.T) {
	r := rand.New(rand.NewPCG(96, 31))
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	plain := []float64{0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	bad := 0
	for trial := range 20000 {
		v := make([]float64, trial%41)
		for i := range v {
			v[i] = r.NormFloat64() * math.Exp(10*r.NormFloat64())
			if r.IntN(5) == 0 {
				v[i] = plain[r.IntN(len(plain))]
			}
		}
		for k := r.IntN(3); k > 0 && len(v) > 0 && r.IntN(2) == 0; k-- {
			v[r.IntN(len(v))] = odd[r.IntN(len(odd))]
		}
		want := true
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				want = false
			}
		}
		if got := finiteAll(v); got != want {
			t.Fatalf("trial %d: finiteAll(%v) = %v, want %v", trial, v, got, want)
		}
		if !want {
			bad++
		}
	}
	if bad < 2000 {
		t.Fatalf("only %d of the vectors held a NaN or an Inf", bad)
	}
}
