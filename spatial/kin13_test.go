package spatial

import (
	"math"
	"math/rand/v2"
	"testing"
)

// composePlain is Pose.Compose in the chained form ComposeTo replaced:
// the reference of TestKin13ComposeToMatchesPlain.
func composePlain(x, y Pose) Pose {
	return Pose{R: x.R.Mul(y.R).Normalize(), P: x.Apply(y.P)}
}

// kin13Float draws awkward numbers: zeros of both signs, tiny and huge
// magnitudes, and (with odd) infinities and NaN.
func kin13Float(r *rand.Rand, odd bool) float64 {
	switch r.IntN(12) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		if odd {
			return [...]float64{math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(3)]
		}
	}
	return r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
}

// TestKin13ComposeToMatchesPlain: ComposeTo, with neither product left
// out, gives the bits of the chained Mul/Normalize/Apply form on random
// poses (unnormalized quaternions, zeros, infinities and NaN among the
// entries), also in place (dst = x or y); with y's rotation the identity
// or its translation zero, the shortened products agree with == (up to
// the sign of a zero) on finite inputs.
func TestKin13ComposeToMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 13))
	for trial := range 200000 {
		odd := trial%4 == 0
		f := func() float64 { return kin13Float(r, odd) }
		x := Pose{R: Quat{f(), f(), f(), f()}, P: Vec3{f(), f(), f()}}
		y := Pose{R: Quat{f(), f(), f(), f()}, P: Vec3{f(), f(), f()}}
		want := composePlain(x, y)
		var got Pose
		switch trial % 3 {
		case 0:
			ComposeTo(&got, &x, &y, false, false)
		case 1:
			got = x
			ComposeTo(&got, &got, &y, false, false)
		default:
			got = y
			ComposeTo(&got, &x, &got, false, false)
		}
		if !kin13SameBits(got, want) {
			t.Fatalf("trial %d: ComposeTo(%v, %v) = %v, plain form %v", trial, x, y, got, want)
		}
		if x.Compose(y) != got && !odd {
			t.Fatalf("trial %d: Compose %v, ComposeTo %v", trial, x.Compose(y), got)
		}
		if odd {
			continue
		}
		for _, s := range [][2]bool{{true, false}, {false, true}, {true, true}} {
			z := y
			if s[0] {
				z.R = QuatIdentity()
			}
			if s[1] {
				z.P = Vec3{}
			}
			want := composePlain(x, z)
			ComposeTo(&got, &x, &z, s[0], s[1])
			if got != want {
				t.Fatalf("trial %d, shape %v: ComposeTo(%v, %v) = %v, plain form %v", trial, s, x, z, got, want)
			}
		}
	}
}

// kin13SameBits reports whether a and b hold the same bits in every entry,
// or NaN in both (Go may swap a commutative operation's operands, which
// changes which NaN's payload an operation passes on, not that it is NaN).
func kin13SameBits(a, b Pose) bool {
	u := [7]float64{a.R.W, a.R.X, a.R.Y, a.R.Z, a.P[0], a.P[1], a.P[2]}
	v := [7]float64{b.R.W, b.R.X, b.R.Y, b.R.Z, b.P[0], b.P[1], b.P[2]}
	for i := range u {
		if math.Float64bits(u[i]) != math.Float64bits(v[i]) && !(math.IsNaN(u[i]) && math.IsNaN(v[i])) {
			return false
		}
	}
	return true
}
