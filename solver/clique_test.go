package solver

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
)

// humanoidParent is dm_control's humanoid's velocity tree (27 velocities,
// fill 0.64: Branched).
var humanoidParent = []int{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 8, 15, 16, 17, 18, 19, 5, 21, 22, 5, 24, 25}

// TestCliqueFactorTree: a branched clique with the tree's pattern is
// factored along the tree and solves A x = b with a residual of 1e-12
// (against the dense product); an entry between two branches makes it
// fall back to the dense factor, whose result it then is bit for bit; a
// chain is never Branched.
func TestCliqueFactorTree(t *testing.T) {
	n := len(humanoidParent)
	a := make([]float64, n*n)
	for k := range n { // A = Σ_k s_k s_kᵀ + I, s_k on k's path to the root
		s := make([]float64, n)
		for j := k; j >= 0; j = humanoidParent[j] {
			s[j] = math.Sin(float64(7*k + 3*j + 1))
		}
		for i := range n {
			for j := range n {
				a[i*n+j] += s[i] * s[j]
			}
		}
		a[k*n+k]++
	}
	p := &Problem{NV: n, A: a, Cliques: []Clique{{Size: n, Parent: humanoidParent}}}
	if !p.Cliques[0].Branched() {
		t.Fatal("humanoid tree not Branched")
	}
	if (Clique{Size: 4, Parent: []int{-1, 0, 1, 2}}).Branched() {
		t.Error("a chain is Branched")
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = math.Cos(float64(i))
	}
	solve := func(p *Problem) ([]float64, bool) {
		var f CliqueFactor
		if err := f.Factor(p); err != nil {
			t.Fatal(err)
		}
		x := append([]float64(nil), b...)
		f.Solve(p.Cliques[0], x, 1)
		return x, f.tree[0]
	}
	x, tree := solve(p)
	if !tree {
		t.Fatal("tree-patterned block not factored along the tree")
	}
	for i := range n {
		s := 0.0
		for j := range n {
			s += a[i*n+j] * x[j]
		}
		if d := math.Abs(s - b[i]); d > 1e-12*float64(n) {
			t.Errorf("(A x − b)_%d = %.3g", i, d)
		}
	}
	a[14*n+20], a[20*n+14] = 0.01, 0.01 // velocities 14 and 20 are on different legs
	x, tree = solve(p)
	if tree {
		t.Fatal("a block coupling two branches factored along the tree")
	}
	u := append([]float64(nil), a...)
	linalg.CholUpper(n, u)
	y := append([]float64(nil), b...)
	linalg.SolveUpper(n, u, y, 1)
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("coupled block: x[%d] = %v, dense factor %v", i, x[i], y[i])
		}
	}
}
