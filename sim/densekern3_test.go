package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomFirst returns, for an n×n lower triangle, a first column per row
// (first[j] ≤ j) drawn as cliques that start at random rows, some rows
// reaching further left (a contact coupling two cliques).
func randomFirst(rng *rand.Rand, n int) []int {
	first := make([]int, n)
	start := 0
	for j := range first {
		if rng.IntN(4) == 0 {
			start = j
		}
		first[j] = start
		if rng.IntN(6) == 0 {
			first[j] = rng.IntN(j + 1)
		}
	}
	return first
}

// randomLower returns an n×n L whose row j is ±0 left of first[j] (or, for
// odd, a non-finite entry there), random with exact zeros of both signs
// from first[j] to the diagonal, and a positive diagonal (now and then
// +Inf when odd).
func randomLower(rng *rand.Rand, first []int, odd bool) []float64 {
	n := len(first)
	l := make([]float64, n*n)
	for j := range n {
		for k := range j {
			if k < first[j] {
				l[j*n+k] = math.Copysign(0, float64(rng.IntN(2))-0.5)
			} else {
				l[j*n+k] = randomEntry(rng)
			}
		}
		l[j*n+j] = 0.5 + rng.Float64()
	}
	if odd {
		bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
		j := rng.IntN(n)
		if k := rng.IntN(j + 1); k < first[j] {
			l[j*n+k] = bad[rng.IntN(3)]
		} else {
			l[j*n+j] = math.Inf(1)
		}
	}
	return l
}

// TestDensekern3SolveFromMatchesMuJoCo: cholSolveFrom, whose back
// substitution stops each column at the last row that first lets be
// non-zero, gives the whole columns' bits (cholSolve, and MuJoCo's loop,
// refCholSolve, where the result is finite) on
// random L with ±0 left of first, for vectors of random entries, of ±0
// only (every column's r a zero, whose sign the left-out terms may turn),
// and with NaN or ±Inf in the vector or in L (the left-out products would
// be NaN). It fails when the zero r or the non-finite result is not sent
// on over the whole column.
func TestDensekern3SolveFromMatchesMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 96))
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for trial := range 4000 {
		n := 1 + trial%32
		first := randomFirst(rng, n)
		l := randomLower(rng, first, trial%9 == 8)
		vec := make([]float64, n)
		for i := range vec {
			switch trial % 5 {
			case 0: // zeros only
				vec[i] = math.Copysign(0, float64(rng.IntN(2))-0.5)
			default:
				vec[i] = randomEntry(rng)
			}
		}
		if trial%7 == 3 {
			vec[rng.IntN(n)] = bad[rng.IntN(3)]
		}
		got, whole, ref := make([]float64, n), make([]float64, n), make([]float64, n)
		cholSolveFrom(l, vec, got, n, first)
		cholSolve(l, vec, whole, n)
		refCholSolve(l, vec, ref, n)
		// A NaN's payload and sign follow the operands' order, which the
		// compiler may swap in a commutative sum: the reference loop is
		// held to the finite results, the whole columns to every result.
		if !sameBits(got, whole) || finiteAll(ref) && !sameBits(got, ref) {
			t.Fatalf("trial %d n %d first %v: cholSolveFrom %v, whole columns %v, MuJoCo's %v", trial, n, first, got, whole, ref)
		}
	}
}

// TestDensekern3FirstBoundsUpdates: after cholFactorFrom on H = Σ d r rᵀ +
// diag over sparse rows r (first[i] the least first column of a row through
// i) and a run of rank-one updates and downdates (cholUpdate) with new
// sparse rows, first lowered by lowerFirstBy still has L's row i ±0 left
// of first[i], and cholSolveFrom gives MuJoCo's solve's bits. It fails when
// lowerFirstBy is skipped.
func TestDensekern3FirstBoundsUpdates(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 96))
	row := func(n int) ([]float64, []int32) { // a sparse row and its non-zeros
		r, idx := make([]float64, n), []int32(nil)
		for i := range r {
			if rng.IntN(3) == 0 {
				r[i] = rng.NormFloat64()
				idx = append(idx, int32(i))
			}
		}
		return r, idx
	}
	for trial := range 1500 {
		n := 2 + trial%30
		h, first := make([]float64, n*n), make([]int, n)
		for i := range first {
			first[i] = i
			h[i*n+i] = 0.5 + rng.Float64()
		}
		var rows [][]float64
		for range 1 + rng.IntN(4) {
			r, idx := row(n)
			rows = append(rows, r)
			for _, i := range idx {
				for _, c := range idx {
					if c <= i {
						h[int(i)*n+int(c)] += r[i] * r[c]
					}
				}
			}
			lowerFirstBy(first, idx)
		}
		if cholFactorFrom(h, n, mjMinVal, first) < n {
			continue
		}
		for u := range 1 + rng.IntN(5) {
			r, idx := row(n)
			x := slices.Clone(r)
			if u%2 == 1 && len(rows) > 0 { // a downdate of an earlier row
				r = rows[rng.IntN(len(rows))]
				idx = idx[:0]
				for i, v := range r {
					if v != 0 {
						idx = append(idx, int32(i))
					}
				}
				x = slices.Clone(r)
			}
			if cholUpdate(h, x, n, u%2 == 0) < n {
				break
			}
			lowerFirstBy(first, idx)
		}
		for i := range n {
			for k := range first[i] {
				if h[i*n+k] != 0 && finiteAll(h) { // an overflow fills L with NaN
					t.Fatalf("trial %d n %d: L[%d][%d] = %v left of first %d", trial, n, i, k, h[i*n+k], first[i])
				}
			}
		}
		vec := make([]float64, n)
		for i := range vec {
			vec[i] = randomEntry(rng)
		}
		got, want := make([]float64, n), make([]float64, n)
		cholSolveFrom(h, vec, got, n, first)
		refCholSolve(h, vec, want, n)
		if !sameBits(got, want) {
			t.Fatalf("trial %d n %d: cholSolveFrom %v, MuJoCo's %v", trial, n, got, want)
		}
	}
}
