package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestHypotMatchesMath: Hypot gives math.Hypot's bits on random pairs of
// every sign and of magnitudes from subnormal to near overflow (exponents
// drawn apart and close together, equal magnitudes included), and its
// special values on zeros, infinities and NaNs.
func TestHypotMatchesMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 25))
	draw := func() float64 {
		x := math.Ldexp(rng.Float64()+0.5, rng.IntN(2100)-1075)
		if rng.IntN(2) == 0 {
			x = -x
		}
		return x
	}
	for trial := range 400000 {
		p := draw()
		q := draw()
		switch trial % 4 {
		case 1: // close magnitudes
			q = p * (1 + 1e-3*rng.NormFloat64())
		case 2: // equal magnitudes
			q = -p
		case 3: // magnitudes of contact velocities
			p, q = rng.NormFloat64()*1e-3, rng.NormFloat64()*1e-9
		}
		if got, want := Hypot(p, q), math.Hypot(p, q); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Hypot(%v, %v) = %v (%#x), math.Hypot %v (%#x)", p, q, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	inf, nan := math.Inf(1), math.NaN()
	specials := []float64{0, math.Copysign(0, -1), 1, -2.5, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, inf, -inf, nan}
	for _, p := range specials {
		for _, q := range specials {
			got, want := Hypot(p, q), math.Hypot(p, q)
			if math.IsNaN(want) {
				if !math.IsNaN(got) {
					t.Errorf("Hypot(%v, %v) = %v, want NaN", p, q, got)
				}
			} else if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("Hypot(%v, %v) = %v, math.Hypot %v", p, q, got, want)
			}
		}
	}
}

// BenchmarkHypot compares Hypot with math.Hypot on contact-velocity-sized
// arguments.
func BenchmarkHypot(b *testing.B) {
	xs := make([]float64, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range xs {
		xs[i] = rng.NormFloat64()
	}
	var s float64
	b.Run("fmath", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s += Hypot(xs[i&1023], xs[(i+1)&1023])
		}
	})
	b.Run("math", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s += math.Hypot(xs[i&1023], xs[(i+1)&1023])
		}
	})
	_ = s
}
