package lcp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKKT compares the §0.6 solve with a dense LU solve of the whole
// saddle-point system.
func TestKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var k KKT
	for range 20 {
		n, p := 3+rng.IntN(8), rng.IntN(4)
		p = min(p, n)
		m := randomSPD(rng, n, 0.3)
		var g *mat.Dense
		if p > 0 {
			g = randomDense(rng, p, n)
		}
		if err := k.Factor(m, g); err != nil {
			t.Fatal(err)
		}
		b, gv := randomVec(rng, n), randomVec(rng, p)
		v, lam := make([]float64, n), make([]float64, p)
		k.Solve(v, lam, b, gv)
		full := mat.NewDense(n+p, n+p, nil)
		for i := range n {
			for j := range n {
				full.Set(i, j, m.At(i, j))
			}
		}
		for i := range p {
			for j := range n {
				full.Set(n+i, j, g.At(i, j))
				full.Set(j, n+i, -g.At(i, j))
			}
		}
		var sol mat.VecDense
		if err := sol.SolveVec(full, mat.NewVecDense(n+p, append(append([]float64(nil), b...), gv...))); err != nil {
			t.Fatal(err)
		}
		want := sol.RawVector().Data
		if d := max(maxDiff(v, want[:n]), maxDiff(lam, want[n:])); d > 1e-10*(1+maxAbs(want)) {
			t.Errorf("n %d, p %d: KKT differs from LU by %.1e", n, p, d)
		}
	}
	if err := k.Factor(randomSPD(rng, 3, 1), mat.NewDense(2, 3, []float64{1, 2, 3, 2, 4, 6})); err == nil {
		t.Error("dependent rows of G accepted")
	}
}

// solveKKTActive solves the MLCP with its active set S = {z_i > 0} fixed:
// the KKT system with constraints [G; N_S] x = (g, n_S), as §0.6.
func solveKKTActive(t *testing.T, p *MLCP, z []float64) (x, lam, zs []float64) {
	t.Helper()
	var rows [][]float64
	var rhs []float64
	np := 0
	if p.G != nil {
		np, _ = p.G.Dims()
		for i := range np {
			rows = append(rows, mat.Row(nil, i, p.G))
			rhs = append(rhs, p.Gv[i])
		}
	}
	var act []int
	for i, v := range z {
		if v > 0 {
			act = append(act, i)
			rows = append(rows, mat.Row(nil, i, p.N))
			rhs = append(rhs, p.Nv[i])
		}
	}
	n := p.M.SymmetricDim()
	var k KKT
	var g *mat.Dense
	if len(rows) > 0 {
		g = mat.NewDense(len(rows), n, nil)
		for i, r := range rows {
			g.SetRow(i, r)
		}
	}
	if err := k.Factor(p.M, g); err != nil {
		t.Fatal(err)
	}
	x, all := make([]float64, n), make([]float64, len(rows))
	k.Solve(x, all, p.F, rhs)
	zs = make([]float64, len(z))
	for j, i := range act {
		zs[i] = all[np+j]
	}
	return x, all[:np], zs
}

// checkMLCP verifies the MLCP conditions at a solution.
func checkMLCP(t *testing.T, name string, p *MLCP, s *MLCPSolution) {
	t.Helper()
	n := p.M.SymmetricDim()
	r := make([]float64, n) // M x − Gᵀλ − Nᵀz − f
	for i := range n {
		v := -p.F[i]
		for j := range n {
			v += p.M.At(i, j) * s.X[j]
		}
		if p.G != nil {
			for k, l := range s.Lambda {
				v -= p.G.At(k, i) * l
			}
		}
		for k, z := range s.Z {
			v -= p.N.At(k, i) * z
		}
		r[i] = v
	}
	if e := maxAbs(r); e > 1e-11*(1+maxAbs(p.F)) {
		t.Errorf("%s: momentum residual %.1e", name, e)
	}
	for i, z := range s.Z {
		w := -p.Nv[i]
		for j := range n {
			w += p.N.At(i, j) * s.X[j]
		}
		if z < 0 || w < -1e-11 || z*s.W[i] != 0 || math.Abs(w-s.W[i]) > 1e-11 {
			t.Errorf("%s: contact %d: z = %v, w = %v (reduced LCP's w %v)", name, i, z, w, s.W[i])
		}
	}
}

// TestMLCPRandom solves random mixed LCPs by both methods and checks them
// against each other and against the KKT solve on the active set.
func TestMLCPRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	var s MLCPSolver
	worst := 0.0
	for trial := range 30 {
		n := 4 + rng.IntN(6)
		np, nc := rng.IntN(3), 1+rng.IntN(n-2)
		p := &MLCP{M: randomSPD(rng, n, 0.5), N: randomDense(rng, nc, n), F: randomVec(rng, n), Nv: randomVec(rng, nc)}
		if np > 0 {
			p.G, p.Gv = randomDense(rng, np, n), randomVec(rng, np)
		}
		var sols [2]*MLCPSolution
		for k, method := range []Method{OnDemand, LemkeMethod} {
			sol, err := s.Solve(p, method)
			if err != nil {
				t.Fatal(err)
			}
			if sol.LCP.Status != Solved {
				t.Fatalf("trial %d, method %d: %v", trial, method, sol.LCP.Status)
			}
			checkMLCP(t, "random", p, sol)
			c := *sol
			c.X, c.Z = append([]float64(nil), sol.X...), append([]float64(nil), sol.Z...)
			sols[k] = &c
		}
		if d := max(maxDiff(sols[0].X, sols[1].X), maxDiff(sols[0].Z, sols[1].Z)); d > 1e-10 {
			t.Errorf("trial %d: on-demand and Lemke differ by %.1e", trial, d)
		}
		x, _, zs := solveKKTActive(t, p, sols[0].Z)
		d := max(maxDiff(x, sols[0].X), maxDiff(zs, sols[0].Z)) / (1 + maxAbs(x))
		worst = max(worst, d)
		if d > 1e-10 {
			t.Errorf("trial %d: MLCP and KKT on the active set differ by %.1e", trial, d)
		}
	}
	t.Logf("30 random MLCPs: worst difference from the active-set KKT solution %.1e", worst)
}

// chainMLCP is a planar chain of two point masses pinned at the origin by
// rigid links (bilateral, velocity level) whose tip rests on a stop
// y ≥ y_tip (unilateral), turning rigidly at ω about the origin, one step h
// of gravity: M (v − v₀) = h f_g + Gᵀλ + Nᵀz, G v = 0, N v ≥ 0.
func chainMLCP(theta1, theta2, omega, h float64) *MLCP {
	const m1, m2, l1, l2, g = 1.0, 2.0, 0.7, 0.5, 9.81
	p1 := [2]float64{l1 * math.Cos(theta1), l1 * math.Sin(theta1)}
	p2 := [2]float64{p1[0] + l2*math.Cos(theta2), p1[1] + l2*math.Sin(theta2)}
	d := [2]float64{p2[0] - p1[0], p2[1] - p1[1]}
	mm := mat.NewSymDense(4, nil)
	for i, v := range []float64{m1, m1, m2, m2} {
		mm.SetSym(i, i, v)
	}
	gm := mat.NewDense(2, 4, []float64{p1[0], p1[1], 0, 0, -d[0], -d[1], d[0], d[1]})
	nm := mat.NewDense(1, 4, []float64{0, 0, 0, 1})
	// M v₀ + h f_g with v₀ = ω × p.
	f := []float64{-m1 * omega * p1[1], m1 * (omega*p1[0] - g*h), -m2 * omega * p2[1], m2 * (omega*p2[0] - g*h)}
	return &MLCP{M: mm, G: gm, N: nm, F: f, Gv: []float64{0, 0}, Nv: []float64{0}}
}

// TestChainOnStop solves the chain with its tip on the stop: at rest the
// stop pushes (z > 0) against gravity, and the MLCP solution equals the KKT
// solution with the stop as an equality to 1e-10; turning up fast enough,
// the tip leaves the stop (z = 0) and the solution is the KKT solution of
// the links alone.
func TestChainOnStop(t *testing.T) {
	var s MLCPSolver
	for _, c := range []struct {
		th1, th2, omega float64
		active          bool
	}{{-0.3, 0.2, 0, true}, {-1.0, 0.1, 0, true}, {-0.3, 0.2, 2, false}, {-0.3, 0.2, -2, true}} {
		p := chainMLCP(c.th1, c.th2, c.omega, 0.01)
		for _, method := range []Method{OnDemand, LemkeMethod} {
			sol, err := s.Solve(p, method)
			if err != nil || sol.LCP.Status != Solved {
				t.Fatalf("%v %v", err, sol.LCP.Status)
			}
			checkMLCP(t, "chain", p, sol)
			if (sol.Z[0] > 0) != c.active {
				t.Errorf("θ = (%v, %v), ω = %v: z = %v, want active %v", c.th1, c.th2, c.omega, sol.Z[0], c.active)
			}
			x, lam, zs := solveKKTActive(t, p, sol.Z)
			if d := max(maxDiff(x, sol.X), maxDiff(lam, sol.Lambda), maxDiff(zs, sol.Z)); d > 1e-10 {
				t.Errorf("θ = (%v, %v): MLCP and KKT differ by %.1e", c.th1, c.th2, d)
			}
		}
	}
}
