package solver_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// TestMulJTSkipsZeroImpulses: MulJT, which skips the rows whose γ_r is
// zero, gives Jᵀγ as the dense J's product over every row does, bit for
// bit, on random problems with half of γ zero.
func TestMulJTSkipsZeroImpulses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	kinds := []solver.Kind{solver.ContactCone, solver.Bilateral, solver.Interval}
	for trial := range 20 {
		p := problems.Random(rng, 1+trial%4, kinds, 0.025)
		gamma := make([]float64, p.NR)
		for i := range gamma {
			if rng.IntN(2) == 0 {
				gamma[i] = rng.NormFloat64()
			}
		}
		got := make([]float64, p.NV)
		p.MulJT(gamma, got)
		j := p.DenseJ()
		for c := range p.NV {
			want := 0.0
			for r := range p.NR {
				want += j[r*p.NV+c] * gamma[r]
			}
			if got[c] != want {
				t.Fatalf("trial %d: (Jᵀγ)_%d = %v, the dense product gives %v", trial, c, got[c], want)
			}
		}
	}
}

// TestMulJRowSums: MulJ, which sums a contact's three rows in one pass over
// v, gives each row of J v with the bits of the row's own sum over its
// blocks, each block's products added in column order, on random problems
// with contact, bilateral and interval rows.
func TestMulJRowSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	kinds := []solver.Kind{solver.ContactCone, solver.ContactLagged, solver.Bilateral, solver.Interval}
	for trial := range 20 {
		p := problems.Random(rng, 1+trial%4, kinds, 0.025)
		v := make([]float64, p.NV)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		want := make([]float64, p.NR)
		for b, blk := range p.JBlock {
			q, c := p.Cliques[blk.Clique], p.Constraints[blk.Constraint]
			d := p.JBlockData(b)
			for r := range c.Size {
				s := 0.0
				for j := range q.Size {
					s += d[r*q.Size+j] * v[q.Offset+j]
				}
				want[c.Row+r] += s
			}
		}
		got := make([]float64, p.NR)
		p.MulJ(v, got)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: (J v)[%d] = %v, row by row %v", trial, i, got[i], want[i])
			}
		}
	}
}

// TestMulARowSums: MulA, which sums two rows of a clique's block in one
// pass over x, gives each row of A x with the bits of the row's own sum in
// column order, on cliques of odd and even sizes (1 to 9).
func TestMulARowSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	p := &solver.Problem{}
	for n := 1; n <= 9; n++ {
		p.Reset(2*n + 1)
		sizes := []int{n, n + 1}
		off := 0
		for _, k := range sizes {
			p.Cliques = append(p.Cliques, solver.Clique{Offset: off, Size: k, AOff: len(p.A)})
			for range k * k {
				p.A = append(p.A, rng.NormFloat64())
			}
			off += k
		}
		x := make([]float64, p.NV)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		got := make([]float64, p.NV)
		p.MulA(x, got)
		for c, q := range p.Cliques {
			a := p.ABlock(c)
			for i := range q.Size {
				want := 0.0
				for j := range q.Size {
					want += a[i*q.Size+j] * x[q.Offset+j]
				}
				if g := got[q.Offset+i]; math.Float64bits(g) != math.Float64bits(want) {
					t.Fatalf("size %d: (A x)[%d] = %v, row by row %v", q.Size, q.Offset+i, g, want)
				}
			}
		}
	}
}
