package socp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Problem is a convex quadratic cone program in the form of Clarabel and
// ECOS:
//
//	minimize    ½ xᵀPx + qᵀx
//	subject to  Ax + s = b,  s ∈ K,
//
// with x ∈ Rⁿ, P symmetric positive semidefinite (nil for an LP or a
// linear-objective SOCP), A m×n and K described by Cones (m = Cones.Dim()).
// Its dual is
//
//	maximize    −½ xᵀPx − bᵀz
//	subject to  Px + Aᵀz + q = 0,  z ∈ K*,
//
// and a solution satisfies the KKT conditions Px + Aᵀz + q = 0,
// Ax + s = b, s ∈ K, z ∈ K*, sᵀz = 0.
//
// The conic standard form min cᵀx + ½xᵀPx s.t. Ax = b, x ∈ K is the case
// A' = [A; −I], b' = [b; 0], Cones{Zero: rows of A} followed by K.
type Problem struct {
	P     *mat.SymDense // n×n, positive semidefinite; nil means zero
	Q     []float64     // linear cost, length n
	A     *mat.Dense    // m×n
	B     []float64     // length m
	Cones Cones
}

// dims returns n and m after checking every dimension and value.
func (p *Problem) dims() (n, m int, err error) {
	if err := p.Cones.check(); err != nil {
		return 0, 0, err
	}
	n, m = len(p.Q), p.Cones.Dim()
	if p.A == nil {
		if m != 0 {
			return 0, 0, fmt.Errorf("A is nil but the cones have %d rows", m)
		}
	} else if r, c := p.A.Dims(); r != m || c != n {
		return 0, 0, fmt.Errorf("A is %d×%d, want %d×%d (rows of the cones × length of q)", r, c, m, n)
	}
	if len(p.B) != m {
		return 0, 0, fmt.Errorf("b has length %d, want %d (rows of the cones)", len(p.B), m)
	}
	if p.P != nil && p.P.SymmetricDim() != n {
		return 0, 0, fmt.Errorf("P is %d×%d, want %d×%d", p.P.SymmetricDim(), p.P.SymmetricDim(), n, n)
	}
	if err := p.checkFinite(); err != nil {
		return 0, 0, err
	}
	return n, m, nil
}

// checkFinite rejects NaN and infinite entries, naming the first.
func (p *Problem) checkFinite() error {
	if i := firstNonFinite(p.Q); i >= 0 {
		return fmt.Errorf("q[%d] = %v", i, p.Q[i])
	}
	if i := firstNonFinite(p.B); i >= 0 {
		return fmt.Errorf("b[%d] = %v", i, p.B[i])
	}
	if p.A != nil {
		r, c := p.A.Dims()
		for i := range r {
			for j := range c {
				if v := p.A.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("A[%d][%d] = %v", i, j, v)
				}
			}
		}
	}
	if p.P != nil {
		n := p.P.SymmetricDim()
		for i := range n {
			for j := i; j < n; j++ {
				if v := p.P.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("P[%d][%d] = %v", i, j, v)
				}
			}
		}
	}
	return nil
}

func firstNonFinite(x []float64) int {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i
		}
	}
	return -1
}
