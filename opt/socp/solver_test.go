package socp

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestLP solves min −x₁ − x₂ s.t. x₁ + 2x₂ ≤ 4, 3x₁ + x₂ ≤ 6, x ≥ 0, whose
// optimum is the vertex (1.6, 1.2) with cost −2.8 and multipliers
// (0.4, 0.2) on the two constraints.
func TestLP(t *testing.T) {
	p := &Problem{
		Q:     []float64{-1, -1},
		A:     dense([]float64{1, 2}, []float64{3, 1}, []float64{-1, 0}, []float64{0, -1}),
		B:     []float64{4, 6, 0, 0},
		Cones: Cones{NonNeg: 4},
	}
	res := solveOK(t, "LP", p, 1e-9)
	if !near(res.X, []float64{1.6, 1.2}, 1e-9) || !near(res.Z, []float64{0.4, 0.2, 0, 0}, 1e-9) {
		t.Errorf("x = %v, z = %v", res.X, res.Z)
	}
	if math.Abs(res.Stats.PrimalCost+2.8) > 1e-9 {
		t.Errorf("cost %v, want −2.8", res.Stats.PrimalCost)
	}
	t.Logf("LP: %d iterations, gap %.1e", res.Stats.Iterations, res.Stats.Gap)
}

// TestStandardFormLP solves an LP in standard form (Ax = b, x ≥ 0): min cᵀx
// over the simplex Σx = 1, x ≥ 0, whose optimum is the vertex of the
// smallest c_i, with the equality's multiplier −min c.
func TestStandardFormLP(t *testing.T) {
	c := []float64{3, -1, 2, -0.5, 4}
	n := len(c)
	a := mat.NewDense(1+n, n, nil)
	b := make([]float64, 1+n)
	for j := range n {
		a.Set(0, j, 1)
		a.Set(1+j, j, -1)
	}
	b[0] = 1
	p := &Problem{Q: c, A: a, B: b, Cones: Cones{Zero: 1, NonNeg: n}}
	res := solveOK(t, "simplex LP", p, 1e-9)
	if !near(res.X, []float64{0, 1, 0, 0, 0}, 1e-9) || math.Abs(res.Z[0]-1) > 1e-9 {
		t.Errorf("x = %v, z₀ = %v (want e₂, 1)", res.X, res.Z[0])
	}
}

// TestQPs solves QPs with closed-form solutions: the projection of a onto
// the orthant (max(a, 0)) and the minimum-norm point of the hyperplane
// Σx = 1 (x = 1/n).
func TestQPs(t *testing.T) {
	a := []float64{1.5, -2, 0.3, -0.01, 0}
	n := len(a)
	neg := mat.NewDense(n, n, nil)
	for i := range n {
		neg.Set(i, i, -1)
	}
	q := make([]float64, n)
	floats.ScaleTo(q, -1, a)
	p := &Problem{P: identity(n), Q: q, A: neg, B: make([]float64, n), Cones: Cones{NonNeg: n}}
	res := solveOK(t, "orthant projection", p, 1e-9)
	want := make([]float64, n)
	for i, v := range a {
		want[i] = max(v, 0)
	}
	if !near(res.X, want, 1e-9) {
		t.Errorf("P₊(a) = %v, want %v", res.X, want)
	}
	ones := mat.NewDense(1, n, nil)
	for j := range n {
		ones.Set(0, j, 1)
	}
	p = &Problem{P: identity(n), Q: make([]float64, n), A: ones, B: []float64{1}, Cones: Cones{Zero: 1}}
	res = solveOK(t, "min-norm on a hyperplane", p, 1e-9)
	for _, v := range res.X {
		if math.Abs(v-1/float64(n)) > 1e-12 {
			t.Fatalf("x = %v, want 1/%d", res.X, n)
		}
	}
}

func identity(n int) *mat.SymDense {
	p := mat.NewSymDense(n, nil)
	for i := range n {
		p.SetSym(i, i, 1)
	}
	return p
}

// TestSOCPs solves SOCPs with closed forms: min cᵀx s.t. ‖x‖ ≤ r gives
// x = −r c/‖c‖; the projection of a point onto a second-order cone;
// least squares as min t s.t. ‖Fx − g‖ ≤ t.
func TestSOCPs(t *testing.T) {
	// min cᵀx, ‖x‖ ≤ 2: (2, x) ∈ Q⁴ ⇔ s = (2, x) = b − Ax with A = [0; −I].
	c := []float64{1, -2, 2}
	a := mat.NewDense(4, 3, nil)
	for i := range 3 {
		a.Set(1+i, i, -1)
	}
	p := &Problem{Q: c, A: a, B: []float64{2, 0, 0, 0}, Cones: Cones{SOC: []int{4}}}
	res := solveOK(t, "linear cost on a ball", p, 1e-9)
	want := []float64{-2.0 / 3, 4.0 / 3, -4.0 / 3}
	if !near(res.X, want, 1e-9) {
		t.Errorf("x = %v, want %v", res.X, want)
	}

	// Projection of y onto Q³ (Euclidean): min ½‖x − y‖², x ∈ Q³.
	for _, y := range [][]float64{{0.5, 2, -1}, {3, 1, 1}, {-3, 1, 0.5}} {
		neg := mat.NewDense(3, 3, nil)
		for i := range 3 {
			neg.Set(i, i, -1)
		}
		q := []float64{-y[0], -y[1], -y[2]}
		p := &Problem{P: identity(3), Q: q, A: neg, B: make([]float64, 3), Cones: Cones{SOC: []int{3}}}
		res := solveOK(t, "SOC projection", p, 1e-9)
		if want := projectSOC(y); !near(res.X, want, 1e-9) {
			t.Errorf("P_Q(%v) = %v, want %v", y, res.X, want)
		}
	}

	// Least squares: min t s.t. (t, Fx − g) ∈ Q, variables (t, x).
	f := dense([]float64{1, 2}, []float64{3, 4}, []float64{5, 7}, []float64{-1, 1})
	g := []float64{1, -1, 2, 0.5}
	aq := mat.NewDense(5, 3, nil)
	aq.Set(0, 0, -1)
	for i := range 4 {
		for j := range 2 {
			aq.Set(1+i, 1+j, -f.At(i, j))
		}
	}
	bq := []float64{0, -g[0], -g[1], -g[2], -g[3]}
	p = &Problem{Q: []float64{1, 0, 0}, A: aq, B: bq, Cones: Cones{SOC: []int{5}}}
	res = solveOK(t, "least squares", p, 1e-9)
	var ls mat.VecDense
	if err := ls.SolveVec(f, mat.NewVecDense(4, g)); err != nil {
		t.Fatal(err)
	}
	if !near(res.X[1:], ls.RawVector().Data, 1e-8) {
		t.Errorf("x = %v, least squares %v", res.X[1:], ls.RawVector().Data)
	}
}

// projectSOC is the closed-form Euclidean projection onto Q = {‖x₁‖ ≤ x₀}.
func projectSOC(y []float64) []float64 {
	t, u := y[0], floats.Norm(y[1:], 2)
	switch {
	case u <= t:
		return append([]float64(nil), y...)
	case u <= -t:
		return make([]float64, len(y))
	}
	a := (t + u) / 2
	out := []float64{a}
	for _, v := range y[1:] {
		out = append(out, a*v/u)
	}
	return out
}

// TestRandomKnownSolution builds random strictly complementary problems
// around a chosen primal-dual solution (x*, s*, z*): s* and z* on
// complementary faces of K, b = Ax* + s*, q = −Px* − Aᵀz* with P ≻ 0, so
// that x* is the unique solution. The solver must find it.
func TestRandomKnownSolution(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 30 {
		c := Cones{Zero: rng.IntN(3), NonNeg: 2 + rng.IntN(6), SOC: []int{1 + rng.IntN(4), 2 + rng.IntN(4), 3}}
		n, m := 3+rng.IntN(10), c.Dim()
		p, xs := randomProblem(rng, c, n, m, trial%3 != 0)
		res := solveOK(t, "random", p, 1e-9)
		if p.P != nil && !near(res.X, xs, 1e-8) {
			t.Errorf("trial %d: x = %v, want %v", trial, res.X, xs)
		}
	}
}

// randomProblem returns a problem of which x* (returned) is a solution,
// strictly complementary: the unique one when quadratic (P ≻ 0); an LP or
// SOCP may have others, and the caller then checks the KKT conditions only.
func randomProblem(rng *rand.Rand, c Cones, n, m int, quadratic bool) (*Problem, []float64) {
	a := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range n {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = rng.NormFloat64()
	}
	s, z := make([]float64, m), make([]float64, m)
	for i := range c.Zero {
		z[i] = rng.NormFloat64()
	}
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		if rng.IntN(2) == 0 {
			s[i] = rng.Float64() + 0.1
		} else {
			z[i] = rng.Float64() + 0.1
		}
	}
	r := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		complementaryPair(rng, s[r:r+k], z[r:r+k])
		r += k
	}
	b := make([]float64, m)
	for i := range m {
		b[i] = mat.Dot(a.RowView(i), mat.NewVecDense(n, xs)) + s[i]
	}
	var pm *mat.SymDense
	q := make([]float64, n)
	if quadratic {
		f := mat.NewDense(n, n, nil)
		for i := range n {
			for j := range n {
				f.Set(i, j, rng.NormFloat64())
			}
		}
		pm = mat.NewSymDense(n, nil)
		pm.SymOuterK(1, f)
		for i := range n {
			pm.SetSym(i, i, pm.At(i, i)+0.5)
		}
		var px mat.VecDense
		px.MulVec(pm, mat.NewVecDense(n, xs))
		floats.Sub(q, px.RawVector().Data)
	}
	var atz mat.VecDense
	atz.MulVec(a.T(), mat.NewVecDense(m, z))
	floats.Sub(q, atz.RawVector().Data)
	return &Problem{P: pm, Q: q, A: a, B: b, Cones: c}, xs
}

// complementaryPair sets s, z ∈ Q^k with sᵀz = 0, strictly complementary:
// one in the interior and the other zero, or both on the boundary along
// opposite rays.
func complementaryPair(rng *rand.Rand, s, z []float64) {
	k := len(s)
	clear(s)
	clear(z)
	mode := rng.IntN(3)
	if forceMode >= 0 {
		mode = forceMode
	}
	switch {
	case mode == 0:
		s[0] = 1 + rng.Float64()
		for i := 1; i < k; i++ {
			s[i] = 0.3 * rng.NormFloat64() / float64(k)
		}
	case mode == 1 || k == 1:
		z[0] = 1 + rng.Float64()
		for i := 1; i < k; i++ {
			z[i] = 0.3 * rng.NormFloat64() / float64(k)
		}
	default:
		u := make([]float64, k-1)
		for i := range u {
			u[i] = rng.NormFloat64()
		}
		floats.Scale(1/floats.Norm(u, 2), u)
		a, b := 0.5+rng.Float64(), 0.5+rng.Float64()
		s[0], z[0] = a, b
		for i := range u {
			s[1+i], z[1+i] = a*u[i], -b*u[i]
		}
	}
}

// TestInfeasible checks the certificates of a primal infeasible LP (x ≥ 1,
// x ≤ 0), a primal infeasible SOCP (‖(x, y)‖ ≤ t, t ≤ −1) and an unbounded
// LP (min −x, x ≥ 0) and QP (min ½x₁² − x₂, x₂ ≥ 0).
func TestInfeasible(t *testing.T) {
	cases := []struct {
		name string
		p    *Problem
		want Status
	}{
		{"LP x ≥ 1, x ≤ 0", &Problem{Q: []float64{1}, A: dense([]float64{-1}, []float64{1}), B: []float64{-1, 0}, Cones: Cones{NonNeg: 2}}, PrimalInfeasible},
		{"SOCP t ≤ −1", &Problem{Q: []float64{0, 1, 1},
			A: dense([]float64{-1, 0, 0}, []float64{0, -1, 0}, []float64{0, 0, -1}, []float64{1, 0, 0}),
			B: []float64{0, 0, 0, -1}, Cones: Cones{NonNeg: 0, SOC: []int{3, 1}}}, PrimalInfeasible},
		{"LP min −x", &Problem{Q: []float64{-1}, A: dense([]float64{-1}), B: []float64{0}, Cones: Cones{NonNeg: 1}}, DualInfeasible},
		{"QP min ½x₁² − x₂", &Problem{P: mat.NewSymDense(2, []float64{1, 0, 0, 0}), Q: []float64{0, -1},
			A: dense([]float64{0, -1}), B: []float64{0}, Cones: Cones{NonNeg: 1}}, DualInfeasible},
	}
	for _, c := range cases {
		res, err := NewSolver().Solve(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.want {
			t.Errorf("%s: status %v, want %v (stats %+v)", c.name, res.Status, c.want, res.Stats)
			continue
		}
		t.Logf("%s: %v after %d iterations", c.name, res.Status, res.Stats.Iterations)
		checkCertificate(t, c.name, c.p, res)
	}
}

// checkCertificate verifies an infeasibility certificate directly.
func checkCertificate(t *testing.T, name string, p *Problem, res Result) {
	t.Helper()
	n, m := len(p.Q), p.Cones.Dim()
	switch res.Status {
	case PrimalInfeasible:
		atz := make([]float64, n)
		for i := range m {
			for j := range n {
				atz[j] += p.A.At(i, j) * res.Z[i]
			}
		}
		if bz := floats.Dot(p.B, res.Z); math.Abs(bz+1) > 1e-12 || floats.Norm(atz, math.Inf(1)) > 1e-9 || p.Cones.minEig(res.Z) < -1e-12 {
			t.Errorf("%s: certificate bᵀz = %v, ‖Aᵀz‖ = %v, z = %v", name, bz, floats.Norm(atz, math.Inf(1)), res.Z)
		}
	case DualInfeasible:
		if qx := floats.Dot(p.Q, res.X); math.Abs(qx+1) > 1e-12 || p.Cones.minEig(res.S) < -1e-12 {
			t.Errorf("%s: certificate qᵀx = %v, s = %v", name, qx, res.S)
		}
		for i := range m {
			ax := 0.0
			for j := range n {
				ax += p.A.At(i, j) * res.X[j]
			}
			if math.Abs(ax+res.S[i]) > 1e-9 {
				t.Errorf("%s: (Ax + s)[%d] = %v", name, i, ax+res.S[i])
			}
		}
	}
}

// TestBadInput checks that malformed problems give errors naming the field.
func TestBadInput(t *testing.T) {
	good := func() *Problem {
		return &Problem{Q: []float64{1, 1}, A: dense([]float64{-1, 0}, []float64{0, -1}), B: []float64{0, 0}, Cones: Cones{NonNeg: 2}}
	}
	cases := map[string]func(p *Problem){
		"A is 2×2, want 3×2": func(p *Problem) { p.Cones.NonNeg = 3; p.B = append(p.B, 0) },
		"b has length 1":     func(p *Problem) { p.B = p.B[:1] },
		"q[1] = NaN":         func(p *Problem) { p.Q[1] = math.NaN() },
		"A[1][0] = +Inf":     func(p *Problem) { p.A.Set(1, 0, math.Inf(1)) },
		"SOC[0] has dimension 0": func(p *Problem) {
			p.Cones = Cones{NonNeg: 2, SOC: []int{0}}
		},
		"P is 3×3": func(p *Problem) { p.P = identity(3) },
	}
	for want, mutate := range cases {
		p := good()
		mutate(p)
		_, err := NewSolver().Solve(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v", want, err)
		}
	}
	s := NewSolver()
	s.Settings.StepFraction = 1
	if _, err := s.Solve(good()); err == nil || !strings.Contains(err.Error(), "StepFraction") {
		t.Errorf("bad settings: %v", err)
	}
	s = NewSolver()
	s.Settings.MaxIter, s.Settings.Polish = 1, false
	res, err := s.Solve(good())
	if err != nil || res.Status != MaxIterations || errors.Is(err, nil) != true {
		t.Errorf("MaxIter 1: status %v, err %v", res.Status, err)
	}
}

// TestNoAllocation checks that a second solve of the same sizes allocates
// nothing.
func TestNoAllocation(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	c := Cones{Zero: 1, NonNeg: 4, SOC: []int{3, 3}}
	p, _ := randomProblem(rng, c, 6, c.Dim(), true)
	s := NewSolver()
	if _, err := s.Solve(p); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(10, func() { s.Solve(p) }); a != 0 {
		t.Errorf("Solve allocates %v times per run once warmed up", a)
	}
}

var forceMode = -1

// TestUnconstrained solves a QP without constraints (x = −P⁻¹q) and a SAP
// problem without contacts (v = v*).
func TestUnconstrained(t *testing.T) {
	p := &Problem{P: mat.NewSymDense(2, []float64{2, 0, 0, 4}), Q: []float64{-2, 4}}
	res := solveOK(t, "unconstrained", p, 1e-12)
	if !near(res.X, []float64{1, -1}, 1e-12) {
		t.Errorf("x = %v, want (1, −1)", res.X)
	}
	noRows := mat.NewDense(1, 2, nil).Slice(0, 0, 0, 2).(*mat.Dense) // 0×2
	sp := &SAP{A: mat.NewSymDense(2, []float64{1, 0, 0, 1}), J: noRows, VStar: []float64{0.5, -2}}
	sol, err := NewSAPSolver().Solve(sp)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != Solved || !near(sol.V, sp.VStar, 1e-12) {
		t.Errorf("no contacts: %v, v = %v, want v* = %v", sol.Status, sol.V, sp.VStar)
	}
}
