package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTreeLDLSolveRecip: on random forests (chains among them), the
// solve with reciprocals (mj_solveLD's diagonal pass) satisfies A x = b
// to 1e-12 (checkSolve), its n-column solve gives each column's
// one-column solve to the bit (the same operations per column), it
// differs from TreeLDLSolve by round-off only, and it is not TreeLDLSolve
// (on some trial the two differ in the last bits: x·(1/d) is not x/d).
func TestTreeLDLSolveRecip(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 23))
	differ := false
	for trial := range 200 {
		n := 1 + r.IntN(30)
		parent := randomTree(r, n)
		if trial%4 == 0 {
			for i := range parent {
				parent[i] = i - 1 // a chain: MuJoCo's factor of walker's, a free body's
			}
		}
		a := treeSPD(r, parent)
		f := append([]float64(nil), a...)
		if !TreeLDL(parent, f) {
			t.Fatalf("trial %d: not positive definite", trial)
		}
		const cols = 3
		b := make([]float64, n*cols)
		for i := range b {
			if r.IntN(3) > 0 { // zero rows and entries, skipped by the first pass
				b[i] = r.NormFloat64()
			}
		}
		x := append([]float64(nil), b...)
		TreeLDLSolveRecip(parent, f, x, cols)
		checkSolve(t, trial, n, cols, a, x, b)
		for c := range cols {
			x1, y1 := make([]float64, n), make([]float64, n)
			for i := range n {
				x1[i] = b[i*cols+c]
			}
			copy(y1, x1)
			TreeLDLSolveRecip(parent, f, x1, 1)
			TreeLDLSolve(parent, f, y1, 1)
			for i := range n {
				if math.Float64bits(x1[i]) != math.Float64bits(x[i*cols+c]) {
					t.Fatalf("trial %d: column %d row %d: one-column %v, %d-column %v", trial, c, i, x1[i], cols, x[i*cols+c])
				}
				if d := math.Abs(x1[i] - y1[i]); d > 1e-12*(1+math.Abs(y1[i])) {
					t.Fatalf("trial %d: row %d: reciprocal %v, division %v", trial, i, x1[i], y1[i])
				}
				differ = differ || x1[i] != y1[i]
			}
		}
	}
	if !differ {
		t.Error("the reciprocal solve gave the division's bits on every trial")
	}
}
