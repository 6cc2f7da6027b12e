package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUpdateSameBits checks that the factorization subtracting each
// supernode's update where it lands (update, update6, updateN) leaves
// every entry of L with the bits of the path through w (syrkLoops then
// scatter), and reports the same success, on random patterns of blocks of
// six and other sizes (supernodes of six and of other widths), some with
// many entries set to zeros of both signs (those may not be positive
// definite: a failed factorization must leave the same partial factor).
func TestUpdateSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 43))
	six, other, failed := 0, 0, 0
	for trial := range 200 {
		sizes, edges, sym := randomSixPattern(t, rng)
		f := Factor{Kernels: []Kernels{Loops, AutoKernels}[trial%2]}
		f.Reset(sym)
		randomSPD(rng, &f, sizes, edges)
		if trial%3 == 0 {
			for i, x := range f.Data() {
				if x != 0 && rng.IntN(4) == 0 {
					f.Data()[i] = sparseEntry(rng)
				}
			}
		}
		h := slices.Clone(f.Data())
		okDirect := f.factorize(true)
		got := slices.Clone(f.Data())
		copy(f.Data(), h)
		okW := f.factorize(false)
		if okDirect != okW {
			t.Fatalf("trial %d: direct update reports %v, through w %v", trial, okDirect, okW)
		}
		if !okW {
			failed++
		}
		for i, want := range f.Data() {
			if math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("trial %d: entry %d = %v, want %v", trial, i, got[i], want)
			}
		}
		for sn := range sym.Supernodes() {
			p, ns, _ := f.panel(sn, f.xp)
			if len(p) == ns*ns {
				continue // no update
			}
			if ns == 6 {
				six++
			} else {
				other++
			}
		}
	}
	if six == 0 || other == 0 || failed == 0 {
		t.Fatalf("updates of six columns %d, of other widths %d, failed factorizations %d: a path was not exercised", six, other, failed)
	}
}
