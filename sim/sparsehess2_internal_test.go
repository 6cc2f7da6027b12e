package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sparsehess2Row is a row of J for sparsehess2SetRows: its columns, and
// whether it is a constraint's next row (on the columns of the row before).
type sparsehess2Row struct {
	cols []int
	same bool
}

// sparsehess2SetRows sets nw's J to rows (random values, some ±0), Jᵀ's
// pattern, and random states and D.
func sparsehess2SetRows(rng *rand.Rand, nw *newtonWork, rows []sparsehess2Row) {
	sp, n := &nw.sp, len(rows)
	nw.n = n
	sp.jadr, sp.jnnz = growInt(sp.jadr, n+1), growInt(sp.jnnz, n)
	sp.jind, sp.jval = sp.jind[:0], sp.jval[:0]
	sp.jsame = growBool(sp.jsame, n)
	nw.state, nw.d = make([]int8, n), make([]float64, n)
	sp.jadr[0] = 0
	entry := signedZerosOrNormal(rng)
	for k, row := range rows {
		for _, c := range row.cols {
			sp.jind, sp.jval = append(sp.jind, c), append(sp.jval, entry())
		}
		sp.jadr[k+1] = len(sp.jind)
		sp.jnnz[k] = len(row.cols)
		sp.jsame[k] = row.same
		if rng.IntN(3) > 0 {
			nw.state[k] = nwQuadratic
		}
		nw.d[k] = rng.Float64() * 3
	}
	sp.transpose(nw.nv, n)
	sp.sym.checked = false
}

// sparsehess2Variants returns J's rows of the random problem in nw (base)
// and three variants: one more row on a subset of a row's columns (H's
// pattern unchanged), one more row on random columns, the last row gone.
func sparsehess2Variants(rng *rand.Rand, nw *newtonWork) [4][]sparsehess2Row {
	sp := &nw.sp
	var base []sparsehess2Row
	for k := range nw.n {
		ind, _ := sp.row(k)
		base = append(base, sparsehess2Row{slices.Clone(ind), sp.jsame[k]})
	}
	sub := []int{rng.IntN(nw.nv)} // a diagonal entry alone, always on H
	if len(base) > 0 {
		if cols := base[rng.IntN(len(base))].cols; len(cols) > 0 {
			sub = sub[:0]
			for _, c := range cols {
				if rng.IntN(2) == 0 {
					sub = append(sub, c)
				}
			}
			if len(sub) == 0 {
				sub = append(sub, cols[0])
			}
		}
	}
	var fresh []int
	for c := range nw.nv {
		if rng.IntN(3) == 0 {
			fresh = append(fresh, c)
		}
	}
	v := [4][]sparsehess2Row{base}
	v[1] = append(slices.Clone(base), sparsehess2Row{sub, false})
	v[2] = append(slices.Clone(base), sparsehess2Row{fresh, false})
	v[3] = slices.Clone(base)
	if len(v[3]) > 0 {
		v[3] = v[3][:len(v[3])-1]
	}
	return v
}

// TestSparseSymKeptMatchesMerges: the symbolic Hessians kept across
// solves and keyed on H's pattern (checkSym: the current one, or one of
// the last symKept) give the merges' patterns and bits for the factor,
// on random problems whose J and M change between solves: J gaining a
// row on a subset of another's columns (H's pattern the same: no
// rebuild), a row on new columns, losing its last row, M's entries
// turning zero or non-zero; a pattern met again within the last
// symKept + 1 is taken back without a rebuild. It fails when H's key
// leaves out M's part or a constraint's rows, or when a kept pattern is
// taken for another.
func TestSparseSymKeptMatchesMerges(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 2))
	nw := &newtonWork{}
	check := func(trial, solve int) {
		t.Helper()
		want := mergeHessian(nw)
		mergeFactor(want, mjMinVal)
		nw.hessianDirectSparse(nil)
		sameSparseRows(t, "kept factor", &nw.sp.h, want)
	}
	for trial := range 200 {
		randomSparseNewton(rng, nw)
		v := sparsehess2Variants(rng, nw)
		// No M change: after the first, the solves of variants 1 (H as
		// 0's) and of patterns met before build nothing.
		for solve, x := range []int{0, 1, 2, 0, 3, 2, 0, 1} {
			sparsehess2SetRows(rng, nw, v[x])
			before := nw.sp.symBuilds
			check(trial, solve)
			if built := nw.sp.symBuilds - before; solve > 0 && (x == 0 || x == 1 || solve == 5) && built != 0 {
				t.Fatalf("trial %d, solve %d (variant %d): H's pattern met before, built again", trial, solve, x)
			}
		}
		for solve := range 16 { // M's zeros moving too
			sparsehess2SetRows(rng, nw, v[rng.IntN(4)])
			if rng.IntN(3) == 0 {
				flipMZero(rng, &nw.sp)
			}
			check(trial, 8+solve)
		}
	}
}

// TestTurnRowNZMatchesCompressed: turnRowNZ (a constraint of one row's
// J_w T kept by its non-zeros as it is turned) gives the entries of
// turnRow that compressConstraints keeps (those ≠ 0), columns and bits,
// on windows of a model with two angular blocks, J_w's entries and T's
// with exact zeros of both signs.
func TestTurnRowNZMatchesCompressed(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 3))
	entry := signedZerosOrNormal(rng)
	nw := &newtonWork{nv: 20, blocks: []int{2, 9}}
	nw.markBlocks()
	nw.rot = make([]float64, 18)
	for trial := range 500 {
		for i := range nw.rot {
			nw.rot[i] = entry()
		}
		for _, win := range [][2]int{{0, 20}, {5, 10}, {2, 3}, {12, 8}} {
			off, n := win[0], win[1]
			jw := make([]float64, n)
			for i := range jw {
				jw[i] = entry()
			}
			ind, val := make([]int, n), make([]float64, n)
			nw.turnRow(jw, ind, val, off)
			var wind []int
			var wval []float64
			for i, x := range val {
				if x != 0 {
					wind, wval = append(wind, ind[i]), append(wval, x)
				}
			}
			var nz []int
			for i, x := range jw {
				if x != 0 {
					nz = append(nz, i)
				}
			}
			m := nw.turnRowNZ(jw, nz, ind, val, off)
			if !slices.Equal(ind[:m], wind) {
				t.Fatalf("trial %d, window %v: columns %v, compressed %v", trial, win, ind[:m], wind)
			}
			for i := range m {
				if math.Float64bits(val[i]) != math.Float64bits(wval[i]) {
					t.Fatalf("trial %d, window %v: J[%d] = %v, compressed %v", trial, win, ind[i], val[i], wval[i])
				}
			}
		}
	}
}
