package sap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// cubeslide2GJ is gjProduct's k = 3 loop as it was before the
// seventy-third pass (BENCHMARKS.md): the reference gj3x6 must match to
// the bit.
func cubeslide2GJ(g []float64, j []float64, m int, tmp []float64) {
	for r := range 3 {
		g0, g1, g2 := g[3*r], g[3*r+1], g[3*r+2]
		for c := range m {
			tmp[r*m+c] = g0*j[c] + g1*j[m+c] + g2*j[2*m+c]
		}
	}
}

// TestCubeslide2FreeBodyKernels: for a contact's block of six contiguous
// kept columns (a free body), gjProduct (gj3x6) gives the general k = 3
// loop's G J and packedJ.addJtTmp (addJtTmpRows3x6) adds to H what the
// general loop adds, with and without diag, to the bit, on J, G and H with
// exact zeros of both signs; blocks whose columns are not contiguous and
// the mirror case keep the general loops, checked alike.
func TestCubeslide2FreeBodyKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 6))
	for trial := range 1000 {
		g := make([]float64, 9)
		for i := range g {
			g[i] = cubefix3Value(rng)
		}
		j := make([]float64, 18)
		for i := range j {
			j[i] = cubefix3Value(rng)
		}
		got, want := make([]float64, 18), make([]float64, 18)
		gjProduct(g, 3, j, 6, got)
		cubeslide2GJ(g, j, 6, want)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: G J entry %d = %v, the loop's %v", trial, i, got[i], want[i])
			}
		}
		// Two blocks on an n-velocity H: b1's columns at a0…a0+5, b2's at
		// c0…c0+5 (or spread out, every fourth trial).
		n := 6 + rng.IntN(12)
		a0, c0 := rng.IntN(n-5), rng.IntN(n-5)
		cols1, cols2 := make([]int, 6), make([]int, 6)
		for i := range 6 {
			cols1[i], cols2[i] = a0+i, c0+i
		}
		if trial%4 == 3 && n >= 12 {
			cols2 = []int{0, 2, 4, 6, 8, 10}
		}
		pk := packedJ{cols: append(append([]int(nil), cols1...), cols2...), vals: append(append([]float64(nil), j...), j...)}
		pk.blk = []packedBlock{{c0: 0, c1: 6, v0: 0, size: 3}, {c0: 6, c1: 12, v0: 18, size: 3}}
		for i := range pk.vals[18:] {
			pk.vals[18+i] = cubefix3Value(rng)
		}
		h0 := make([]float64, n*n)
		for i := range h0 {
			h0[i] = cubefix3Value(rng)
		}
		mirror, diag := trial%5 == 4, trial%2 == 0 && trial%5 != 4
		b1, b2 := 0, 1
		if diag {
			b2 = 0
		}
		hg, hw := append([]float64(nil), h0...), append([]float64(nil), h0...)
		pk.addJtTmp(hg, n, b1, b2, got, mirror, diag)
		cols2ref := pk.cols[pk.blk[b2].c0:pk.blk[b2].c1]
		cubefix3AddJtTmp(hw, n, cols1, j, 3, cols2ref, got, mirror, diag)
		for i := range hw {
			if math.Float64bits(hg[i]) != math.Float64bits(hw[i]) {
				t.Fatalf("trial %d (n %d, a0 %d, c0 %d, mirror %v, diag %v): H[%d] = %v, the loop's %v", trial, n, a0, c0, mirror, diag, i, hg[i], hw[i])
			}
		}
	}
}

// TestCubeslide2CopyBlockRows: copyBlockRows sets H's rows of a clique to
// A's block and zero elsewhere, over an H that holds NaN, for one clique
// covering H (a single free body: one copy) and for cliques that do not.
func TestCubeslide2CopyBlockRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 7))
	for _, sizes := range [][]int{{6}, {1}, {6, 6}, {3, 6, 2}} {
		n := 0
		for _, s := range sizes {
			n += s
		}
		d := denseSystem{n: n, h: make([]float64, n*n)}
		for i := range d.h {
			d.h[i] = math.NaN()
		}
		want := make([]float64, n*n)
		off := 0
		for _, s := range sizes {
			a := make([]float64, s*s)
			for i := range a {
				a[i] = cubefix3Value(rng)
				want[(off+i/s)*n+off+i%s] = a[i]
			}
			d.copyBlockRows(solver.Clique{Offset: off, Size: s}, a)
			off += s
		}
		for i := range want {
			if math.Float64bits(d.h[i]) != math.Float64bits(want[i]) {
				t.Fatalf("cliques %v: H[%d] = %v, want %v", sizes, i, d.h[i], want[i])
			}
		}
	}
}

// TestCubeslide2SixProducts: when every block is a contact's with six
// kept columns (pk.six, as pack sets it), packedJ.mulJ and mulJT (mulJSix,
// mulJTSix) give the general loops' J v and Jᵀ γ to the bit, on packings
// whose blocks share columns, with exact zeros of both signs in J, v and
// γ (a γ with a zero entry takes the per-row loop); a packing with one
// block of five columns is not marked.
func TestCubeslide2SixProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 8))
	for trial := range 500 {
		nv := 6 + rng.IntN(12)
		pk, nr := &packedJ{}, 0
		for range 1 + rng.IntN(8) {
			cols := rng.Perm(nv)[:6]
			slices.Sort(cols)
			c0, v0 := len(pk.cols), len(pk.vals)
			pk.cols = append(pk.cols, cols...)
			for range 18 {
				pk.vals = append(pk.vals, cubefix3Value(rng))
			}
			pk.blk = append(pk.blk, packedBlock{c0: c0, c1: c0 + 6, v0: v0, row: nr, size: 3})
			nr += 3
		}
		if pk.six = pk.allWidth(6); !pk.six {
			t.Fatalf("trial %d: a packing of six-column contacts is not marked", trial)
		}
		v, gamma := make([]float64, nv), make([]float64, nr)
		for i := range v {
			v[i] = cubefix3Value(rng)
		}
		for i := range gamma {
			gamma[i] = cubefix3Value(rng)
			if rng.IntN(3) > 0 {
				gamma[i] = rng.NormFloat64()
			}
		}
		got, want := make([]float64, nr), make([]float64, nr)
		pk.mulJ(v, got, nr)
		predict2MulJ(pk, v, want)
		cubeslide2SameBits(t, trial, "J v", got, want)
		got, want = make([]float64, nv), make([]float64, nv)
		pk.mulJT(gamma, got, nv)
		predict2MulJT(pk, gamma, want)
		cubeslide2SameBits(t, trial, "Jᵀγ", got, want)
		pk.blk[len(pk.blk)-1].c1-- // five columns
		if pk.allWidth(6) {
			t.Fatalf("trial %d: a block of five columns marked six", trial)
		}
	}
}

// cubeslide2SameBits fails the test unless got and want hold the same
// bits entry by entry.
func cubeslide2SameBits(t *testing.T, trial int, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("trial %d: (%s)_%d = %v, the general loop %v", trial, what, i, got[i], want[i])
		}
	}
}
