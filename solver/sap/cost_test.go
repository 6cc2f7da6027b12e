package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/testutil"
)

// fdProblem is a random problem (2–3 cliques of size 6, 6–9 contacts) and
// a point v at which contact i's y lands strictly inside region i mod 3.
func fdProblem(rng *rand.Rand, trial int) (*solver.Problem, []float64, []solver.Region) {
	nCliques := 2 + trial%2
	nc := 6 + trial%4
	p := randomProblem(rng, nCliques, 6, nc)
	v := randNormal(rng, p.NV, 1)
	regs := make([]solver.Region, nc)
	for i := range nc {
		regs[i] = solver.Region(i % 3)
		mu, Rt, Rn := contact(p, i)
		if regs[i] == solver.Stiction && mu == 0 {
			regs[i] = solver.Sliding
		}
		placeY(p, v, i, testutil.SampleY(rng, regs[i], mu, Rt, Rn))
	}
	return p, v, regs
}

// regionsAt returns the region of every contact at v.
func regionsAt(p *solver.Problem, v []float64) []solver.Region {
	vc := make([]float64, p.NR)
	p.MulJ(v, vc)
	regs := make([]solver.Region, p.NumConstraints())
	for i := range regs {
		mu, Rt, Rn := contact(p, i)
		_, regs[i] = solver.Project(yOf(p, i, [3]float64(vc[3*i:])), mu, Rt, Rn)
	}
	return regs
}

// costRef is ℓp (SAP eq. 24) from dense A and J: ½(v − v*)ᵀA(v − v*) +
// Σ ½ γ_iᵀ R_i γ_i, γ_i = P_F(−R_i⁻¹(J_i v − v̂_i)).
func costRef(p *solver.Problem, a, j []float64, v []float64) float64 {
	d := sub(v, p.VStar)
	c := 0.5 * dotSlice(d, matVec(a, p.NV, p.NV, d))
	vc := matVec(j, p.NR, p.NV, v)
	for i := range p.NumConstraints() {
		var y [3]float64
		for k := range 3 {
			y[k] = -(vc[3*i+k] - p.VHat[3*i+k]) / p.R[3*i+k]
		}
		g, _ := solver.Project(y, p.Params[i], p.R[3*i], p.R[3*i+2])
		for k := range 3 {
			c += 0.5 * p.R[3*i+k] * g[k] * g[k]
		}
	}
	return c
}

func dotSlice(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// TestGradientAndHessianMatchFiniteDifferences checks ℓp against a dense
// reference, ∇ℓp = A(v − v*) − Jᵀγ against central differences of ℓp, and
// H = A + JᵀGJ against central differences of ∇ℓp and against a dense
// assembly, on random problems whose contacts are in all three regions.
func TestGradientAndHessianMatchFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	seen := map[solver.Region]int{}
	for trial := range 20 {
		p, v, regs := fdProblem(rng, trial)
		for _, r := range regs {
			seen[r]++
		}
		a, j := p.DenseA(), p.DenseJ()
		ev, err := Evaluate(p, v)
		if err != nil {
			t.Fatal(err)
		}
		if got := regionsAt(p, v); !equalRegions(got, regs) {
			t.Fatalf("trial %d: regions %v, want %v", trial, got, regs)
		}
		if ref := costRef(p, a, j, v); math.Abs(ev.Cost-ref) > 1e-13*math.Abs(ref) {
			t.Fatalf("trial %d: ℓp = %.17g, dense reference %.17g", trial, ev.Cost, ref)
		}
		n := p.NV
		const h = 1e-6
		gnorm := norm2(ev.Gradient)
		hnorm := norm2(ev.Hessian)
		for k := range n {
			vp, vm := append([]float64(nil), v...), append([]float64(nil), v...)
			vp[k] += h
			vm[k] -= h
			if !equalRegions(regionsAt(p, vp), regs) || !equalRegions(regionsAt(p, vm), regs) {
				t.Fatalf("trial %d: finite-difference step crosses a region boundary", trial)
			}
			fd := (costRef(p, a, j, vp) - costRef(p, a, j, vm)) / (2 * h)
			if math.Abs(fd-ev.Gradient[k]) > 1e-7*gnorm {
				t.Fatalf("trial %d: ∇ℓp[%d] = %.12g, finite difference %.12g", trial, k, ev.Gradient[k], fd)
			}
			ep, _ := Evaluate(p, vp)
			em, _ := Evaluate(p, vm)
			for i := range n {
				fdH := (ep.Gradient[i] - em.Gradient[i]) / (2 * h)
				if math.Abs(fdH-ev.Hessian[i*n+k]) > 1e-7*hnorm {
					t.Fatalf("trial %d: H[%d][%d] = %.12g, finite difference %.12g", trial, i, k, ev.Hessian[i*n+k], fdH)
				}
			}
		}
		// Dense assembly H = A + JᵀGJ from the G blocks.
		gj := make([]float64, p.NR*n)
		for i := range p.NumConstraints() {
			for r := range 3 {
				for c := range n {
					for s := range 3 {
						gj[(3*i+r)*n+c] += ev.G[9*i+3*r+s] * j[(3*i+s)*n+c]
					}
				}
			}
		}
		for r := range n {
			for c := range n {
				want := a[r*n+c]
				for q := range p.NR {
					want += j[q*n+r] * gj[q*n+c]
				}
				if math.Abs(ev.Hessian[r*n+c]-want) > 1e-13*hnorm {
					t.Fatalf("trial %d: H[%d][%d] = %.17g, dense A + JᵀGJ = %.17g", trial, r, c, ev.Hessian[r*n+c], want)
				}
			}
		}
	}
	for r := solver.Stiction; r <= solver.NoContact; r++ {
		if seen[r] < 20 {
			t.Errorf("only %d contacts in region %v", seen[r], r)
		}
	}
}

func equalRegions(a, b []solver.Region) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
