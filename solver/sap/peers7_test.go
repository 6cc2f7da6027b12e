package sap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPeers7FirstDiff compares firstDiff with an entry-by-entry bit
// compare on random vectors of 0–200 entries (across and inside the
// chunks) that differ at none, one or several places, by a zero's sign, a
// NaN's payload, the last bit of the mantissa or a whole value.
func TestPeers7FirstDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	changes := []func(float64) float64{
		func(x float64) float64 { return math.Float64frombits(math.Float64bits(x) ^ 1) },
		func(x float64) float64 { return math.Float64frombits(math.Float64bits(x) ^ 1<<63) },
		func(float64) float64 { return math.Float64frombits(0x7ff8000000000001) },
		func(x float64) float64 { return x + 1 },
	}
	for trial := range 3000 {
		n := rng.IntN(201)
		x := make([]float64, n)
		for i := range x {
			switch rng.IntN(4) {
			case 0:
				x[i] = 0
			case 1:
				x[i] = math.Copysign(0, -1)
			default:
				x[i] = rng.NormFloat64()
			}
		}
		y := append(make([]float64, 0, n+3), x...)
		y = append(y, 1, 2, 3) // longer y: only len(x) entries count
		if n > 0 {
			for range rng.IntN(4) {
				k := rng.IntN(n)
				y[k] = changes[rng.IntN(len(changes))](y[k])
			}
		}
		want := n
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				want = i
				break
			}
		}
		if got := firstDiff(x, y); got != want {
			t.Fatalf("trial %d (n %d): firstDiff %d, want %d", trial, n, got, want)
		}
	}
}
