package socp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// randInterior returns a random point in the interior of K.
func randInterior(rng *rand.Rand, c Cones) []float64 {
	x := make([]float64, c.Dim())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	c.addIdentity(x, 0.1+rng.Float64()-c.minEig(x))
	return x
}

var testCones = Cones{Zero: 2, NonNeg: 3, SOC: []int{1, 2, 3, 5}}

// checkScaling checks W z = W⁻ᵀ s = λ and W⁻¹(W x) = x on the cone rows.
func checkScaling(t *testing.T, sc *scaling, c Cones, s, z []float64, tol float64) {
	t.Helper()
	m := c.Dim()
	wz, wis := make([]float64, m), make([]float64, m)
	sc.apply(opW, wz, z)
	sc.apply(opWinvT, wis, s)
	for i := c.Zero; i < m; i++ {
		if math.Abs(wz[i]-wis[i]) > tol*(1+math.Abs(wz[i])) || math.Abs(wz[i]-sc.lam[i]) > tol*(1+math.Abs(wz[i])) {
			t.Fatalf("row %d: W z = %v, W⁻ᵀ s = %v, λ = %v", i, wz[i], wis[i], sc.lam[i])
		}
	}
	if c.minEig(sc.lam) <= 0 {
		t.Fatalf("λ = %v not in the interior", sc.lam)
	}
	for _, pair := range [][2]op{{opW, opWinv}, {opWT, opWinvT}} {
		y := append([]float64(nil), s...)
		sc.apply(pair[0], y, y)
		sc.apply(pair[1], y, y)
		for i := c.Zero; i < m; i++ {
			if math.Abs(y[i]-s[i]) > tol*(1+math.Abs(s[i])) {
				t.Fatalf("inverse pair %v fails at row %d: %v vs %v", pair, i, y[i], s[i])
			}
		}
	}
}

// TestNTScaling checks the Nesterov–Todd scaling on random interior points
// and after updates along random steps in the scaled space.
func TestNTScaling(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	c := testCones
	m := c.Dim()
	sc := newScaling(c, 4)
	for range 200 {
		s, z := randInterior(rng, c), randInterior(rng, c)
		if !sc.init(s, z) {
			t.Fatal("init failed on interior points")
		}
		checkScaling(t, sc, c, s, z, 1e-12)
		// A step: Δs, Δz random; the scaled step keeps λ + a dsT ∈ K.
		ds, dz := make([]float64, m), make([]float64, m)
		for i := range ds {
			ds[i], dz[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		dsT, dzT := make([]float64, m), make([]float64, m)
		sc.apply(opWinvT, dsT, ds)
		sc.apply(opW, dzT, dz)
		a := 0.9 * c.maxStep(sc.lam, dsT, c.maxStep(sc.lam, dzT, 1))
		if !sc.update(dsT, dzT, a) {
			t.Fatal("update failed inside the cone")
		}
		floats.AddScaled(s, a, ds)
		floats.AddScaled(z, a, dz)
		checkScaling(t, sc, c, s, z, 1e-10)
	}
	if sc.init([]float64{0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0}, randInterior(rng, c)) {
		t.Error("init accepted s on the boundary of K")
	}
}

// TestScaleRows checks applyRowsInvT (W⁻ᵀ applied to the rows of a
// matrix) against apply on each column.
func TestScaleRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	c := testCones
	m, n := c.Dim(), 4
	sc := newScaling(c, n)
	sc.init(randInterior(rng, c), randInterior(rng, c))
	a := make([]float64, m*n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	g := append([]float64(nil), a...)
	sc.applyRowsInvT(g, n)
	col, want := make([]float64, m), make([]float64, m)
	for j := range n {
		for i := range m {
			col[i] = a[i*n+j]
		}
		sc.apply(opWinvT, want, col)
		for i := c.Zero; i < m; i++ {
			if math.Abs(g[i*n+j]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("(%d, %d): %v, want %v", i, j, g[i*n+j], want[i])
			}
		}
	}
}

// TestJordan checks λ ∘ (λ \ d) = d and the identity e ∘ x = x.
func TestJordan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	c := testCones
	m := c.Dim()
	for range 100 {
		lam, d := randInterior(rng, c), make([]float64, m)
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		u, back := make([]float64, m), make([]float64, m)
		c.jordanDiv(u, lam, d)
		c.jordanProd(back, lam, u)
		for i := c.Zero; i < m; i++ {
			if math.Abs(back[i]-d[i]) > 1e-10*(1+math.Abs(d[i])) {
				t.Fatalf("λ∘(λ\\d) = %v, d = %v", back, d)
			}
		}
		e := make([]float64, m)
		c.addIdentity(e, 1)
		c.jordanProd(back, e, d)
		for i := c.Zero; i < m; i++ {
			if back[i] != d[i] {
				t.Fatalf("e∘d = %v, d = %v", back, d)
			}
		}
	}
}

// TestMaxStep checks the step to the boundary: x + α d is on the boundary
// (minEig ≈ 0) at the returned α and inside just before.
func TestMaxStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	c := Cones{NonNeg: 2, SOC: []int{1, 3, 4}}
	m := c.Dim()
	hits := 0
	for range 500 {
		x, d := randInterior(rng, c), make([]float64, m)
		for i := range d {
			d[i] = 3 * rng.NormFloat64()
		}
		a := c.maxStep(x, d, math.Inf(1))
		if math.IsInf(a, 1) {
			if c.minEig(floats.AddScaledTo(make([]float64, m), x, 1e6, d)) < -1e-9*1e6 {
				t.Fatalf("α = ∞ but x + 1e6 d leaves K")
			}
			continue
		}
		hits++
		at := floats.AddScaledTo(make([]float64, m), x, a, d)
		before := floats.AddScaledTo(make([]float64, m), x, a*(1-1e-9), d)
		scale := 1 + floats.Norm(at, math.Inf(1))
		if e := c.minEig(at); math.Abs(e) > 1e-9*scale {
			t.Fatalf("at α = %v, minEig = %v (want 0)", a, e)
		}
		if c.minEig(before) < 0 {
			t.Fatalf("before α = %v the point leaves K", a)
		}
	}
	if hits < 100 {
		t.Errorf("only %d of 500 random directions leave the cone", hits)
	}
}
