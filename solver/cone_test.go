package solver_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/testutil"
)

// bruteProject minimises ½(γ − y)ᵀR(γ − y) over the cone F numerically,
// without the closed form: if y ∈ F it is its own projection; otherwise the
// minimiser is on the boundary γ(ρ, θ) = (μρ cos θ, μρ sin θ, ρ), ρ ≥ 0. For
// fixed θ the cost is a quadratic in ρ minimised exactly; the remaining
// function of θ is scanned on a grid and refined by bisection on its
// derivative.
func bruteProject(y [3]float64, mu, Rt, Rn float64) [3]float64 {
	if y[2] >= 0 && math.Hypot(y[0], y[1]) <= mu*y[2] {
		return y
	}
	rho := func(th float64) float64 {
		return max(0, (Rt*mu*(math.Cos(th)*y[0]+math.Sin(th)*y[1])+Rn*y[2])/(Rt*mu*mu+Rn))
	}
	point := func(th float64) [3]float64 {
		r := rho(th)
		return [3]float64{mu * r * math.Cos(th), mu * r * math.Sin(th), r}
	}
	cost := func(th float64) float64 {
		g := point(th)
		return 0.5 * (Rt*((g[0]-y[0])*(g[0]-y[0])+(g[1]-y[1])*(g[1]-y[1])) + Rn*(g[2]-y[2])*(g[2]-y[2]))
	}
	const n = 720
	best, bestF := 0.0, math.Inf(1)
	for k := range n {
		th := 2 * math.Pi * float64(k) / n
		if f := cost(th); f < bestF {
			best, bestF = th, f
		}
	}
	// dF/dθ by the envelope theorem (ρ is optimal for each θ):
	// ∂/∂θ ½Rt‖μρ(cos θ, sin θ) − y_t‖² = Rt μ ρ (y_0 sin θ − y_1 cos θ).
	deriv := func(th float64) float64 {
		return Rt * mu * rho(th) * (y[0]*math.Sin(th) - y[1]*math.Cos(th))
	}
	lo, hi := best-2*2*math.Pi/n, best+2*2*math.Pi/n
	if deriv(lo) < 0 && deriv(hi) > 0 {
		for range 200 {
			mid := 0.5 * (lo + hi)
			if deriv(mid) < 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		best = 0.5 * (lo + hi)
	}
	return point(best)
}

// randContactParams returns μ (0 with probability 1/5), Rt and Rn, with
// Rt/Rn over four decades.
func randContactParams(rng *rand.Rand) (mu, Rt, Rn float64) {
	if rng.IntN(5) != 0 {
		mu = testutil.Uniform(rng, 0.05, 2)
	}
	Rn = math.Pow(10, testutil.Uniform(rng, -2, 1))
	Rt = Rn * math.Pow(10, testutil.Uniform(rng, -3, 1))
	return mu, Rt, Rn
}

// TestProjectMatchesBruteForce checks P_F (SAP §V-A) in every region
// against a numerical minimisation of the projection problem (SAP eq. 23),
// the variational characterisation of a projection onto a cone, and cone
// membership.
func TestProjectMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	count := map[solver.Region]int{}
	worst := 0.0
	for trial := range 3000 {
		mu, Rt, Rn := randContactParams(rng)
		want := solver.Region(trial % 3)
		if want == solver.Stiction && mu == 0 {
			mu = 0.5
		}
		y := testutil.SampleY(rng, want, mu, Rt, Rn)
		g, reg := solver.Project(y, mu, Rt, Rn)
		if reg != want {
			t.Fatalf("y = %v (μ %v, Rt %v, Rn %v): region %v, want %v", y, mu, Rt, Rn, reg, want)
		}
		count[reg]++
		// Closed form per region, SAP §V-A.
		yr := math.Hypot(y[0], y[1])
		var closed [3]float64
		switch reg {
		case solver.Stiction:
			closed = y
		case solver.Sliding:
			muHat, muT2 := mu*Rt/Rn, mu*mu*Rt/Rn
			gn := (y[2] + muHat*yr) / (1 + muT2)
			closed = [3]float64{mu * gn * y[0] / yr, mu * gn * y[1] / yr, gn}
		}
		scale := testutil.Norm3(y)
		if d := testutil.Diff3(g, closed); d > 1e-14*scale {
			t.Fatalf("y = %v: γ = %v, closed form %v", y, g, closed)
		}
		bf := bruteProject(y, mu, Rt, Rn)
		d := testutil.Diff3(g, bf) / scale
		worst = max(worst, d)
		if d > 1e-9 {
			t.Fatalf("y = %v (μ %v, Rt %v, Rn %v, %v): γ = %v, brute force %v, rel diff %.3g", y, mu, Rt, Rn, reg, g, bf, d)
		}
		if !testutil.InCone(g, mu, 1e-14) {
			t.Fatalf("γ = %v not in the cone μ = %v", g, mu)
		}
		// Projection onto a cone in the R inner product: w = R(y − γ) is
		// orthogonal to γ and lies in the polar cone: −w ∈ F*, i.e.
		// μ‖w_t‖ ≤ −w_n.
		w := [3]float64{Rt * (y[0] - g[0]), Rt * (y[1] - g[1]), Rn * (y[2] - g[2])}
		// Round-off scales: w is a difference of R y and R γ.
		sc := Rt*(math.Abs(y[0]*g[0])+math.Abs(y[1]*g[1])) + Rn*math.Abs(y[2]*g[2])
		if dot := w[0]*g[0] + w[1]*g[1] + w[2]*g[2]; math.Abs(dot) > 1e-13*sc {
			t.Fatalf("y = %v (μ %v, Rt %v, Rn %v, %v): γ = %v, w = %v, (y − γ)ᵀRγ = %g", y, mu, Rt, Rn, reg, g, w, dot)
		}
		sw := (1 + mu) * (Rt*math.Hypot(y[0], y[1]) + Rn*math.Abs(y[2]))
		if mu*math.Hypot(w[0], w[1]) > -w[2]+1e-13*sw {
			t.Fatalf("y = %v: R(y − γ) = %v not in the polar cone", y, w)
		}
	}
	for r := solver.Stiction; r <= solver.NoContact; r++ {
		if count[r] < 900 {
			t.Errorf("region %v sampled %d times", r, count[r])
		}
	}
	t.Logf("max relative |γ − brute force| = %.3g", worst)
}

// TestProjectEdgeCases covers μ = 0, y_r = 0, y = 0 and the exact region
// boundaries, where solver.G must take the stiction formula on ∂F and the sliding
// formula on the boundary of the polar cone (SAP App. D).
func TestProjectEdgeCases(t *testing.T) {
	type tc struct {
		name          string
		y             [3]float64
		mu, rt, rn    float64
		gamma         [3]float64
		region        solver.Region
		gStictionForm bool // solver.G = R⁻¹
		gZero         bool
	}
	cases := []tc{
		{"origin", [3]float64{}, 0.5, 1, 4, [3]float64{}, solver.Stiction, true, false},
		{"normal axis", [3]float64{0, 0, 2}, 0.5, 1, 4, [3]float64{0, 0, 2}, solver.Stiction, true, false},
		{"negative normal axis", [3]float64{0, 0, -2}, 0.5, 1, 4, [3]float64{}, solver.NoContact, false, true},
		{"μ=0 normal axis", [3]float64{0, 0, 3}, 0, 1, 4, [3]float64{0, 0, 3}, solver.Stiction, true, false},
		{"μ=0 negative axis", [3]float64{0, 0, -3}, 0, 1, 4, [3]float64{}, solver.NoContact, false, true},
		{"μ=0 origin", [3]float64{}, 0, 1, 4, [3]float64{}, solver.Stiction, true, false},
		{"μ=0 sliding", [3]float64{1, -2, 3}, 0, 1, 4, [3]float64{0, 0, 3}, solver.Sliding, false, false},
		{"μ=0 tangential only", [3]float64{1, 0, 0}, 0, 1, 4, [3]float64{}, solver.Sliding, false, false},
		{"μ=0 below plane", [3]float64{1, 0, -1e-300}, 0, 1, 4, [3]float64{}, solver.NoContact, false, true},
		// ∂F: y_r = μ y_n exactly (0.5·2 = 1).
		{"cone boundary", [3]float64{1, 0, 2}, 0.5, 1, 4, [3]float64{1, 0, 2}, solver.Stiction, true, false},
		// Polar boundary: y_n = −μ̂ y_r with μ̂ = 0.5·1/4 = 0.125, y_r = 8.
		{"polar boundary", [3]float64{0, 8, -1}, 0.5, 1, 4, [3]float64{}, solver.Sliding, false, false},
		{"tiny y_t", [3]float64{1e-310, 0, -1e-300}, 0.5, 1, 4, [3]float64{}, solver.NoContact, false, true},
		{"tiny y_t sliding", [3]float64{1e-300, 0, 1e-300}, 0.5, 1, 4, [3]float64{0.5 * (1e-300 + 0.125e-300) / (1 + 0.0625), 0, (1e-300 + 0.125e-300) / (1 + 0.0625)}, solver.Sliding, false, false},
	}
	for _, c := range cases {
		g, gm, reg := solver.ProjectG(c.y, c.mu, c.rt, c.rn)
		if reg != c.region {
			t.Errorf("%s: region %v, want %v", c.name, reg, c.region)
		}
		if d := testutil.Diff3(g, c.gamma); d > 1e-15*(testutil.Norm3(c.gamma)+1e-300) && d != 0 {
			t.Errorf("%s: γ = %v, want %v", c.name, g, c.gamma)
		}
		for i := range 3 {
			for j := range 3 {
				if math.IsNaN(gm[i][j]) || math.IsInf(gm[i][j], 0) {
					t.Fatalf("%s: solver.G = %v not finite", c.name, gm)
				}
			}
		}
		rinv := [3][3]float64{{1 / c.rt}, {0, 1 / c.rt}, {0, 0, 1 / c.rn}}
		switch {
		case c.gStictionForm && gm != rinv:
			t.Errorf("%s: solver.G = %v, want R⁻¹ = %v", c.name, gm, rinv)
		case c.gZero && gm != [3][3]float64{}:
			t.Errorf("%s: solver.G = %v, want 0", c.name, gm)
		}
		if c.region == solver.Sliding {
			want := slidingGRef(c.y, c.mu, c.rt, c.rn)
			for i := range 3 {
				for j := range 3 {
					if math.Abs(gm[i][j]-want[i][j]) > 1e-14*math.Abs(want[i][j])+1e-300 {
						t.Errorf("%s: solver.G = %v, want sliding formula %v", c.name, gm, want)
					}
				}
			}
		}
	}
}

// slidingGRef is R⁻¹ ∇²_y ℓ_R R⁻¹ with ∇²_y ℓ_R written literally from the
// sliding branch of SAP eq. (37).
func slidingGRef(y [3]float64, mu, Rt, Rn float64) [3][3]float64 {
	yr := math.Hypot(y[0], y[1])
	t := [2]float64{y[0] / yr, y[1] / yr}
	muHat, muT2 := mu*Rt/Rn, mu*mu*Rt/Rn
	s := y[2] + muHat*yr
	k := Rn / (1 + muT2)
	var h [3][3]float64
	for i := range 2 {
		for j := range 2 {
			p := t[i] * t[j]
			perp := -p
			if i == j {
				perp += 1
			}
			h[i][j] = k * muHat * (muHat*p + s*perp/yr)
		}
		h[i][2] = k * muHat * t[i]
		h[2][i] = h[i][2]
	}
	h[2][2] = k
	r := [3]float64{Rt, Rt, Rn}
	for i := range 3 {
		for j := range 3 {
			h[i][j] /= r[i] * r[j]
		}
	}
	return h
}

// TestProjectContinuousAcrossBoundaries checks that γ(y) is continuous
// across both region boundaries: stepping δ to either side of a boundary
// point changes γ by O(δ).
func TestProjectContinuousAcrossBoundaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		mu, Rt, Rn := randContactParams(rng)
		if mu == 0 {
			mu = 0.3
		}
		muHat := mu * Rt / Rn
		th := testutil.Uniform(rng, 0, 2*math.Pi)
		c, s := math.Cos(th), math.Sin(th)
		yr := testutil.Uniform(rng, 0.1, 2)
		// Boundary of F: y_n = y_r/μ, normal (t̂, −μ)/√(1+μ²) pointing out.
		// Boundary of the polar cone: y_n = −μ̂ y_r, normal (μ̂ t̂, 1).
		for _, b := range []struct {
			yn     float64
			normal [3]float64
			in     solver.Region
			out    solver.Region
		}{
			{yr / mu, [3]float64{c, s, -mu}, solver.Stiction, solver.Sliding},
			{-muHat * yr, [3]float64{-muHat * c, -muHat * s, -1}, solver.Sliding, solver.NoContact},
		} {
			const delta = 1e-7
			y := [3]float64{yr * c, yr * s, b.yn}
			yin, yout := y, y
			for k := range 3 {
				yin[k] -= delta * b.normal[k]
				yout[k] += delta * b.normal[k]
			}
			gin, rin := solver.Project(yin, mu, Rt, Rn)
			gout, rout := solver.Project(yout, mu, Rt, Rn)
			if rin != b.in || rout != b.out {
				t.Fatalf("boundary %v/%v at y = %v: regions %v, %v", b.in, b.out, y, rin, rout)
			}
			// P_F is non-expansive in the R-norm, so Lipschitz with constant
			// √κ(R) in the Euclidean norm.
			lip := math.Sqrt(max(Rt/Rn, Rn/Rt))
			if d := testutil.Diff3(gin, gout); d > 1.01*2*delta*testutil.Norm3(b.normal)*lip {
				t.Fatalf("γ jumps by %g across the %v/%v boundary at y = %v", d, b.in, b.out, y)
			}
		}
	}
}

// ellR is ℓ_R(v_c) = ½‖P_F(y(v_c))‖²_R for one contact with v̂ = 0.
func ellR(vc [3]float64, mu, Rt, Rn float64) float64 {
	y := [3]float64{-vc[0] / Rt, -vc[1] / Rt, -vc[2] / Rn}
	g, _ := solver.Project(y, mu, Rt, Rn)
	return 0.5 * (Rt*(g[0]*g[0]+g[1]*g[1]) + Rn*g[2]*g[2])
}

// TestGammaAndGMatchFiniteDifferences checks, away from region boundaries
// and in all three regions, that γ = −∂ℓ_R/∂v_c (SAP eq. 39) and that
// solver.G = −∂γ/∂v_c (SAP App. D), by central differences.
func TestGammaAndGMatchFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 1500 {
		mu, Rt, Rn := randContactParams(rng)
		reg := solver.Region(trial % 3)
		if reg == solver.Stiction && mu == 0 {
			mu = 0.4
		}
		y := testutil.SampleY(rng, reg, mu, Rt, Rn)
		vc := [3]float64{-Rt * y[0], -Rt * y[1], -Rn * y[2]}
		gamma, g, r := solver.ProjectG(y, mu, Rt, Rn)
		if r != reg {
			t.Fatalf("region %v, want %v", r, reg)
		}
		rk := [3]float64{Rt, Rt, Rn}
		for k := range 3 {
			h := 1e-6 * rk[k] * testutil.Norm3(y) // a relative step in y
			vp, vm := vc, vc
			vp[k] += h
			vm[k] -= h
			fd := -(ellR(vp, mu, Rt, Rn) - ellR(vm, mu, Rt, Rn)) / (2 * h)
			if math.Abs(fd-gamma[k]) > 1e-7*testutil.Norm3(gamma)+1e-12*testutil.Norm3(y) {
				t.Fatalf("%v, y = %v: γ[%d] = %.12g, −∂ℓ_R/∂v_c = %.12g", reg, y, k, gamma[k], fd)
			}
			gp, rp := solver.Project([3]float64{-vp[0] / Rt, -vp[1] / Rt, -vp[2] / Rn}, mu, Rt, Rn)
			gm, rm := solver.Project([3]float64{-vm[0] / Rt, -vm[1] / Rt, -vm[2] / Rn}, mu, Rt, Rn)
			if rp != reg || rm != reg {
				t.Fatalf("finite-difference step crosses a region boundary")
			}
			gnorm := math.Sqrt(g[0][0]*g[0][0] + g[1][1]*g[1][1] + g[2][2]*g[2][2] + 2*(g[0][1]*g[0][1]+g[0][2]*g[0][2]+g[1][2]*g[1][2]))
			for i := range 3 {
				fdG := -(gp[i] - gm[i]) / (2 * h)
				if math.Abs(fdG-g[i][k]) > 1e-6*gnorm {
					t.Fatalf("%v, y = %v: G[%d][%d] = %.12g, −∂γ/∂v_c = %.12g", reg, y, i, k, g[i][k], fdG)
				}
			}
		}
		// solver.G is symmetric positive semi-definite (SAP App. D).
		for i := range 3 {
			for j := range 3 {
				if g[i][j] != g[j][i] {
					t.Fatalf("solver.G not symmetric: %v", g)
				}
			}
		}
		for range 5 {
			x := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			q := 0.0
			for i := range 3 {
				for j := range 3 {
					q += x[i] * g[i][j] * x[j]
				}
			}
			if q < -1e-12*testutil.Norm3(x)*testutil.Norm3(x)/min(Rt, Rn) {
				t.Fatalf("solver.G not PSD: xᵀGx = %g", q)
			}
		}
	}
}
