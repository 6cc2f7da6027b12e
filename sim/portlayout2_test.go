package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPortlayout2TurnMassWritesEveryEntry: turnMass, which copies only the
// rows off the angular blocks and leaves the blocks' rows to blockRows and
// blockColumns, sets every entry of its window to the bits of the dense
// Tᵀ M_w T (sums from +0 over all the window's terms, T the identity but
// on the blocks' random rotations), with the window's m filled with NaN
// beforehand, M_w holding ±0, and the blocks at random places (adjacent,
// apart, first, last, none) in windows of a wider M (the sparse port's
// cliques); turnBlocks alone writes the blocks' rows and columns and no
// other entry. It fails if an entry of a block's row is left unwritten.
func TestPortlayout2TurnMassWritesEveryEntry(t *testing.T) {
	rng := rand.New(rand.NewPCG(86, 87))
	entry := signedZerosOrNormal(rng)
	for trial := range 2000 {
		nv := 1 + rng.IntN(16)
		nw := &newtonWork{nv: nv, tcol: make([]float64, 3*nv)}
		for o := 0; o+3 <= nv; {
			if rng.IntN(3) == 0 {
				nw.blocks = append(nw.blocks, o)
				o += 3
				continue
			}
			o++
		}
		rng.Shuffle(len(nw.blocks), func(a, b int) { nw.blocks[a], nw.blocks[b] = nw.blocks[b], nw.blocks[a] })
		nw.markBlocks()
		nw.rot = make([]float64, 9*len(nw.blocks))
		for i := range nw.rot {
			nw.rot[i] = entry()
		}
		off, n := portlayout2Window(nw, rng)
		mw := make([]float64, n*n)
		for i := range mw {
			mw[i] = entry()
		}
		tm := portlayout2T(nw, n, off)
		want := portlayout2Dense(mw, tm, n)
		m := make([]float64, n*n)
		for i := range m {
			m[i] = math.NaN()
		}
		nw.turnMass(mw, m, n, off)
		for x := range m {
			if math.Float64bits(m[x]) != math.Float64bits(want[x]) {
				t.Fatalf("trial %d (nv %d, blocks %v, window %d+%d): M[%d,%d] = %v, dense %v",
					trial, nv, nw.blocks, off, n, x/n, x%n, m[x], want[x])
			}
		}
		sentinel := math.Inf(1)
		for i := range m {
			m[i] = sentinel
		}
		nw.turnBlocks(mw, m, n, off)
		for x := range m {
			on := nw.blk[off+x/n] >= 0 || nw.blk[off+x%n] >= 0
			if on && math.Float64bits(m[x]) != math.Float64bits(want[x]) || !on && m[x] != sentinel {
				t.Fatalf("trial %d: turnBlocks M[%d,%d] = %v (on a block %v), dense %v", trial, x/n, x%n, m[x], on, want[x])
			}
		}
	}
}

// portlayout2Window picks a window off … off+n−1 of nw's velocities that
// cuts no angular block: the whole of them half of the time.
func portlayout2Window(nw *newtonWork, rng *rand.Rand) (int, int) {
	var cuts []int // the places a window may start or end
	for o := 0; o <= nw.nv; o++ {
		if o == 0 || o == nw.nv || nw.blk[o] < 0 || nw.blocks[nw.blk[o]] == o {
			cuts = append(cuts, o)
		}
	}
	if rng.IntN(2) == 0 {
		return 0, nw.nv
	}
	a := cuts[rng.IntN(len(cuts)-1)]
	var ends []int
	for _, c := range cuts {
		if c > a {
			ends = append(ends, c)
		}
	}
	return a, ends[rng.IntN(len(ends))] - a
}

// portlayout2T returns T on the window, n×n row-major: the identity but on
// the angular blocks, T[o+r, o+c] = rot[9b+3r+c] (tCol's layout).
func portlayout2T(nw *newtonWork, n, off int) []float64 {
	tm := make([]float64, n*n)
	for i := range n {
		tm[i*n+i] = 1
	}
	for b, o := range nw.blocks {
		if o < off || o >= off+n {
			continue
		}
		for r := range 3 {
			for c := range 3 {
				tm[(o-off+r)*n+o-off+c] = nw.rot[9*b+3*r+c]
			}
		}
	}
	return tm
}

// portlayout2Dense returns Tᵀ M_w T by dense sums from +0 (M_w T first).
func portlayout2Dense(mw, tm []float64, n int) []float64 {
	return portlayout2Mul(tm, portlayout2Mul(mw, tm, n, false), n, true)
}

// portlayout2Mul returns a b (aᵀ b when ta), n×n row-major, each entry a
// sum from +0 over c = 0 … n−1.
func portlayout2Mul(a, b []float64, n int, ta bool) []float64 {
	out := make([]float64, n*n)
	for r := range n {
		for i := range n {
			s := 0.0
			for c := range n {
				x := a[r*n+c]
				if ta {
					x = a[c*n+r]
				}
				s += x * b[c*n+i]
			}
			out[r*n+i] = s
		}
	}
	return out
}
