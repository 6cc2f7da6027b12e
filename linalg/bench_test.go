package linalg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// gridPattern returns the pattern of an nx×ny×nz grid of 6×6 blocks with
// 6-neighbour coupling: a stand-in for a pile of bodies in contact.
func gridPattern(nx, ny, nz int) ([]int, []uint64) {
	id := func(x, y, z int) int { return (z*ny+y)*nx + x }
	var edges []uint64
	for z := range nz {
		for y := range ny {
			for x := range nx {
				if x+1 < nx {
					edges = append(edges, EdgeKey(id(x, y, z), id(x+1, y, z)))
				}
				if y+1 < ny {
					edges = append(edges, EdgeKey(id(x, y, z), id(x, y+1, z)))
				}
				if z+1 < nz {
					edges = append(edges, EdgeKey(id(x, y, z), id(x, y, z+1)))
				}
			}
		}
	}
	slices.Sort(edges)
	return slices.Repeat([]int{6}, nx*ny*nz), edges
}

var benchGrids = [][3]int{{4, 4, 2}, {8, 4, 5}, {8, 8, 10}}

// BenchmarkFactorize times the supernodal factorization (both kernels) of
// grid patterns of 32, 160 and 640 blocks of 6×6, and gonum's dense Potrf
// of the same matrices for comparison (dense only up to 160 blocks).
func BenchmarkFactorize(b *testing.B) {
	for _, g := range benchGrids {
		sizes, edges := gridPattern(g[0], g[1], g[2])
		n := len(sizes)
		var sym Symbolic
		if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
			b.Fatal(err)
		}
		var f Factor
		f.Reset(&sym)
		dense := randomSPD(rand.New(rand.NewPCG(1, 1)), &f, sizes, edges)
		orig := slices.Clone(f.Data())
		for _, k := range []Kernels{AutoKernels, Loops, BLAS} {
			b.Run(fmt.Sprintf("blocks=%d/%v", n, k), func(b *testing.B) {
				f.Kernels = k
				for b.Loop() {
					copy(f.Data(), orig)
					if !f.Factorize() {
						b.Fatal("not SPD")
					}
				}
				b.ReportMetric(float64(sym.NonZeros()), "nnz(L)")
				b.ReportMetric(float64(sym.Supernodes()), "supernodes")
			})
		}
		if n > 200 {
			continue
		}
		b.Run(fmt.Sprintf("blocks=%d/dense-potrf", n), func(b *testing.B) {
			nn := sym.Size()
			work := make([]float64, len(dense))
			for b.Loop() {
				copy(work, dense)
				if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: nn, Stride: nn, Data: work}); !ok {
					b.Fatal("not SPD")
				}
			}
		})
	}
}

// BenchmarkAnalyze times the symbolic analysis (minimum degree, etree,
// supernodes, scatter maps) of the grid patterns.
func BenchmarkAnalyze(b *testing.B) {
	for _, g := range benchGrids {
		sizes, edges := gridPattern(g[0], g[1], g[2])
		b.Run(fmt.Sprintf("blocks=%d", len(sizes)), func(b *testing.B) {
			var sym Symbolic
			b.ReportAllocs()
			for b.Loop() {
				if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSolve times one solve with the factor (Loops kernels).
func BenchmarkSolve(b *testing.B) {
	for _, g := range benchGrids {
		sizes, edges := gridPattern(g[0], g[1], g[2])
		var sym Symbolic
		if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
			b.Fatal(err)
		}
		var f Factor
		f.Reset(&sym)
		randomSPD(rand.New(rand.NewPCG(1, 1)), &f, sizes, edges)
		f.Factorize()
		x := make([]float64, sym.Size())
		b.Run(fmt.Sprintf("blocks=%d", len(sizes)), func(b *testing.B) {
			for b.Loop() {
				for i := range x {
					x[i] = 1
				}
				f.Solve(x)
			}
		})
	}
}
