package mjcf

import (
	"math"
	"math/big"
)

// MuJoCo 2.2.2, as Debian builds it, takes sin and cos from glibc, whose
// double results are the correctly rounded ones on the angles MJCF files
// give, where Go's math.Sin and math.Cos are off by one unit in the last
// place now and then (cos(−40°) is 0.766044443118978 in glibc,
// 0.7660444431189781 in Go). MuJoCo's compiled frames (euler) are
// reproduced with crSin and crCos, the correctly rounded values, from
// Taylor series in 256-bit arithmetic.

// crPrec is the working precision of crSinCos, in bits.
const crPrec = 256

// crPi is π to 100 decimal digits.
const crPi = "3.1415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"

// crSinCos returns sin x and cos x correctly rounded (to nearest) for
// |x| ≤ 1e6; beyond, or for a value that is not finite, math's.
func crSinCos(x float64) (sin, cos float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e6 {
		return math.Sin(x), math.Cos(x)
	}
	if x == 0 {
		return x, 1 // sin keeps the sign of a zero
	}
	nf := func() *big.Float { return new(big.Float).SetPrec(crPrec) }
	pi, _ := nf().SetString(crPi)
	twoPi := nf().Mul(pi, big.NewFloat(2))
	// r = x − 2π·round(x/2π), |r| ≤ π.
	r := nf().SetFloat64(x)
	k, _ := nf().Quo(r, twoPi).Float64()
	r.Sub(r, nf().Mul(twoPi, nf().SetFloat64(math.Round(k))))
	// Taylor series: term_n = r^n/n!, alternating signs per function.
	s, c := nf(), nf().SetFloat64(1)
	term := nf().SetFloat64(1)
	eps := nf().SetMantExp(big.NewFloat(1), -crPrec)
	for n := 1; n < 200; n++ {
		term.Mul(term, r)
		term.Quo(term, nf().SetInt64(int64(n)))
		switch n % 4 {
		case 1:
			s.Add(s, term)
		case 2:
			c.Sub(c, term)
		case 3:
			s.Sub(s, term)
		case 0:
			c.Add(c, term)
		}
		if nf().Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	sin, _ = s.Float64()
	cos, _ = c.Float64()
	return sin, cos
}
