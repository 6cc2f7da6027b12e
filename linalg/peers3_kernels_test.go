package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refDotPrefix is dotPrefix as the forty-second pass left it (indexed
// loops): the reference of TestPeers3DotSameBits.
func refDotPrefix(x, y []float64, n int) float64 {
	x, y = x[:n], y[:n]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= n; k += 4 {
		s0 += x[k] * y[k]
		s1 += x[k+1] * y[k+1]
		s2 += x[k+2] * y[k+2]
		s3 += x[k+3] * y[k+3]
	}
	for ; k < n; k++ {
		s0 += x[k] * y[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// peers3Vec returns n entries of sparseEntry: zeros of both signs among
// numbers of several magnitudes, so that the order of the sums shows in
// their bits.
func peers3Vec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = sparseEntry(rng)
	}
	return v
}

// TestPeers3DotSameBits: dotPrefix and dotPrefix2 give the bits of the
// indexed loops for every length up to 40, on vectors with signed
// zeros and wide magnitudes.
func TestPeers3DotSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 3))
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for trial := range 20000 {
		n := trial % 41
		x1, x2, y := peers3Vec(rng, n+3), peers3Vec(rng, n+3), peers3Vec(rng, n+3)
		w1, w2 := refDotPrefix(x1, y, n), refDotPrefix(x2, y, n)
		if got := dotPrefix(x1, y, n); !same(got, w1) {
			t.Fatalf("trial %d, n %d: dotPrefix %v, want %v", trial, n, got, w1)
		}
		g1, g2 := dotPrefix2(x1, x2, y, n)
		if !same(g1, w1) || !same(g2, w2) {
			t.Fatalf("trial %d, n %d: dotPrefix2 %v, %v, want %v, %v", trial, n, g1, g2, w1, w2)
		}

	}
}

// BenchmarkPeers3Dot times dotPrefix2 and the reference on the widths of
// clutter-160's wider supernodes.
func BenchmarkPeers3Dot(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{12, 18, 24} {
		x1, x2, y := peers3Vec(rng, n), peers3Vec(rng, n), peers3Vec(rng, n)
		b.Run("new", func(b *testing.B) {
			s := 0.0
			for b.Loop() {
				a, c := dotPrefix2(x1, x2, y, n)
				s += a + c
			}
		})
		b.Run("ref", func(b *testing.B) {
			s := 0.0
			for b.Loop() {
				s += refDotPrefix(x1, y, n) + refDotPrefix(x2, y, n)
			}
		})
	}
}
