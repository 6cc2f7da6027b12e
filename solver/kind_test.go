package solver_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/testutil"
)

// randomKind returns a problem holding one block of the given kind with
// random parameters, v̂ and R, on one clique of Size velocities with A = I
// and J = I, so that v_c = v.
func randomKind(rng *rand.Rand, kind solver.Kind) *solver.Problem {
	size := map[solver.Kind]int{solver.ContactCone: 3, solver.ContactLagged: 3, solver.ContactSimilar: 3,
		solver.Bilateral: 1 + rng.IntN(6), solver.Interval: 1, solver.Disk: 2, solver.ContactEllipticN: 4 + 2*rng.IntN(2)}[kind]
	p := &solver.Problem{}
	p.Reset(size)
	p.Cliques = append(p.Cliques, solver.Clique{Size: size})
	for i := range size {
		for j := range size {
			a := 0.0
			if i == j {
				a = 1
			}
			p.A = append(p.A, a)
		}
		p.MDiag[i] = 1
	}
	mu := testutil.Uniform(rng, 0, 1.5)
	var par []float64
	switch kind {
	case solver.ContactCone:
		par = []float64{mu}
	case solver.ContactLagged:
		par = []float64{mu, testutil.Uniform(rng, 0, 2), math.Pow(10, testutil.Uniform(rng, -3, 0)), testutil.Uniform(rng, 0, 1), float64(rng.IntN(2))} // soft norm or anchored disk
	case solver.ContactSimilar:
		par = []float64{mu, math.Pow(10, testutil.Uniform(rng, -3, 0))}
	case solver.Interval:
		lo, hi := -testutil.Uniform(rng, 0, 2), testutil.Uniform(rng, 0, 2)
		switch rng.IntN(3) {
		case 0:
			lo, hi = 0, math.Inf(1) // a limit
		case 1:
			lo = math.Inf(-1)
		}
		par = []float64{lo, hi}
	case solver.Disk:
		par = []float64{testutil.Uniform(rng, 0, 2)}
	case solver.ContactEllipticN:
		par = make([]float64, 5)
		for j := range size - 1 {
			par[j] = math.Pow(10, testutil.Uniform(rng, -2, 0.3)) // anisotropic: each its own μ_j
		}
	}
	c := p.AddConstraint(kind, size, par...)
	j := p.AddJBlock(c, 0)
	for i := range size {
		j[i*size+i] = 1
	}
	lo, hi := p.Rows(c)
	r := math.Pow(10, testutil.Uniform(rng, -2, 1))
	for k := lo; k < hi; k++ {
		p.VHat[k] = rng.NormFloat64()
		p.R[k] = r
		if kind == solver.Bilateral || (kind.IsContact() && k == hi-1) {
			p.R[k] = math.Pow(10, testutil.Uniform(rng, -2, 1))
		}
	}
	if kind == solver.ContactEllipticN { // MuJoCo's R: R_n, R_1 and R_j = R_1 μ_1²/μ_j² (mj_makeImpedance)
		par := p.Par(c)
		p.R[hi-1] = math.Pow(10, testutil.Uniform(rng, -2, 1))
		for j := 1; j < size-1; j++ {
			p.R[lo+j] = p.R[lo] * par[0] * par[0] / (par[j] * par[j])
		}
	}
	if err := p.Validate(); err != nil {
		panic(err)
	}
	return p
}

var allKinds = []solver.Kind{solver.ContactCone, solver.ContactLagged, solver.ContactSimilar, solver.Bilateral, solver.Interval, solver.Disk, solver.ContactEllipticN}

// TestKindDerivativesMatchFiniteDifferences checks, for every kind at
// random points, that γ = −∂ℓ/∂v_c and G = −∂γ/∂v_c by central
// differences (points within a few step sizes of a kink of γ are skipped,
// where the one-sided derivatives differ).
func TestKindDerivativesMatchFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for _, kind := range allKinds {
		checked := 0
		for trial := 0; trial < 400; trial++ {
			p := randomKind(rng, kind)
			n := p.NR
			vc := make([]float64, n)
			for k := range vc {
				vc[k] = 2 * rng.NormFloat64()
			}
			gamma, g := make([]float64, n), make([]float64, n*n)
			p.Eval(0, vc, gamma, g)
			const h = 1e-6
			gp, gm := make([]float64, n), make([]float64, n)
			gg := make([]float64, n*n)
			smooth := true
			for k := range n {
				x := vc[k]
				vc[k] = x + h
				cp := p.Eval(0, vc, gp, gg)
				gpk := append([]float64(nil), gg...)
				vc[k] = x - h
				cm := p.Eval(0, vc, gm, gg)
				vc[k] = x
				for c := range gg {
					if math.Abs(gpk[c]-gg[c]) > 1e-3*(1+math.Abs(gg[c])) {
						smooth = false // G jumps: a kink within ±h
					}
				}
				if !smooth {
					break
				}
				fd := -(cp - cm) / (2 * h)
				if tol := 1e-6 * (1 + math.Abs(gamma[k])); math.Abs(fd-gamma[k]) > tol {
					t.Fatalf("%v trial %d: γ[%d] = %v, −∂ℓ/∂v_c = %v", kind, trial, k, gamma[k], fd)
				}
				for r := range n {
					fdg := -(gp[r] - gm[r]) / (2 * h)
					if tol := 1e-5 * (1 + math.Abs(g[r*n+k])); math.Abs(fdg-g[r*n+k]) > tol {
						t.Fatalf("%v trial %d: G[%d,%d] = %v, −∂γ/∂v_c = %v", kind, trial, r, k, g[r*n+k], fdg)
					}
				}
			}
			if smooth {
				checked++
			}
		}
		if checked < 300 {
			t.Errorf("%v: only %d of 400 points were away from kinks", kind, checked)
		}
	}
}

// TestKindCostsAreConvex checks, for every kind, that ℓ is convex along
// random segments (ℓ(midpoint) ≤ mean of the ends), that G is symmetric
// positive semi-definite, and that γ is the gradient's negative in the
// monotone sense: (γ(a) − γ(b))ᵀ(a − b) ≤ 0.
func TestKindCostsAreConvex(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	for _, kind := range allKinds {
		for trial := 0; trial < 500; trial++ {
			p := randomKind(rng, kind)
			n := p.NR
			a, b, m := make([]float64, n), make([]float64, n), make([]float64, n)
			for k := range n {
				a[k], b[k] = 2*rng.NormFloat64(), 2*rng.NormFloat64()
				m[k] = 0.5 * (a[k] + b[k])
			}
			ga, gb, gm, g := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n*n)
			la, lb := p.Eval(0, a, ga, nil), p.Eval(0, b, gb, nil)
			lm := p.Eval(0, m, gm, g)
			if lm > 0.5*(la+lb)+1e-12*(1+math.Abs(la)+math.Abs(lb)) {
				t.Fatalf("%v trial %d: ℓ(mid) = %v > (ℓ(a) + ℓ(b))/2 = %v", kind, trial, lm, 0.5*(la+lb))
			}
			mono := 0.0
			for k := range n {
				mono += (ga[k] - gb[k]) * (a[k] - b[k])
			}
			if mono > 1e-12 {
				t.Fatalf("%v trial %d: (γ(a) − γ(b))ᵀ(a − b) = %v > 0: γ is not −∇ of a convex ℓ", kind, trial, mono)
			}
			for r := range n {
				for c := range n {
					if math.Abs(g[r*n+c]-g[c*n+r]) > 1e-14*(1+math.Abs(g[r*n+c])) {
						t.Fatalf("%v trial %d: G not symmetric", kind, trial)
					}
				}
			}
			for range 5 { // xᵀGx ≥ 0 for random x
				x := make([]float64, n)
				for k := range x {
					x[k] = rng.NormFloat64()
				}
				q := 0.0
				for r := range n {
					for c := range n {
						q += x[r] * g[r*n+c] * x[c]
					}
				}
				if q < -1e-12 {
					t.Fatalf("%v trial %d: xᵀGx = %v < 0", kind, trial, q)
				}
			}
		}
	}
}

// TestKindImpulseSets checks each kind's impulse against its set: the
// contact kinds obey Coulomb's law ‖γ_t‖ ≤ μ γ_n (Lagged: ≤ μ n0) with
// friction opposing the slip, intervals stay in [lo, hi], disks in the
// disk, and the Lagged normal impulse does not depend on the slip.
func TestKindImpulseSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(75, 76))
	for trial := 0; trial < 2000; trial++ {
		kind := allKinds[rng.IntN(len(allKinds))]
		p := randomKind(rng, kind)
		n := p.NR
		vc := make([]float64, n)
		for k := range vc {
			vc[k] = 3 * rng.NormFloat64()
		}
		gamma := make([]float64, n)
		p.Eval(0, vc, gamma, nil)
		par := p.Par(0)
		const tol = 1e-12
		switch kind {
		case solver.ContactCone, solver.ContactSimilar, solver.ContactLagged:
			bound := par[0] * gamma[2]
			if kind == solver.ContactLagged {
				bound = par[0] * par[1]
			}
			if gamma[2] < 0 || math.Hypot(gamma[0], gamma[1]) > bound*(1+tol)+tol {
				t.Fatalf("%v: γ = %v outside the cone (bound %v)", kind, gamma, bound)
			}
			if kind != solver.ContactCone { // friction opposes slip u = v_t − v̂_t
				u0, u1 := vc[0]-p.VHat[0], vc[1]-p.VHat[1]
				if gamma[0]*u0+gamma[1]*u1 > tol {
					t.Fatalf("%v: friction %v does not oppose slip (%v, %v)", kind, gamma[:2], u0, u1)
				}
			}
			if kind == solver.ContactLagged {
				vc2 := append([]float64(nil), vc...)
				vc2[0], vc2[1] = 5*rng.NormFloat64(), 5*rng.NormFloat64()
				g2 := make([]float64, 3)
				p.Eval(0, vc2, g2, nil)
				if g2[2] != gamma[2] {
					t.Fatalf("lagged: normal impulse changed with slip: %v vs %v", g2[2], gamma[2])
				}
			}
		case solver.Interval:
			if gamma[0] < par[0] || gamma[0] > par[1] {
				t.Fatalf("interval: γ = %v outside [%v, %v]", gamma[0], par[0], par[1])
			}
		case solver.Disk:
			if math.Hypot(gamma[0], gamma[1]) > par[0]*(1+tol)+tol {
				t.Fatalf("disk: |γ| = %v > %v", math.Hypot(gamma[0], gamma[1]), par[0])
			}
		case solver.ContactEllipticN: // γ_n ≥ ‖(γ_j/μ_j)‖
			s := 0.0
			for j := range n - 1 {
				s += (gamma[j] / par[j]) * (gamma[j] / par[j])
			}
			if gamma[n-1] < 0 || math.Sqrt(s) > gamma[n-1]*(1+tol)+tol {
				t.Fatalf("elliptic: γ = %v outside the cone of μ = %v", gamma, par)
			}
		}
	}
}
