package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTreemass2AddLowerM: H's part of M added from packM's slots in row
// order (addLowerM: the lanes, the dense run up to the diagonal, the tail)
// gives, on every entry, the bits of the same sums through the pattern's
// lower entries (lowerM's mplo, the path before it), on random cliques of
// 1 to 40 velocities (M's blocks with ±0 entries) over partial sums that
// hold values and +0 (never −0, as H's sums from +0); and the rows' dense
// runs start at or below the diagonal on a group of four. Fails when the
// dense run is read past the diagonal or a lane's entry is added twice.
func TestTreemass2AddLowerM(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 23))
	nw := &newtonWork{}
	added := 0
	for range 300 {
		randomSparseNewton(rng, nw)
		sp, nv := &nw.sp, nw.nv
		sp.packM(nv)
		got, want := make([]float64, nv), make([]float64, nv)
		for i := range nv {
			if lo := sp.mpdlo[i]; lo > i || lo%4 != 0 {
				t.Fatalf("nv %d row %d: dense run from column %d", nv, i, lo)
			}
			for c := range got {
				got[c] = 0
				if rng.IntN(3) > 0 {
					got[c] = rng.NormFloat64()
				}
				want[c] = got[c]
			}
			sp.addLowerM(got, i)
			for _, p := range sp.mplo[sp.mploadr[i]:sp.mploadr[i+1]] {
				want[sp.mpcol[p]] += sp.mpval[p]
				added++
			}
			for c := range got {
				if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
					t.Fatalf("nv %d row %d column %d: %v, through mplo %v", nv, i, c, got[c], want[c])
				}
			}
		}
	}
	if added == 0 {
		t.Fatal("no entry of M added")
	}
}
