package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStackfactor2CopiedZeroMarks checks FactorizeMarked's zeroRows marks
// of the supernodes it copies from its base (zeroPanel takes base's mark
// instead of scanning the copy): on random patterns of blocks of six with
// most off-diagonal blocks zeros of either sign, after a factorization
// against a base with one to three cliques nudged, every supernode is
// marked exactly when its off-diagonal rows are all zeros (the loop
// kernels' path marks every such one), and the factor and the solve are
// the bits of a whole factorization of the same matrix. It fails when a
// copied supernode's mark is dropped or set on rows that are not zeros.
func TestStackfactor2CopiedZeroMarks(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 110))
	copiedMarks := 0
	for trial := range 200 {
		sizes, edges, sym := allSixPattern(t, rng)
		var base, f, whole Factor
		base.Kernels, f.Kernels, whole.Kernels = Loops, Loops, Loops
		base.Reset(sym)
		randomSPD(rng, &base, sizes, edges)
		zeroOffBlocks(rng, &base, sizes, edges, []float64{0.5, 0.9, 1}[trial%3])
		h := slices.Clone(base.Data())
		if !base.Factorize() {
			t.Fatalf("trial %d: SPD matrix rejected", trial)
		}
		changed := make([]bool, len(sizes))
		for range 1 + rng.IntN(3) {
			changed[rng.IntN(len(sizes))] = true
		}
		for i := range sizes {
			if off, _, _, ok := base.Locate(i, i); ok && changed[i] {
				h[off] *= 1.5
			}
		}
		f.Reset(sym)
		copy(f.Data(), h)
		f.MarkChanged(&base, changed)
		whole.Reset(sym)
		copy(whole.Data(), h)
		if !f.FactorizeMarked() || !whole.Factorize() {
			t.Fatalf("trial %d: SPD matrix rejected", trial)
		}
		for sn := range sym.Supernodes() {
			p, ns, _ := f.panel(sn, f.xp)
			if zero := len(p) > ns*ns && allZero(p[ns*ns:]); f.zeroRows[sn] != zero {
				t.Fatalf("trial %d: supernode %d marked %v, its rows all zeros %v", trial, sn, f.zeroRows[sn], zero)
			}
			if f.zeroRows[sn] && !f.dirty[sn] {
				copiedMarks++
			}
		}
		sameBits(t, trial, "factor", f.Data(), whole.Data())
		b := make([]float64, sym.Size())
		for i := range b {
			b[i] = sparseEntry(rng)
		}
		got, want := slices.Clone(b), slices.Clone(b)
		f.Solve(got)
		whole.Solve(want)
		sameBits(t, trial, "solve", got, want)
	}
	if copiedMarks == 0 {
		t.Fatal("no copied supernode with zero rows: the copied marks were not exercised")
	}
}

// sameBits fails unless got and want agree bit for bit.
func sameBits(t *testing.T, trial int, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("trial %d, %s: entry %d = %v, want %v", trial, what, i, got[i], want[i])
		}
	}
}

// TestStackfactor2Zero36 checks zero36 against allZero on blocks of 36
// zeros of random signs with, in most trials, one entry (any of the 36)
// set to a value that is not zero: the smallest subnormals of both signs,
// infinities, NaNs and ordinary numbers. It fails when an entry is left
// out of the test or a −0 (or the sign bit alone) counts as not zero.
func TestStackfactor2Zero36(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 111))
	odd := []float64{math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 1, -2.5, math.MaxFloat64}
	for trial := range 3000 {
		var b [36]float64
		for i := range b {
			b[i] = math.Copysign(0, float64(rng.IntN(2))-0.5)
		}
		if trial%4 != 0 {
			b[rng.IntN(36)] = odd[rng.IntN(len(odd))]
		}
		if got, want := zero36(&b), allZero(b[:]); got != want {
			t.Fatalf("trial %d: zero36(%v) = %v, want %v", trial, b, got, want)
		}
		if got, want := zeroFromEnd(b[:]), allZero(b[:]); got != want {
			t.Fatalf("trial %d: zeroFromEnd(%v) = %v, want %v", trial, b, got, want)
		}
	}
}
