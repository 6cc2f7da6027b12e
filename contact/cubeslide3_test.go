package contact

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCubeslide3MemoKeyLess checks memoKey.less (a and b packed into one
// uint64) against compare < 0 on keys with negative, zero and extreme
// geometry indices and features, equal and differing in each field.
func TestCubeslide3MemoKeyLess(t *testing.T) {
	vals := []int32{math.MinInt32, math.MinInt32 + 1, -2, -1, 0, 1, 2, math.MaxInt32 - 1, math.MaxInt32}
	feats := []uint32{0, 1, 2, 1 << 31, math.MaxUint32}
	rng := rand.New(rand.NewPCG(23, 86))
	draw := func() memoKey {
		k := memoKey{a: vals[rng.IntN(len(vals))], b: vals[rng.IntN(len(vals))], feature: feats[rng.IntN(len(feats))]}
		if rng.IntN(3) == 0 {
			k.a, k.b, k.feature = int32(rng.Uint32()), int32(rng.Uint32()), rng.Uint32()
		}
		return k
	}
	less := 0
	for range 200000 {
		x, y := draw(), draw()
		switch rng.IntN(3) { // equal in the leading fields, so that later ones decide
		case 0:
			y.a = x.a
		case 1:
			y.a, y.b = x.a, x.b
		}
		if got, want := x.less(y), x.compare(y) < 0; got != want {
			t.Fatalf("%+v less %+v = %v, compare says %v", x, y, got, want)
		}
		if x.less(y) {
			less++
		}
		if x.less(x) {
			t.Fatalf("%+v less itself", x)
		}
	}
	if less < 50000 {
		t.Fatalf("only %d draws ordered: the test does not reach both answers", less)
	}
}

// TestCubeslide3BadR checks badR against the loop over R = (rt, rt, rn)
// it replaces in addPair: the same first bad row and value, on zeros of
// both signs, negative, subnormal, largest, infinite and NaN values.
func TestCubeslide3BadR(t *testing.T) {
	vals := []float64{1, 0.5, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1), -1,
		-math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, rt := range vals {
		for _, rn := range vals {
			wantR, wantBad := -1, false
			var wantX float64
			for r, x := range [3]float64{rt, rt, rn} {
				if !(x > 0) || math.IsInf(x, 0) {
					wantR, wantX, wantBad = r, x, true
					break
				}
			}
			r, x, bad := badR(rt, rn)
			if bad != wantBad || bad && (r != wantR || math.Float64bits(x) != math.Float64bits(wantX)) {
				t.Fatalf("rt %v, rn %v: badR = %d, %v, %v; the loop says %d, %v, %v", rt, rn, r, x, bad, wantR, wantX, wantBad)
			}
		}
	}
}
