package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPeers6CholSameBits checks cholLoops (cholColumn for the supernodes
// wider than six) against the per-entry loop cholRows, bit for bit, on
// blocks of 1–31 columns with many zeros of both signs, positive definite
// and indefinite (the same verdict and the same partial factor), with row
// strides n and larger, and storage that ends at the last row's diagonal.
func TestPeers6CholSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 23))
	failed, trials := 0, 4000
	for trial := range trials {
		n := 1 + trial%31
		lda := n + trial%3
		a := gramTrialBlock(rng, n, lda, (n-1)*lda+n, trial)
		for range n / 2 { // zeros of either sign below the diagonal
			if n > 1 {
				i := 1 + rng.IntN(n-1)
				a[i*lda+rng.IntN(i)] = math.Copysign(0, float64(rng.IntN(2))-0.5)
			}
		}
		want := append([]float64(nil), a...)
		okWant := cholRows(n, want, lda)
		got := append([]float64(nil), a...)
		if ok := cholLoops(n, got, lda); ok != okWant {
			t.Fatalf("trial %d (n %d): cholLoops = %v, loop %v", trial, n, ok, okWant)
		}
		if !okWant {
			failed++
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (n %d, lda %d): entry %d = %v, want %v", trial, n, lda, i, got[i], want[i])
			}
		}
	}
	if failed == 0 || failed == trials {
		t.Fatalf("%d of %d blocks indefinite: both verdicts must be exercised", failed, trials)
	}
}

// BenchmarkPeers6Chol factors positive definite blocks of 12, 18 and 24
// columns (clutter-40's supernodes wider than one free body) with
// cholLoops.
func BenchmarkPeers6Chol(b *testing.B) {
	rng := rand.New(rand.NewPCG(6, 24))
	var as [][]float64
	for _, n := range []int{12, 18, 24} {
		m := make([]float64, n*n)
		for i := range m {
			m[i] = rng.NormFloat64()
		}
		a := make([]float64, n*n)
		for i := range n {
			for j := range n {
				a[i*n+j] = dotPrefix(m[i*n:(i+1)*n], m[j*n:(j+1)*n], n)
			}
			a[i*n+i] += float64(n)
		}
		as = append(as, a)
	}
	w := make([]float64, 24*24)
	for b.Loop() {
		for _, a := range as {
			n := int(math.Sqrt(float64(len(a))))
			copy(w, a)
			if !cholLoops(n, w[:len(a)], n) {
				b.Fatal("not positive definite")
			}
		}
	}
}

// randomSixPattern returns a random block pattern of 1–40 blocks, two in
// three of them of six columns (free bodies), and its analysis.
func randomSixPattern(t *testing.T, rng *rand.Rand) ([]int, []uint64, *Symbolic) {
	t.Helper()
	sizes, edges := randomPattern(rng, 1+rng.IntN(40), 1+4*rng.Float64())
	for i := range sizes {
		if rng.IntN(3) > 0 {
			sizes[i] = 6
		}
	}
	sym := new(Symbolic)
	if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
		t.Fatal(err)
	}
	return sizes, edges, sym
}

// TestPeers6FactorizeChanged checks FactorizeChanged against Factorize bit
// for bit: random block patterns (blocks of six and of other sizes), a
// factored H as the base, and H̃ = H changed in every block (i, j) of the
// pattern whose blocks i and j are both among one to three marked ones
// (entries nudged, some set to zeros of either
// sign, the marked diagonal blocks sometimes made indefinite: then only
// the verdict is compared). Loops, automatic and BLAS kernels. It fails
// when a clean supernode's update is left out of a dirty panel, when a
// dirty supernode is not marked, or when a clean panel is not copied.
func TestPeers6FactorizeChanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 25))
	clean, failed := 0, 0
	for trial := range 300 {
		sizes, edges, sym := randomSixPattern(t, rng)
		n := len(sizes)
		kern := []Kernels{Loops, AutoKernels, BLAS}[trial%3]
		base := Factor{Kernels: kern}
		base.Reset(sym)
		randomSPD(rng, &base, sizes, edges)
		h := slices.Clone(base.Data())
		if !base.Factorize() {
			t.Fatalf("trial %d: H not positive definite", trial)
		}
		changed := make([]bool, n)
		for range 1 + rng.IntN(3) {
			changed[rng.IntN(n)] = true
		}
		full := Factor{Kernels: kern}
		full.Reset(sym)
		copy(full.Data(), h)
		indefinite := trial%7 == 3
		nudge := func(i, j int) {
			off, stride, trans, ok := full.Locate(i, j)
			if !ok {
				return
			}
			for r := range sizes[i] {
				for c := range sizes[j] {
					k := off + r*stride + c
					if trans {
						k = off + c*stride + r
					}
					switch {
					case i == j && r == c && indefinite:
						full.Data()[k] = -1
					case i == j && r == c:
						full.Data()[k] += rng.Float64()
					case rng.IntN(5) == 0:
						full.Data()[k] = math.Copysign(0, float64(rng.IntN(2))-0.5)
					default:
						full.Data()[k] *= 1 + 0.1*(rng.Float64()-0.5)
					}
				}
			}
		}
		for i := range n {
			if changed[i] {
				nudge(i, i)
			}
		}
		for _, e := range edges {
			if i, j := edgeEnds(e); changed[i] && changed[j] {
				nudge(i, j)
			}
		}
		part := Factor{Kernels: kern}
		part.Reset(sym)
		copy(part.Data(), full.Data())
		okFull := full.Factorize()
		okPart := part.FactorizeChanged(&base, changed)
		if okFull != okPart {
			t.Fatalf("trial %d: FactorizeChanged reports %v, Factorize %v", trial, okPart, okFull)
		}
		if !okFull {
			failed++
			continue
		}
		for i, want := range full.Data() {
			if math.Float64bits(part.Data()[i]) != math.Float64bits(want) {
				t.Fatalf("trial %d: entry %d = %v, want %v", trial, i, part.Data()[i], want)
			}
		}
		for _, d := range part.dirty {
			if !d {
				clean++
			}
		}
	}
	if clean == 0 || failed == 0 {
		t.Fatalf("clean supernodes %d, failed factorizations %d: a path was not exercised", clean, failed)
	}
}
