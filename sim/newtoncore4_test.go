package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// newtoncore4Cliques returns a random partition of nv velocities into
// cliques, as [lo, hi) ranges in order.
func newtoncore4Cliques(rng *rand.Rand, nv int) [][2]int {
	var cls [][2]int
	for lo := 0; lo < nv; {
		hi := min(nv, lo+1+rng.IntN(8))
		cls = append(cls, [2]int{lo, hi})
		lo = hi
	}
	return cls
}

// TestMulMDenseMatchesMulMat: M x by each row's clique (mulM) gives the bits of mju_dot over the whole row (mulMat, which
// TestDot4MatchesMuJoCo checks against MuJoCo's loop) for a block-diagonal
// M whose entries off the blocks are +0 or −0 and whose blocks and x hold
// exact zeros of both signs. It fails when a window starts off a multiple
// of four (a term goes to another partial sum) or when a clique reaching
// into the row's tail does not take the row to its end.
func TestMulMDenseMatchesMulMat(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 23))
	for trial := range 3000 {
		nv := 1 + rng.IntN(40)
		cls := newtoncore4Cliques(rng, nv)
		nw := &newtonWork{nv: nv, m: make([]float64, nv*nv), mcl: cls}
		for _, cl := range cls {
			for i := cl[0]; i < cl[1]; i++ {
				for c := cl[0]; c < cl[1]; c++ {
					nw.m[i*nv+c] = randomEntry(rng)
				}
			}
		}
		for x := range nw.m { // off the blocks: zeros of both signs
			if nw.m[x] == 0 && rng.IntN(2) == 0 {
				nw.m[x] = math.Copysign(0, -1)
			}
		}
		x := make([]float64, nv)
		for i := range x {
			x[i] = randomEntry(rng)
		}
		got, want := make([]float64, nv), make([]float64, nv)
		nw.mulM(x, got)
		mulMat(nw.m, x, want, nv, nv)
		if !sameBits(got, want) {
			t.Fatalf("trial %d (nv %d, cliques %v): mulM %v, mulMat %v", trial, nv, cls, got, want)
		}
	}
}

// TestHessianDirectCliquesMatchWhole: hessianDirect adding M on its
// cliques' blocks alone, and factoring H with each row's dots from its
// first possible non-zero (firstCols, cholFactorFrom), gives the factor of
// H that M's whole lower triangle (+0 off the blocks) and whole rows give,
// bit for bit, with J's rows coupling the cliques at random. It fails when
// a window does not start on a multiple of four or starts one column late.
func TestHessianDirectCliquesMatchWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 29))
	for trial := range 500 {
		n, nv := rng.IntN(12), 1+rng.IntN(30)
		nw := newtoncore3Rows(rng, n, nv)
		cls := newtoncore4Cliques(rng, nv)
		nw.m, nw.h = make([]float64, nv*nv), make([]float64, nv*nv)
		nw.d, nw.state = make([]float64, n), make([]int8, n)
		for k := range n {
			nw.d[k] = rng.Float64()
			nw.state[k] = int8(rng.IntN(2)) // satisfied or quadratic
		}
		for _, cl := range cls {
			for i := cl[0]; i < cl[1]; i++ {
				for c := cl[0]; c <= i; c++ {
					v := 0.1 * rng.NormFloat64()
					if c == i {
						v = float64(nv) + rng.Float64()
					}
					nw.m[i*nv+c], nw.m[c*nv+i] = v, v
				}
			}
		}
		nw.mcl = cls
		nw.hessianDirect(nil)
		got := append([]float64(nil), nw.h...)
		nw.mcl = nil // M whole
		nw.hessianDirect(nil)
		if !lowerSameBits(got, nw.h, nv) {
			t.Fatalf("trial %d (nv %d, cliques %v): the factors differ", trial, nv, cls)
		}
	}
}
