package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomTree returns n velocity parents: a random forest in which every
// velocity hangs from an earlier one or is a root.
func randomTree(r *rand.Rand, n int) []int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = r.IntN(i+1) - 1
	}
	return parent
}

// ancestors returns anc[i][j] = j is i or an ancestor of i.
func ancestors(parent []int) [][]bool {
	anc := make([][]bool, len(parent))
	for i := range parent {
		anc[i] = make([]bool, len(parent))
		for j := i; j >= 0; j = parent[j] {
			anc[i][j] = true
		}
	}
	return anc
}

// treeSPD returns a random symmetric positive definite matrix with the
// tree's pattern, A = Σ_k s_k s_kᵀ + diag(1…2) where s_k is non-zero on
// k's path to the root only (a composite-inertia-like sum: one term per
// body, supported on its ancestors), and the matrix as a dense product.
func treeSPD(r *rand.Rand, parent []int) []float64 {
	n := len(parent)
	anc := ancestors(parent)
	a := make([]float64, n*n)
	for k := range n {
		s := make([]float64, n)
		for j := range n {
			if anc[k][j] {
				s[j] = r.NormFloat64()
			}
		}
		for i := range n {
			for j := range n {
				a[i*n+j] += s[i] * s[j]
			}
		}
	}
	for i := range n {
		a[i*n+i] += 1 + r.Float64()
	}
	return a
}

// TestTreeLDL: on random forests, TreeLDL's factor reproduces A (LᵀDL
// against A, entry by entry, to 1e-13 of A's largest entry), keeps the
// pattern, and TreeLDLSolve's x satisfies A x = b to 1e-12 (residual
// against the dense product A·x), for dense and sparse right-hand sides,
// with the same bits for a column solved alone.
func TestTreeLDL(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 23))
	for trial := range 200 {
		n := 1 + r.IntN(30)
		parent := randomTree(r, n)
		a := treeSPD(r, parent)
		mark := make([]bool, n)
		if !TreePattern(parent, a, mark) {
			t.Fatalf("trial %d: treeSPD off the pattern", trial)
		}
		f := append([]float64(nil), a...)
		if !TreeLDL(parent, f) {
			t.Fatalf("trial %d: n = %d: not positive definite", trial, n)
		}
		checkFactor(t, trial, parent, a, f)
		for _, sparse := range []bool{false, true} {
			const cols = 3
			b := make([]float64, n*cols)
			leaf := r.IntN(n)
			anc := ancestors(parent)
			for i := range n {
				for c := range cols {
					if !sparse || anc[leaf][i] {
						b[i*cols+c] = r.NormFloat64()
					}
				}
			}
			x := append([]float64(nil), b...)
			TreeLDLSolve(parent, f, x, cols)
			checkSolve(t, trial, n, cols, a, x, b)
			for c := range cols { // one column at a time: the same bits
				x1 := make([]float64, n)
				for i := range n {
					x1[i] = b[i*cols+c]
				}
				TreeLDLSolve(parent, f, x1, 1)
				for i := range n {
					if x1[i] != x[i*cols+c] {
						t.Fatalf("trial %d: column %d alone: x[%d] = %v, with the others %v", trial, c, i, x1[i], x[i*cols+c])
					}
				}
			}
		}
	}
}

// checkFactor compares (LᵀDL)_ij with a_ij for the factor f of TreeLDL.
func checkFactor(t *testing.T, trial int, parent []int, a, f []float64) {
	t.Helper()
	n := len(parent)
	anc := ancestors(parent)
	l := func(i, j int) float64 { // L_ij, unit lower triangular
		switch {
		case i == j:
			return 1
		case j < i && anc[i][j]:
			return f[j*n+i]
		}
		return 0
	}
	scale := 0.0
	for _, x := range a {
		scale = math.Max(scale, math.Abs(x))
	}
	for i := range n {
		for j := range n {
			if j < i && !anc[i][j] && f[j*n+i] != 0 {
				t.Fatalf("trial %d: fill-in at (%d, %d): %g", trial, j, i, f[j*n+i])
			}
			s := 0.0
			for k := range n {
				s += l(k, i) * f[k*n+k] * l(k, j)
			}
			if d := math.Abs(s - a[i*n+j]); d > 1e-13*scale {
				t.Fatalf("trial %d: n = %d: (LᵀDL)_%d,%d = %g, A = %g (|Δ| = %.3g)", trial, n, i, j, s, a[i*n+j], d)
			}
		}
	}
}

// checkSolve checks ‖A x − b‖∞ ≤ 1e-12 (‖A‖ ‖x‖ + ‖b‖).
func checkSolve(t *testing.T, trial, n, cols int, a, x, b []float64) {
	t.Helper()
	an, xn, bn := 0.0, 0.0, 0.0
	for _, v := range a {
		an = math.Max(an, math.Abs(v))
	}
	for i := range x {
		xn, bn = math.Max(xn, math.Abs(x[i])), math.Max(bn, math.Abs(b[i]))
	}
	for i := range n {
		for c := range cols {
			s := 0.0
			for k := range n {
				s += a[i*n+k] * x[k*cols+c]
			}
			if d := math.Abs(s - b[i*cols+c]); d > 1e-12*(float64(n)*an*xn+bn) {
				t.Fatalf("trial %d: n = %d: (A x − b)_%d,%d = %.3g", trial, n, i, c, d)
			}
		}
	}
}

// TestTreeFillAndPattern: a chain fills the triangle, a star of n−1
// leaves on one root fills 2n − 1, a parent that is not earlier is refused,
// and a non-zero between two branches breaks the pattern.
func TestTreeFillAndPattern(t *testing.T) {
	if f := TreeFill([]int{-1, 0, 1, 2}); f != 10 {
		t.Errorf("chain of 4: fill %d, want 10", f)
	}
	if f := TreeFill([]int{-1, 0, 0, 0, 0}); f != 9 {
		t.Errorf("star of 5: fill %d, want 9", f)
	}
	if f := TreeFill([]int{-1, 1}); f != -1 {
		t.Errorf("self parent: fill %d, want −1", f)
	}
	if f := TreeFill([]int{-1, 2, 0}); f != -1 {
		t.Errorf("later parent: fill %d, want −1", f)
	}
	parent := []int{-1, 0, 0}
	a := []float64{
		2, 1, 1,
		1, 2, 0,
		1, 0, 2,
	}
	mark := make([]bool, 3)
	if !TreePattern(parent, a, mark) {
		t.Error("tree pattern refused")
	}
	a[1*3+2], a[2*3+1] = 0.5, 0.5 // velocities 1 and 2 are on different branches
	if TreePattern(parent, a, mark) {
		t.Error("cross-branch entry accepted")
	}
}

// TestTreeLDLNotPositiveDefinite: a zero or negative pivot is reported.
func TestTreeLDLNotPositiveDefinite(t *testing.T) {
	parent := []int{-1, 0, 0}
	a := []float64{
		1, 2, 0,
		2, 1, 0,
		0, 0, 1,
	}
	if TreeLDL(parent, a) {
		t.Error("indefinite matrix factored")
	}
	if TreeLDL([]int{-1}, []float64{math.NaN()}) {
		t.Error("NaN pivot accepted")
	}
}

// benchTrees are the velocity parents of real models' trees
// (multibody.Model.TreeVelocityParents): dm_control's humanoid and
// humanoid_CMU, Gymnasium's ant and walker2d.
var benchTrees = []struct {
	name   string
	parent []int
}{
	{"humanoid27", []int{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 8, 15, 16, 17, 18, 19, 5, 21, 22, 5, 24, 25}},
	{"humanoidCMU62", []int{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 5, 13, 14, 15, 16, 17, 18, 5, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 28, 38, 39, 40, 41, 42, 43, 44, 45, 46, 46, 48, 28, 50, 51, 52, 53, 54, 55, 56, 57, 58, 58, 60}},
	{"ant14", []int{-1, 0, 1, 2, 3, 4, 5, 6, 5, 8, 5, 10, 5, 12}},
	{"walker9", []int{-1, 0, 1, 2, 3, 4, 2, 6, 7}},
}

// BenchmarkTreeFactor: a factor and cols = 3 solves (a contact's
// Delassus block) and an n-column solve (A⁻¹), tree factor against the
// dense CholUpper on the same tree-patterned matrix:
//
//	go test ./linalg -run XXX -bench TreeFactor -count 6
func BenchmarkTreeFactor(b *testing.B) {
	for _, tc := range benchTrees {
		n := len(tc.parent)
		a := treeSPD(rand.New(rand.NewPCG(1, 2)), tc.parent)
		f := make([]float64, n*n)
		x3, xn := make([]float64, 3*n), make([]float64, n*n)
		for _, tree := range []bool{true, false} {
			name := tc.name + "/dense"
			if tree {
				name = tc.name + "/tree"
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					copy(f, a)
					clear(xn)
					for i := range n {
						x3[3*i], x3[3*i+1], x3[3*i+2] = 1, 0, -1
						xn[i*n+i] = 1
					}
					if tree {
						TreeLDL(tc.parent, f)
						TreeLDLSolve(tc.parent, f, x3, 3)
						TreeLDLSolve(tc.parent, f, xn, n)
					} else {
						CholUpper(n, f)
						SolveUpper(n, f, x3, 3)
						SolveUpper(n, f, xn, n)
					}
				}
			})
		}
	}
}

// TestTreeOffPattern: on random forests and matrices with random
// cross-branch entries, OffPatternZero over TreeOffPattern's list gives
// TreePattern's answer, and the list holds exactly the upper entries
// whose row is not an ancestor of their column.
func TestTreeOffPattern(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	for trial := range 300 {
		n := 1 + r.IntN(20)
		parent := randomTree(r, n)
		anc := ancestors(parent)
		a := treeSPD(r, parent)
		if trial%2 == 1 { // one cross-branch entry, when there is one
			i, j := r.IntN(n), r.IntN(n)
			if !anc[i][j] && !anc[j][i] {
				a[i*n+j], a[j*n+i] = 0.25, 0.25
			}
		}
		mark := make([]bool, n)
		off := TreeOffPattern(parent, mark, nil)
		count := 0
		for i := range n {
			for j := range i {
				if !anc[i][j] {
					count++
				}
			}
		}
		if len(off) != count {
			t.Fatalf("trial %d: %d indices, want %d", trial, len(off), count)
		}
		for _, k := range off {
			j, i := int(k)/n, int(k)%n
			if j >= i || anc[i][j] {
				t.Fatalf("trial %d: index (%d, %d) is in the pattern", trial, j, i)
			}
		}
		if got, want := OffPatternZero(off, a), TreePattern(parent, a, mark); got != want {
			t.Fatalf("trial %d: OffPatternZero %v, TreePattern %v", trial, got, want)
		}
	}
}
