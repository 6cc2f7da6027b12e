package socp

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"github.com/stiction-sim/stiction/opt/coulomb"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// projectF projects γ (t1, t2, n) onto F_μ in place.
func projectF(g []float64, mu float64) {
	if mu == 0 {
		g[0], g[1], g[2] = 0, 0, max(g[2], 0)
		return
	}
	x := [3]float64{g[2], g[0], g[1]}
	coulomb.Project(&x, mu)
	g[0], g[1], g[2] = x[1], x[2], x[0]
}

// bruteForceSAP solves SAP's dual (eq. 22), min ½γᵀ(W + R)γ + rᵀγ over
// γ ∈ F with W = J A⁻¹ Jᵀ and r = J v* − v̂, by accelerated projected
// gradient (FISTA with restarts) run until the natural-map residual stops
// at round-off, and returns v = v* + A⁻¹Jᵀγ and γ. It shares nothing with
// the interior-point method but the cone projection.
func bruteForceSAP(t *testing.T, p *SAP) (v, gamma []float64, iters int) {
	t.Helper()
	nv, m := p.A.SymmetricDim(), 3*len(p.Mu)
	var ch mat.Cholesky
	if !ch.Factorize(p.A) {
		t.Fatal("A not positive definite")
	}
	var ainvJt mat.Dense
	if err := ch.SolveTo(&ainvJt, p.J.T()); err != nil {
		t.Fatal(err)
	}
	g := mat.NewSymDense(m, nil)
	var w mat.Dense
	w.Mul(p.J, &ainvJt)
	for i := range m {
		for j := i; j < m; j++ {
			g.SetSym(i, j, (w.At(i, j)+w.At(j, i))/2)
		}
		g.SetSym(i, i, g.At(i, i)+p.R[i])
	}
	var eig mat.EigenSym
	eig.Factorize(g, false)
	vals := eig.Values(nil)
	step := 1 / vals[len(vals)-1]
	r := make([]float64, m)
	for k := range m {
		r[k] = mat.Dot(p.J.RowView(k), mat.NewVecDense(nv, p.VStar)) - p.VHat[k]
	}
	gam, y, prev, grad := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	tk := 1.0
	gradAt := func(x []float64) {
		gv := mat.NewVecDense(m, grad)
		gv.MulVec(g, mat.NewVecDense(m, x))
		floats.Add(grad, r)
	}
	residual := func() float64 {
		gradAt(gam)
		e := 0.0
		for i := range p.Mu {
			d := make([]float64, 3)
			for j := range 3 {
				d[j] = gam[3*i+j] - grad[3*i+j]
			}
			projectF(d, p.Mu[i])
			for j := range 3 {
				e = max(e, math.Abs(gam[3*i+j]-d[j]))
			}
		}
		return e
	}
	scale := 1 + floats.Norm(r, math.Inf(1))
	for iters = 1; iters < 500000; iters++ {
		copy(prev, gam)
		gradAt(y)
		for k := range m {
			gam[k] = y[k] - step*grad[k]
		}
		for i, mu := range p.Mu {
			projectF(gam[3*i:3*i+3], mu)
		}
		tn := (1 + math.Sqrt(1+4*tk*tk)) / 2
		// Restart when the step direction turns against the last one.
		if dot := floats.Dot(floats.SubTo(make([]float64, m), y, gam), floats.SubTo(make([]float64, m), gam, prev)); dot > 0 {
			tn = 1
			copy(y, gam)
		} else {
			for k := range m {
				y[k] = gam[k] + (tk-1)/tn*(gam[k]-prev[k])
			}
		}
		tk = tn
		if iters%200 == 0 && residual() <= 1e-15*scale {
			break
		}
	}
	v = append([]float64(nil), p.VStar...)
	var dv mat.VecDense
	dv.MulVec(&ainvJt, mat.NewVecDense(m, gam))
	floats.Add(v, dv.RawVector().Data)
	return v, gam, iters
}

// randomSAP returns a small random SAP problem: A = FᵀF + I, J random,
// R between 5% and 50% of the Delassus diagonal, μ ∈ {0, 0.2, 0.8}.
func randomSAP(rng *rand.Rand, nv, nc int) *SAP {
	f := mat.NewDense(nv, nv, nil)
	for i := range nv {
		for j := range nv {
			f.Set(i, j, rng.NormFloat64())
		}
	}
	a := mat.NewSymDense(nv, nil)
	a.SymOuterK(1, f)
	for i := range nv {
		a.SetSym(i, i, a.At(i, i)+1)
	}
	j := mat.NewDense(3*nc, nv, nil)
	for r := range 3 * nc {
		for c := range nv {
			j.Set(r, c, rng.NormFloat64())
		}
	}
	p := &SAP{A: a, J: j, VStar: make([]float64, nv), R: make([]float64, 3*nc), VHat: make([]float64, 3*nc), Mu: make([]float64, nc)}
	for i := range nv {
		p.VStar[i] = rng.NormFloat64()
	}
	var ch mat.Cholesky
	ch.Factorize(a)
	for k := range 3 * nc {
		var x mat.VecDense
		ch.SolveVecTo(&x, j.RowView(k))
		wkk := mat.Dot(j.RowView(k), &x)
		p.R[k] = (0.05 + 0.45*rng.Float64()) * wkk
		p.VHat[k] = rng.NormFloat64()
	}
	for i := range nc {
		p.Mu[i] = []float64{0, 0.2, 0.8}[rng.IntN(3)]
	}
	return p
}

// TestSAPBruteForce compares the interior-point solution of SAP's primal
// with a brute-force solution of its dual on small random problems.
func TestSAPBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	s := NewSAPSolver()
	var modes [3]int
	worst := 0.0
	for trial := range 40 {
		nv, nc := 3+rng.IntN(4), 1+rng.IntN(3)
		p := randomSAP(rng, nv, nc)
		sol, err := s.Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != Solved {
			t.Fatalf("trial %d: status %v (%+v)", trial, sol.Status, sol.Stats)
		}
		v, g, _ := bruteForceSAP(t, p)
		e := 0.0
		for i := range v {
			e = max(e, math.Abs(sol.V[i]-v[i])/(1+math.Abs(v[i])))
		}
		for k := range g {
			e = max(e, math.Abs(sol.Gamma[k]-g[k])/(1+floats.Norm(g, math.Inf(1))))
		}
		worst = max(worst, e)
		if e > 1e-9 {
			t.Errorf("trial %d (nv %d, nc %d): IPM and brute force differ by %.1e (v %v vs %v)", trial, nv, nc, e, sol.V, v)
		}
		for i, mu := range p.Mu {
			modes[contactMode(g[3*i:3*i+3], mu)]++
		}
	}
	t.Logf("40 problems, contacts separating/sticking/sliding %v: worst relative difference %.1e", modes, worst)
	if modes[1] == 0 || modes[2] == 0 {
		t.Errorf("modes %v: the sample misses sticking or sliding contacts", modes)
	}
}

// contactMode returns 0 (separating, γ = 0), 1 (sticking, inside the
// cone) or 2 (sliding, on its boundary).
func contactMode(g []float64, mu float64) int {
	gt := math.Hypot(g[0], g[1])
	switch {
	case g[2] <= 1e-12:
		return 0
	case mu == 0 || gt < mu*g[2]*(1-1e-7):
		return 1
	}
	return 2
}

// TestParticleCone solves a point mass on a plane with the rigid convex
// contact model (R = 0): v is the Euclidean projection of v* onto
// F* = {v_n ≥ μ‖v_t‖} (M = mI, J = I in the contact frame), which sticks
// (v = 0) when the push is below μ m g and glides otherwise.
func TestParticleCone(t *testing.T) {
	const m, g, h, mu = 2.0, 9.81, 0.01, 0.5
	for _, push := range []float64{0, 3, 9.81, 12, 40} {
		vstar := []float64{push * h / m, 0.3 * push * h / m, -g * h}
		a := mat.NewSymDense(3, []float64{m, 0, 0, 0, m, 0, 0, 0, m})
		j := mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
		p := &SAP{A: a, J: j, VStar: vstar, R: make([]float64, 3), VHat: make([]float64, 3), Mu: []float64{mu}}
		sol, err := NewSAPSolver().Solve(p)
		if err != nil || sol.Status != Solved {
			t.Fatalf("push %v: %v %v", push, err, sol.Status)
		}
		// Closed form: project (n, t) = (v*_z, v*_x, v*_y) onto {‖t‖ ≤ n/μ}.
		x := [3]float64{vstar[2], vstar[0], vstar[1]}
		coulomb.Project(&x, 1/mu)
		want := []float64{x[1], x[2], x[0]}
		if !near(sol.V, want, 1e-12) {
			t.Errorf("push %v: v = %v, want %v", push, sol.V, want)
		}
		ft := math.Hypot(push, 0.3*push)
		stick := ft < mu*m*g
		if got := floats.Norm(sol.V, 2) < 1e-12; got != stick {
			t.Errorf("push %v (tangential %v vs μmg %v): sticking %v", push, ft, mu*m*g, got)
		}
		// Momentum: m (v − v*) = γ.
		for k := range 3 {
			if d := m*(sol.V[k]-vstar[k]) - sol.Gamma[k]; math.Abs(d) > 1e-12 {
				t.Errorf("push %v: momentum balance off by %v", push, d)
			}
		}
	}
}

// boxOnPlane returns the rigid convex contact problem of a box (half sizes
// a, b, c, mass m) resting on the plane z = 0 on its four bottom corners,
// pushed along x at the height of its centre of mass for one step h (the
// fixtures scene, SAP's row order).
func boxOnPlane(a, b, c, m, mu, push, h float64) *SAP {
	f := fixtures.BoxOnPlane(a, b, c, m, mu, push, h)
	nr, _ := f.J.Dims()
	return &SAP{A: f.A, J: f.SAPOrder(), VStar: f.VStar, R: make([]float64, nr), VHat: make([]float64, nr), Mu: f.Mu}
}

// TestBoxOnPlane solves a box on a plane with four corner contacts and the
// true friction cone, rigid (R = 0): below μ m g of push it sticks (v = 0
// and the impulses balance gravity and the push); above, it slides and
// every contact glides on the boundary of F* (u_n = μ‖u_t‖, the convex
// relaxation's lift) with impulses on the boundary of F opposing the slip.
func TestBoxOnPlane(t *testing.T) {
	const a, b, c, m, mu, h = 0.2, 0.1, 0.05, 3.0, 0.4, 0.01
	for _, push := range []float64{5, 11, 20, 60} {
		p := boxOnPlane(a, b, c, m, mu, push, h)
		sol, err := NewSAPSolver().Solve(p)
		if err != nil || sol.Status != Solved {
			t.Fatalf("push %v: %v %v", push, err, sol.Status)
		}
		var fx, fz float64
		for i := range 4 {
			fx += sol.Gamma[3*i]
			fz += sol.Gamma[3*i+2]
		}
		sticking := push < mu*m*9.81
		vmax := floats.Norm(sol.V, math.Inf(1))
		t.Logf("push %v N (μmg = %.2f): |v|∞ = %.2e, Σγ_x = %.4f, Σγ_z = %.4f, %d iterations, polished %v", push, mu*m*9.81, vmax, fx, fz, sol.Stats.Iterations, sol.Stats.Polished)
		if sticking {
			if vmax > 1e-12 || math.Abs(fx+push*h) > 1e-12 || math.Abs(fz-m*9.81*h) > 1e-12 {
				t.Errorf("push %v: sticking box moves (v = %v) or impulses (%v, %v) do not balance", push, sol.V, fx, fz)
			}
			continue
		}
		for i := range 4 {
			u, g := sol.Vc[3*i:3*i+3], sol.Gamma[3*i:3*i+3]
			ut, gt := math.Hypot(u[0], u[1]), math.Hypot(g[0], g[1])
			if g[2] > 1e-9 && (math.Abs(u[2]-mu*ut) > 1e-10 || math.Abs(gt-mu*g[2]) > 1e-10 || u[0]*g[0]+u[1]*g[1] > 1e-12) {
				t.Errorf("push %v, contact %d: u = %v, γ = %v: not gliding against the slip", push, i, u, g)
			}
		}
		if sol.V[3] <= 0 || fx > 0 || fx < -mu*fz*(1+1e-12) {
			t.Errorf("push %v: v_x = %v, friction %v (μ Σγ_z = %v)", push, sol.V[3], fx, mu*fz)
		}
	}
}

// TestSAPBadInput checks the errors naming the field.
func TestSAPBadInput(t *testing.T) {
	good := func() *SAP { return boxOnPlane(0.2, 0.1, 0.05, 3, 0.4, 5, 0.01) }
	cases := map[string]func(p *SAP){
		"J is 12×5":           func(p *SAP) { p.J = mat.NewDense(12, 5, nil) },
		"μ[2] = -0.1":         func(p *SAP) { p.Mu[2] = -0.1 },
		"R[4] = NaN":          func(p *SAP) { p.R[4] = math.NaN() },
		"lengths v* 5":        func(p *SAP) { p.VStar = p.VStar[:5] },
		"q[0] = NaN":          func(p *SAP) { p.VStar[0] = math.NaN() },
		"A or J is nil":       func(p *SAP) { p.A = nil },
		"b[1] = -Inf":         func(p *SAP) { p.VHat[0] = math.Inf(1) },
		"R[0] = +Inf":         func(p *SAP) { p.R[0] = math.Inf(1) },
		"μ[0] = +Inf":         func(p *SAP) { p.Mu[0] = math.Inf(1) },
		"lengths v* 6, R 11,": func(p *SAP) { p.R = p.R[:11] },
	}
	for want, mutate := range cases {
		p := good()
		mutate(p)
		_, err := NewSAPSolver().Solve(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v", want, err)
		}
	}
}

// TestSAPNoAllocation checks that a second solve of a problem of the same
// shape allocates nothing.
func TestSAPNoAllocation(t *testing.T) {
	p := boxOnPlane(0.2, 0.1, 0.05, 3, 0.4, 20, 0.01)
	s := NewSAPSolver()
	if _, err := s.Solve(p); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(5, func() { s.Solve(p) }); a != 0 {
		t.Errorf("SAPSolver.Solve allocates %v times per run once warmed up", a)
	}
}
