package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDensekern2GramInPlaceMatchesScatter: the PGS dual build's Gram
// written straight into AR (gramTo at the rows' positions, as delassus does
// on a problem of one clique without folded rows) gives AR to the bit as
// the Gram (oneRowGram, the one-row transcription that sparseGram's gq
// matches) added into a cleared AR as scatter adds it, on
// random trees of up to 64 dofs, groups of rows on shared paths (some
// with equal masks), ±0 entries, all-zero and one-entry rows, and rows
// whose positions in AR are shuffled (k of n ≥ k positions). It fails
// when an entry lands at another position, or when a Gram sum can be −0
// (0 + (−0) = +0 in the scatter, −0 in place).
func TestDensekern2GramInPlaceMatchesScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 86))
	for trial := range 500 {
		parent, a := randomTreeFactor(t, rng)
		nv := len(parent)
		k := 1 + rng.IntN(24)
		j := densekern2Rows(rng, parent, k)
		ends := []int{}
		for e := 4 * (1 + rng.IntN(3)); e < k; e += 1 + rng.IntN(6) {
			ends = append(ends, e)
		}
		n := k + rng.IntN(4)
		pos := rng.Perm(n)[:k]

		gq := oneRowGram(parent, a, j, k) // the one-row transcription, sparseGram's gq to the bit
		want := make([]float64, n*n)
		for r, pr := range pos {
			for c, pc := range pos {
				want[pr*n+pc] += gq[r*k+c]
			}
		}

		var d pgsDual
		d.jq = append(d.jq, j...)
		d.ends = ends
		got := make([]float64, n*n)
		d.substAll(parent, a, k)
		d.gramTo(k, nv, got, pos, n)
		for x := range want {
			if math.Float64bits(got[x]) != math.Float64bits(want[x]) {
				t.Fatalf("trial %d (nv %d, %d rows in %d): AR(%d, %d) = %v in place, %v by scatter",
					trial, nv, k, n, x/n, x%n, got[x], want[x])
			}
		}
	}
}

// densekern2Rows returns k random rows of J on the tree parent (k × n)
// in groups of up to four (four one time in two) on one leaf's path to
// the root (a pyramid contact's edges: the same non-zeros in each row of a
// group two times in three, so that gramTo takes them four at a time, some
// entries ±0 otherwise), all-zero groups and one-entry rows (limits).
func densekern2Rows(rng *rand.Rand, parent []int, k int) []float64 {
	n := len(parent)
	j := make([]float64, k*n)
	for r := 0; r < k; {
		g := min(k-r, 4)
		if rng.IntN(2) == 0 {
			g = min(k-r, 1+rng.IntN(3))
		}
		leaf, kind, shared := rng.IntN(n), rng.IntN(8), rng.IntN(3) != 0
		for ; g > 0; g, r = g-1, r+1 {
			row := j[r*n : (r+1)*n]
			if kind == 0 {
				continue // all zero
			}
			if kind == 1 {
				row[leaf] = rng.NormFloat64()
				continue
			}
			for i := leaf; i >= 0; i = parent[i] {
				if !shared && rng.IntN(4) == 0 {
					row[i] = math.Copysign(0, -1)
					continue
				}
				row[i] = rng.NormFloat64()
			}
		}
	}
	return j
}
