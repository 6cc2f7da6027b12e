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

// TestPort5CopyRowsMatchesCopyThenSet: with no angular block,
// jacobianCoordinates' copy of J_w's whole rows into MuJoCo's order
// (copyRows, then rowPattern) gives each row's entries with a −0 made +0
// and each row's non-zero columns, for rows taken from anywhere in J_w's
// data (overlapping or not) in any order, some of the problem's rows left
// out, with exact zeros of both signs, NaN and ±Inf, on awkward widths and
// on no rows. It fails when the copy is not taken, a −0 is left as −0 or
// a non-zero is left out of the pattern.
func TestPort5CopyRowsMatchesCopyThenSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 127))
	sim := &Simulator{}
	w := &sim.ws.pgs
	for trial := range 3000 {
		rows, cols := rng.IntN(20), 1+rng.IntN(13)
		nr := rows + rng.IntN(3)
		src := make([]float64, cols*(nr+3))
		for i := range src {
			src[i] = randomEntry(rng)
			if rng.IntN(50) == 0 {
				src[i] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
			}
		}
		w.jac = pgsJac{whole: true, data: src}
		for r := range nr {
			lo := rng.IntN(len(src) - cols + 1)
			w.jac.seg = append(w.jac.seg, pgsSeg{row: r, lo: lo, hi: lo + cols})
		}
		w.perm = rng.Perm(nr)[:rows]
		want, wantNZ := port5CopyThenSet(&w.jac, w.perm, cols)
		var nw newtonWork
		nw.resize(cols, rows, nr)
		nw.mapRows(w.perm)
		if !nw.copyRows(&w.jac) {
			t.Fatalf("trial %d (%d×%d): copyRows did not take the rows", trial, rows, cols)
		}
		for i := range nw.j {
			nw.j[i] = math.NaN() // every entry must be written
		}
		nw.jacobianCoordinates(sim)
		if !sameBits(nw.j, want) {
			t.Fatalf("trial %d (%d×%d): copied %v, copy then set %v", trial, rows, cols, nw.j, want)
		}
		for k := range rows {
			if !slices.Equal(nw.rowNZ(k), wantNZ[k]) {
				t.Fatalf("trial %d row %d: pattern %v, want %v", trial, k, nw.rowNZ(k), wantNZ[k])
			}
		}
	}
}

// port5CopyThenSet is the plain form of copyRows then rowPattern: MuJoCo's
// row k is J_w's row perm[k], each entry 0 + x (a −0 made +0), and its
// non-zero columns (NaN among them).
func port5CopyThenSet(jac *pgsJac, perm []int, cols int) ([]float64, [][]int32) {
	j, nz := make([]float64, len(perm)*cols), make([][]int32, len(perm))
	for k, r := range perm {
		sg := jac.seg[r]
		nz[k] = []int32{}
		for i, x := range jac.data[sg.lo:sg.hi] {
			j[k*cols+i] = 0 + x
			if x != 0 {
				nz[k] = append(nz[k], int32(i))
			}
		}
	}
	return j, nz
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
