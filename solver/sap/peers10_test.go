package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestPeers10MulJTOfMatchesMulJT: packedJ.mulJTOf over a list of
// constraints gives mulJT's bits when γ is zero (+0 or −0) on every other
// row, with and without the six-column path (pk.six), on random packings
// grouped into constraints of zero to three blocks, γ with exact zeros of
// both signs on the listed rows too, out filled with NaN first; and that
// the index mulJTOf builds gives each constraint's first block. It fails
// when a listed constraint's first block is left out.
func TestPeers10MulJTOfMatchesMulJT(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 96))
	for trial := range 600 {
		nv := 6 + rng.IntN(12)
		pk, nr := predict2Packed(rng, nv, 1+rng.IntN(10), 6, false)
		if trial%2 == 1 { // every block a six-column contact: the pk.six path
			pk, nr = peers10SixPacked(rng, nv, 1+rng.IntN(10))
		}
		pk.six = pk.allWidth(6)
		p, nc := peers10Group(rng, pk)
		var cons []int
		gamma := make([]float64, nr)
		want := peers10First(p, nc)
		for i := range nc {
			listed := rng.IntN(3) == 0
			if listed {
				cons = append(cons, i)
			}
			for k := want[i]; k < want[i+1]; k++ {
				bl := &pk.blk[k]
				for r := bl.row; r < bl.row+bl.size; r++ {
					gamma[r] = math.Copysign(0, float64(rng.IntN(2))-0.5)
					if listed && rng.IntN(5) > 0 {
						gamma[r] = cubefix3Value(rng)
					}
				}
			}
		}
		got, jt := make([]float64, nv), make([]float64, nv)
		for i := range got {
			got[i] = math.NaN() // mulJTOf clears out
		}
		pk.first = pk.first[:0] // as pack leaves it: mulJTOf indexes p's blocks
		pk.mulJTOf(p, cons, gamma, got, nv)
		pk.mulJT(gamma, jt, nv)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(jt[i]) {
				t.Fatalf("trial %d: (Jᵀγ)_%d over %v = %v, mulJT %v", trial, i, cons, got[i], jt[i])
			}
		}
		for i := range want {
			if pk.first[i] != want[i] {
				t.Fatalf("trial %d: first block of constraint %d = %d, want %d", trial, i, pk.first[i], want[i])
			}
		}
	}
}

// peers10SixPacked is predict2Packed with every block a contact's three
// rows on six columns.
func peers10SixPacked(rng *rand.Rand, nv, nb int) (*packedJ, int) {
	pk := &packedJ{}
	for k := range nb {
		cols := rng.Perm(nv)[:6]
		for i := 1; i < len(cols); i++ { // sort increasing
			for j := i; j > 0 && cols[j] < cols[j-1]; j-- {
				cols[j], cols[j-1] = cols[j-1], cols[j]
			}
		}
		c0, v0 := len(pk.cols), len(pk.vals)
		pk.cols = append(pk.cols, cols...)
		for range 18 {
			pk.vals = append(pk.vals, cubefix3Value(rng))
		}
		pk.blk = append(pk.blk, packedBlock{c0: c0, c1: c0 + 6, v0: v0, row: 3 * k, size: 3})
	}
	return pk, 3 * nb
}

// peers10Group assigns pk's blocks, in order, to constraints of zero to
// three blocks and returns a problem with those blocks (J's blocks sorted
// by constraint, as solver.Problem keeps them) and the number of
// constraints.
func peers10Group(rng *rand.Rand, pk *packedJ) (*solver.Problem, int) {
	p := &solver.Problem{}
	nc := 0
	for b := 0; b < len(pk.blk); nc++ {
		for range min(rng.IntN(4), len(pk.blk)-b) {
			p.JBlock = append(p.JBlock, solver.JBlock{Constraint: nc})
			b++
		}
	}
	nc += rng.IntN(2) // at times a last constraint without blocks
	p.Constraints = make([]solver.Constraint, nc)
	return p, nc
}

// peers10First returns the first block of each of p's nc constraints and
// the end of the last, counted block by block.
func peers10First(p *solver.Problem, nc int) []int {
	first := make([]int, nc+1)
	for i := range nc + 1 {
		for _, blk := range p.JBlock {
			if blk.Constraint < i {
				first[i]++
			}
		}
	}
	return first
}
