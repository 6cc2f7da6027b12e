package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// The dense port's glue (mujoco_pgs.go, mujoco_pgsdual.go) against the
// plain forms it replaces, bit for bit, on random problems whose J blocks
// hold exact zeros of both signs.

// portglue5Problem returns a random problem: nv velocities in random
// cliques, random constraints (1–6 rows) with J blocks on a random
// ascending subset of the cliques, a quarter of their entries ±0 (and
// whole rows zero now and then).
func portglue5Problem(rng *rand.Rand) *solver.Problem {
	p := &solver.Problem{}
	nv := 1 + rng.IntN(24)
	p.Reset(nv)
	for off := 0; off < nv; {
		size := min(nv-off, 1+rng.IntN(9))
		p.Cliques = append(p.Cliques, solver.Clique{Offset: off, Size: size})
		off += size
	}
	for range rng.IntN(12) {
		size := 1 + rng.IntN(6)
		c := p.AddConstraint(solver.Bilateral, size)
		for q := range p.Cliques {
			if rng.IntN(3) == 0 {
				continue
			}
			blk := p.AddJBlock(c, q)
			zero := rng.IntN(8) == 0
			for i := range blk {
				if !zero {
					blk[i] = randomEntry(rng)
				}
			}
		}
	}
	return p
}

// TestPortglue5BuildMulMatchesBuildAndMul: buildMul(p, v, vc) builds the
// same non-zeros and segments as build, and its vc is mul's and
// Problem.MulJ's J v to the bit (random finite v, vc holding junk).
func TestPortglue5BuildMulMatchesBuildAndMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 23))
	var one, two pgsJac
	for trial := range 3000 {
		p := portglue5Problem(rng)
		v := make([]float64, p.NV)
		for i := range v {
			v[i] = randomEntry(rng)
		}
		got, want, mj := make([]float64, p.NR), make([]float64, p.NR), make([]float64, p.NR)
		for k := range got {
			got[k] = rng.NormFloat64() // buildMul must overwrite it
		}
		one.buildMul(p, v, got)
		two.build(p)
		two.mul(v, want, p.NR)
		p.MulJ(v, mj)
		if !slices.Equal(one.seg, two.seg) || !slices.Equal(one.idx, two.idx) || !sameBits(one.val, two.val) {
			t.Fatalf("trial %d: buildMul's non-zeros differ from build's", trial)
		}
		if !sameBits(got, want) || !sameBits(got, mj) {
			t.Fatalf("trial %d: buildMul's J v %v, mul's %v, MulJ's %v", trial, got, want, mj)
		}
	}
}

// TestPortglue5MulA2: pgsMomentum.products (rows two at a time, an odd
// clique's last row paired with itself) gives each row's two sums from +0
// in column order, as linalg.MulVec forms them, bit for bit, on random
// problems of 1–3 cliques of sizes 1 … 20 with ±0 entries.
func TestPortglue5MulA2(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 2))
	for trial := range 2000 {
		p := randomCliques(rng, 3, 20, func() float64 { return randomEntry(rng) })
		nv := len(p.VStar)
		v := make([]float64, nv)
		for i := range v {
			v[i], p.VStar[i] = randomEntry(rng), randomEntry(rng)
		}
		var m pgsMomentum
		m.size(nv)
		m.products(p, v)
		for c, q := range p.Cliques {
			a, n := p.ABlock(c), q.Size
			for i := range n {
				s, u := 0.0, 0.0
				for j := range n {
					s += a[i*n+j] * (v[q.Offset+j] - p.VStar[q.Offset+j])
					u += a[i*n+j] * v[q.Offset+j]
				}
				k := q.Offset + i
				if !sameBits([]float64{m.r[k], m.av[k]}, []float64{s, u}) {
					t.Fatalf("trial %d (clique %d of %d, row %d): products %v %v, plain %v %v", trial, c, n, i, m.r[k], m.av[k], s, u)
				}
			}
		}
	}
}
