package socp

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"

	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// kkt solves the interior-point Newton systems
//
//	[P    A_Eᵀ  A_Cᵀ] [x  ]   [r_x ]
//	[A_E  0     0   ] [z_E] = [r_zE]
//	[A_C  0     −H  ] [z_C]   [r_zC]
//
// with A_E the zero-cone (equality) rows of A, A_C the other rows and
// H = WᵀW the Nesterov–Todd scaling. It factors the symmetrically scaled
// system (z̃_C = W z_C, the scaling of CVXOPT's "ldl" KKT solver)
//
//	[P + δI   A_Eᵀ  (W⁻ᵀA_C)ᵀ] [x  ]   [r_x      ]
//	[A_E      −δI   0         ] [z_E] = [r_zE     ]
//	[W⁻ᵀA_C   0     −I        ] [z̃_C]   [W⁻ᵀr_zC  ]
//
// whose −I block stays well conditioned while H spreads over many orders of
// magnitude, by LU with partial pivoting (LAPACK dgetf2 through gonum), and
// removes the static regularization δ by iterative refinement on the
// unregularized scaled system. δ keeps the matrix nonsingular when P is
// singular on the null space of A or A_E has dependent rows.
type kkt struct {
	n, mz, m, dim int
	p             []float64 // P, n×n row-major (full), nil for zero
	a             []float64 // A, m×n row-major
	g             []float64 // A with W⁻ᵀ applied to its cone rows, m×n
	k             blas64.General
	ipiv          []int
	delta         float64
	refine        int       // maximum refinement steps
	tol           float64   // refinement stops at ‖residual‖∞ ≤ tol (1 + ‖rhs‖∞)
	sol           []float64 // scaled right-hand side, then solution
	rhs, corr     []float64 // refinement: residual and correction
	res           []float64 // scratch of mul
	refined       int       // refinement steps taken by the last solve
}

func newKKT(n, mz, m int, delta float64, refine int, tol float64) *kkt {
	k := &kkt{}
	k.reset(n, mz, m, delta, refine, tol)
	return k
}

// reset sizes k for n unknowns, mz zero-cone rows and m cone rows, reusing
// its buffers' capacity (zeroed); a and p are the caller's to size.
func (k *kkt) reset(n, mz, m int, delta float64, refine int, tol float64) {
	dim := n + m
	k.n, k.mz, k.m, k.dim, k.delta, k.refine, k.tol = n, mz, m, dim, delta, refine, tol
	k.g = grow(k.g, m*n)
	k.k = blas64.General{Rows: dim, Cols: dim, Stride: max(dim, 1), Data: grow(k.k.Data, dim*dim)}
	k.ipiv = grow(k.ipiv, dim)
	k.rhs, k.sol, k.res, k.corr = grow(k.rhs, dim), grow(k.sol, dim), grow(k.res, dim), grow(k.corr, dim)
}

// factor forms and factors the scaled system for the scaling sc. It returns
// false when the matrix is numerically singular.
func (k *kkt) factor(sc *scaling) bool {
	n, mz, m, st := k.n, k.mz, k.m, k.k.Stride
	copy(k.g, k.a)
	sc.applyRowsInvT(k.g, n)
	d := k.k.Data
	clear(d)
	for i := range n {
		if k.p != nil {
			copy(d[i*st:i*st+n], k.p[i*n:(i+1)*n])
		}
		d[i*st+i] += k.delta
	}
	for r := range m {
		row := k.g[r*n : (r+1)*n]
		copy(d[(n+r)*st:(n+r)*st+n], row)
		for j, v := range row {
			d[j*st+n+r] = v
		}
		if r < mz {
			d[(n+r)*st+n+r] = -k.delta
		} else {
			d[(n+r)*st+n+r] = -1
		}
	}
	return k.dim == 0 || luFactor(k.k, k.ipiv)
}

// luFactor factors a = P L U in place by LAPACK's unblocked dgetf2. The
// blocked dgetrf is faster on large matrices, but gonum's dgemm behind it
// starts goroutines (and allocates) once the trailing blocks are large;
// dgetf2 keeps every solve allocation-free and is fast enough at the sizes
// this package targets.
func luFactor(a blas64.General, ipiv []int) bool {
	return lapackImpl.Dgetf2(a.Rows, a.Cols, a.Data, a.Stride, ipiv)
}

// lapackImpl is gonum's pure-Go LAPACK.
var lapackImpl gonumlapack.Implementation

// mul sets (ox, oz) = K (x, z) for the unregularized, unscaled system
// (H = WᵀW applied as Wᵀ(W z_C)); k.res supplies scratch.
func (k *kkt) mul(sc *scaling, ox, oz, x, z []float64) {
	n, m := k.n, k.m
	clear(ox)
	if k.p != nil {
		for i := range n {
			ox[i] = floats.Dot(k.p[i*n:(i+1)*n], x)
		}
	}
	for r := range m {
		row := k.a[r*n : (r+1)*n]
		floats.AddScaled(ox, z[r], row)
		oz[r] = floats.Dot(row, x)
	}
	if m > k.mz {
		h := k.res[n:]
		sc.apply(opW, h, z)
		sc.apply(opWT, h, h)
		for r := k.mz; r < m; r++ {
			oz[r] -= h[r]
		}
	}
}

// solveReg solves the regularized scaled system for the unscaled
// right-hand side (rx, rz) into (x, z).
func (k *kkt) solveReg(sc *scaling, x, z, rx, rz []float64) {
	n, mz := k.n, k.mz
	copy(k.sol[:n], rx)
	copy(k.sol[n:n+mz], rz[:mz])
	sc.apply(opWinvT, k.sol[n:], rz) // cone rows: W⁻ᵀ r_zC (zero rows untouched)
	if k.dim > 0 {
		lapack64.Getrs(blas.NoTrans, k.k, blas64.General{Rows: k.dim, Cols: 1, Stride: 1, Data: k.sol}, k.ipiv)
	}
	copy(x, k.sol[:n])
	copy(z[:mz], k.sol[n:n+mz])
	sc.apply(opWinv, z, k.sol[n:])
}

// solve solves K (x, z) = (rx, rz) by the factored scaled system and up to
// k.refine steps of iterative refinement on the unscaled, unregularized
// system: the residuals that the interior-point method drives to zero are
// those of the unscaled system, and W spreads over many orders of magnitude
// near the solution.
func (k *kkt) solve(sc *scaling, x, z, rx, rz []float64) {
	n := k.n
	k.solveReg(sc, x, z, rx, rz)
	k.refined = 0
	scale := 1 + max(infNorm(rx), infNorm(rz))
	prev := math.Inf(1)
	rsx, rsz := k.rhs[:n], k.rhs[n:]
	cx, cz := k.corr[:n], k.corr[n:]
	for range k.refine {
		k.mul(sc, rsx, rsz, x, z)
		floats.SubTo(rsx, rx, rsx)
		floats.SubTo(rsz, rz, rsz)
		e := max(infNorm(rsx), infNorm(rsz))
		if e <= k.tol*scale || e >= prev/2 {
			return
		}
		prev = e
		k.solveReg(sc, cx, cz, rsx, rsz)
		floats.Add(x, cx)
		floats.Add(z, cz)
		k.refined++
	}
}

// infNorm returns ‖x‖∞.
func infNorm(x []float64) float64 { return floats.Norm(x, math.Inf(1)) }
