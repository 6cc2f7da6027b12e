package sap

import (
	"github.com/stiction-sim/stiction/solver"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// newtonSystem assembles, factors and solves the Newton system
// H Δv = −∇ℓp of SAP Algorithm 2, line 3, with H = A + JᵀGJ (SAP §IV-A).
// Two implementations: denseSystem below (NV×NV, blocked dense Cholesky)
// and sparseSystem (sparse.go: blocks by clique, supernodal Cholesky with a
// minimum-degree ordering, SAP §IV-D); Params.Linear chooses.
type newtonSystem interface {
	// setup prepares the system for problem p; it runs once per solve,
	// before the first assemble.
	setup(p *solver.Problem) error
	// assemble forms H = A + JᵀGJ for p, where g holds the 3×3 blocks G_i
	// of the contacts, row-major, 9 per contact.
	assemble(p *solver.Problem, g []float64)
	// factor factors H in place. It reports false if H is not numerically
	// positive definite.
	factor() bool
	// solve overwrites b with H⁻¹ b using the factorization.
	solve(b []float64)
}

// denseSystem is a newtonSystem that stores H as a dense row-major NV×NV
// matrix and factors it with a dense Cholesky factorization.
type denseSystem struct {
	n   int
	h   []float64 // H, then its upper Cholesky factor U (H = UᵀU)
	tmp []float64 // G_i J_b, 3×(largest clique size)
}

// setup implements newtonSystem; the dense system needs nothing.
func (d *denseSystem) setup(*solver.Problem) error { return nil }

// assemble implements newtonSystem. It fills all of H, not only the upper
// triangle, so that H can be inspected.
func (d *denseSystem) assemble(p *solver.Problem, g []float64) {
	n := p.NV
	d.n = n
	d.h = solver.Resize(d.h, n*n)
	clear(d.h)
	maxSize := 0
	for c, q := range p.Cliques {
		maxSize = max(maxSize, q.Size)
		a := p.ABlock(c)
		for i := range q.Size {
			copy(d.h[(q.Offset+i)*n+q.Offset:][:q.Size], a[i*q.Size:(i+1)*q.Size])
		}
	}
	d.tmp = solver.Resize(d.tmp, 3*maxSize)
	// JᵀGJ = Σ_i J_iᵀ G_i J_i, and J_i has one block per clique it touches.
	for lo := 0; lo < len(p.JBlock); {
		hi := lo + 1
		for hi < len(p.JBlock) && p.JBlock[hi].Contact == p.JBlock[lo].Contact {
			hi++
		}
		gi := (*[9]float64)(g[9*p.JBlock[lo].Contact:])
		for b2 := lo; b2 < hi; b2++ {
			mulGJ(p, gi, b2, d.tmp)
			for b1 := lo; b1 <= b2; b1++ {
				d.addJtTmp(p, b1, b2)
			}
		}
		lo = hi
	}
}

// mulGJ sets tmp = G_i J_b, a 3×Size matrix for block b.
func mulGJ(p *solver.Problem, gi *[9]float64, b int, tmp []float64) {
	jb := p.JBlockData(b)
	n := len(jb) / 3
	for r := range 3 {
		row := tmp[r*n : (r+1)*n]
		for k := range n {
			row[k] = gi[3*r]*jb[k] + gi[3*r+1]*jb[n+k] + gi[3*r+2]*jb[2*n+k]
		}
	}
}

// addJtTmp adds J_b1ᵀ tmp to the (clique(b1), clique(b2)) block of H and,
// when b1 ≠ b2, its transpose to the (clique(b2), clique(b1)) block
// (G_i is symmetric).
func (d *denseSystem) addJtTmp(p *solver.Problem, b1, b2 int) {
	q1 := p.Cliques[p.JBlock[b1].Clique]
	q2 := p.Cliques[p.JBlock[b2].Clique]
	j1 := p.JBlockData(b1)
	n1, n2, n := q1.Size, q2.Size, d.n
	for a := range n1 {
		c0, c1, c2 := j1[a], j1[n1+a], j1[2*n1+a]
		for b := range n2 {
			s := c0*d.tmp[b] + c1*d.tmp[n2+b] + c2*d.tmp[2*n2+b]
			d.h[(q1.Offset+a)*n+q2.Offset+b] += s
			if b1 != b2 {
				d.h[(q2.Offset+b)*n+q1.Offset+a] += s
			}
		}
	}
}

// factor implements newtonSystem.
func (d *denseSystem) factor() bool { return choleskyUpper(d.n, d.h, max(1, d.n)) }

// solve implements newtonSystem: H x = UᵀU x = b by two triangular solves.
// (lapack64.Potrs does the same with Dtrsm, which for a single right-hand
// side is several times slower than Dtrsv.)
func (d *denseSystem) solve(b []float64) {
	if d.n == 0 {
		return
	}
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: d.n, Stride: d.n, Data: d.h}
	x := blas64.Vector{N: d.n, Inc: 1, Data: b[:d.n]}
	blas64.Trsv(blas.Trans, u, x)   // Uᵀ y = b
	blas64.Trsv(blas.NoTrans, u, x) // U x = y
}

// Blocking of choleskyUpper: gonum's Dpotrf uses blocks of 64.
const (
	cholBlock = 64
	// gemmChunk bounds the columns of one Dgemm call of the trailing update.
	// gonum's Dgemm runs concurrently, spawning goroutines and allocating,
	// once the output spans 4 or more 64×64 blocks; with at most 64 rows,
	// 3·64 columns keep every call serial and allocation-free.
	gemmChunk = 3 * 64
)

// choleskyUpper computes H = UᵀU in place for the row-major n×n matrix a
// (upper triangle referenced) and reports whether H is numerically positive
// definite. It is gonum's blocked Dpotrf (right-looking, Upper) with the
// same kernels (Dsyrk, Dpotf2, Dgemm, Dtrsm); the only difference is that
// the trailing Dgemm is split into column chunks so that it never takes
// gonum's concurrent path, which allocates. The result is the same
// factorization as lapack64.Potrf.
func choleskyUpper(n int, a []float64, lda int) bool {
	if n == 0 {
		return true
	}
	bi := blas64.Implementation()
	impl := gonum.Implementation{}
	for j := 0; j < n; j += cholBlock {
		jb := min(cholBlock, n-j)
		bi.Dsyrk(blas.Upper, blas.Trans, jb, j, -1, a[j:], lda, 1, a[j*lda+j:], lda)
		if !impl.Dpotf2(blas.Upper, jb, a[j*lda+j:], lda) {
			return false
		}
		if j+jb == n {
			break
		}
		for c := j + jb; c < n; c += gemmChunk {
			w := min(gemmChunk, n-c)
			bi.Dgemm(blas.Trans, blas.NoTrans, jb, w, j, -1, a[j:], lda, a[c:], lda, 1, a[j*lda+c:], lda)
		}
		bi.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, jb, n-j-jb, 1, a[j*lda+j:], lda, a[j*lda+j+jb:], lda)
	}
	return true
}
