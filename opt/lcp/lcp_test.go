package lcp

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/opt/socp"
	"gonum.org/v1/gonum/mat"
)

// TestLemkeKnown solves LCPs with known solutions: q ≥ 0 (z = 0), a 2×2
// P-matrix with both constraints active, and the textbook example of
// Cottle–Pang–Stone with a degenerate q.
func TestLemkeKnown(t *testing.T) {
	cases := []struct {
		m       *mat.Dense
		q, want []float64
	}{
		{mat.NewDense(2, 2, []float64{2, 1, 1, 2}), []float64{1, 1}, []float64{0, 0}},
		{mat.NewDense(2, 2, []float64{2, 1, 1, 2}), []float64{-3, -3}, []float64{1, 1}},
		{mat.NewDense(2, 2, []float64{2, 1, 1, 2}), []float64{-2, 1}, []float64{1, 0}},
		{mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}), []float64{0, -1, 0}, []float64{0, 1, 0}},
	}
	var l Lemke
	var p PrincipalPivoting
	for i, c := range cases {
		res, err := l.Solve(c.m, c.q)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "Lemke", c.m, c.q, res, 1e-15)
		if maxDiff(res.Z, c.want) > 1e-15 {
			t.Errorf("case %d: Lemke z = %v, want %v", i, res.Z, c.want)
		}
		res, err = p.Solve(DenseColumns{c.m}, c.q)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "PPM", c.m, c.q, res, 1e-15)
		if maxDiff(res.Z, c.want) > 1e-15 {
			t.Errorf("case %d: PPM z = %v, want %v", i, res.Z, c.want)
		}
	}
}

// TestLemkeRay checks ray termination on an LCP without solution:
// w = −z − 1 ≥ 0 is impossible for z ≥ 0.
func TestLemkeRay(t *testing.T) {
	var l Lemke
	res, err := l.Solve(mat.NewDense(1, 1, []float64{-1}), []float64{-1})
	if err != nil || res.Status != RayTermination {
		t.Errorf("status %v, err %v (want ray termination)", res.Status, err)
	}
	var p PrincipalPivoting
	res, _ = p.Solve(DenseColumns{mat.NewDense(2, 2, []float64{0, 1, 1, 0})}, []float64{-1, -1})
	if res.Status != Singular {
		t.Errorf("PPM on a singular M: status %v", res.Status)
	}
}

// TestLCPQPEquivalence checks notes §0.3: the QP min ½xᵀQx + cᵀx s.t.
// Ax ≥ b (Q positive definite) is the LCP M = AQ⁻¹Aᵀ, q = −b − AQ⁻¹c,
// x = Q⁻¹(Aᵀz − c). On random problems (fewer constraints than variables:
// M positive definite; more: M only semidefinite) the pivoting solution
// must match the QP's solution from the interior-point solver, and satisfy
// the QP's KKT conditions.
func TestLCPQPEquivalence(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var l Lemke
	var p PrincipalPivoting
	ipm := socp.NewSolver()
	worst := 0.0
	for trial := range 40 {
		n := 3 + rng.IntN(6)
		mc := 1 + rng.IntN(2*n)
		qm := randomSPD(rng, n, 0.5)
		a := randomDense(rng, mc, n)
		// b = A x₀ − s, s ≥ 0: feasible (more constraints than variables
		// would otherwise often be infeasible, and Lemke rightly ends on a ray).
		c, x0 := randomVec(rng, n), randomVec(rng, n)
		b := make([]float64, mc)
		for i := range mc {
			b[i] = mat.Dot(a.RowView(i), mat.NewVecDense(n, x0)) - rng.Float64()
		}
		// M = A Q⁻¹ Aᵀ, q = −b − A Q⁻¹ c.
		var ch mat.Cholesky
		ch.Factorize(qm)
		var qiat mat.Dense
		ch.SolveTo(&qiat, a.T())
		m := mat.NewDense(mc, mc, nil)
		m.Mul(a, &qiat)
		var qic mat.VecDense
		ch.SolveVecTo(&qic, mat.NewVecDense(n, c))
		q := make([]float64, mc)
		for i := range mc {
			q[i] = -b[i] - mat.Dot(a.RowView(i), &qic)
		}
		res, err := l.Solve(m, q)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "Lemke", m, q, res, 1e-12)
		x := qpFromLCP(&ch, a, c, res.Z)
		if mc <= n { // M positive definite: principal pivoting applies too
			r2, err := p.Solve(DenseColumns{m}, q)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, "PPM", m, q, r2, 1e-12)
			if d := maxDiff(r2.Z, res.Z); d > 1e-10*(1+maxAbs(res.Z)) {
				t.Errorf("trial %d: PPM and Lemke differ by %.1e", trial, d)
			}
		}
		// The same QP by the interior-point method: min ½xᵀQx + cᵀx,
		// −Ax + s = −b, s ≥ 0.
		neg := mat.NewDense(mc, n, nil)
		neg.Scale(-1, a)
		nb := make([]float64, mc)
		for i := range b {
			nb[i] = -b[i]
		}
		sol, err := ipm.Solve(&socp.Problem{P: qm, Q: c, A: neg, B: nb, Cones: socp.Cones{NonNeg: mc}})
		if err != nil || sol.Status != socp.Solved {
			t.Fatalf("trial %d: IPM %v %v", trial, err, sol.Status)
		}
		d := maxDiff(x, sol.X) / (1 + maxAbs(x))
		worst = max(worst, d)
		if d > 1e-9 {
			t.Errorf("trial %d (n %d, %d constraints): LCP x = %v, QP x = %v", trial, n, mc, x, sol.X)
		}
	}
	t.Logf("40 random QPs: worst relative difference of x between LCP and IPM %.1e", worst)
}

// qpFromLCP returns x = Q⁻¹(Aᵀz − c).
func qpFromLCP(ch *mat.Cholesky, a *mat.Dense, c, z []float64) []float64 {
	n := len(c)
	var atz mat.VecDense
	atz.MulVec(a.T(), mat.NewVecDense(len(z), z))
	for i := range n {
		atz.SetVec(i, atz.AtVec(i)-c[i])
	}
	var x mat.VecDense
	ch.SolveVecTo(&x, &atz)
	return x.RawVector().Data
}

// TestOnDemandColumns checks that principal pivoting computes each column
// of M once, and only those it pivots on: an LCP with few active
// constraints costs few columns.
func TestOnDemandColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 60
	m := mat.NewDense(n, n, nil)
	m.CloneFrom(randomSPD(rng, n, 1))
	q := make([]float64, n)
	for i := range q {
		q[i] = 100 + rng.Float64() // inactive
	}
	for _, i := range []int{3, 17, 40} {
		q[i] = -1 - rng.Float64() // active
	}
	counter := &countingColumns{DenseColumns: DenseColumns{m}}
	var p PrincipalPivoting
	res, err := p.Solve(counter, q)
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, "PPM", m, q, res, 1e-12)
	if res.Columns != counter.calls || res.Columns > 3+res.Pivots || res.Columns >= n/4 {
		t.Errorf("%d columns computed (%d calls) for %d pivots of a %d×%d LCP", res.Columns, counter.calls, res.Pivots, n, n)
	}
	t.Logf("n = %d, 3 active constraints: %d pivots, %d of %d columns computed", n, res.Pivots, res.Columns, n)
}

type countingColumns struct {
	DenseColumns
	calls int
}

func (c *countingColumns) Column(j int, dst []float64) {
	c.calls++
	c.DenseColumns.Column(j, dst)
}

// TestBadInput checks the errors.
func TestBadInput(t *testing.T) {
	var l Lemke
	if _, err := l.Solve(mat.NewDense(2, 3, nil), []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "M is 2×3") {
		t.Errorf("non-square: %v", err)
	}
	if _, err := l.Solve(mat.NewDense(1, 1, []float64{1}), []float64{math.NaN()}); err == nil || !strings.Contains(err.Error(), "q[0] = NaN") {
		t.Errorf("NaN: %v", err)
	}
	var p PrincipalPivoting
	if _, err := p.Solve(DenseColumns{mat.NewDense(2, 2, nil)}, []float64{1}); err == nil {
		t.Error("PPM accepted a short q")
	}
}

// TestNoAllocation checks that warm Lemke and principal pivoting solves
// allocate nothing.
func TestNoAllocation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := mat.NewDense(20, 20, nil)
	m.CloneFrom(randomSPD(rng, 20, 1))
	q := randomVec(rng, 20)
	var l Lemke
	var p PrincipalPivoting
	cols := DenseColumns{m}
	l.Solve(m, q)
	p.Solve(cols, q)
	if a := testing.AllocsPerRun(10, func() { l.Solve(m, q) }); a != 0 {
		t.Errorf("Lemke allocates %v times", a)
	}
	if a := testing.AllocsPerRun(10, func() { p.Solve(cols, q) }); a != 0 {
		t.Errorf("PrincipalPivoting allocates %v times", a)
	}
}
