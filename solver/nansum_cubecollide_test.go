package solver

import (
	"math"
	"testing"
)

// TestCubecollideNanSum: nanSum, eight elements a step, then four, then
// one, is exactly 0 on finite values of every length 0–40 (the largest of
// both signs and −0 included) and NaN when any one element, at any
// position, is NaN, +Inf or −Inf. Fails when a step skips an element.
func TestCubecollideNanSum(t *testing.T) {
	for n := range 41 {
		s := make([]float64, n)
		for i := range s {
			s[i] = []float64{math.MaxFloat64, -math.MaxFloat64, math.Copysign(0, -1), 1.5e-300}[i%4]
		}
		if got := nanSum(s); got != 0 {
			t.Fatalf("n %d: finite values: nanSum %v", n, got)
		}
		for at := range n {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				saved := s[at]
				s[at] = bad
				if got := nanSum(s); !math.IsNaN(got) {
					t.Fatalf("n %d: %v at %d: nanSum %v", n, bad, at, got)
				}
				s[at] = saved
			}
		}
	}
}
