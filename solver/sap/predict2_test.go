package sap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// predict2Packed draws a packedJ over nv velocities with nb blocks of 1
// to 3 rows (most of them contacts of three rows on wide columns: six as
// a free body's, five as a sphere's on a free body; only those with
// uniform), each block's kept columns increasing and distinct, its
// rows at consecutive offsets; blocks share columns, so the products add
// into the same entries. It returns the packing and its number of rows.
func predict2Packed(rng *rand.Rand, nv, nb, wide int, uniform bool) (*packedJ, int) {
	pk := &packedJ{}
	nr := 0
	for range nb {
		size := []int{3, 3, 3, 1, 2}[rng.IntN(5)]
		m := wide
		if uniform {
			size = 3
		} else if rng.IntN(3) == 0 {
			m = 1 + rng.IntN(nv)
		}
		cols := rng.Perm(nv)[:m]
		for i := 1; i < len(cols); i++ { // sort increasing
			for j := i; j > 0 && cols[j] < cols[j-1]; j-- {
				cols[j], cols[j-1] = cols[j-1], cols[j]
			}
		}
		c0, v0 := len(pk.cols), len(pk.vals)
		pk.cols = append(pk.cols, cols...)
		for range size * m {
			pk.vals = append(pk.vals, cubefix3Value(rng))
		}
		pk.blk = append(pk.blk, packedBlock{c0: c0, c1: c0 + m, v0: v0, row: nr, size: size})
		nr += size
	}
	return pk, nr
}

// predict2MulJ is packedJ.mulJ's general loop: per block and row the sum
// over the kept columns from +0, added to the row's entry.
func predict2MulJ(pk *packedJ, v, vc []float64) {
	clear(vc)
	for k := range pk.blk {
		cols, vals := pk.block(k)
		m := len(cols)
		for r := range pk.blk[k].size {
			s := 0.0
			for t, j := range cols {
				s += vals[r*m+t] * v[j]
			}
			vc[pk.blk[k].row+r] += s
		}
	}
}

// predict2MulJT is packedJ.mulJT's general loop: per block, row (γ_r ≠ 0)
// and kept column, out_j += J_rj γ_r.
func predict2MulJT(pk *packedJ, gamma, out []float64) {
	clear(out)
	for k := range pk.blk {
		cols, vals := pk.block(k)
		m := len(cols)
		for r := range pk.blk[k].size {
			gr := gamma[pk.blk[k].row+r]
			if gr == 0 {
				continue
			}
			for t, j := range cols {
				out[j] += vals[r*m+t] * gr
			}
		}
	}
}

// TestPredict2PackedProductsBits: packedJ.mulJ and mulJT, with the
// six-column contact blocks written out (mulJ6, mulJT6), give the same
// bits as the general loops, on J, v and γ with exact zeros of both signs
// and γ rows with and without zeros; fails when a written-out entry
// reads the wrong column or row or adds in another order.
func TestPredict2PackedProductsBits(t *testing.T) {
	if n := predict2CheckProducts(t, rand.New(rand.NewPCG(71, 2)), 6, 500); n < 500 {
		t.Fatalf("only %d six-column contact blocks drawn", n)
	}
}

// predict2CheckProducts runs packedJ.mulJ and mulJT on trials random
// packings of mostly wide-column blocks (predict2Packed) against the
// general loops bit for bit, and returns how many contact blocks of wide
// columns it drew.
func predict2CheckProducts(t *testing.T, rng *rand.Rand, wide, trials int) int {
	return predict2CheckPacked(t, rng, wide, trials, false)
}

// predict2CheckPacked is predict2CheckProducts, with uniform packings
// (every block a contact of wide columns, pk.six or pk.five set) if
// uniform.
func predict2CheckPacked(t *testing.T, rng *rand.Rand, wide, trials int, uniform bool) int {
	t.Helper()
	n := 0
	for trial := range trials {
		nv := 6 + rng.IntN(12)
		pk, nr := predict2Packed(rng, nv, 1+rng.IntN(8), wide, uniform)
		if uniform {
			pk.six, pk.five = pk.allWidth(6), pk.allWidth(5)
		}
		for _, b := range pk.blk {
			if b.size == 3 && b.c1-b.c0 == wide {
				n++
			}
		}
		v, gamma := make([]float64, nv), make([]float64, nr)
		for i := range v {
			v[i] = cubefix3Value(rng)
		}
		for i := range gamma {
			gamma[i] = cubefix3Value(rng)
			if rng.IntN(3) > 0 { // most contacts' γ without zeros: the written-out path
				gamma[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20))
			}
		}
		got, want := make([]float64, nr), make([]float64, nr)
		pk.mulJ(v, got, nr)
		predict2MulJ(pk, v, want)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: (J v)_%d = %v, the general loop %v", trial, i, got[i], want[i])
			}
		}
		gotT, wantT := make([]float64, nv), make([]float64, nv)
		pk.mulJT(gamma, gotT, nv)
		predict2MulJT(pk, gamma, wantT)
		for i := range gotT {
			if math.Float64bits(gotT[i]) != math.Float64bits(wantT[i]) {
				t.Fatalf("trial %d: (Jᵀγ)_%d = %v, the general loop %v", trial, i, gotT[i], wantT[i])
			}
		}
	}
	return n
}
