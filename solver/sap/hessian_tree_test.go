package sap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// treeParent is dm_control humanoid's velocity tree (27 velocities: the
// free root, the abdomen, two legs from velocity 8, two arms from 5).
var treeParent = []int{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 8, 15, 16, 17, 18, 19, 5, 21, 22, 5, 24, 25}

// treeProblem returns a one-clique problem on treeParent whose A has the
// tree's pattern (A = Σ_k s_k s_kᵀ + I, s_k supported on k's path to the
// root), with a contact whose J is non-zero on the path of velocity leaf
// to the root and, if cross, a second one non-zero on both legs (the
// paths of velocities 14 and 20).
func treeProblem(rng *rand.Rand, leaf int, cross bool) *solver.Problem {
	n := len(treeParent)
	onPath := func(k, j int) bool {
		for i := k; i >= 0; i = treeParent[i] {
			if i == j {
				return true
			}
		}
		return false
	}
	a := make([]float64, n*n)
	for k := range n {
		s := make([]float64, n)
		for j := range n {
			if onPath(k, j) {
				s[j] = rng.NormFloat64()
			}
		}
		for i := range n {
			for j := range n {
				a[i*n+j] += s[i] * s[j]
			}
		}
		a[k*n+k]++
	}
	jac := func(leaves ...int) []float64 {
		j := make([]float64, 3*n)
		for r := range 3 {
			for c := range n {
				for _, l := range leaves {
					if onPath(l, c) {
						j[r*n+c] = rng.NormFloat64()
					}
				}
			}
		}
		return j
	}
	specs := []contactSpec{{cliques: []int{0}, j: [][]float64{jac(leaf)}}}
	if cross {
		specs = append(specs, contactSpec{cliques: []int{0}, j: [][]float64{jac(14, 20)}})
	}
	p := buildProblem([][]float64{a}, specs)
	p.Cliques[0].Parent = treeParent
	return p
}

// TestDenseSystemAlongTree: SAP's dense Newton system of a branched tree
// whose contacts do not couple its branches is factored along the tree
// (linalg.TreeLDL), and its solution agrees with the dense Cholesky's to
// 1e-12 relative; a contact coupling the two legs breaks the pattern, and
// the dense factor is used, bit for bit. The solver's system (packed J,
// upper triangle, the pattern known from the rows' paths) gives the same
// bits.
func TestDenseSystemAlongTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 20 {
		for _, cross := range []bool{false, true} {
			p := treeProblem(rng, rng.IntN(len(treeParent)), cross)
			goff := []int{0}
			var g []float64
			for range p.Constraints { // G_i = B Bᵀ, symmetric positive semidefinite
				var b [9]float64
				for k := range b {
					b[k] = rng.NormFloat64()
				}
				for r := range 3 {
					for c := range 3 {
						g = append(g, b[3*r]*b[3*c]+b[3*r+1]*b[3*c+1]+b[3*r+2]*b[3*c+2])
					}
				}
				goff = append(goff, len(g))
			}
			rhs := make([]float64, p.NV)
			for i := range rhs {
				rhs[i] = rng.NormFloat64()
			}
			var tree, dense denseSystem
			tree.assemble(p, g, goff)
			packed := denseSystem{upper: true} // the solver's: packed J, upper H, the pattern from the paths
			if err := packed.setup(p); err != nil {
				t.Fatal(err)
			}
			packed.assemble(p, g, goff)
			if !packed.factor() || packed.chains == cross || packed.tree == cross {
				t.Fatalf("trial %d, cross %v: packed system: rows on paths %v, tree factor %v", trial, cross, packed.chains, packed.tree)
			}
			p.Cliques[0].Parent = nil
			dense.assemble(p, g, goff)
			if !tree.factor() || !dense.factor() {
				t.Fatalf("trial %d: H not positive definite", trial)
			}
			if tree.tree == cross || dense.tree {
				t.Fatalf("trial %d, cross %v: tree factor used %v, dense problem %v", trial, cross, tree.tree, dense.tree)
			}
			x, y := append([]float64(nil), rhs...), append([]float64(nil), rhs...)
			tree.solve(x)
			dense.solve(y)
			z := append([]float64(nil), rhs...)
			packed.solve(z)
			for i := range x {
				if z[i] != x[i] {
					t.Fatalf("trial %d: x[%d] = %v from the packed system, %v from the full one", trial, i, z[i], x[i])
				}
				if cross && x[i] != y[i] {
					t.Fatalf("trial %d: coupled legs: x[%d] = %v, dense %v", trial, i, x[i], y[i])
				}
				if d := math.Abs(x[i] - y[i]); d > 1e-12*(1+math.Abs(y[i])) {
					t.Fatalf("trial %d: x[%d] = %v along the tree, %v dense (|Δ| = %.3g)", trial, i, x[i], y[i], d)
				}
			}
		}
	}
}

// TestDenseSystemTreeReuse: one denseSystem reused across problems whose
// forest changes (the humanoid tree, a binary tree of the same size, the
// humanoid again) decides tree or dense as a fresh one does and holds
// the same factor bit for bit: its list of off-pattern entries follows
// the forest.
func TestDenseSystemTreeReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	n := len(treeParent)
	binary := make([]int, n)
	for i := range binary {
		binary[i] = (i+1)/2 - 1
	}
	var reused denseSystem
	for step, par := range [][]int{treeParent, binary, treeParent, binary} {
		p := treeProblem(rng, rng.IntN(n), false)
		p.Cliques[0].Parent = par
		g, goff := make([]float64, 9), []int{0, 9}
		for i := range 3 {
			g[4*i] = 1 + rng.Float64()
		}
		var fresh denseSystem
		fresh.assemble(p, g, goff)
		reused.assemble(p, g, goff)
		okF, okR := fresh.factor(), reused.factor()
		if !okF || !okR || fresh.tree != reused.tree {
			t.Fatalf("step %d: factored %v/%v, tree %v, fresh %v", step, okR, okF, reused.tree, fresh.tree)
		}
		for i := range fresh.h {
			if math.Float64bits(fresh.h[i]) != math.Float64bits(reused.h[i]) {
				t.Fatalf("step %d: factor entry %d = %v, fresh %v", step, i, reused.h[i], fresh.h[i])
			}
		}
		if want := slices.Equal(par, treeParent); reused.tree != want {
			t.Fatalf("step %d: tree factor %v, want %v", step, reused.tree, want)
		}
	}
}

// TestDenseSystemForestCache: one denseSystem set up for problems whose
// clique parents change in place (the same slice rewritten: a tree, a
// binary tree, a chain, the tree again) holds ForestParents' forest of
// each, as a fresh computation gives; it fails if the cached forest is
// kept when the parents' values change.
func TestDenseSystemForestCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	n := len(treeParent)
	binary, chain := make([]int, n), make([]int, n)
	for i := range binary {
		binary[i] = (i+1)/2 - 1
		chain[i] = i - 1
	}
	par := slices.Clone(treeParent)
	var d denseSystem
	for step, want := range [][]int{treeParent, treeParent, binary, chain, treeParent, binary} {
		p := treeProblem(rng, rng.IntN(n), false)
		copy(par, want)
		p.Cliques[0].Parent = par
		if err := d.setup(p); err != nil {
			t.Fatal(err)
		}
		if fresh := solver.ForestParents(p, nil); !slices.Equal(d.par, fresh) {
			t.Fatalf("step %d: forest %v, want %v", step, d.par, fresh)
		}
	}
}
