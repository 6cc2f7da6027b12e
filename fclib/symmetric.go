package fclib

import "fmt"

// Symmetry says how a square matrix of the file was turned into the
// symmetric matrix the solver uses.
type Symmetry int

const (
	// Symmetric: both triangles stored and equal to round-off
	// (|S_ij − S_ji| ≤ symTol·max|S|); the solver uses ½(S + Sᵀ).
	Symmetric Symmetry = iota
	// UpperTriangle: only the upper triangle (with the diagonal) is stored,
	// as LMGC90 writes symmetric matrices; the solver uses S + Sᵀ − diag(S).
	UpperTriangle
	// LowerTriangle: only the lower triangle is stored; the solver uses
	// S + Sᵀ − diag(S).
	LowerTriangle
)

// symTol is the relative asymmetry accepted as round-off.
const symTol = 1e-12

// String returns the storage name.
func (s Symmetry) String() string {
	return [...]string{"symmetric", "upper triangle", "lower triangle"}[s]
}

// symmetrize returns the symmetric matrix a square sparse matrix stands
// for, and how it was stored. A matrix with both triangles stored that is
// not symmetric to round-off gives an unsupported-feature error.
func symmetrize(s *Sparse, what string) (*Sparse, Symmetry, error) {
	if s.Rows != s.Cols {
		return nil, 0, fmt.Errorf("%s: %w", what, malformed("is %d×%d, not square", s.Rows, s.Cols))
	}
	upper, lower := triangleCounts(s)
	kind := Symmetric
	switch {
	case lower == 0 && upper > 0:
		kind = UpperTriangle
	case upper == 0 && lower > 0:
		kind = LowerTriangle
	default:
		if diff, scale := s.Asymmetry(); diff > symTol*scale {
			return nil, 0, fmt.Errorf("%s: %w", what, unsupported("unsymmetric matrix (max |S_ij − S_ji| = %.3g, max |S_ij| = %.3g)", diff, scale))
		}
	}
	return symmetricSum(s, kind), kind, nil
}

// triangleCounts counts the non-zero entries strictly above and below the
// diagonal.
func triangleCounts(s *Sparse) (upper, lower int) {
	for j := range s.Cols {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			switch i := s.RowIdx[k]; {
			case s.Val[k] == 0:
			case i < j:
				upper++
			case i > j:
				lower++
			}
		}
	}
	return upper, lower
}

// symmetricSum returns ½(S + Sᵀ) for a full matrix, S + Sᵀ − diag(S) for a
// triangle.
func symmetricSum(s *Sparse, kind Symmetry) *Sparse {
	w := 0.5
	if kind != Symmetric {
		w = 1
	}
	var rows, cols []int
	var x []float64
	for j := range s.Cols {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			i, v := s.RowIdx[k], s.Val[k]
			if i == j {
				rows, cols, x = append(rows, i), append(cols, j), append(x, v)
				continue
			}
			rows, cols, x = append(rows, i, j), append(cols, j, i), append(x, w*v, w*v)
		}
	}
	out := compress(s.Rows, s.Cols, rows, cols, x)
	out.Stored = s.Stored
	return out
}
