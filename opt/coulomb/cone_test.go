package coulomb

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestProjectCone(t *testing.T) {
	cases := []struct {
		x, want [3]float64
		mu      float64
	}{
		{[3]float64{1, 0.1, 0.1}, [3]float64{1, 0.1, 0.1}, 0.5}, // inside
		{[3]float64{-1, 0.1, 0}, [3]float64{}, 0.5},             // in the polar cone
		{[3]float64{0, 1, 0}, [3]float64{0.5, 0.5, 0}, 1},       // onto the boundary
		{[3]float64{2, 3, 4}, [3]float64{2, 0, 0}, 0},           // frictionless
		{[3]float64{-2, 3, 4}, [3]float64{}, 0},
	}
	for _, c := range cases {
		x := c.x
		Project(&x, c.mu)
		for k := range 3 {
			if math.Abs(x[k]-c.want[k]) > 1e-15 {
				t.Errorf("P_K(%v), μ = %v: %v, want %v", c.x, c.mu, x, c.want)
				break
			}
		}
	}
}

// TestProjectConeMoreau checks Moreau's decomposition x = P_K(x) + P_K°(x)
// on random points: P_K(x) ∈ K, x − P_K(x) ∈ −K*, and the two orthogonal.
func TestProjectConeMoreau(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		mu := rng.Float64() * 2
		x := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		p := x
		Project(&p, mu)
		d := [3]float64{x[0] - p[0], x[1] - p[1], x[2] - p[2]}
		const tol = 1e-12
		switch {
		case math.Hypot(p[1], p[2]) > mu*p[0]+tol:
			t.Fatalf("P_K(%v) = %v not in K (μ = %v)", x, p, mu)
		case mu*math.Hypot(d[1], d[2]) > -d[0]+tol:
			t.Fatalf("x − P_K(x) = %v not in −K* (x = %v, μ = %v)", d, x, mu)
		case math.Abs(p[0]*d[0]+p[1]*d[1]+p[2]*d[2]) > tol:
			t.Fatalf("P_K(x)·(x − P_K(x)) = %v ≠ 0 (x = %v, μ = %v)", p[0]*d[0]+p[1]*d[1]+p[2]*d[2], x, mu)
		}
	}
}

// TestConeResiduals checks the three cone residuals on hand-made contacts
// (μ = 0.5, (n, t1, t2) order).
func TestConeResiduals(t *testing.T) {
	mu := []float64{0.5}
	zero := make([]float64, 3)
	cases := []struct {
		name                  string
		r, u, rg              []float64
		relaxed, reg, coulomb bool // whether each residual vanishes
	}{
		{"sticking", []float64{1, 0.1, 0}, []float64{0, 0, 0}, zero, true, true, true},
		{"separating", []float64{0, 0, 0}, []float64{1, 0.2, 0}, zero, true, true, true},
		// Relaxed sliding: u_N = μ‖u_T‖ (gliding), r on the boundary opposing u_T.
		{"relaxed sliding", []float64{1, -0.5, 0}, []float64{0.5, 1, 0}, zero, true, true, false},
		// Coulomb sliding: u_N = 0.
		{"Coulomb sliding", []float64{1, -0.5, 0}, []float64{0, 1, 0}, zero, false, false, true},
		// Compliant sticking: u + Rγ = 0.
		{"compliant", []float64{1, 0.1, 0}, []float64{-0.01, -0.001, 0}, []float64{0.01, 0.001, 0}, false, true, false},
	}
	for _, c := range cases {
		relaxed, reg, coulomb := Residuals(c.r, c.u, c.rg, mu)
		got := []float64{relaxed, reg, coulomb}
		for k, zeroWanted := range []bool{c.relaxed, c.reg, c.coulomb} {
			if (got[k] <= 1e-15) != zeroWanted {
				t.Errorf("%s: residuals (relaxed, regularized, Coulomb) = %v, want zero: %v", c.name, got, []bool{c.relaxed, c.reg, c.coulomb})
				break
			}
		}
	}
}

// TestResidualsNilCompliance checks that a nil compliance velocity reads as
// zero and that Residuals allocates nothing.
func TestResidualsNilCompliance(t *testing.T) {
	r := []float64{1, -0.5, 0, 2, 0.1, 0.1}
	u := []float64{0.5, 1, 0, 0, 0, 0}
	mu := []float64{0.5, 0.3}
	a1, a2, a3 := Residuals(r, u, nil, mu)
	b1, b2, b3 := Residuals(r, u, make([]float64, 6), mu)
	if a1 != b1 || a2 != b2 || a3 != b3 || a1 != a2 {
		t.Errorf("nil rg: %v %v %v, zero rg: %v %v %v", a1, a2, a3, b1, b2, b3)
	}
	if a := testing.AllocsPerRun(100, func() { Residuals(r, u, nil, mu) }); a != 0 {
		t.Errorf("Residuals allocates %v times", a)
	}
}

// TestDeSaxce checks u + μ‖u_T‖ e_N.
func TestDeSaxce(t *testing.T) {
	if got := DeSaxce([3]float64{-1, 3, 4}, 0.5); got != [3]float64{1.5, 3, 4} {
		t.Errorf("DeSaxce = %v", got)
	}
}
