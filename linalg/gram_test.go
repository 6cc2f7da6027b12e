package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gramReference returns Bᵀ A⁻¹ B (cols×cols) by a full solve, X = A⁻¹ B
// with TreeLDLSolve or SolveUpper, then Bᵀ X, and per entry the sum
// Σ_i |b_ir x_ic|, the scale of its round-off.
func gramReference(n, cols int, b []float64, solve func(x []float64)) (w, scale []float64) {
	x := append([]float64(nil), b...)
	solve(x)
	w, scale = make([]float64, cols*cols), make([]float64, cols*cols)
	for r := range cols {
		for c := range cols {
			for i := range n {
				w[r*cols+c] += b[i*cols+r] * x[i*cols+c]
				scale[r*cols+c] += math.Abs(b[i*cols+r] * x[i*cols+c])
			}
		}
	}
	return w, scale
}

// sparseRHS returns a row-major n×cols matrix whose columns have one to
// three non-zeros (a joint limit's row, a coupler's, a contact's along a
// path), the rest zero.
func sparseRHS(r *rand.Rand, n, cols int) []float64 {
	b := make([]float64, n*cols)
	for c := range cols {
		for range 1 + r.IntN(3) {
			b[r.IntN(n)*cols+c] = r.NormFloat64()
		}
	}
	return b
}

// checkGram compares w, accumulated on top of w0, with w0 + ref entry by
// entry, to 1e-12 of the entry's scale Σ_i |b_ir x_ic| (the reference's
// own round-off grows with it) plus |w0|, and checks that w is symmetric.
func checkGram(t *testing.T, what string, trial, cols int, w, w0, ref, scale []float64) {
	t.Helper()
	for i := range w {
		if d := math.Abs(w[i] - w0[i] - ref[i]); d > 1e-12*(scale[i]+math.Abs(w0[i])) {
			t.Fatalf("%s trial %d: entry %d of Bᵀ A⁻¹ B is %v, a full solve gives %v (off by %.3g, scale %.3g)", what, trial, i, w[i]-w0[i], ref[i], d, scale[i])
		}
	}
	for r := range cols {
		for c := range cols {
			if w[r*cols+c] != w[c*cols+r] {
				t.Fatalf("%s trial %d: w not symmetric at (%d, %d)", what, trial, r, c)
			}
		}
	}
}

// TestTreeLDLGram: on random forests and sparse and dense right-hand
// sides, TreeLDLGram adds Bᵀ A⁻¹ B to what w held, within 1e-12 of B
// times TreeLDLSolve's A⁻¹ B.
func TestTreeLDLGram(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 23))
	for trial := range 200 {
		n, cols := 1+r.IntN(30), 1+r.IntN(6)
		parent := randomTree(r, n)
		f := treeSPD(r, parent)
		if !TreeLDL(parent, f) {
			t.Fatalf("trial %d: not positive definite", trial)
		}
		b := sparseRHS(r, n, cols)
		if trial%3 == 0 {
			for i := range b {
				b[i] = r.NormFloat64()
			}
		}
		ref, scale := gramReference(n, cols, b, func(x []float64) { TreeLDLSolve(parent, f, x, cols) })
		w0 := make([]float64, cols*cols)
		for i := range cols {
			w0[i*cols+i] = float64(i + 1)
		}
		w := append([]float64(nil), w0...)
		TreeLDLGram(parent, f, b, cols, w)
		checkGram(t, "tree", trial, cols, w, w0, ref, scale)
	}
}

// TestUpperGram: the same for the dense factor A = UᵀU of CholUpper.
func TestUpperGram(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 29))
	for trial := range 200 {
		n, cols := 1+r.IntN(30), 1+r.IntN(6)
		u := denseSPD(r, n)
		if !CholUpper(n, u) {
			t.Fatalf("trial %d: not positive definite", trial)
		}
		b := sparseRHS(r, n, cols)
		if trial%3 == 0 {
			for i := range b {
				b[i] = r.NormFloat64()
			}
		}
		ref, scale := gramReference(n, cols, b, func(x []float64) { SolveUpper(n, u, x, cols) })
		w0 := make([]float64, cols*cols)
		w := append([]float64(nil), w0...)
		UpperGram(n, u, b, cols, w)
		checkGram(t, "dense", trial, cols, w, w0, ref, scale)
	}
}

// TestInvDiag: TreeLDLInvDiag and UpperInvDiag give every diagonal entry
// of A⁻¹ within 1e-12 relative of the full solve's A⁻¹ e_i, and leave
// their scratch zero.
func TestInvDiag(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 31))
	for trial := range 100 {
		n := 1 + r.IntN(30)
		parent := randomTree(r, n)
		ft := treeSPD(r, parent)
		fd := denseSPD(r, n)
		if !TreeLDL(parent, ft) || !CholUpper(n, fd) {
			t.Fatalf("trial %d: not positive definite", trial)
		}
		y := make([]float64, n)
		for i := range n {
			for _, c := range []struct {
				what  string
				got   float64
				solve func(x []float64)
			}{
				{"tree", TreeLDLInvDiag(parent, ft, i, y), func(x []float64) { TreeLDLSolve(parent, ft, x, 1) }},
				{"dense", UpperInvDiag(n, fd, i, y), func(x []float64) { SolveUpper(n, fd, x, 1) }},
			} {
				x := make([]float64, n)
				x[i] = 1
				c.solve(x)
				if d := math.Abs(c.got - x[i]); d > 1e-12*x[i] {
					t.Fatalf("%s trial %d: (A⁻¹)_%d,%d = %v, a full solve gives %v", c.what, trial, i, i, c.got, x[i])
				}
				if !allZero(y) {
					t.Fatalf("%s trial %d: scratch not cleared", c.what, trial)
				}
			}
		}
	}
}
