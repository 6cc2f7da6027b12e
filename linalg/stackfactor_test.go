package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// zeroOffBlocks sets every entry of a random share of f's off-diagonal
// blocks (those of edges) to a zero of random sign, as a stack's contacts
// that are apart leave H.
func zeroOffBlocks(rng *rand.Rand, f *Factor, sizes []int, edges []uint64, share float64) {
	for _, e := range edges {
		if rng.Float64() >= share {
			continue
		}
		i, j := edgeEnds(e)
		off, stride, trans, ok := f.Locate(i, j)
		if !ok {
			panic("block not in pattern")
		}
		for r := range sizes[i] {
			for c := range sizes[j] {
				k := off + r*stride + c
				if trans {
					k = off + c*stride + r
				}
				f.Data()[k] = math.Copysign(0, float64(rng.IntN(2))-0.5)
			}
		}
	}
}

// TestStackfactorZeroRowsSameBits checks that the direct factorization,
// which skips the trsm and the update of a supernode whose off-diagonal
// rows are all zeros (zeroFromEnd), gives the bits of the path through w,
// which skips nothing, on random patterns (mostly blocks of six) with
// most off-diagonal blocks zeros of either sign, some diagonal entries
// made negative (failed factorizations, the verdict compared), and with
// FactorizeMarked's copies from a base factor. It fails when a skipped
// supernode's trsm or update would have changed a bit, or when the skip
// is not exercised.
func TestStackfactorZeroRowsSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 105))
	skipped, failed := 0, 0
	check := func(trial int, what string, h []float64, f *Factor, run func(direct bool) bool) {
		t.Helper()
		copy(f.Data(), h)
		okDirect := run(true)
		got := slices.Clone(f.Data())
		copy(f.Data(), h)
		okW := run(false)
		if okDirect != okW {
			t.Fatalf("trial %d, %s: direct reports %v, through w %v", trial, what, okDirect, okW)
		}
		if !okW {
			failed++
			return
		}
		for i, want := range f.Data() {
			if math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("trial %d, %s: entry %d = %v, want %v", trial, what, i, got[i], want)
			}
		}
	}
	for trial := range 300 {
		sizes, edges, sym := allSixPattern(t, rng)
		var f, base Factor
		f.Kernels, base.Kernels = Loops, Loops
		f.Reset(sym)
		randomSPD(rng, &f, sizes, edges)
		zeroOffBlocks(rng, &f, sizes, edges, []float64{0.5, 0.9, 1}[trial%3])
		if trial%5 == 4 {
			f.Data()[rng.IntN(len(f.Data()))] = -1 // often on no diagonal: then harmless
		}
		h := slices.Clone(f.Data())
		check(trial, "factorize", h, &f, f.factorize)
		for sn := range sym.Supernodes() {
			if p, ns, _ := f.panel(sn, f.xp); len(p) > ns*ns && allZero(p[ns*ns:]) {
				skipped++
			}
		}
		// H̃: H with the blocks of one to three cliques' pairs nudged.
		base.Reset(sym)
		copy(base.Data(), h)
		if !base.Factorize() {
			continue
		}
		changed := make([]bool, len(sizes))
		for range 1 + rng.IntN(3) {
			changed[rng.IntN(len(sizes))] = true
		}
		for i := range sizes {
			if off, _, _, ok := f.Locate(i, i); ok && changed[i] {
				h[off] *= 1.5
			}
		}
		f.MarkChanged(&base, changed)
		check(trial, "marked", h, &f, func(direct bool) bool {
			return f.factorizeFrom(direct, &base, f.dirty[:sym.Supernodes()])
		})
	}
	if skipped == 0 || failed == 0 {
		t.Fatalf("%d supernodes with zero rows, %d failed factorizations: a path was not exercised", skipped, failed)
	}
}

// TestStackfactorSixBlocksSolve checks Solve's permutation for blocks all
// of size six (Symbolic.six: arrays at offsets 6c and 6k) against the
// offset tables' copies, bit for bit, on random patterns of free bodies;
// it fails when a block lands at the wrong offset.
func TestStackfactorSixBlocksSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 106))
	for trial := range 100 {
		sizes, edges, sym := allSixPattern(t, rng)
		if !sym.six {
			t.Fatalf("trial %d: blocks of six not flagged", trial)
		}
		f := Factor{Kernels: Loops}
		f.Reset(sym)
		randomSPD(rng, &f, sizes, edges)
		if !f.Factorize() {
			t.Fatalf("trial %d: SPD matrix rejected", trial)
		}
		b := make([]float64, sym.Size())
		for i := range b {
			b[i] = sparseEntry(rng)
		}
		got, want := slices.Clone(b), slices.Clone(b)
		f.Solve(got)
		sym.six = false
		f.Solve(want)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: entry %d = %v, want %v", trial, i, got[i], want[i])
			}
		}
	}
}

// allSixPattern returns a random pattern of up to 30 blocks, all of six
// (free bodies) and its analysis (minimum degree).
func allSixPattern(t *testing.T, rng *rand.Rand) ([]int, []uint64, *Symbolic) {
	t.Helper()
	sizes, edges := randomPattern(rng, 1+rng.IntN(30), 1+3*rng.Float64())
	for i := range sizes {
		sizes[i] = 6
	}
	sym := new(Symbolic)
	if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
		t.Fatal(err)
	}
	return sizes, edges, sym
}

// panel returns (for the tests) supernode sn's panel, its size and its part of x.
func (f *Factor) panel(sn int, x []float64) ([]float64, int, []float64) {
	s := f.sym
	first, end := s.snStart[sn], s.snStart[sn+1]
	lo, hi := s.posOff[first], s.posOff[end]
	return f.data[s.snPanel[sn]:s.snPanel[sn+1]], hi - lo, x[lo:hi]
}

// TestStackfactorZeroRowsSolve checks that Solve, whose forward6 skips
// the row updates of a supernode with zero off-diagonal rows (zeroRows)
// when its part of y is finite, gives the bits of the solve without the
// marks, on random patterns of blocks of six with most off-diagonal
// blocks zero and right-hand sides with zeros of both signs and, in some
// trials, infinities and NaNs. It fails when the finiteness test is left
// out or no supernode is marked.
func TestStackfactorZeroRowsSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 107))
	marked := 0
	for trial := range 200 {
		sizes, edges, sym := allSixPattern(t, rng)
		f := Factor{Kernels: Loops}
		f.Reset(sym)
		randomSPD(rng, &f, sizes, edges)
		h := slices.Clone(f.Data())
		zeroOffBlocks(rng, &f, sizes, edges, []float64{0.5, 0.9, 1}[trial%3])
		if !f.Factorize() {
			t.Fatalf("trial %d: SPD matrix rejected", trial)
		}
		b := make([]float64, sym.Size())
		for i := range b {
			b[i] = sparseEntry(rng)
			if trial%2 == 1 && rng.IntN(20) == 0 {
				b[i] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
			}
		}
		for _, z := range f.zeroRows {
			if z {
				marked++
			}
		}
		zeroRowsSolveSame(t, trial, &f, b)
		// Refactored without the zero blocks, the marks must go.
		copy(f.Data(), h)
		if !f.Factorize() {
			t.Fatalf("trial %d: SPD matrix rejected", trial)
		}
		zeroRowsSolveSame(t, trial, &f, b)
	}
	if marked == 0 {
		t.Fatal("no supernode with zero rows: the skip was not exercised")
	}
}

// zeroRowsSolveSame solves b with f as it is and with f's zeroRows marks
// cleared, and fails unless the two agree bit for bit.
func zeroRowsSolveSame(t *testing.T, trial int, f *Factor, b []float64) {
	t.Helper()
	got, want := slices.Clone(b), slices.Clone(b)
	f.Solve(got)
	marks := slices.Clone(f.zeroRows)
	clear(f.zeroRows)
	f.Solve(want)
	copy(f.zeroRows, marks)
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("trial %d: entry %d = %v, want %v", trial, i, got[i], want[i])
		}
	}
}
