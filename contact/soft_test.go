package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
)

// bisectImpedance is the reference for restImpedance: a plain bisection of
// r K d(r)²/(1 − d(r)) = a0 over [0, width] run to the end of float64.
func bisectImpedance(imp [5]float64, k, a0 float64) float64 {
	lo, hi := 0.0, 1.0
	for hi*k*math.Pow(constraint.Impedance(imp, hi), 2)/(1-constraint.Impedance(imp, hi)) < a0 {
		hi *= 2
	}
	for range 200 {
		mid := 0.5 * (lo + hi)
		d := constraint.Impedance(imp, mid)
		if mid*k*d*d/(1-d) < a0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return constraint.Impedance(imp, 0.5*(lo+hi))
}

// TestRestImpedance: the Illinois search gives the impedance of the rest
// depth as a bisection does, for MuJoCo's default solimp and random ones,
// loads from far inside the width to far past it, and any power.
func TestRestImpedance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	imps := [][5]float64{{0.9, 0.95, 0.001, 0.5, 2}, {0.99, 0.99, 0.001, 0.5, 2}, {0.5, 0.9, 0.01, 0.3, 1}, {0.8, 0.99, 0.005, 0.7, 6}}
	for range 40 {
		lo := 0.05 + 0.9*rng.Float64()
		imps = append(imps, [5]float64{lo, lo + (0.999-lo)*rng.Float64(), 1e-4 + 0.02*rng.Float64(), 0.05 + 0.9*rng.Float64(), 1 + 5*rng.Float64()})
	}
	worst := 0.0
	for _, imp := range imps {
		for _, k := range []float64{1e2, 2.5e3, 1e5} {
			for e := -9.0; e <= 3; e += 0.25 {
				a0 := math.Pow(10, e)
				got, want := restImpedance(imp, k, a0), bisectImpedance(imp, k, a0)
				if err := math.Abs(got-want) / want; err > worst {
					worst = err
				}
				if err := math.Abs(got-want) / want; !(err <= 1e-12) {
					t.Fatalf("solimp %v, K %g, a0 %g: d %v, bisection %v (relative %.2g)", imp, k, a0, got, want, err)
				}
			}
		}
	}
	t.Logf("worst relative difference from the bisection: %.2g", worst)
	if d := restImpedance([5]float64{0.9, 0.95, 0.001, 0.5, 2}, 2500, 0); d != 0.9 {
		t.Fatalf("no load: d %v, want dmin 0.9", d)
	}
}

// TestMixSolRef: a pair's solref is MuJoCo 2.2.2's mix of its geoms'
// (mj_contactParam, equal solmix): the mean of two standard solrefs, the
// smaller of each value when either is in the direct form; Combine gives
// the pair that mix, and no SlipRef when a side has none (its K and B then
// come from SlipStiffness and SlipTime).
func TestMixSolRef(t *testing.T) {
	for _, c := range []struct{ a, b, want [2]float64 }{
		{[2]float64{0.015, 1}, [2]float64{0.02, 1}, [2]float64{0.0175, 1}},
		{[2]float64{0.02, 0.5}, [2]float64{0.04, 1.5}, [2]float64{0.03, 1}},
		{[2]float64{-5000, -80}, [2]float64{0.02, 1}, [2]float64{-5000, -80}},
		{[2]float64{-5000, -80}, [2]float64{-4000, -90}, [2]float64{-5000, -90}},
	} {
		if got := MixSolRef(c.a, c.b); got != c.want {
			t.Errorf("MixSolRef(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	soft := func(ref [2]float64) Material {
		return Material{Stiffness: 1e5, Friction: 1, SlipTime: 0.02, SlipStiffness: 2500, SlipWeight: 1, SlipImp: [5]float64{0.9, 0.95, 0.001, 0.5, 2}, SlipRef: ref, MaxFriction: true}
	}
	if got := Combine(soft([2]float64{0.015, 1}), soft([2]float64{0.02, 1})).SlipRef; got != [2]float64{0.0175, 1} {
		t.Errorf("Combine: SlipRef %v, want [0.0175 1]", got)
	}
	if got := Combine(soft([2]float64{0.015, 1}), soft([2]float64{})).SlipRef; got != [2]float64{} {
		t.Errorf("Combine with a side without solref: SlipRef %v, want none", got)
	}
}
