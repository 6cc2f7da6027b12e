package lcp

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// KKT solves the saddle-point system of mechanics notes §0.6 (eq. 0.3),
//
//	[M  −Gᵀ] [v]   [b]
//	[G   0 ] [λ] = [g],
//
// with M symmetric positive definite and G of full row rank, by
//
//	λ = (G M⁻¹ Gᵀ)⁻¹ (g − G M⁻¹ b),   v = M⁻¹ (b + Gᵀ λ),
//
// from the Cholesky factors of M and of the Schur complement G M⁻¹ Gᵀ
// (unblocked LAPACK dpotf2, so that a reused KKT allocates nothing).
type KKT struct {
	n, p  int
	mc    []float64 // Cholesky factor of M (upper, row-major)
	y     []float64 // M⁻¹Gᵀ, n×p row-major
	sc    []float64 // Cholesky factor of G M⁻¹ Gᵀ
	g     []float64 // G, p×n row-major
	t, tp []float64
}

// Dims returns n (velocities) and p (constraints).
func (k *KKT) Dims() (n, p int) { return k.n, k.p }

// Factor factors M and G M⁻¹ Gᵀ. G may be nil (no constraints). It fails
// when M is not positive definite or G's rows are dependent.
func (k *KKT) Factor(m *mat.SymDense, g *mat.Dense) error {
	n, p := m.SymmetricDim(), 0
	if g != nil {
		var c int
		p, c = g.Dims()
		if c != n {
			return fmt.Errorf("kkt: G is %d×%d, M is %d×%d", p, c, n, n)
		}
	}
	if k.n != n || k.p != p || k.mc == nil {
		k.n, k.p = n, p
		k.mc, k.y, k.sc, k.g = make([]float64, n*n), make([]float64, n*p), make([]float64, p*p), make([]float64, p*n)
		k.t, k.tp = make([]float64, n), make([]float64, p)
	}
	for i := range n {
		for j := range n {
			k.mc[i*n+j] = m.At(i, j)
		}
	}
	var impl gonumlapack.Implementation
	if !impl.Dpotf2(blas.Upper, n, k.mc, n) {
		return fmt.Errorf("kkt: M is not positive definite")
	}
	if p == 0 {
		return nil
	}
	for i := range p {
		for j := range n {
			k.g[i*n+j] = g.At(i, j)
			k.y[j*p+i] = g.At(i, j) // Gᵀ
		}
	}
	// Y = M⁻¹Gᵀ (Uᵀ U Y = Gᵀ), S = G Y.
	bi := blas64.Implementation()
	bi.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, n, p, 1, k.mc, n, k.y, p)
	bi.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, n, p, 1, k.mc, n, k.y, p)
	for i := range p {
		for j := range p {
			s := 0.0
			for l := range n {
				s += k.g[i*n+l] * k.y[l*p+j]
			}
			k.sc[i*p+j] = s
		}
	}
	if !impl.Dpotf2(blas.Upper, p, k.sc, p) {
		return fmt.Errorf("kkt: G M⁻¹ Gᵀ is not positive definite (dependent rows of G)")
	}
	return nil
}

// Solve sets v and λ (length n and p) from b and g. v may alias b.
func (k *KKT) Solve(v, lambda, b, g []float64) {
	n, p := k.n, k.p
	copy(k.t, b)
	k.mSolve(k.t) // M⁻¹ b
	if p > 0 {
		for i := range p { // g − G M⁻¹ b
			s := g[i]
			for l := range n {
				s -= k.g[i*n+l] * k.t[l]
			}
			k.tp[i] = s
		}
		bi := blas64.Implementation()
		bi.Dtrsv(blas.Upper, blas.Trans, blas.NonUnit, p, k.sc, p, k.tp, 1)
		bi.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, p, k.sc, p, k.tp, 1)
		copy(lambda, k.tp)
		// v = M⁻¹b + M⁻¹Gᵀλ = t + Y λ.
		bi.Dgemv(blas.NoTrans, n, p, 1, k.y, p, k.tp, 1, 1, k.t, 1)
	}
	copy(v, k.t)
}

// mSolve overwrites x with M⁻¹ x.
func (k *KKT) mSolve(x []float64) {
	bi := blas64.Implementation()
	bi.Dtrsv(blas.Upper, blas.Trans, blas.NonUnit, k.n, k.mc, k.n, x, 1)
	bi.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, k.n, k.mc, k.n, x, 1)
}
