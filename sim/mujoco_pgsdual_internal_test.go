package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/solver"
)

// TestSparseGramMatchesTreeLDLGram: the PGS dual build's sparse Gram
// (sparseGram: each row's y = L⁻ᵀ jᵀ on its own dofs, the sums over the
// dofs two rows share) gives linalg.TreeLDLGram's J A⁻¹ Jᵀ to the bit, on
// random trees of up to 64 dofs with random mass matrices of the tree's
// pattern and rows along random paths to the root (some entries zero,
// rows on two branches, an all-zero row).
func TestSparseGramMatchesTreeLDLGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for trial := range 200 {
		parent, a := randomTreeFactor(t, rng)
		n := len(parent)
		k := 1 + rng.IntN(40)
		j := make([]float64, k*n)
		for r := range k {
			row := j[r*n : (r+1)*n]
			for b := range 1 + rng.IntN(2) { // a row on one or two paths to the root
				if r == k/2 && b == 0 && k > 1 {
					break // an all-zero row
				}
				for i := rng.IntN(n); i >= 0; i = parent[i] {
					if rng.IntN(5) > 0 {
						row[i] = rng.NormFloat64()
					}
				}
			}
		}
		// TreeLDLGram's reference: b is n × k (column r is row r of j).
		b := make([]float64, n*k)
		for r := range k {
			for i := range n {
				b[i*k+r] = j[r*n+i]
			}
		}
		want := make([]float64, k*k)
		linalg.TreeLDLGram(parent, a, b, k, want)
		var d pgsDual
		d.jq = append(d.jq, j...)
		d.gq = make([]float64, k*k)
		d.sparseGram(parent, a, k)
		for x := range want {
			if math.Float64bits(d.gq[x]) != math.Float64bits(want[x]) {
				t.Fatalf("trial %d (n %d, %d rows): entry (%d, %d) = %v, TreeLDLGram's %v", trial, n, k, x/k, x%k, d.gq[x], want[x])
			}
		}
	}
}

// treeMatrix returns a random symmetric positive definite n×n matrix with
// the pattern of the tree parent: Lᵀ D L for a random unit lower L along
// the tree and a positive diagonal D.
func treeMatrix(rng *rand.Rand, parent []int) []float64 {
	n := len(parent)
	l := make([]float64, n*n)
	for i := range n {
		l[i*n+i] = 1
		for j := parent[i]; j >= 0; j = parent[j] {
			l[i*n+j] = rng.NormFloat64()
		}
	}
	a := make([]float64, n*n)
	for i := range n {
		d := 0.1 + rng.Float64()
		for p := range n {
			for q := range n {
				a[p*n+q] += l[i*n+p] * d * l[i*n+q]
			}
		}
	}
	return a
}

// TestPGSJacMatchesMulJ: J v and Jᵀ γ from J's non-zeros alone (pgsJac)
// are solver.Problem.MulJ's and MulJT's to the bit, on random problems of two cliques with
// blocks of 1 to 4 rows (contacts of three rows among them), rows on both
// cliques, sparse and all-zero rows, and velocities with zeros.
func TestPGSJacMatchesMulJ(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2))
	var p solver.Problem
	var j pgsJac
	for trial := range 200 {
		sizes := [2]int{1 + rng.IntN(30), 1 + rng.IntN(10)}
		p.Reset(sizes[0] + sizes[1])
		p.Cliques = append(p.Cliques, solver.Clique{Size: sizes[0]}, solver.Clique{Offset: sizes[0], Size: sizes[1]})
		for range 1 + rng.IntN(20) {
			c := p.AddConstraint(solver.Bilateral, 1+rng.IntN(4))
			for q := range 2 {
				if rng.IntN(3) == 0 {
					continue
				}
				d := p.AddJBlock(c, q)
				for e := range d {
					if rng.IntN(2) == 0 {
						d[e] = rng.NormFloat64()
					}
				}
			}
		}
		v := make([]float64, p.NV)
		for i := range v {
			if rng.IntN(4) > 0 {
				v[i] = rng.NormFloat64()
			}
		}
		want, got := make([]float64, p.NR), make([]float64, p.NR)
		p.MulJ(v, want)
		j.build(&p)
		j.mul(v, got, p.NR)
		for r := range want {
			if math.Float64bits(got[r]) != math.Float64bits(want[r]) {
				t.Fatalf("trial %d: row %d = %v, MulJ's %v", trial, r, got[r], want[r])
			}
		}
		gamma := make([]float64, p.NR) // Jᵀ γ, with some γ_r zero
		for r := range gamma {
			if rng.IntN(3) > 0 {
				gamma[r] = rng.NormFloat64()
			}
		}
		wantT, gotT := make([]float64, p.NV), make([]float64, p.NV)
		p.MulJT(gamma, wantT)
		j.mulT(gamma, gotT, p.NV)
		for i := range wantT {
			if math.Float64bits(gotT[i]) != math.Float64bits(wantT[i]) {
				t.Fatalf("trial %d: (Jᵀγ)_%d = %v, MulJT's %v", trial, i, gotT[i], wantT[i])
			}
		}
	}
}
