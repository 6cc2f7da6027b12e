package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestPort5MassInPlaceMatchesCopy: with T the identity and one clique,
// Newton's M read in place from the problem's A (massCoordinates) gives
// M x (mulM) and the Hessian's factor (hessianDirect) the bits of
// turnMass's copy (each entry 0 + A's, −0 made +0), which CG keeps, for an A
// and an x with exact zeros of both signs and, now and then, an x with ±Inf
// or NaN. It fails when the in-place path is not taken, or when a reader of
// M would tell −0 from +0.
func TestPort5MassInPlaceMatchesCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 113))
	for trial := range 2000 {
		n, nv := rng.IntN(12), 1+rng.IntN(30)
		var p solver.Problem
		p.Reset(nv)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: nv})
		p.A = make([]float64, nv*nv)
		for i := range nv {
			for c := range i + 1 {
				v := randomEntry(rng)
				if c == i {
					v = float64(nv) + rng.Float64()
				}
				p.A[i*nv+c], p.A[c*nv+i] = v, v
			}
		}
		rows := newtoncore3Rows(rng, n, nv)
		state, d := make([]int8, n), make([]float64, n)
		for k := range n {
			d[k] = rng.Float64()
			state[k] = int8(rng.IntN(2)) // satisfied or quadratic
		}
		x := make([]float64, nv)
		for i := range x {
			x[i] = randomEntry(rng)
		}
		if trial%10 == 0 {
			x[rng.IntN(nv)] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
		}
		var out [2][]float64
		var fac [2][]float64
		for v, cg := range []bool{false, true} {
			nw := &newtonWork{nv: nv, n: n, cg: cg, j: rows.j, jnz: rows.jnz, state: state, d: d}
			nw.mown, nw.h = make([]float64, nv*nv), make([]float64, nv*nv)
			nw.massCoordinates(&p)
			if inPlace := &nw.m[0] == &p.A[0]; inPlace == cg {
				t.Fatalf("trial %d: cg %v, M read in place %v", trial, cg, inPlace)
			}
			out[v] = make([]float64, nv)
			nw.mulM(x, out[v])
			nw.hessianDirect(nil)
			fac[v] = nw.h
		}
		if !sameBits(out[0], out[1]) {
			t.Fatalf("trial %d (nv %d): M x in place %v, copied %v", trial, nv, out[0], out[1])
		}
		if !lowerSameBits(fac[0], fac[1], nv) {
			t.Fatalf("trial %d (nv %d, %d rows): the Hessian's factors differ", trial, nv, n)
		}
	}
}

// TestPort5CopySetMatchesCopyThenSet: pattern.copySet (copyRows' one pass
// on the planar models) gives the rows, bits and pattern of a copy row by
// row followed by pattern.set, for rows taken from anywhere in the source
// (overlapping or not), with exact zeros of both signs, NaN and ±Inf, on
// awkward widths and on no rows. It fails when a −0 is copied as −0 or a
// non-zero is left out of the pattern.
func TestPort5CopySetMatchesCopyThenSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 127))
	for trial := range 3000 {
		rows, cols := rng.IntN(20), 1+rng.IntN(13)
		src := make([]float64, cols*(rows+3))
		for i := range src {
			src[i] = randomEntry(rng)
			if rng.IntN(50) == 0 {
				src[i] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
			}
		}
		from := make([]int, rows)
		for k := range from {
			from[k] = rng.IntN(len(src) - cols + 1)
		}
		got, want := make([]float64, rows*cols), make([]float64, rows*cols)
		for i := range got {
			got[i] = math.NaN() // every entry must be written
		}
		var pg, pw pattern
		pg.copySet(got, src, from, cols)
		for k, lo := range from {
			copy(want[k*cols:(k+1)*cols], src[lo:lo+cols])
		}
		pw.set(want, rows, cols)
		if !sameBits(got, want) {
			t.Fatalf("trial %d (%d×%d): copySet %v, copy then set %v", trial, rows, cols, got, want)
		}
		for k := range rows {
			if !slices.Equal(pg.row(k), pw.row(k)) {
				t.Fatalf("trial %d row %d: pattern %v, set's %v", trial, k, pg.row(k), pw.row(k))
			}
		}
	}
}

// TestPort5MulJDenseWholeMatchesMuJoCo: J x on the dense path (mulJ,
// J whole below mulJWholeNV velocities, else the rows' patterns) gives
// mju_mulMatVec's bits (mulMat over all of J) for a finite x with zeros of
// both signs, on either side of mulJWholeNV; an x with ±Inf or NaN leaves a
// row of few non-zeros that misses it finite, as dotNZ made it before. It
// fails when the whole product is taken for a non-finite x.
func TestPort5MulJDenseWholeMatchesMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 131))
	for trial := range 3000 {
		n, nv := rng.IntN(20), 1+rng.IntN(2*mulJWholeNV)
		nw := newtoncore3Rows(rng, n, nv)
		x := make([]float64, nv)
		for i := range x {
			x[i] = randomEntry(rng)
		}
		got, want := make([]float64, n), make([]float64, n)
		nw.mulJ(x, got)
		mulMat(nw.j, x, want, n, nv)
		if !sameBits(got, want) {
			t.Fatalf("trial %d (nv %d): mulJ %v, mulMat %v", trial, nv, got, want)
		}
		bad := rng.IntN(nv)
		x[bad] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
		nw.mulJ(x, got)
		for k := range n {
			idx := nw.rowNZ(k)
			if 2*len(idx) < nv && !slices.Contains(idx, int32(bad)) && !finite(got[k]) {
				t.Fatalf("trial %d (nv %d) row %d: %v without a non-zero at x's %v", trial, nv, k, got[k], x[bad])
			}
		}
	}
}
