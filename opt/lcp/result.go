package lcp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Status is the outcome of a pivoting solve.
type Status int

const (
	// Solved: 0 ≤ z ⊥ w = Mz + q ≥ 0, with z_i w_i = 0 exactly (one of the
	// two is nonbasic and exactly zero).
	Solved Status = iota
	// RayTermination: Lemke's method found no blocking row. For a
	// copositive-plus M the LCP then has no solution.
	RayTermination
	// MaxPivots: the pivot limit came first.
	MaxPivots
	// Singular: a principal submatrix M_αα was singular (M is not a
	// P-matrix; use Lemke's method).
	Singular
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Solved:
		return "solved"
	case RayTermination:
		return "ray termination"
	case MaxPivots:
		return "max pivots"
	case Singular:
		return "singular principal submatrix"
	}
	return "unknown"
}

// Result is the outcome of a solve. Its slices belong to the solver and
// are overwritten by the next Solve.
type Result struct {
	Status  Status
	Z, W    []float64
	Pivots  int
	Columns int // columns of M computed (on-demand solvers)
}

// checkLCP validates the dimensions and values of an LCP.
func checkLCP(m mat.Matrix, q []float64) (int, error) {
	r, c := m.Dims()
	if r != c || r != len(q) {
		return 0, fmt.Errorf("lcp: M is %d×%d and q has length %d (want n×n and n)", r, c, len(q))
	}
	for i, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("lcp: q[%d] = %v", i, v)
		}
	}
	for i := range r {
		for j := range c {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("lcp: M[%d][%d] = %v", i, j, v)
			}
		}
	}
	return r, nil
}
