package lcp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// checkSolution verifies 0 ≤ z ⊥ w ≥ 0 with w = Mz + q to tol (relative to
// the size of the terms) and complementarity exact: z_i w_i = 0.
func checkSolution(t *testing.T, name string, m *mat.Dense, q []float64, res Result, tol float64) {
	t.Helper()
	if res.Status != Solved {
		t.Fatalf("%s: status %v after %d pivots", name, res.Status, res.Pivots)
	}
	n := len(q)
	w := make([]float64, n)
	wv := mat.NewVecDense(n, w)
	wv.MulVec(m, mat.NewVecDense(n, res.Z))
	floats.Add(w, q)
	scale := 1 + floats.Norm(q, math.Inf(1)) + mat.Norm(m, math.Inf(1))*floats.Norm(res.Z, math.Inf(1))
	for i := range n {
		if math.Abs(w[i]-res.W[i]) > tol*scale {
			t.Errorf("%s: w[%d] = %v, Mz + q = %v", name, i, res.W[i], w[i])
		}
		if res.Z[i] < 0 || res.W[i] < 0 {
			t.Errorf("%s: z[%d] = %v, w[%d] = %v: negative", name, i, res.Z[i], i, res.W[i])
		}
		if res.Z[i]*res.W[i] != 0 {
			t.Errorf("%s: z[%d] w[%d] = %v ≠ 0", name, i, i, res.Z[i]*res.W[i])
		}
	}
}

// randomSPD returns FᵀF + εI of order n.
func randomSPD(rng *rand.Rand, n int, eps float64) *mat.SymDense {
	f := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			f.Set(i, j, rng.NormFloat64())
		}
	}
	s := mat.NewSymDense(n, nil)
	s.SymOuterK(1, f)
	for i := range n {
		s.SetSym(i, i, s.At(i, i)+eps)
	}
	return s
}

func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

func randomVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// maxDiff returns max |a_i − b_i|.
func maxDiff(a, b []float64) float64 { return floats.Distance(a, b, math.Inf(1)) }

// maxAbs returns max |x_i|.
func maxAbs(x []float64) float64 { return floats.Norm(x, math.Inf(1)) }
