package solver

import (
	"math"
	"slices"
	"testing"
)

// TestTreemass2FactorTreeMass: on a block with the tree's pattern (a
// tree's M plus a diagonal), FactorTreeMass, which skips the check of the
// entries off the pattern, factors along the tree as Factor does and its
// solves give Factor's bits, over rounds of other values with ±0 off the
// pattern; and Factor, which checks, factors a block with a non-zero off
// the pattern densely (the case FactorTreeMass's callers exclude).
func TestTreemass2FactorTreeMass(t *testing.T) {
	par := humanoidParent
	n := len(par)
	p := &Problem{NV: n, Cliques: []Clique{{Offset: 0, Size: n, AOff: 0, Parent: par}}}
	var checked, kept CliqueFactor
	for round := range 4 {
		p.A = treeA(par)
		for i := range n {
			p.A[i*n+i] += 0.25*float64(round) + 0.125*float64(i%5)
		}
		for k, v := range p.A {
			if v == 0 && (k+round)%2 == 1 {
				p.A[k] = math.Copysign(0, -1)
			}
		}
		if err := checked.Factor(p); err != nil {
			t.Fatal(err)
		}
		if err := kept.FactorTreeMass(p); err != nil {
			t.Fatal(err)
		}
		q := p.Cliques[0]
		if _, tree := checked.TreeFactor(q); !tree {
			t.Fatalf("round %d: Factor did not factor the tree's block along the tree", round)
		}
		if _, tree := kept.TreeFactor(q); !tree {
			t.Fatalf("round %d: FactorTreeMass did not factor along the tree", round)
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = math.Cos(float64(3*i + round))
		}
		x, y := slices.Clone(b), slices.Clone(b)
		checked.Solve(q, x, 1)
		kept.Solve(q, y, 1)
		if !treemassSame(x, y) {
			t.Fatalf("round %d: FactorTreeMass's solve %v, Factor's %v", round, y, x)
		}
	}
	p.A[14*n+n-1], p.A[(n-1)*n+14] = 1e-3, 1e-3 // velocities 14 and n−1 are on different branches
	if err := checked.Factor(p); err != nil {
		t.Fatal(err)
	}
	if _, tree := checked.TreeFactor(p.Cliques[0]); tree {
		t.Fatal("Factor factored a block with a non-zero off the pattern along the tree")
	}
}
