package solver_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestEllipticNIsTheRNormProjection checks that γ = P_K(y) of a
// ContactEllipticN block is the projection onto K in the R-norm by its
// variational inequality: γ ∈ K and (k − γ)ᵀR(y − γ) ≤ 0 for every k in K
// (random k on the cone's boundary and inside, and k = 0, k = 2γ).
func TestEllipticNIsTheRNormProjection(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	regions := map[solver.Region]int{}
	for trial := range 3000 {
		p := randomKind(rng, solver.ContactEllipticN)
		n, mu, r := p.NR, p.Par(0), p.R
		y := make([]float64, n)
		for j := range y {
			y[j] = 2 * rng.NormFloat64()
		}
		if trial%3 == 0 { // a large normal part: stiction more often
			y[n-1] = 30 * math.Abs(y[n-1])
		}
		gamma := make([]float64, n)
		regions[solver.ProjectEllipticN(y, mu, r, gamma, nil)]++
		scale := 0.0
		for j := range n {
			scale += r[j] * y[j] * y[j]
		}
		vi := func(k []float64) float64 {
			s := 0.0
			for j := range n {
				s += (k[j] - gamma[j]) * r[j] * (y[j] - gamma[j])
			}
			return s
		}
		for c := range 40 {
			k := make([]float64, n)
			switch c {
			case 0: // k = 0
			case 1:
				for j := range n {
					k[j] = 2 * gamma[j]
				}
			default:
				s := 0.0
				for j := range n - 1 {
					k[j] = rng.NormFloat64()
					s += k[j] * k[j]
				}
				s = math.Sqrt(s)
				kn := s * (1 + float64(c%2)*rng.Float64()) // on the boundary or inside
				kn *= 3 * rng.Float64()
				for j := range n - 1 {
					k[j] *= mu[j] * kn / s
				}
				k[n-1] = kn
			}
			if v := vi(k); v > 1e-12*(1+scale) {
				t.Fatalf("trial %d: (k − γ)ᵀR(y − γ) = %v > 0 for k = %v: γ = %v is not P_K(%v) (μ = %v, R = %v)", trial, v, k, gamma, y, mu, r)
			}
		}
	}
	for _, reg := range []solver.Region{solver.Stiction, solver.Sliding, solver.NoContact} {
		if regions[reg] < 100 {
			t.Errorf("only %d of 3000 points in region %v", regions[reg], reg)
		}
	}
}

// TestEllipticNValidate checks that a ContactEllipticN block is refused
// with R not MuJoCo's (R_j μ_j² ≠ R_1 μ_1²), a μ_j ≤ 0, a used
// coefficient past the block's rows, or a size other than 4 or 6.
func TestEllipticNValidate(t *testing.T) {
	build := func(size int, par []float64, r []float64) error {
		p := &solver.Problem{}
		p.Reset(size)
		p.Cliques = append(p.Cliques, solver.Clique{Size: size})
		for i := range size {
			for j := range size {
				p.A = append(p.A, map[bool]float64{true: 1}[i == j])
			}
			p.MDiag[i] = 1
		}
		c := p.AddConstraint(solver.ContactEllipticN, size, par...)
		j := p.AddJBlock(c, 0)
		for i := range size {
			j[i*size+i] = 1
		}
		copy(p.R, r)
		return p.Validate()
	}
	good := []float64{1, 1, 4, 1}
	if err := build(4, []float64{0.5, 0.5, 0.25, 0, 0}, good); err != nil {
		t.Fatalf("MuJoCo's R refused: %v", err)
	}
	for name, tc := range map[string]struct {
		size    int
		par, r  []float64
		message string
	}{
		"R not MuJoCo's": {4, []float64{0.5, 0.5, 0.25, 0, 0}, []float64{1, 1, 1, 1}, "R_3 μ_3²"},
		"μ_3 = 0":        {4, []float64{0.5, 0.5, 0, 0, 0}, good, "μ_3 = 0"},
		"μ_4 unused":     {4, []float64{0.5, 0.5, 0.25, 0.1, 0}, good, "μ_4 = 0.1"},
		"size 3":         {3, []float64{0.5, 0.5, 0.25, 0, 0}, []float64{1, 1, 1}, "of 4 or 6"},
	} {
		err := build(tc.size, tc.par, tc.r)
		if err == nil || !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: error %v, want one naming %q", name, err, tc.message)
		}
	}
}
