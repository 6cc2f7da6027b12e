package solver

import (
	"math"
	"strings"
	"testing"
)

// TestCubefix2FirstNonFinite: every length 0–13 and every position of a NaN,
// +Inf or −Inf (the first of two when a second follows) is found, and
// finite values, the largest included, pass.
func TestCubefix2FirstNonFinite(t *testing.T) {
	for n := range 14 {
		s := make([]float64, n)
		for i := range s {
			s[i] = math.MaxFloat64 * float64(1-2*(i%2))
		}
		if i, ok := firstNonFinite(s); !ok || i != 0 || nanSum(s) != 0 {
			t.Fatalf("n %d: finite values: %d, %v", n, i, ok)
		}
		for at := range n {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				saved := s[at]
				s[at] = bad
				if at+2 < n {
					s[at+2] = math.NaN()
				}
				if i, ok := firstNonFinite(s); ok || i != at {
					t.Fatalf("n %d: %v at %d: got %d, %v", n, bad, at, i, ok)
				}
				s[at] = saved
				if at+2 < n {
					s[at+2] = math.MaxFloat64
				}
			}
		}
	}
}

// TestCubefix2ValidateNumbersNames: a non-finite number in A, VStar, JData
// or VHat is reported by ValidateNumbers (and Validate) with its field and
// index, the first field in that order when two are bad.
func TestCubefix2ValidateNumbersNames(t *testing.T) {
	mk := func() *Problem {
		p := &Problem{}
		p.Reset(2)
		p.Cliques = append(p.Cliques, Clique{Offset: 0, Size: 2})
		p.A = append(p.A, 2, 0, 0, 2)
		p.MDiag[0], p.MDiag[1] = 2, 2
		c := p.AddConstraint(Interval, 1, -1, 1)
		copy(p.AddJBlock(c, 0), []float64{1, 1})
		p.R[0] = 1
		return p
	}
	if err := mk().ValidateNumbers(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		want string
		f    func(p *Problem)
	}{
		{"A[3]", func(p *Problem) { p.A[3] = math.Inf(1) }},
		{"VStar[1]", func(p *Problem) { p.VStar[1] = math.NaN() }},
		{"JData[1]", func(p *Problem) { p.JData[1] = math.Inf(-1) }},
		{"VHat[0]", func(p *Problem) { p.VHat[0] = math.NaN() }},
		{"A[0]", func(p *Problem) { p.VHat[0], p.A[0] = math.NaN(), math.NaN() }},
	}
	for _, c := range cases {
		p := mk()
		c.f(p)
		for _, err := range []error{p.ValidateNumbers(), p.Validate()} {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v", c.want, err)
			}
		}
	}
}
