package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

// cubeslide3Specials are the values where the fast checks of
// ValidateNumbers could part from the loops they replace: zeros of both
// signs, the extremes of the finite range, subnormals, infinities and NaNs
// of both signs.
var cubeslide3Specials = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 2, math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
	math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
	math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF8000000000001),
	math.Nextafter(math.MaxFloat64, 0),
}

func cubeslide3Draw(rng *rand.Rand) float64 {
	if rng.IntN(3) == 0 {
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
	}
	return cubeslide3Specials[rng.IntN(len(cubeslide3Specials))]
}

// TestCubeslide3AllPositiveFinite checks allPositiveFinite against the loop
// it replaces in ValidateNumbers (!(x > 0) || math.IsInf(x, 0) for some
// element) on every length 0–13 with each special value at each position,
// and on random slices.
func TestCubeslide3AllPositiveFinite(t *testing.T) {
	loop := func(s []float64) bool {
		for _, x := range s {
			if !(x > 0) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	for n := range 14 {
		for at := range n {
			for _, v := range cubeslide3Specials {
				s := make([]float64, n)
				for i := range s {
					s[i] = 1 + float64(i)
				}
				s[at] = v
				if got, want := allPositiveFinite(s), loop(s); got != want {
					t.Fatalf("len %d, %v at %d: allPositiveFinite = %v, the loop says %v", n, v, at, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 23))
	for range 20000 {
		s := make([]float64, rng.IntN(12))
		for i := range s {
			s[i] = math.Abs(rng.NormFloat64()) + math.SmallestNonzeroFloat64
			if rng.IntN(8) == 0 {
				s[i] = cubeslide3Draw(rng)
			}
		}
		if got, want := allPositiveFinite(s), loop(s); got != want {
			t.Fatalf("%v: allPositiveFinite = %v, the loop says %v", s, got, want)
		}
	}
}

// TestCubeslide3LaggedOK checks laggedOK against Kind.validate on
// ContactLagged parameters and rows drawn from the special values, and
// against out-of-range offsets (which it must refuse, leaving the verdict
// to validate).
func TestCubeslide3LaggedOK(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 86))
	pass := 0
	for range 200000 {
		par := []float64{math.Abs(cubeslide3Draw(rng)), math.Abs(cubeslide3Draw(rng)), math.Abs(cubeslide3Draw(rng)), math.Abs(cubeslide3Draw(rng)), float64(rng.IntN(2))}
		for k := range par {
			if rng.IntN(6) == 0 {
				par[k] = cubeslide3Draw(rng)
			}
		}
		r := []float64{1, 1, 2}
		if rng.IntN(2) == 0 {
			r[rng.IntN(2)] = cubeslide3Draw(rng)
		}
		params := append([]float64{9, 9}, par...)
		rows := append([]float64{7}, r...)
		got := laggedOK(params, 2, rows, 1)
		want := ContactLagged.validate(par, r) == nil
		if got != want {
			t.Fatalf("par %v, R %v: laggedOK = %v, validate says %v", par, r, got, want)
		}
		if got {
			pass++
		}
	}
	if pass < 1000 {
		t.Fatalf("only %d draws pass: the test does not reach the accepting branch", pass)
	}
	good, r := []float64{0.5, 1, 1e-4, 2, 1}, []float64{3, 3, 4}
	if !laggedOK(good, 0, r, 0) {
		t.Fatal("a valid block is refused")
	}
	for _, c := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		if laggedOK(good, c[0], r, c[1]) {
			t.Fatalf("offsets %v beyond the slices accepted", c)
		}
	}
}

// TestCubeslide3ValidateNumbersErrors checks that ValidateNumbers still
// names the first bad MDiag entry, the first bad R row and the bad
// parameter of a ContactLagged block, as the loops did.
func TestCubeslide3ValidateNumbersErrors(t *testing.T) {
	build := func() *Problem {
		p := &Problem{}
		p.Reset(2)
		p.Cliques = append(p.Cliques, Clique{Offset: 0, Size: 2})
		p.A = append(p.A, 2, 0, 0, 2)
		p.VStar[0], p.VStar[1] = 0.1, -0.2
		p.MDiag[0], p.MDiag[1] = 2, 2
		for range 2 {
			c := p.AddConstraint(ContactLagged, 3, 0.5, 1, 1e-4, 2, 1)
			copy(p.AddJBlock(c, 0), []float64{1, 0, 0, 1, 1, 1})
			row := p.Constraints[c].Row
			p.R[row], p.R[row+1], p.R[row+2] = 3, 3, 4
		}
		return p
	}
	if err := build().Validate(); err != nil {
		t.Fatalf("valid problem: %v", err)
	}
	cases := []struct {
		edit func(p *Problem)
		want string
	}{
		{func(p *Problem) { p.MDiag[1] = 0 }, "solver: MDiag[1] = 0 must be positive and finite"},
		{func(p *Problem) { p.MDiag[0], p.R[4] = math.Inf(1), -1 }, "solver: MDiag[0] = +Inf must be positive and finite"},
		{func(p *Problem) { p.R[4], p.R[5] = math.Copysign(0, -1), 0 }, "solver: R[4] = -0 must be positive and finite"},
		{func(p *Problem) { p.Params[5+3] = math.NaN() }, "solver: constraint 1 (contact-lagged): normal impulse scale NaN must be non-negative and finite"},
		{func(p *Problem) { p.R[1] = 5 }, "solver: constraint 0 (contact-lagged): unequal tangential regularization R = (3, 5) of an anchored block"},
		{func(p *Problem) { p.Params[2] = math.Inf(1) }, "solver: constraint 0 (contact-lagged): friction regularization +Inf must be positive and finite"},
	}
	for _, c := range cases {
		p := build()
		c.edit(p)
		err := p.Validate()
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestCubeslide3FreeDelassus checks CliqueFactor.FreeDelassus against
// Delassus to the bit: a problem of two free bodies (6×6 blocks, SPD with
// exact zeros off the diagonal as a body's mass matrix at its centre has)
// and one of three velocities; J blocks with exact zeros of both signs;
// the terms of both free bodies summed (a contact between two bodies), and
// false, w untouched, for the three-velocity clique.
func TestCubeslide3FreeDelassus(t *testing.T) {
	rng := rand.New(rand.NewPCG(86, 3))
	entry := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		}
		return rng.NormFloat64()
	}
	for trial := range 2000 {
		p := &Problem{}
		p.Reset(15)
		for c, n := range []int{6, 6, 3} {
			p.Cliques = append(p.Cliques, Clique{Offset: 6 * c, Size: n, AOff: len(p.A)})
			l := make([]float64, n*n) // A = L Lᵀ + n I, L lower with zeros
			for i := range n {
				for j := range i + 1 {
					if rng.IntN(3) > 0 || i == j {
						l[i*n+j] = rng.NormFloat64()
					}
				}
			}
			for i := range n {
				for j := range n {
					s := 0.0
					for k := range n {
						s += l[i*n+k] * l[j*n+k]
					}
					if i == j {
						s += float64(n)
					}
					p.A = append(p.A, s)
				}
			}
		}
		var f CliqueFactor
		if err := f.Factor(p); err != nil {
			t.Fatal(err)
		}
		j0, j1 := make([]float64, 18), make([]float64, 18)
		for i := range j0 {
			j0[i], j1[i] = entry(), entry()
		}
		var w9 [9]float64
		y := make([]float64, 18)
		f.Delassus(p.Cliques[0], j0, 3, y, w9[:])
		f.Delassus(p.Cliques[1], j1, 3, y, w9[:])
		var u [6]float64
		if !f.FreeDelassus(&p.Cliques[0], j0, &u) || !f.FreeDelassus(&p.Cliques[1], j1, &u) {
			t.Fatal("a free body's clique refused")
		}
		want := [6]float64{w9[0], w9[1], w9[2], w9[4], w9[5], w9[8]}
		for k := range u {
			if math.Float64bits(u[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d: FreeDelassus %v, Delassus %v", trial, u, w9)
			}
		}
		if w9[3] != w9[1] || w9[6] != w9[2] || w9[7] != w9[5] {
			t.Fatalf("Delassus left W unsymmetric: %v", w9)
		}
		keep := u
		if f.FreeDelassus(&p.Cliques[2], j0[:9], &u) || u != keep {
			t.Fatal("a three-velocity clique taken as a free body's")
		}
	}
}
