package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/solver"
)

// randomTreeProblem returns a problem of random tree cliques (sizes 1 … 9,
// parents before children) over nv velocities whose blocks are symmetric
// with zeros of random sign off the tree's pattern (as MassMatrix leaves
// them), and a v over them; a few entries of v are NaN or ±Inf when bad.
func randomTreeProblem(rng *rand.Rand, bad bool) (*solver.Problem, []float64) {
	p := &solver.Problem{}
	nv, aoff := 0, 0
	for range 1 + rng.IntN(4) {
		n := 1 + rng.IntN(9)
		parent := make([]int, n)
		for i := range parent {
			parent[i] = rng.IntN(i+1) - 1 // −1: a root
		}
		p.Cliques = append(p.Cliques, solver.Clique{Offset: nv, Size: n, AOff: aoff, Parent: parent})
		blk := make([]float64, n*n)
		for i := range n {
			for j := i; j >= 0; j = parent[j] {
				x := rng.NormFloat64()
				blk[i*n+j], blk[j*n+i] = x, x
			}
		}
		for k, x := range blk {
			if x == 0 && rng.IntN(2) == 0 {
				blk[k] = math.Copysign(0, -1)
			}
		}
		p.A = append(p.A, blk...)
		nv, aoff = nv+n, aoff+n*n
	}
	p.NV = nv
	p.VStar, p.MDiag = make([]float64, nv), make([]float64, nv)
	v := make([]float64, nv)
	for i := range v {
		p.VStar[i], p.MDiag[i], v[i] = rng.NormFloat64(), 1, rng.NormFloat64()
		if rng.IntN(5) == 0 {
			v[i] = p.VStar[i] // a zero difference
		}
	}
	if bad {
		v[rng.IntN(nv)] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
	}
	return p, v
}

// TestProductsMatchMassProducts checks what mapVelocity's reuse of e_m's
// A(v − v*) rests on: pgsMomentum.products' r is, bit for bit, the
// clique's linalg.MulVec and treeMulPattern.mul (massTimesDiff's
// product) of the same difference, for finite and non-finite v.
func TestProductsMatchMassProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 170))
	for trial := range 3000 {
		p, v := randomTreeProblem(rng, trial%3 == 0)
		var m pgsMomentum
		m.size(p.NV)
		m.products(p, v)
		for c, q := range p.Cliques {
			x := m.diff[q.Offset : q.Offset+q.Size]
			want, pat := make([]float64, q.Size), make([]float64, q.Size)
			linalg.MulVec(q.Size, p.ABlock(c), x, want)
			var pt treeMulPattern
			pt.mul(q.Parent, p.ABlock(c), x, pat)
			for i := range want {
				got := m.r[q.Offset+i]
				if math.Float64bits(got) != math.Float64bits(want[i]) || math.Float64bits(got) != math.Float64bits(pat[i]) {
					t.Fatalf("trial %d clique %d row %d: products %v, MulVec %v, pattern %v", trial, c, i, got, want[i], pat[i])
				}
			}
		}
	}
}

// TestProductsForHandsOutOnce checks pgsMomentum.productsFor: r only for
// the array products read (not an equal copy) and a v − v* equal to its
// difference bit for bit (−0 is not +0), and once.
func TestProductsForHandsOutOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 171))
	p, v := randomTreeProblem(rng, false)
	var m pgsMomentum
	m.size(p.NV)
	form := func() {
		m.products(p, v)
		m.a = p.A // as stats sets it
	}
	form()
	if m.productsFor(append([]float64(nil), p.A...), v, p.VStar) != nil {
		t.Fatal("r handed out for a copy of A")
	}
	form()
	if r := m.productsFor(p.A, v, p.VStar); len(r) != p.NV || &r[0] != &m.r[0] {
		t.Fatal("r not handed out for its own A and difference")
	}
	if m.productsFor(p.A, v, p.VStar) != nil {
		t.Fatal("r handed out twice")
	}
	v[0] = p.VStar[0]
	form() // diff[0] = +0
	vs := append([]float64(nil), p.VStar...)
	v[0], vs[0] = math.Copysign(0, -1), 0 // −0 − (+0) = −0
	if m.productsFor(p.A, v, vs) != nil {
		t.Fatal("r handed out for −0 in place of +0")
	}
	form()
	if m.productsFor(p.A, v[:len(v)-1], p.VStar) != nil {
		t.Fatal("r handed out for a shorter v")
	}
}
