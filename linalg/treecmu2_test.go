package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTreecmu2FactorDeepPaths: TreeRows' factor, which updates four
// ancestors' rows a turn, then two, then the root's, gives TreeLDL's bits
// on every path length 1…70 (so every count of ancestors modulo 4 and
// every tail of the turns' inner loops), on chains and on brooms (a chain
// whose last velocity has several leaves, and a chain hanging from a
// branch), with entries over many orders of magnitude and exact zeros in
// L's pattern; and Solve1 after it gives TreeLDLSolve's bits.
func TestTreecmu2FactorDeepPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(86, 2))
	var rows TreeRows
	for n := 1; n <= 70; n++ {
		chain := make([]int, n)
		for i := range chain {
			chain[i] = i - 1
		}
		broom := append(slices.Clone(chain), n-1, n-1, n-1)
		hang := append(slices.Clone(chain), n/2, n, n+1, n+2, n+3)
		for name, parent := range map[string][]int{"chain": chain, "broom": broom, "hang": hang} {
			m := len(parent)
			rows.Reset(parent)
			a := treeSPD(r, parent)
			for i := range m { // zeros in L's pattern, scales over 2⁻¹⁰…2¹⁰
				for j := parent[i]; j >= 0; j = parent[j] {
					if r.IntN(5) == 0 {
						a[j*m+i], a[i*m+j] = 0, 0
					}
				}
				a[i*m+i] *= math.Ldexp(1, r.IntN(20)-10)
				a[i*m+i] += float64(m)
			}
			want, got := slices.Clone(a), slices.Clone(a)
			okW, okG := TreeLDL(parent, want), rows.Factor(got)
			if okW != okG || !treemassSameBits(want, got) {
				t.Fatalf("%s n=%d: Factor differs from TreeLDL (ok %v %v)", name, n, okW, okG)
			}
			b := make([]float64, m)
			for i := range b {
				b[i] = r.NormFloat64()
			}
			x1, x2 := slices.Clone(b), slices.Clone(b)
			TreeLDLSolve(parent, want, x1, 1)
			rows.Solve1(x2)
			if !treemassSameBits(x1, x2) {
				t.Fatalf("%s n=%d: Solve1 differs from TreeLDLSolve", name, n)
			}
		}
	}
}
