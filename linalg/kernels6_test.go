package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sparseEntry returns a random entry that is often an exact zero of
// either sign, so that the kernels' +0 starts are exercised.
func sparseEntry(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
}

// TestKernels6SameBits checks syrk6, trsm6 and solveLower6 against the
// general loops (dotPrefix's sums, one row at a time) bit for bit, signs
// of zeros included, on random blocks with many zero entries of both
// signs; it fails if a +0 start that can change a bit is left out.
func TestKernels6SameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	const n = 6
	same := func(what string, got, want []float64) {
		t.Helper()
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: entry %d = %v, want %v", what, i, got[i], want[i])
			}
		}
	}
	for trial := range 3000 {
		m := 1 + trial%13
		l := make([]float64, n*n)
		for i := range n {
			for j := range i {
				l[i*n+j] = sparseEntry(rng)
			}
			l[i*n+i] = 1 + rng.Float64()
		}
		b := make([]float64, m*n)
		for i := range b {
			b[i] = sparseEntry(rng)
		}
		want := append([]float64(nil), b...)
		trsmRows(m, n, l, want)
		got := append([]float64(nil), b...)
		trsm6(m, l, got)
		same("trsm6", got, want)
		got = append(got[:0], b...)
		for r := range m {
			solveLower6((*[36]float64)(l), (*[6]float64)(got[r*n:]))
		}
		same("solveLower6", got, want)

		w := make([]float64, m*m)
		syrk6(m, b, w)
		ws := make([]float64, m*m)
		for i := range m {
			for j := range i + 1 {
				ws[i*m+j] = dotPrefix(b[i*n:(i+1)*n], b[j*n:(j+1)*n], n)
			}
		}
		same("syrk6", w, ws)
		for i := range m {
			if x, y := dot6(b[i*n:], b[:n]), dotPrefix(b[i*n:], b[:n], n); math.Float64bits(x) != math.Float64bits(y) {
				t.Fatalf("dot6 row %d: %v, want %v", i, x, y)
			}
		}
	}
}

// cholRows is cholLoops one row at a time (dotPrefix's sums): the
// reference of TestChol6SameBits.
func cholRows(n int, a []float64, lda int) bool {
	for j := range n {
		rj := a[j*lda : j*lda+j+1]
		d := rj[j] - dotPrefix(rj, rj, j)
		if !(d > 0) || math.IsInf(d, 0) {
			return false
		}
		ljj := math.Sqrt(d)
		rj[j] = ljj
		inv := 1 / ljj
		for i := j + 1; i < n; i++ {
			ri := a[i*lda : i*lda+j+1]
			ri[j] = (ri[j] - dotPrefix(ri, rj, j)) * inv
		}
	}
	return true
}

// TestChol6SameBits checks chol6 against the loop, bit for bit, on
// positive definite blocks with many zeros of both signs and on
// indefinite ones (the same verdict and the same partial factor), with a
// row stride larger than 6 as in a supernode's panel.
func TestChol6SameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	const n, lda = 6, 9
	failed := 0
	for trial := range 5000 {
		a := gramTrialBlock(rng, n, lda, n*lda, trial)
		for range 3 { // zeros of either sign below the diagonal
			i := 1 + rng.IntN(n-1)
			a[i*lda+rng.IntN(i)] = math.Copysign(0, float64(rng.IntN(2))-0.5)
		}
		want := append([]float64(nil), a...)
		okWant := cholRows(n, want, lda)
		got := append([]float64(nil), a...)
		if ok := chol6(got, lda); ok != okWant {
			t.Fatalf("trial %d: chol6 = %v, loop %v", trial, ok, okWant)
		}
		if !okWant {
			failed++
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: entry %d = %v, want %v", trial, i, got[i], want[i])
			}
		}
	}
	if failed == 0 || failed == 5000 {
		t.Fatalf("%d of 5000 blocks indefinite: both verdicts must be exercised", failed)
	}
}

// TestSolveSixSameBits checks that Factor.Solve, which takes forward6 and
// backward6 for supernodes of six columns, gives the bits of the general
// loops, on random patterns of free-body blocks (size 6, some of size 3)
// with right-hand sides holding zeros of both signs, and that such
// supernodes occur.
func TestSolveSixSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 8))
	six := 0
	for trial := range 60 {
		n := 1 + rng.IntN(40)
		sizes, edges := randomPattern(rng, n, 1+3*rng.Float64())
		for i := range sizes {
			sizes[i] = 6
			if rng.IntN(5) == 0 {
				sizes[i] = 3
			}
		}
		var sym Symbolic
		if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
			t.Fatal(err)
		}
		f := Factor{Kernels: Loops}
		f.Reset(&sym)
		randomSPD(rng, &f, sizes, edges)
		if !f.Factorize() {
			t.Fatalf("trial %d: SPD matrix rejected", trial)
		}
		for sn := range sym.Supernodes() {
			if _, ns, _ := f.panel(sn, f.xp); ns == 6 {
				six++
			}
		}
		b := make([]float64, sym.Size())
		for i := range b {
			b[i] = sparseEntry(rng)
		}
		got, want := slices.Clone(b), slices.Clone(b)
		f.solve(got, true)
		f.solve(want, false)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: entry %d = %v, want %v", trial, i, got[i], want[i])
			}
		}
	}
	if six == 0 {
		t.Fatal("no supernode of six columns: the kernels were not exercised")
	}
}

// gramTrialBlock returns a block of size entries whose n×n leading part
// (row stride lda) is the Gram matrix of a random sparse n×n matrix,
// shifted by trial mod 3: plus 1e-3 on the diagonal (positive definite),
// minus up to 0.5 (often indefinite), or as it is (semi-definite).
func gramTrialBlock(rng *rand.Rand, n, lda, size, trial int) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = sparseEntry(rng)
	}
	a := make([]float64, size)
	for i := range n {
		for j := range n {
			a[i*lda+j] = dotPrefix(b[i*n:(i+1)*n], b[j*n:(j+1)*n], n)
		}
		switch trial % 3 {
		case 0:
			a[i*lda+i] += 1e-3
		case 1:
			a[i*lda+i] -= 0.5 * rng.Float64() // often indefinite
		}
	}
	return a
}
