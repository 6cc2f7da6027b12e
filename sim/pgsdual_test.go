package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
)

// TestPgsdualSubst4MatchesOneRow: sparseGram with its rows four at a time
// (subst4, runs cut by d.ends) gives the Gram of the one-row substitution
// (subst1 per row, transcribing the build before subst4) to the bit, on
// random trees of up to 64 dofs: runs of four rows on one shared path
// (a pyramid contact's rows, some entries ±0 in one row and not in
// another), rows on other paths in the same four, all-zero rows, runs of
// every length, and the rows past the last end.
func TestPgsdualSubst4MatchesOneRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 78))
	for trial := range 500 {
		parent, a := randomTreeFactor(t, rng)
		n := len(parent)
		k := 1 + rng.IntN(24)
		j := make([]float64, k*n)
		leaf := rng.IntN(n)
		for r := range k {
			if rng.IntN(3) == 0 {
				leaf = rng.IntN(n) // a new contact's path; otherwise the last row's
			}
			row := j[r*n : (r+1)*n]
			switch rng.IntN(8) {
			case 0: // all zero
			case 1:
				row[rng.IntN(n)] = rng.NormFloat64() // a limit's row
			default:
				for i := leaf; i >= 0; i = parent[i] {
					switch rng.IntN(6) {
					case 0:
					case 1:
						row[i] = math.Copysign(0, -1)
					default:
						row[i] = rng.NormFloat64()
					}
				}
			}
		}
		var ends []int
		for e := 0; e < k; {
			e += 1 + rng.IntN(6)
			if e < k || rng.IntN(2) == 0 {
				ends = append(ends, min(e, k))
			}
		}
		want := oneRowGram(parent, a, j, k)
		var d pgsDual
		d.jq = append(d.jq, j...)
		d.gq = make([]float64, k*k)
		d.ends = ends
		d.sparseGram(parent, a, k)
		for x := range want {
			if math.Float64bits(d.gq[x]) != math.Float64bits(want[x]) {
				t.Fatalf("trial %d (n %d, %d rows, ends %v): entry (%d, %d) = %v, one row at a time %v",
					trial, n, k, ends, x/k, x%k, d.gq[x], want[x])
			}
		}
	}
}

// oneRowGram is sparseGram's Gram with every row substituted on its own
// (subst1): J A⁻¹ Jᵀ for the k rows of j (k × n).
func oneRowGram(parent []int, a, j []float64, k int) []float64 {
	n := len(parent)
	y := append([]float64(nil), j...)
	z := make([]float64, k*n)
	dinv := make([]float64, n)
	for i := range n {
		dinv[i] = 1 / a[i*n+i]
	}
	m := make([]uint64, k)
	for r := range k {
		m[r] = subst1(parent, a, dinv, y[r*n:(r+1)*n], z[r*n:(r+1)*n])
	}
	g := make([]float64, k*k)
	for r := range k {
		for c := r; c < k; c++ { // z_r · y_c, mirrored
			s := 0.0
			for i := range n {
				if m[r]&m[c]&(1<<uint(i)) != 0 {
					s += z[r*n+i] * y[c*n+i]
				}
			}
			g[r*k+c], g[c*k+r] = s, s
		}
	}
	return g
}

// randomTreeFactor returns a random forest of 1 to 64 dofs (a chain, or a
// branch at a random earlier dof, −1 a new root) and the TreeLDL factor of
// a random mass matrix of its pattern (treeMatrix).
func randomTreeFactor(t *testing.T, rng *rand.Rand) ([]int, []float64) {
	t.Helper()
	n := 1 + rng.IntN(64)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i - 1
		if i > 0 && rng.IntN(3) == 0 {
			parent[i] = rng.IntN(i+1) - 1
		}
	}
	a := treeMatrix(rng, parent)
	if !linalg.TreeLDL(parent, a) {
		t.Fatalf("factor failed (n %d)", n)
	}
	return parent, a
}
