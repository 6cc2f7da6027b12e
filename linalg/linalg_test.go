package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// randomPattern returns n blocks of sizes in [1, 6] and about deg·n/2
// random edges (sorted, unique).
func randomPattern(rng *rand.Rand, n int, deg float64) ([]int, []uint64) {
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = 1 + rng.IntN(6)
	}
	var edges []uint64
	for range int(deg * float64(n) / 2) {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j {
			edges = append(edges, EdgeKey(i, j))
		}
	}
	slices.Sort(edges)
	return sizes, slices.Compact(edges)
}

// randomSPD fills f (reset on sym) with a random SPD matrix with the
// pattern (sizes, edges) and returns it dense, row-major.
func randomSPD(rng *rand.Rand, f *Factor, sizes []int, edges []uint64) []float64 {
	off := []int{0}
	for _, s := range sizes {
		off = append(off, off[len(off)-1]+s)
	}
	n := off[len(off)-1]
	dense := make([]float64, n*n)
	add := func(i, j int, m []float64) {
		for r := range sizes[i] {
			for c := range sizes[j] {
				dense[(off[i]+r)*n+off[j]+c] += m[r*sizes[j]+c]
				if i != j {
					dense[(off[j]+c)*n+off[i]+r] += m[r*sizes[j]+c]
				}
			}
		}
		if !f.Add(i, j, m) {
			panic("block not in pattern")
		}
	}
	rowSum := make([]float64, len(sizes))
	for _, e := range edges {
		i, j := edgeEnds(e)
		if rng.IntN(2) == 0 {
			i, j = j, i // exercise both orientations
		}
		m := make([]float64, sizes[i]*sizes[j])
		for k := range m {
			m[k] = rng.Float64()*2 - 1
		}
		add(i, j, m)
		rowSum[i] += float64(sizes[j])
		rowSum[j] += float64(sizes[i])
	}
	for i, s := range sizes {
		// Diagonally dominant symmetric block: B Bᵀ/s + (rowSum + 1) I.
		b := make([]float64, s*s)
		for k := range b {
			b[k] = rng.Float64()*2 - 1
		}
		m := make([]float64, s*s)
		for r := range s {
			for c := range s {
				for k := range s {
					m[r*s+c] += b[r*s+k] * b[c*s+k] / float64(s)
				}
			}
			m[r*s+r] += rowSum[i] + 1
		}
		add(i, i, m)
	}
	return dense
}

// TestFactorMatchesDense: on random SPD block matrices, the supernodal
// factorization (both orderings, both kernels) solves H x = b as the dense
// Cholesky of gonum does, to 1e-12 relative.
func TestFactorMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		n := 1 + rng.IntN(60)
		sizes, edges := randomPattern(rng, n, 1+4*rng.Float64())
		for _, ord := range []Ordering{MinDegree, Natural} {
			for _, kern := range []Kernels{AutoKernels, Loops, BLAS} {
				var sym Symbolic
				if err := sym.Analyze(sizes, edges, ord); err != nil {
					t.Fatal(err)
				}
				f := Factor{Kernels: kern}
				f.Reset(&sym)
				h := randomSPD(rng, &f, sizes, edges)
				nn := sym.Size()
				b := make([]float64, nn)
				for i := range b {
					b[i] = rng.Float64()*2 - 1
				}
				want := slices.Clone(b)
				u := slices.Clone(h)
				if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: nn, Stride: nn, Data: u}); !ok {
					t.Fatal("dense Potrf failed")
				}
				lapack64.Potrs(blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: nn, Stride: nn, Data: u},
					blas64.General{Rows: nn, Cols: 1, Stride: 1, Data: want})
				if !f.Factorize() {
					t.Fatalf("trial %d (%v, %v): SPD matrix rejected", trial, ord, kern)
				}
				got := slices.Clone(b)
				f.Solve(got)
				if e := relErr(got, want); e > 1e-12 {
					t.Errorf("trial %d (%v, %v, %d blocks, %d scalars): relative error %g", trial, ord, kern, n, nn, e)
				}
			}
		}
	}
}

// TestFactorRejectsIndefinite: an indefinite or NaN matrix is reported.
func TestFactorRejectsIndefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes, edges := randomPattern(rng, 20, 3)
	for _, kern := range []Kernels{Loops, BLAS} {
		for _, bad := range []float64{-1e6, math.NaN()} {
			var sym Symbolic
			if err := sym.Analyze(sizes, edges, MinDegree); err != nil {
				t.Fatal(err)
			}
			f := Factor{Kernels: kern}
			f.Reset(&sym)
			randomSPD(rng, &f, sizes, edges)
			off, _, _, _ := f.Locate(7, 7)
			f.Data()[off] += bad
			if f.Factorize() {
				t.Errorf("%v: matrix with diagonal shifted by %v accepted", kern, bad)
			}
		}
	}
}

// TestMinDegreeReducesFill: on an arrow (star) graph natural order fills L
// completely, minimum degree not at all (panels include the upper triangles
// of their diagonal blocks); on a 2D grid minimum degree stores
// less than natural order.
func TestMinDegreeReducesFill(t *testing.T) {
	nnz := func(sizes []int, edges []uint64, ord Ordering) int {
		var s Symbolic
		if err := s.Analyze(sizes, edges, ord); err != nil {
			t.Fatal(err)
		}
		return s.NonZeros()
	}
	n := 50
	sizes := slices.Repeat([]int{6}, n)
	var star []uint64
	for j := 1; j < n; j++ {
		star = append(star, EdgeKey(0, j))
	}
	md, nat := nnz(sizes, star, MinDegree), nnz(sizes, star, Natural)
	t.Logf("star, 50 blocks of 6: nnz(L) min-degree %d, natural %d", md, nat)
	// Min degree eliminates the leaves first: every panel holds a leaf's
	// 6×6 diagonal block and its one 6×6 block in the hub's column, with no
	// fill. Natural order eliminates the hub first and fills L completely:
	// one dense supernode of 300×300.
	if want := n * 72; md > want {
		t.Errorf("star: min-degree stores %d, want ≤ %d (no fill)", md, want)
	}
	if want := 6 * n * 6 * n; nat != want {
		t.Errorf("star: natural stores %d, want %d (full fill)", nat, want)
	}
	g := 12
	var grid []uint64
	for i := range g {
		for j := range g {
			if i+1 < g {
				grid = append(grid, EdgeKey(i*g+j, (i+1)*g+j))
			}
			if j+1 < g {
				grid = append(grid, EdgeKey(i*g+j, i*g+j+1))
			}
		}
	}
	slices.Sort(grid)
	sizes = slices.Repeat([]int{6}, g*g)
	md, nat = nnz(sizes, grid, MinDegree), nnz(sizes, grid, Natural)
	t.Logf("12×12 grid of 6×6 blocks: nnz(L) min-degree %d, natural %d", md, nat)
	if md >= nat {
		t.Errorf("grid: min-degree %d ≥ natural %d", md, nat)
	}
}

// TestCacheReuse: the analysis is rerun only when the pattern changes, and
// Get allocates nothing on a hit or on a warmed-up miss.
func TestCacheReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sa, ea := randomPattern(rng, 30, 3)
	sb, eb := randomPattern(rng, 30, 3)
	var c Cache
	for range 5 {
		if _, err := c.Get(sa, ea); err != nil {
			t.Fatal(err)
		}
	}
	if c.Analyses() != 1 || c.Hits() != 4 {
		t.Fatalf("same pattern 5 times: %d analyses, %d hits; want 1, 4", c.Analyses(), c.Hits())
	}
	c.Get(sb, eb)
	c.Get(sb, eb)
	c.Get(sa, ea)
	if c.Analyses() != 2 || c.Hits() != 6 {
		t.Fatalf("after switching patterns and back: %d analyses, %d hits; want 2, 6 (both kept)", c.Analyses(), c.Hits())
	}
	var f Factor
	allocs := testing.AllocsPerRun(20, func() {
		sym, _ := c.Get(sb, eb)
		f.Reset(sym)
		sym, _ = c.Get(sa, ea)
		f.Reset(sym)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pattern switch, want 0", allocs)
	}
}

// TestCacheEviction: a Cache of capacity 2 keeps the two most recently used
// analyses; the returned analyses are those of a fresh Analyze; a failed
// analysis is not kept.
func TestCacheEviction(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var pat [3]struct {
		s []int
		e []uint64
	}
	for i := range pat {
		pat[i].s, pat[i].e = randomPattern(rng, 12+4*i, 3)
	}
	c := Cache{Capacity: 2}
	get := func(i int) {
		t.Helper()
		sym, err := c.Get(pat[i].s, pat[i].e)
		if err != nil {
			t.Fatal(err)
		}
		var fresh Symbolic
		if err := fresh.Analyze(pat[i].s, pat[i].e, MinDegree); err != nil {
			t.Fatal(err)
		}
		if sym.NonZeros() != fresh.NonZeros() || sym.Supernodes() != fresh.Supernodes() || !slices.Equal(sym.Perm(), fresh.Perm()) {
			t.Fatalf("pattern %d: cached analysis (nnz %d) differs from a fresh one (nnz %d)", i, sym.NonZeros(), fresh.NonZeros())
		}
	}
	// a, b, a (hit), c (evicts b, the least recently used), a (hit), b (miss).
	for _, i := range []int{0, 1, 0, 2, 0, 1} {
		get(i)
	}
	if c.Analyses() != 4 || c.Hits() != 2 {
		t.Fatalf("a b a c a b with capacity 2: %d analyses, %d hits; want 4, 2", c.Analyses(), c.Hits())
	}
	if _, err := c.Get([]int{1, 0}, nil); err == nil {
		t.Fatal("malformed pattern accepted")
	}
	if _, err := c.Get([]int{1, 0}, nil); err == nil {
		t.Fatal("malformed pattern accepted from the cache after a failed analysis")
	}
}

// TestAnalyzeErrors: malformed patterns are errors, not panics.
func TestAnalyzeErrors(t *testing.T) {
	var s Symbolic
	for _, c := range []struct {
		sizes []int
		edges []uint64
	}{
		{[]int{1, 0}, nil},
		{[]int{1, 1}, []uint64{EdgeKey(0, 2)}},
		{[]int{1, 1}, []uint64{0}},
		{[]int{1, 1, 1}, []uint64{EdgeKey(1, 2), EdgeKey(0, 1)}},
	} {
		if err := s.Analyze(c.sizes, c.edges, MinDegree); err == nil {
			t.Errorf("Analyze(%v, %v) accepted", c.sizes, c.edges)
		}
	}
	var f Factor
	if f.Factorize() {
		t.Error("Factorize without Reset succeeded")
	}
	if _, _, _, ok := f.Locate(0, 0); ok {
		t.Error("Locate without Reset succeeded")
	}
}

func relErr(got, want []float64) float64 {
	num, den := 0.0, 0.0
	for i := range got {
		num += (got[i] - want[i]) * (got[i] - want[i])
		den += want[i] * want[i]
	}
	return math.Sqrt(num / den)
}
