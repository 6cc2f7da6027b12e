package constraint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPowMatchesMathPow: pow gives math.Pow's bits, for p = 2 over x
// spread across the normal range and at the edges of its x·x path, and
// for other powers (math.Pow itself).
func TestPowMatchesMathPow(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 6))
	xs := []float64{0, 0x1p-511, math.Nextafter(0x1p-511, 0), 0x1p511, math.Nextafter(0x1p511, math.Inf(1)),
		0.5, 1, math.Nextafter(1, 0), 1e-300, 1e300, math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(1), math.NaN()}
	for range 200000 {
		xs = append(xs, rng.Float64(), math.Ldexp(rng.Float64(), rng.IntN(2100)-1075))
	}
	for _, p := range []float64{2, 1, 3, 2.5, 0.5} {
		for _, x := range xs {
			got, want := pow(x, p), math.Pow(x, p)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("pow(%v, %v) = %v, math.Pow = %v", x, p, got, want)
			}
		}
	}
}

// TestImpedancePowerTwoInLine: ImpedanceOf's power-2 curve in line gives
// the bits of the general formula (math.Pow throughout), for solimp
// widths, midpoints and distances spread over their ranges and at the
// edges of the in-line path (x near 2⁻⁵¹¹, x at the midpoint, a NaN
// midpoint).
func TestImpedancePowerTwoInLine(t *testing.T) {
	ref := func(imp [5]float64, r float64) float64 {
		if imp[0] == imp[1] || imp[2] <= 1e-15 {
			return 0.5 * (imp[0] + imp[1])
		}
		x := math.Abs(r) / imp[2]
		if x >= 1 {
			return imp[1]
		}
		if x <= 0 {
			return imp[0]
		}
		var y float64
		switch mid, p := imp[3], imp[4]; {
		case p == 1:
			y = x
		case x <= mid:
			y = math.Pow(x, p) / math.Pow(mid, p-1)
		default:
			y = 1 - math.Pow(1-x, p)/math.Pow(1-mid, p-1)
		}
		return imp[0] + y*(imp[1]-imp[0])
	}
	rng := rand.New(rand.NewPCG(3, 7))
	mids := []float64{0.5, 0, 1, 1e-300, math.NaN(), 0x1p-511, math.Nextafter(0x1p-511, 0)}
	for range 20000 {
		mids = append(mids, rng.Float64())
	}
	for i, mid := range mids {
		for _, p := range []float64{2, 1, 3, 2.5} {
			imp := [5]float64{0.9, 0.95, 0.001, mid, p}
			rs := []float64{mid * 0.001, -mid * 0.001, 0x1p-511 * 0.001, math.Nextafter(0x1p-511, 0) * 0.001,
				rng.Float64() * 0.001, -rng.Float64() * 0.002, math.Ldexp(rng.Float64(), -rng.IntN(1100)), 0, math.NaN()}
			if i%7 == 0 {
				imp[2] = math.Ldexp(1, -rng.IntN(60))
			}
			for _, r := range rs {
				got, want := ImpedanceOf(&imp, r), ref(imp, r)
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("ImpedanceOf(%v, %v) = %v, want %v", imp, r, got, want)
				}
			}
		}
	}
}
