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
	a := treeA(humanoidParent) // A = Σ_k s_k s_kᵀ + I, s_k on k's path to the root
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

// treeA returns the n×n A = Σ_k s_k s_kᵀ + I with s_k on k's path to the
// root of parent: A has the tree's pattern.
func treeA(parent []int) []float64 {
	n := len(parent)
	a := make([]float64, n*n)
	for k := range n {
		s := make([]float64, n)
		for j := k; j >= 0; j = parent[j] {
			s[j] = math.Sin(float64(7*k + 3*j + 1))
		}
		for i := range n {
			for j := range n {
				a[i*n+j] += s[i] * s[j]
			}
		}
		a[k*n+k]++
	}
	return a
}

// TestCliqueFactorShapeCache: one CliqueFactor reused across factorizations
// whose A couples branches or not, whose Parent is changed in place (to a
// chain and back) and whose clique changes size decides as a fresh one
// does (tree or dense) and holds the same factor bit for bit: the cached
// tree shape follows Parent, and A's values are checked every time.
func TestCliqueFactorShapeCache(t *testing.T) {
	n := len(humanoidParent)
	parent := append([]int(nil), humanoidParent...)
	coupled := treeA(parent)
	coupled[14*n+20], coupled[20*n+14] = 0.01, 0.01
	chain := make([]int, n)
	for i := range chain {
		chain[i] = i - 1
	}
	small := []int{-1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4}
	steps := []struct {
		name   string
		parent []int // copied into the clique's Parent in place
		a      []float64
		tree   bool
	}{
		{"chain", chain, treeA(chain), false},
		{"tree in place of the chain", humanoidParent, treeA(humanoidParent), true},
		{"coupled", humanoidParent, coupled, false},
		{"tree again", humanoidParent, treeA(humanoidParent), true},
		{"chain in place", chain, treeA(chain), false},
		{"tree in place", humanoidParent, treeA(humanoidParent), true},
		{"smaller clique", small, treeA(small), true},
		{"tree once more", humanoidParent, treeA(humanoidParent), true},
	}
	var reused CliqueFactor
	for _, s := range steps {
		parent = append(parent[:0], s.parent...)
		p := &Problem{NV: len(parent), A: s.a, Cliques: []Clique{{Size: len(parent), Parent: parent}}}
		var fresh CliqueFactor
		if err := fresh.Factor(p); err != nil {
			t.Fatal(err)
		}
		if err := reused.Factor(p); err != nil {
			t.Fatal(err)
		}
		got, gotTree := reused.TreeFactor(p.Cliques[0])
		want, wantTree := fresh.TreeFactor(p.Cliques[0])
		if gotTree != s.tree || wantTree != s.tree {
			t.Fatalf("%s: tree factor %v (fresh %v), want %v", s.name, gotTree, wantTree, s.tree)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: factor entry %d = %v, fresh factor %v", s.name, i, got[i], want[i])
			}
		}
	}
}
