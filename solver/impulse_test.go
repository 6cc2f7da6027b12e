package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestConeImpulseEval: ConeImpulse gives Eval's impulse of a ContactCone
// block bit for bit, with and without the Hessian (Project's and
// ProjectG's γ), over random velocities, v̂, R and μ (zero μ, sticking,
// sliding and separating contacts among them).
func TestConeImpulseEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 226))
	for n := range 5000 {
		mu := rng.Float64()
		if n%7 == 0 {
			mu = 0
		}
		rt, rn := 1e-3+rng.Float64(), 1e-3+rng.Float64()
		var p Problem
		p.Reset(1)
		k := p.AddConstraint(ContactCone, 3, mu)
		p.R[0], p.R[1], p.R[2] = rt, rt, rn
		vc := make([]float64, 3)
		for r := range 3 {
			p.VHat[r] = rng.NormFloat64()
			vc[r] = rng.NormFloat64()
		}
		want, wantG := make([]float64, 3), make([]float64, 3)
		p.Eval(k, vc, want, nil)
		p.Eval(k, vc, wantG, make([]float64, 9))
		got := ConeImpulse(p.Params[p.Constraints[k].Par], p.R, p.VHat, vc)
		for r := range 3 {
			if math.Float64bits(got[r]) != math.Float64bits(want[r]) || math.Float64bits(got[r]) != math.Float64bits(wantG[r]) {
				t.Fatalf("case %d row %d: ConeImpulse %v, Eval %v and with G %v", n, r, got, want, wantG)
			}
		}
	}
}

// TestBilateralImpulseEval: BilateralImpulse gives Eval's impulse of a
// Bilateral block, bit for bit, and Eval's cost is ½ Σ R γ².
func TestBilateralImpulseEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 226))
	for n := range 2000 {
		size := 1 + n%3
		var p Problem
		p.Reset(1)
		k := p.AddConstraint(Bilateral, size)
		vc := make([]float64, size)
		for r := range size {
			p.R[r], p.VHat[r], vc[r] = 1e-4+rng.Float64(), rng.NormFloat64(), rng.NormFloat64()
		}
		want, got := make([]float64, size), make([]float64, size)
		cost := p.Eval(k, vc, want, nil)
		BilateralImpulse(p.R, p.VHat, vc, got)
		wantCost := 0.0
		for r := range size {
			if y := -(vc[r] - p.VHat[r]) / p.R[r]; math.Float64bits(got[r]) != math.Float64bits(want[r]) || got[r] != y {
				t.Fatalf("case %d row %d: BilateralImpulse %v, Eval %v, −(v_c − v̂)/R %v", n, r, got, want, y)
			}
			wantCost += 0.5 * p.R[r] * got[r] * got[r]
		}
		if cost != wantCost {
			t.Fatalf("case %d: Eval's cost %v, ½ Σ R γ² %v", n, cost, wantCost)
		}
	}
}
