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
	finite := [4]float64{math.MaxFloat64, -math.MaxFloat64, math.Copysign(0, -1), 1.5e-300}
	bads := [3]float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	var buf [40]float64
	for n := 0; n <= len(buf); n++ {
		s := buf[:n]
		for i := range s {
			s[i] = finite[i%len(finite)]
		}
		if got := nanSum(s); got != 0 {
			t.Fatalf("n %d: finite values: nanSum %v", n, got)
		}
		for k := range n * len(bads) {
			at := k / len(bads)
			s[at] = bads[k%len(bads)]
			got := nanSum(s)
			s[at] = finite[at%len(finite)]
			if !math.IsNaN(got) {
				t.Fatalf("n %d: %v at %d: nanSum %v", n, bads[k%len(bads)], at, got)
			}
		}
	}
}
