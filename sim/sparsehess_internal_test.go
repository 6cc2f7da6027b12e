package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The sparse Hessian on its cached symbolic pattern (mujoco_sparse_symbolic.go)
// against mju_cholFactorSparse and mju_cholUpdateSparse as merges
// (mju_combineSparse): the pattern the merges grow each time, and the
// values they compute, to the bit.

// mergeRows is a lower-triangular matrix by rows whose patterns the
// merges grow.
type mergeRows struct {
	ind [][]int
	val [][]float64
}

// mergeCombine is mju_combineSparse: dst = a dst + b src over the union of
// the increasing patterns (a new entry is b src alone).
func mergeCombine(dind []int, dval []float64, sind []int, sval []float64, a, b float64) ([]int, []float64) {
	if slices.Equal(dind, sind) {
		out := slices.Clone(dval)
		for i := range out {
			out[i] = out[i]*a + sval[i]*b
		}
		return slices.Clone(dind), out
	}
	var oi []int
	var ov []float64
	i, j := 0, 0
	for i < len(dind) || j < len(sind) {
		switch {
		case j == len(sind) || i < len(dind) && dind[i] < sind[j]:
			oi, ov = append(oi, dind[i]), append(ov, a*dval[i])
			i++
		case i == len(dind) || sind[j] < dind[i]:
			oi, ov = append(oi, sind[j]), append(ov, b*sval[j])
			j++
		default:
			oi, ov = append(oi, dind[i]), append(ov, a*dval[i]+b*sval[j])
			i++
			j++
		}
	}
	return oi, ov
}

// mergeFactor is mju_cholFactorSparse by merges.
func mergeFactor(h *mergeRows, mindiag float64) int {
	n := len(h.ind)
	rank := n
	for r := n - 1; r >= 0; r-- {
		ind, val := h.ind[r], h.val[r]
		nnz := len(val)
		if !cholScaleRow(val, mindiag) {
			rank--
		}
		for i := range nnz - 1 {
			c := ind[i]
			h.ind[c], h.val[c] = mergeCombine(h.ind[c], h.val[c], ind[:i+1], val[:i+1], 1, -val[i])
		}
	}
	return rank
}

// mergeUpdate is mju_cholUpdateSparse by merges; −1 when a row's pattern
// would grow.
func mergeUpdate(h *mergeRows, x []float64, xi []int, plus bool) int {
	n := len(h.ind)
	rank := n
	x, xi = slices.Clone(x), slices.Clone(xi)
	for i := len(xi) - 1; i >= 0; i = len(xi) - 1 {
		r := xi[i]
		ind, val := h.ind[r], h.val[r]
		nnz := len(val)
		rr, c, s, b, ok := cholRotation(val[nnz-1], x[i], plus)
		if !ok {
			rank--
		}
		val[nnz-1] = rr
		nind, nval := mergeCombine(ind[:nnz-1], val[:nnz-1], xi[:i], x[:i], 1/c, b)
		if len(nind) != nnz-1 {
			return -1
		}
		copy(val, nval)
		xi, x = mergeCombine(xi[:i], x[:i], ind[:nnz-1], val[:nnz-1], c, -s)
	}
	return rank
}

// randomSparseNewton sets nw to a random sparse problem of nv velocities in
// cliques, M's blocks with exact zeros (±0) off the diagonal, J's rows on
// random increasing columns (some values ±0; some on the previous row's
// columns, as a constraint's rows), rows quadratic or not.
func randomSparseNewton(rng *rand.Rand, nw *newtonWork) {
	nv := 1 + rng.IntN(40)
	n := rng.IntN(2 * nv)
	nw.nv, nw.n = nv, n
	sp := &nw.sp
	sp.on = true
	sp.off, sp.sz, sp.madr = sp.off[:0], sp.sz[:0], append(sp.madr[:0], 0)
	sp.cqOf = growInt(sp.cqOf, nv)
	for at := 0; at < nv; {
		sz := min(nv-at, 1+rng.IntN(12))
		for i := range sz {
			sp.cqOf[at+i] = len(sp.off)
		}
		sp.off, sp.sz = append(sp.off, at), append(sp.sz, sz)
		sp.madr = append(sp.madr, sp.madr[len(sp.madr)-1]+sz*sz)
		at += sz
	}
	sp.mb = make([]float64, sp.madr[len(sp.off)])
	for c, off := range sp.off {
		sz, mb := sp.sz[c], sp.mb[sp.madr[c]:]
		for r := range sz {
			mb[r*sz+r] = 5 + rng.Float64()
			for j := range r {
				v := 0.0
				switch rng.IntN(4) {
				case 0:
				case 1:
					v = math.Copysign(0, -1)
				default:
					v = 0.3 * rng.NormFloat64()
				}
				mb[r*sz+j], mb[j*sz+r] = v, v
			}
		}
		_ = off
	}
	sp.jadr, sp.jnnz = growInt(sp.jadr, n+1), growInt(sp.jnnz, n)
	sp.jind, sp.jval = sp.jind[:0], sp.jval[:0]
	nw.state, nw.d = make([]int8, n), make([]float64, n)
	sp.jadr[0] = 0
	sp.jsame = make([]bool, n)
	for k := range n {
		if k > 0 && rng.IntN(3) == 0 { // a constraint's next row: the previous row's columns
			sp.jsame[k] = true
			for _, i := range sp.jind[sp.jadr[k-1]:sp.jadr[k]] {
				sp.jind, sp.jval = append(sp.jind, i), append(sp.jval, rng.NormFloat64())
			}
		}
		for i := range nv * btoi(!sp.jsame[k]) {
			if rng.IntN(3) == 0 {
				v := rng.NormFloat64()
				if rng.IntN(8) == 0 {
					v = math.Copysign(0, float64(rng.IntN(2)*2-1))
				}
				sp.jind, sp.jval = append(sp.jind, i), append(sp.jval, v)
			}
		}
		sp.jadr[k+1] = len(sp.jind)
		sp.jnnz[k] = sp.jadr[k+1] - sp.jadr[k]
		if rng.IntN(3) > 0 {
			nw.state[k] = nwQuadratic
		}
		if rng.IntN(6) > 0 {
			nw.d[k] = rng.Float64() * 3
		}
	}
	sp.mark, sp.bufi = growInt(sp.mark, nv), growInt(sp.bufi, nv)
	sp.buf, sp.xv = make([]float64, nv), make([]float64, nv)
	sp.xi, sp.cols = growInt(sp.xi, nv), growInt(sp.cols, nv)[:0]
	sp.transpose(nv, n)
	sp.packM(nv)
	sp.sym.checked = false
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mergeHessian is H = Jᵀ D J + M as the merges' path built it: row i on
// the columns ≤ i of J's rows on column i, M's non-zeros and the
// diagonal, each entry summed over J's rows in order, then M's dense row.
func mergeHessian(nw *newtonWork) *mergeRows {
	sp, nv := &nw.sp, nw.nv
	h := &mergeRows{ind: make([][]int, nv), val: make([][]float64, nv)}
	for i := range nv {
		set := map[int]bool{i: true}
		for t := sp.tadr[i]; t < sp.tadr[i+1]; t++ {
			ind, _ := sp.row(sp.trow[t])
			for _, c := range ind {
				if c <= i {
					set[c] = true
				}
			}
		}
		cq := sp.cqOf[i]
		n, off := sp.sz[cq], sp.off[cq]
		mrow := sp.mb[sp.madr[cq]+(i-off)*n:]
		for j := range n {
			if mrow[j] != 0 && off+j <= i {
				set[off+j] = true
			}
		}
		acc := make([]float64, nv)
		for t := sp.tadr[i]; t < sp.tadr[i+1]; t++ {
			k := sp.trow[t]
			if nw.state[k] != nwQuadratic || nw.d[k] == 0 {
				continue
			}
			scl := sp.jval[sp.tpos[t]] * nw.d[k]
			ind, val := sp.row(k)
			for j, c := range ind {
				if c <= i {
					acc[c] += val[j] * scl
				}
			}
		}
		for j := range n {
			if off+j <= i {
				acc[off+j] += mrow[j]
			}
		}
		for c := range set {
			h.ind[i] = append(h.ind[i], c)
		}
		slices.Sort(h.ind[i])
		for _, c := range h.ind[i] {
			h.val[i] = append(h.val[i], acc[c])
		}
	}
	return h
}

// flipMZero sets an off-diagonal pair of M's entries to zero or from zero
// to a value, or changes nothing, and packs M again.
func flipMZero(rng *rand.Rand, sp *sparseNewton) {
	c := rng.IntN(len(sp.off))
	sz, mb := sp.sz[c], sp.mb[sp.madr[c]:]
	if sz > 1 && rng.IntN(3) > 0 {
		r := 1 + rng.IntN(sz-1)
		j := rng.IntN(r)
		v := 0.0
		if mb[r*sz+j] == 0 {
			v = 0.3 * rng.NormFloat64()
		}
		mb[r*sz+j], mb[j*sz+r] = v, v
	}
	sp.packM(len(sp.cqOf))
}

// sameSparseRows fails t unless the cached-pattern rows are the merged ones to
// the bit.
func sameSparseRows(t *testing.T, what string, got *sparseRows, want *mergeRows) {
	t.Helper()
	for r := range want.ind {
		ind, val := got.row(r)
		if !slices.Equal(ind, want.ind[r]) {
			t.Fatalf("%s: row %d's columns %v, merges %v", what, r, ind, want.ind[r])
		}
		for j := range val {
			if math.Float64bits(val[j]) != math.Float64bits(want.val[r][j]) {
				t.Fatalf("%s: L(%d, %d) = %v, merges %v", what, r, ind[j], val[j], want.val[r][j])
			}
		}
	}
}

// TestSparseHessianMatchesMerges: on random problems (cliques of M with
// ±0 entries, J's rows with ±0 values, D = 0 and inactive rows), the
// Hessian assembled and factored on the cached symbolic pattern, and then
// updated and downdated by J's rows as HessianIncremental does, gives the merges' patterns and bits;
// the pattern is rebuilt when J's changes, kept when it does not, and
// rebuilt or kept as it must when an entry of M becomes zero or non-zero.
func TestSparseHessianMatchesMerges(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	nw := &newtonWork{}
	for trial := range 300 {
		randomSparseNewton(rng, nw)
		for pass := range 2 { // the second on the kept pattern, new values
			if pass == 1 {
				for k := range nw.n {
					nw.state[k] = nwSatisfied
					if rng.IntN(2) == 0 {
						nw.state[k] = nwQuadratic
					}
				}
				flipMZero(rng, &nw.sp)
				nw.sp.sym.checked = false
			}
			want := mergeHessian(nw)
			mergeFactor(want, mjMinVal)
			nw.hessianDirectSparse(nil)
			sameSparseRows(t, "factor", &nw.sp.h, want)
			for range 4 {
				if nw.n == 0 {
					break
				}
				k := rng.IntN(nw.n)
				ind, val := nw.sp.row(k)
				if len(ind) == 0 {
					continue
				}
				// As HessianIncremental: add a row that became quadratic,
				// remove one that stopped being.
				plus := nw.state[k] != nwQuadratic
				nw.state[k] = nwQuadratic
				if !plus {
					nw.state[k] = nwSatisfied
				}
				sd := math.Sqrt(nw.d[k])
				xi := append(nw.sp.xi[:0], ind...)
				x := nw.sp.xv[:len(ind)]
				for j, v := range val {
					x[j] = v * sd
				}
				wrank := mergeUpdate(want, x, xi, plus)
				grank := nw.sp.cholUpdate(&nw.sp.h, x, xi, plus)
				if grank != wrank {
					t.Fatalf("trial %d: update rank %d, merges %d", trial, grank, wrank)
				}
				if wrank < 0 {
					break
				}
				sameSparseRows(t, "update", &nw.sp.h, want)
			}
		}
	}
}

// TestSparseMulMMatchesDot4: M x through M's non-zeros in their lanes
// (packM, mulM) gives dot4's bits over M's full rows, on random cliques
// (M's blocks with ±0 entries) of 1 to 40 velocities, x with ±0 entries.
func TestSparseMulMMatchesDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	next := signedZerosOrNormal(rng)
	nw := &newtonWork{}
	for range 300 {
		randomSparseNewton(rng, nw)
		sp, nv := &nw.sp, nw.nv
		dense := make([]float64, nv*nv)
		for c, off := range sp.off {
			n := sp.sz[c]
			for r := range n {
				for j := range n {
					dense[(off+r)*nv+off+j] = sp.mb[sp.madr[c]+r*n+j] * math.Pow(10, float64(rng.IntN(9)-4))
					sp.mb[sp.madr[c]+r*n+j] = dense[(off+r)*nv+off+j]
				}
			}
		}
		sp.packM(nv)
		x, got := make([]float64, nv), make([]float64, nv)
		for i := range x {
			x[i] = next()
		}
		nw.mulM(x, got)
		for r := range nv {
			if want := dot4(dense[r*nv:(r+1)*nv], x); math.Float64bits(got[r]) != math.Float64bits(want) {
				t.Fatalf("nv %d row %d: M x %v, dot4 %v", nv, r, got[r], want)
			}
		}
	}
}
