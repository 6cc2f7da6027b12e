package sap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// cubefix3AddJtTmp is packedJ.addJtTmp as it was before the fifty-seventh
// pass (BENCHMARKS.md): one loop for every number of rows, the mirror
// tested per entry; the reference the specialized loops must match to
// the bit.
func cubefix3AddJtTmp(h []float64, n int, cols1 []int, j1 []float64, k int, cols2 []int, tmp []float64, mirror, diag bool) {
	m1, m2 := len(cols1), len(cols2)
	for i, a := range cols1 {
		from := 0
		if diag {
			from = i
		}
		for t := from; t < m2; t++ {
			s := 0.0
			for r := range k {
				s += j1[r*m1+i] * tmp[r*m2+t]
			}
			h[a*n+cols2[t]] += s
			if mirror {
				h[cols2[t]*n+a] += s
			}
		}
	}
}

// cubefix3Value draws a J or tmp entry: often an exact zero of either
// sign, so that sums of −0 products (which the +0 start turns into +0)
// are exercised.
func cubefix3Value(rng *rand.Rand) float64 {
	switch rng.IntN(5) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	}
	return rng.NormFloat64()
}

// TestCubefix3AddJtTmp: packedJ.addJtTmp adds to H, for blocks of 1, 2
// and 3 rows, with and without mirror and diag, the same bits as the
// general loop it replaced (cubefix3AddJtTmp), on H with entries of both
// signs of zero; fails when a specialized loop starts a row at the wrong
// column, drops the mirror or changes the order of a sum.
func TestCubefix3AddJtTmp(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 3))
	for trial := range 600 {
		n := 2 + rng.IntN(10)
		k := []int{1, 2, 3}[trial%3]
		pick := func() []int { // increasing distinct columns of H
			var cols []int
			for j := range n {
				if rng.IntN(3) > 0 {
					cols = append(cols, j)
				}
			}
			if len(cols) == 0 {
				cols = append(cols, rng.IntN(n))
			}
			return cols
		}
		cols1 := pick()
		cols2 := cols1
		mirror, diag := false, false
		switch rng.IntN(3) {
		case 0:
			diag = true // b1 = b2 of an upper-only assembly
		case 1:
			cols2, mirror = pick(), true // two blocks of a constraint, full H
		default:
			cols2 = pick()
		}
		var pk packedJ
		j1 := make([]float64, k*len(cols1))
		for i := range j1 {
			j1[i] = cubefix3Value(rng)
		}
		pk.cols = append(append(pk.cols, cols1...), cols2...)
		pk.vals = append(pk.vals, j1...)
		pk.vals = append(pk.vals, make([]float64, k*len(cols2))...)
		pk.blk = []packedBlock{
			{c0: 0, c1: len(cols1), v0: 0, size: k},
			{c0: len(cols1), c1: len(cols1) + len(cols2), v0: len(j1), size: k},
		}
		tmp := make([]float64, k*len(cols2))
		for i := range tmp {
			tmp[i] = cubefix3Value(rng)
		}
		h := make([]float64, n*n)
		for i := range h {
			h[i] = cubefix3Value(rng)
		}
		want := append([]float64(nil), h...)
		b2 := 1
		if diag {
			b2 = 0
		}
		pk.addJtTmp(h, n, 0, b2, tmp, mirror, diag)
		cubefix3AddJtTmp(want, n, cols1, j1, k, pk.cols[pk.blk[b2].c0:pk.blk[b2].c1], tmp, mirror, diag)
		if !sameBits(h, want) {
			t.Fatalf("trial %d (k %d, mirror %v, diag %v, cols %v %v): H = %v, want %v", trial, k, mirror, diag, cols1, cols2, h, want)
		}
	}
}
