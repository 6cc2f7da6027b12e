package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// treemassTrees are velocity parents of real trees (sim's
// TreeVelocityParents of the models): dm walker and cheetah, dm hopper (a
// chain), Gymnasium ant, dm humanoid and humanoid_CMU.
var treemassTrees = map[string][]int{
	"walker":   {-1, 0, 1, 2, 3, 4, 2, 6, 7},
	"hopper":   {-1, 0, 1, 2, 3, 4, 5},
	"ant":      {-1, 0, 1, 2, 3, 4, 5, 6, 5, 8, 5, 10, 5, 12},
	"humanoid": {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 8, 15, 16, 17, 18, 19, 5, 21, 22, 5, 24, 25},
	"humanoid_CMU": {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 5, 13, 14, 15, 16, 17, 18, 5, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
		30, 31, 32, 33, 34, 35, 36, 28, 38, 39, 40, 41, 42, 43, 44, 45, 46, 46, 48, 28, 50, 51, 52, 53, 54, 55, 56, 57, 58, 58, 60},
}

// treemassSameBits reports whether x and y agree bit for bit.
func treemassSameBits(x, y []float64) bool {
	return slices.EqualFunc(x, y, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
}

// treemassCases returns the trees TestTreeRowsBits runs: the real ones and
// random forests.
func treemassCases(r *rand.Rand) map[string][]int {
	cases := map[string][]int{}
	for k, v := range treemassTrees {
		cases[k] = v
	}
	for n := 1; n <= 40; n++ {
		cases["random"+string(rune('A'+n%26))+string(rune('a'+n/26))] = randomTree(r, n)
		cases["preorder"+string(rune('A'+n%26))+string(rune('a'+n/26))] = treemassPreorderTree(r, n)
	}
	return cases
}

// treemassPreorderTree returns a random forest of n velocities numbered in
// pre-order: each velocity's parent is −1 or on the path from the last
// one to its root.
func treemassPreorderTree(r *rand.Rand, n int) []int {
	parent := make([]int, n)
	for i := range parent {
		var path []int
		for j := i - 1; j >= 0; j = parent[j] {
			path = append(path, j)
		}
		parent[i] = -1
		if k := r.IntN(len(path) + 1); k < len(path) {
			parent[i] = path[k]
		}
	}
	return parent
}

// TestTreeRowsBits: TreeRows' Factor and Solve1 give TreeLDL's and
// TreeLDLSolve's results bit for bit (the whole matrix a, lower triangle
// included, and x) on real trees and random forests, for random SPD
// matrices with the tree's pattern, sparse right-hand sides with exact
// zeros and −0, and after a Reset to another tree; and a failed pivot
// (zero, negative, NaN) is reported with a left as TreeLDL leaves it.
func TestTreeRowsBits(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 57))
	var rows TreeRows
	pre := 0
	defer func() {
		if pre == 0 || pre == len(treemassCases(r)) {
			t.Errorf("%d trees in pre-order: both of Solve1's last passes not run", pre)
		}
	}()
	for name, parent := range treemassCases(r) {
		n := len(parent)
		rows.Reset(parent)
		if rows.N() != n {
			t.Fatalf("%s: N %d, want %d", name, rows.N(), n)
		}
		if _, real := treemassTrees[name]; (real || strings.HasPrefix(name, "preorder")) && !rows.pre {
			t.Fatalf("%s: a tree in pre-order not found so", name)
		}
		if rows.pre {
			pre++
		}
		for trial := range 6 {
			a := treeSPD(r, parent)
			if trial == 5 { // scale entries over many orders of magnitude
				for i := range a {
					a[i] *= math.Ldexp(1, r.IntN(40)-20)
				}
				for i := range n {
					for j := range i {
						a[i*n+j] = a[j*n+i]
					}
					a[i*n+i] += 1e6
				}
			}
			want, got := slices.Clone(a), slices.Clone(a)
			okW, okG := TreeLDL(parent, want), rows.Factor(got)
			if okW != okG || !treemassSameBits(want, got) {
				t.Fatalf("%s trial %d: Factor differs from TreeLDL (ok %v %v)", name, trial, okW, okG)
			}
			for rhs := range 4 {
				b := make([]float64, n)
				for i := range b {
					switch r.IntN(4) {
					case 0:
						b[i] = 0
					case 1:
						if rhs > 1 {
							b[i] = math.Copysign(0, -1)
						}
					default:
						b[i] = r.NormFloat64()
					}
				}
				if rhs == 3 && n > 1 { // one non-zero deep in the tree
					clear(b)
					b[n-1] = 1
				}
				x1, x2 := slices.Clone(b), slices.Clone(b)
				TreeLDLSolve(parent, want, x1, 1)
				rows.Solve1(x2)
				if !treemassSameBits(x1, x2) {
					t.Fatalf("%s trial %d rhs %d: Solve1 differs from TreeLDLSolve", name, trial, rhs)
				}
			}
		}
		for _, bad := range []float64{0, -1, math.NaN()} {
			a := treeSPD(r, parent)
			k := r.IntN(n)
			a[k*n+k] = bad
			want, got := slices.Clone(a), slices.Clone(a)
			okW, okG := TreeLDL(parent, want), rows.Factor(got)
			if okW || okG || !treemassSameBits(want, got) {
				t.Errorf("%s: pivot %d = %v: ok %v %v, or a differs", name, k, bad, okW, okG)
			}
		}
	}
}

// BenchmarkTreemassFactor times TreeLDL and TreeLDLSolve against
// TreeRows' Factor and Solve1 on the real trees (a factor and one
// one-column solve per op), for callgrind's per-function counts:
//
//	go test ./linalg -run XXX -bench TreemassFactor/humanoid_CMU -benchtime 1000x
func BenchmarkTreemassFactor(b *testing.B) {
	for _, name := range []string{"walker", "ant", "humanoid", "humanoid_CMU"} {
		parent := treemassTrees[name]
		n := len(parent)
		r := rand.New(rand.NewPCG(1, 2))
		a := treeSPD(r, parent)
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = r.NormFloat64()
		}
		f, x := make([]float64, n*n), make([]float64, n)
		b.Run(name+"/TreeLDL", func(b *testing.B) {
			for range b.N {
				copy(f, a)
				copy(x, rhs)
				TreeLDL(parent, f)
				TreeLDLSolve(parent, f, x, 1)
			}
		})
		var rows TreeRows
		rows.Reset(parent)
		b.Run(name+"/TreeRows", func(b *testing.B) {
			for range b.N {
				copy(f, a)
				copy(x, rhs)
				rows.Factor(f)
				rows.Solve1(x)
			}
		})
	}
}

// TestTreemassOffPatternZero: OffPatternZero answers as the entry-by-entry
// test a[k] != 0 does, for lists of every length up to 11 and entries
// 0, −0, tiny, NaN, ±Inf at every position.
func TestTreemassOffPatternZero(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 5e-324, -1, math.NaN(), math.Inf(1), math.Inf(-1)}
	a := make([]float64, 16)
	for n := range 12 {
		off := make([]int32, n)
		for i := range off {
			off[i] = int32((5 * i) % 16)
		}
		for pos := range n {
			for _, v := range vals {
				clear(a)
				a[3] = 7 // not in every list
				a[off[pos]] = v
				want := true
				for _, k := range off {
					if a[k] != 0 {
						want = false
					}
				}
				if got := OffPatternZero(off, a); got != want {
					t.Fatalf("n %d, entry %d = %v: %v, want %v", n, pos, v, got, want)
				}
			}
		}
	}
}

// BenchmarkTreemassDense times the dense one-column solve (SolveUpper,
// cols 1) on M-like matrices of the real trees, factored by CholUpper
// once, for callgrind's per-function counts:
//
//	go test ./linalg -run XXX -bench TreemassDense/walker -benchtime 1000x
func BenchmarkTreemassDense(b *testing.B) {
	for _, name := range []string{"walker", "hopper", "ant"} {
		parent := treemassTrees[name]
		n := len(parent)
		r := rand.New(rand.NewPCG(1, 2))
		u := treeSPD(r, parent)
		CholUpper(n, u)
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = r.NormFloat64()
		}
		x := make([]float64, n)
		b.Run(name, func(b *testing.B) {
			for range b.N {
				copy(x, rhs)
				SolveUpper(n, u, x, 1)
			}
		})
	}
}
