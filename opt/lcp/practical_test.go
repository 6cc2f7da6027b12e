package lcp

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"gonum.org/v1/gonum/mat"
)

var long = flag.Bool("long", false, "run the long pivoting experiments")

func longRun() bool { return *long || os.Getenv("STICTION_LONG") == "1" }

// randomPDLCP returns an n×n positive definite LCP with about half the
// constraints active: M = FᵀF/n + I/2, q uniform in [−1, 1].
func randomPDLCP(rng *rand.Rand, n int) (*mat.Dense, []float64) {
	f := randomDense(rng, n, n)
	m := mat.NewDense(n, n, nil)
	m.Mul(f.T(), f)
	m.Scale(1/float64(n), m)
	for i := range n {
		m.Set(i, i, m.At(i, i)+0.5)
	}
	q := make([]float64, n)
	for i := range q {
		q[i] = 2*rng.Float64() - 1
	}
	return m, q
}

// TestStackDegeneracy solves box stacks with the pyramid LCP, with and
// without the lexicographic rule: the stacks are degenerate, and the plain
// minimum-ratio rule is allowed to fail (cycle to the pivot limit, or stop
// at a wrong basis), the lexicographic one is not. It logs the pivot
// counts; -long (or STICTION_LONG=1) runs taller stacks.
func TestStackDegeneracy(t *testing.T) {
	sizes := []int{1, 2, 4}
	if longRun() {
		sizes = []int{1, 2, 4, 8, 16, 32}
	}
	for _, k := range []int{4, 8} {
		for _, nb := range sizes {
			c := fromFixture(fixtures.BoxStack(nb, 0.2, 0.1, 0.05, 1, 0.5, 2, 0.01))
			lex := FrictionLCP{Facets: k}
			start := time.Now()
			sol, err := lex.Solve(c)
			el := time.Since(start)
			if err != nil || sol.LCP.Status != Solved {
				t.Fatalf("%d boxes, k %d: %v %v", nb, k, err, sol.LCP.Status)
			}
			pivLex := sol.LCP.Pivots
			plain := FrictionLCP{Facets: k}
			plain.Lemke.NoLexicographic = true
			ps, err := plain.Solve(c)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%2d boxes, %2d facets: LCP %4d, lexicographic %4d pivots (%v), plain rule: %v after %d pivots",
				nb, k, nb*4*(k+2), pivLex, el.Round(time.Microsecond), ps.LCP.Status, ps.LCP.Pivots)
		}
	}
}

// TestPivotingScaling measures pivots of Lemke and principal pivoting on
// random positive definite LCPs of growing size (log only; -long for the
// large sizes). Timings are in the benchmarks.
func TestPivotingScaling(t *testing.T) {
	sizes := []int{10, 30, 100}
	if longRun() {
		sizes = append(sizes, 300, 1000)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range sizes {
		m, q := randomPDLCP(rng, n)
		var l Lemke
		var p PrincipalPivoting
		s1 := time.Now()
		r1, _ := l.Solve(m, q)
		t1 := time.Since(s1)
		s2 := time.Now()
		r2, _ := p.Solve(DenseColumns{m}, q)
		t2 := time.Since(s2)
		checkSolution(t, fmt.Sprintf("Lemke n=%d", n), m, q, r1, 1e-10)
		checkSolution(t, fmt.Sprintf("PPM n=%d", n), m, q, r2, 1e-10)
		active := 0
		for _, z := range r1.Z {
			if z > 0 {
				active++
			}
		}
		t.Logf("n %4d (%4d active): Lemke %5d pivots %v, principal pivoting %5d pivots %v", n, active, r1.Pivots, t1.Round(time.Microsecond), r2.Pivots, t2.Round(time.Microsecond))
	}
}

// BenchmarkLemke solves random positive definite LCPs.
func BenchmarkLemke(b *testing.B) {
	for _, n := range []int{30, 100, 300} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m, q := randomPDLCP(rand.New(rand.NewPCG(1, uint64(n))), n)
			var l Lemke
			r, _ := l.Solve(m, q)
			for b.Loop() {
				l.Solve(m, q)
			}
			b.ReportMetric(float64(r.Pivots), "pivots")
		})
	}
}

// BenchmarkPrincipalPivoting solves the same LCPs by principal pivoting.
func BenchmarkPrincipalPivoting(b *testing.B) {
	for _, n := range []int{30, 100, 300} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m, q := randomPDLCP(rand.New(rand.NewPCG(1, uint64(n))), n)
			var p PrincipalPivoting
			r, _ := p.Solve(DenseColumns{m}, q)
			for b.Loop() {
				p.Solve(DenseColumns{m}, q)
			}
			b.ReportMetric(float64(r.Pivots), "pivots")
		})
	}
}

// BenchmarkStackPyramid solves a stack of 4 boxes (16 contacts, square
// pyramid: a 96×96 LCP) by Lemke's method, including the assembly.
func BenchmarkStackPyramid(b *testing.B) {
	c := fromFixture(fixtures.BoxStack(4, 0.2, 0.1, 0.05, 1, 0.5, 2, 0.01))
	f := FrictionLCP{Facets: 4}
	sol, _ := f.Solve(c)
	for b.Loop() {
		f.Solve(c)
	}
	b.ReportMetric(float64(sol.LCP.Pivots), "pivots")
}
