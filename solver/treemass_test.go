package solver

import (
	"math"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
)

// treemassSame reports whether x and y agree bit for bit.
func treemassSame(x, y []float64) bool {
	return slices.EqualFunc(x, y, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
}

// TestTreemassCliqueReaders: a problem with a dense clique and two
// tree-factored cliques (linalg.TreeRows, whose factor reaches the block
// only when a reader asks: treeShape.unpacked) gives every reader
// linalg.TreeLDL's bits: Solve with one and three columns against
// TreeLDLSolve, Delassus against TreeLDLGram, InvDiag against
// TreeLDLInvDiag, TreeFactor's block against TreeLDL's whole block, in
// either order and after a second Factor of other values (fails when the
// unpacked flag is not reset or a reader skips the unpack).
func TestTreemassCliqueReaders(t *testing.T) {
	par := humanoidParent
	n := len(par)
	blk := treeA(par)
	p := &Problem{NV: 3 + 2*n, Cliques: []Clique{
		{Offset: 0, Size: 3, AOff: 0},
		{Offset: 3, Size: n, AOff: 9, Parent: par},
		{Offset: 3 + n, Size: n, AOff: 9 + n*n, Parent: par},
	}}
	p.A = make([]float64, 9+2*n*n)
	p.A[0], p.A[4], p.A[8] = 2, 3, 4
	var f CliqueFactor
	for round := range 3 {
		for c := 1; c <= 2; c++ {
			q := p.Cliques[c]
			copy(p.A[q.AOff:], blk)
			for i := range n { // other values each round and clique
				p.A[q.AOff+i*n+i] += float64(round+c) + 0.125*float64(i)
			}
		}
		if err := f.Factor(p); err != nil {
			t.Fatal(err)
		}
		for c := 1; c <= 2; c++ {
			q := p.Cliques[c]
			want := slices.Clone(p.A[q.AOff : q.AOff+n*n])
			if !linalg.TreeLDL(par, want) {
				t.Fatal("TreeLDL failed")
			}
			b := make([]float64, 3*n)
			for i := range b {
				b[i] = math.Sin(float64(5*i + round + c))
			}
			if (round+c)%2 == 0 { // the dense readers first, then the solves
				checkTreemassDense(t, &f, q, want, b)
			}
			for _, cols := range []int{1, 3} {
				x, y := slices.Clone(b[:n*cols]), slices.Clone(b[:n*cols])
				f.Solve(q, x, cols)
				linalg.TreeLDLSolve(par, want, y, cols)
				if !treemassSame(x, y) {
					t.Fatalf("round %d clique %d: Solve with %d columns differs from TreeLDLSolve", round, c, cols)
				}
			}
			checkTreemassDense(t, &f, q, want, b)
		}
	}
}

// checkTreemassDense checks TreeFactor, Delassus and InvDiag of the
// tree-factored clique q of f against TreeLDL's factor want.
func checkTreemassDense(t *testing.T, f *CliqueFactor, q Clique, want, b []float64) {
	t.Helper()
	n := q.Size
	got, tree := f.TreeFactor(q)
	if !tree || !treemassSame(got, want) {
		t.Fatalf("clique at %d: TreeFactor (tree %v) differs from TreeLDL's block", q.Offset, tree)
	}
	j := b[:2*n] // two rows of a J block on the clique
	w1, w2 := make([]float64, 4), make([]float64, 4)
	f.Delassus(q, j, 2, make([]float64, 2*n), w1)
	y := make([]float64, 2*n)
	for r := range 2 {
		for i := range n {
			y[i*2+r] = j[r*n+i]
		}
	}
	linalg.TreeLDLGram(q.Parent, want, y, 2, w2)
	if !treemassSame(w1, w2) {
		t.Fatalf("clique at %d: Delassus %v, TreeLDLGram %v", q.Offset, w1, w2)
	}
	scratch := make([]float64, n)
	for i := range n {
		if g, w := f.InvDiag(q, i, scratch), linalg.TreeLDLInvDiag(q.Parent, want, i, scratch); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("clique at %d: InvDiag(%d) = %v, TreeLDLInvDiag %v", q.Offset, i, g, w)
		}
	}
}
