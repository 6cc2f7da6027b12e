package solver

import (
	"fmt"

	"github.com/stiction-sim/stiction/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// CliqueFactor holds the Cholesky factors A_c = U_cᵀ U_c of the clique
// blocks of a problem's A, in the same layout as Problem.A. It is used to
// apply A⁻¹ clique by clique (free motion, Delassus estimates). Its storage
// is reused across calls.
type CliqueFactor struct {
	data []float64
}

// Factor factors every clique block of p.A. It returns an error naming the
// first block that is not numerically positive definite.
func (f *CliqueFactor) Factor(p *Problem) error {
	f.data = Resize(f.data, len(p.A))
	copy(f.data, p.A)
	for c, q := range p.Cliques {
		if !f.factorBlock(q) {
			return fmt.Errorf("solver: clique %d block of A (%d×%d) is not positive definite", c, q.Size, q.Size)
		}
	}
	return nil
}

// factorBlock factors clique q's block in place: blocks of order up to
// linalg.SmallMax by linalg.CholUpper, whose factor is gonum's to the bit
// without gonum's call overhead (a 1×1 or 2×2 mass matrix), larger ones by
// gonum's Potrf.
func (f *CliqueFactor) factorBlock(q Clique) bool {
	if q.Size <= linalg.SmallMax {
		return linalg.CholUpper(q.Size, f.data[q.AOff:q.AOff+q.Size*q.Size])
	}
	_, ok := lapack64.Potrf(f.upper(q))
	return ok
}

// upper views clique q's factor as a row-major upper-triangular matrix.
func (f *CliqueFactor) upper(q Clique) blas64.Symmetric {
	return blas64.Symmetric{N: q.Size, Stride: q.Size, Uplo: blas.Upper, Data: f.data[q.AOff : q.AOff+q.Size*q.Size]}
}

// Solve overwrites the row-major Size×cols matrix b with A_c⁻¹ b for clique
// q of the factored problem.
func (f *CliqueFactor) Solve(q Clique, b []float64, cols int) {
	if q.Size <= linalg.SmallMax { // the same result as Potrs, bit for bit
		linalg.SolveUpper(q.Size, f.data[q.AOff:q.AOff+q.Size*q.Size], b, cols)
		return
	}
	u := f.upper(q)
	tri := blas64.Triangular{N: u.N, Stride: u.Stride, Uplo: blas.Upper, Diag: blas.NonUnit, Data: u.Data}
	lapack64.Potrs(tri, blas64.General{Rows: q.Size, Cols: cols, Stride: cols, Data: b[:q.Size*cols]})
}
