package pgs

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/opt/lcp"
	"github.com/stiction-sim/stiction/solver"
	"gonum.org/v1/gonum/mat"
)

// fourBar is a planar four-bar linkage in joint coordinates θ = (θ1, θ2,
// θ3) of an open chain of three links from the ground pivot at the origin
// whose tip is closed onto the ground pivot B = (1, 0) (two bilateral
// rows), with a limit θ1 ≥ θ1_min on the crank (one unilateral row), at
// the limit, moving with crank rate ω (along the one motion the loop
// allows; ω > 0 leaves the limit): one step h of gravity. Point masses sit at the crank's
// end, the coupler's end and the rocker's middle. M(θ) = Σ m_k J_kᵀJ_k,
// f = h Σ J_kᵀ m_k g, G = J_tip, N = e_1: the MLCP of notes §0.7
// (M v − Gᵀλ − Nᵀz = f, G v = 0, 0 ≤ z ⊥ v1 ≥ 0).
func fourBar(h, omega float64) *lcp.MLCP {
	const g = 9.81
	th1 := 1.2
	p1 := [2]float64{0.4 * math.Cos(th1), 0.4 * math.Sin(th1)}
	p2 := [2]float64{0.9, 0.6}
	b := [2]float64{1, 0}
	mid := [2]float64{(p2[0] + b[0]) / 2, (p2[1] + b[1]) / 2}
	// Jacobian of a point q on link k: columns j ≤ k, ẑ × (q − joint_j).
	joints := [3][2]float64{{0, 0}, p1, p2}
	jac := func(q [2]float64, k int) *mat.Dense {
		j := mat.NewDense(2, 3, nil)
		for c := 0; c <= k; c++ {
			j.Set(0, c, -(q[1] - joints[c][1]))
			j.Set(1, c, q[0]-joints[c][0])
		}
		return j
	}
	m := mat.NewSymDense(3, nil)
	f := make([]float64, 3)
	for _, pm := range []struct {
		q    [2]float64
		k    int
		mass float64
	}{{p1, 0, 1}, {p2, 1, 2}, {mid, 2, 0.5}} {
		j := jac(pm.q, pm.k)
		var jtj mat.SymDense
		jtj.SymOuterK(pm.mass, j.T())
		m.AddSym(m, &jtj)
		for c := range 3 {
			f[c] -= h * pm.mass * g * j.At(1, c)
		}
	}
	gt := jac(b, 2)
	u := [3]float64{ // the null space of G: the cross product of its rows
		gt.At(0, 1)*gt.At(1, 2) - gt.At(0, 2)*gt.At(1, 1),
		gt.At(0, 2)*gt.At(1, 0) - gt.At(0, 0)*gt.At(1, 2),
		gt.At(0, 0)*gt.At(1, 1) - gt.At(0, 1)*gt.At(1, 0),
	}
	for c := range 3 { // f += M v₀, v₀ = ω u/u₁
		for r := range 3 {
			f[r] += m.At(r, c) * omega * u[c] / u[0]
		}
	}
	return &lcp.MLCP{M: m, G: gt, N: mat.NewDense(1, 3, []float64{1, 0, 0}), F: f, Gv: []float64{0, 0}, Nv: []float64{0}}
}

// TestFourBarLimit: the four-bar on its crank limit, pressed onto it
// (ω = 0, −1: the limit pushes, z > 0) and leaving it (ω = 1: z = 0). The
// pivoting MLCP solution (both methods) equals the KKT solution (§0.6) on
// its active set (the loop closure, and the limit when it pushes) to 1e-10
// in v, λ and z, and PGS on the same problem as a solver.Problem
// (bilateral rows and a [0, ∞) interval, R = 0.01·diag(W), with the
// proximal-point shift v̂ ← Rγ between solves, whose fixed point is the
// unregularized problem) converges to it to 1e-8.
func TestFourBarLimit(t *testing.T) {
	for _, omega := range []float64{0, -1, 1} {
		p := fourBar(0.01, omega)
		var s lcp.MLCPSolver
		var x, imp []float64
		for _, method := range []lcp.Method{lcp.OnDemand, lcp.LemkeMethod} {
			sol, err := s.Solve(p, method)
			if err != nil || sol.LCP.Status != lcp.Solved {
				t.Fatalf("ω = %v, method %d: %v %v", omega, method, err, sol.LCP.Status)
			}
			x, imp = append(x[:0], sol.X...), append(append(imp[:0], sol.Lambda...), sol.Z...)
		}
		if active := imp[2] > 0; active != (omega <= 0) {
			t.Fatalf("ω = %v: limit impulse z = %v", omega, imp[2])
		}
		v, lam := kktFourBar(t, p, imp[2] > 0)
		if d := max(maxDiff(v, x), maxDiff(lam, imp)); d > 1e-10*(1+maxAbs(v)+maxAbs(lam)) {
			t.Errorf("ω = %v: MLCP (v, λ, z) = %v, %v; KKT %v, %v (|Δ| = %.1e)", omega, x, imp, v, lam, d)
		}
		pv, pg := pgsFourBar(t, p)
		if d := max(maxDiff(pv, x), maxDiff(pg, imp)); d > 1e-8*(1+maxAbs(x)+maxAbs(imp)) {
			t.Errorf("ω = %v: PGS (v, γ) = %v, %v; MLCP %v, %v (|Δ| = %.1e)", omega, pv, pg, x, imp, d)
		}
		t.Logf("ω = %v: v_MLCP = %.4f, (λ, z) = %.4f; |KKT − MLCP|∞ = %.1e, |PGS − MLCP|∞ = %.1e",
			omega, x, imp, max(maxDiff(v, x), maxDiff(lam, imp)), max(maxDiff(pv, x), maxDiff(pg, imp)))
	}
}

// kktFourBar solves the KKT system with the loop closure and, when active,
// the limit as equalities; it returns v and (λ, z).
func kktFourBar(t *testing.T, p *lcp.MLCP, active bool) (v, imp []float64) {
	rows := mat.DenseCopyOf(p.G)
	if active {
		rows = mat.NewDense(3, 3, nil)
		rows.Stack(p.G, p.N)
	}
	nr, _ := rows.Dims()
	var k lcp.KKT
	if err := k.Factor(p.M, rows); err != nil {
		t.Fatal(err)
	}
	v, imp = make([]float64, 3), make([]float64, 3)
	k.Solve(v, imp[:nr], p.F, make([]float64, nr))
	return v, imp
}

// pgsFourBar solves the four-bar's MLCP as a solver.Problem with PGS and
// proximal-point passes, and returns v and the impulses (λ, z).
func pgsFourBar(t *testing.T, p *lcp.MLCP) (v, imp []float64) {
	var pr solver.Problem
	pr.Reset(3)
	pr.Cliques = append(pr.Cliques, solver.Clique{Offset: 0, Size: 3})
	var ch mat.Cholesky
	ch.Factorize(p.M)
	vstar := mat.NewVecDense(3, nil)
	ch.SolveVecTo(vstar, mat.NewVecDense(3, p.F))
	for i := range 3 {
		for j := range 3 {
			pr.A = append(pr.A, p.M.At(i, j))
		}
		pr.VStar[i], pr.MDiag[i] = vstar.AtVec(i), p.M.At(i, i)
	}
	rows := [][]float64{mat.Row(nil, 0, p.G), mat.Row(nil, 1, p.G), mat.Row(nil, 0, p.N)}
	c := pr.AddConstraint(solver.Bilateral, 2)
	copy(pr.AddJBlock(c, 0), append(append([]float64(nil), rows[0]...), rows[1]...))
	c = pr.AddConstraint(solver.Interval, 1, 0, math.Inf(1))
	copy(pr.AddJBlock(c, 0), rows[2])
	for r, row := range rows { // R = 0.01 × the Delassus diagonal J M⁻¹ Jᵀ
		y := mat.NewVecDense(3, nil)
		ch.SolveVecTo(y, mat.NewVecDense(3, row))
		pr.R[r] = 0.01 * mat.Dot(y, mat.NewVecDense(3, row))
	}
	g := NewGlobal()
	g.Settings.RelTolerance = 1e-13
	var res solver.Result
	var v0 []float64
	passes, sweeps := 0, 0
	for passes = 1; passes <= 200; passes++ {
		if err := g.Solve(&pr, v0, &res); err != nil {
			t.Fatal(err)
		}
		sweeps += res.Stats.Iterations
		shift := 0.0
		for r := range pr.VHat {
			d := pr.R[r] * res.Gamma[r]
			shift = max(shift, math.Abs(d-pr.VHat[r]))
			pr.VHat[r] = d // v̂ = v̂₀ + Rγ with v̂₀ = 0
		}
		v0 = append(v0[:0], res.V...)
		if shift < 1e-14 {
			break
		}
	}
	t.Logf("PGS: %d proximal passes, %d sweeps in all", passes, sweeps)
	return res.V, res.Gamma
}
