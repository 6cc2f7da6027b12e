package solver

import (
	"slices"
	"testing"
)

// TestResizeGrowth checks Resize on both of its paths, the inlined one
// (enough capacity: the same storage) and grow's (a new array at least
// twice the old capacity): both keep the first min(len(s), n) elements.
func TestResizeGrowth(t *testing.T) {
	for _, c := range []struct{ len, cap, n int }{{0, 0, 0}, {0, 0, 5}, {3, 4, 4}, {3, 4, 2}, {3, 4, 5}, {7, 7, 8}, {7, 7, 30}} {
		s := make([]float64, c.len, c.cap)
		for i := range s {
			s[i] = float64(i + 1)
		}
		want := slices.Clone(s[:min(c.len, c.n)])
		r := Resize(s, c.n)
		if len(r) != c.n || !slices.Equal(r[:len(want)], want) {
			t.Errorf("Resize(len %d cap %d, %d) = %v, want length %d starting %v", c.len, c.cap, c.n, r, c.n, want)
		}
		grown := c.n > c.cap
		if !grown && c.cap == 0 {
			continue // no storage to reuse
		}
		same := cap(s) > 0 && &r[:1][0] == &s[:1][0]
		if grown == same || grown && cap(r) < max(c.n, 2*c.cap) {
			t.Errorf("Resize(len %d cap %d, %d): storage reused %v, capacity %d", c.len, c.cap, c.n, same, cap(r))
		}
	}
}

// TestAddConstraintTails checks that AddConstraint's rows and parameters
// (zeroTail, Resize) grow by the block: zero v̂ and R past what was there,
// the parameters appended, the earlier ones kept, across growth.
func TestAddConstraintTails(t *testing.T) {
	var p Problem
	p.Reset(2)
	for k := range 20 {
		i := p.AddConstraint(Interval, 1+k%3, float64(k), float64(-k))
		c := p.Constraints[i]
		p.VHat[c.Row], p.R[c.Row] = 1, 1 // dirty the first row; the next block's rows must still start at zero
		if got := p.Par(i); got[0] != float64(k) || got[1] != float64(-k) {
			t.Fatalf("block %d: params %v", k, got)
		}
	}
	row := 0
	for i, c := range p.Constraints {
		if c.Row != row || p.Par(i)[0] != float64(i) {
			t.Fatalf("block %d: row %d (want %d), params %v", i, c.Row, row, p.Par(i))
		}
		for r := c.Row + 1; r < c.Row+c.Size; r++ {
			if p.VHat[r] != 0 || p.R[r] != 0 {
				t.Fatalf("block %d row %d: v̂ %v, R %v, want 0", i, r, p.VHat[r], p.R[r])
			}
		}
		row += c.Size
	}
	if p.NR != row || len(p.VHat) != row || len(p.R) != row {
		t.Fatalf("NR %d, len(v̂) %d, len(R) %d, want %d", p.NR, len(p.VHat), len(p.R), row)
	}
}
