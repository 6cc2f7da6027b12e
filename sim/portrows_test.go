package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// The dense port's rows read in place (pgsJac.buildWhole) against the
// compact copy of their non-zeros (pgsJac.buildMul), bit for bit, on
// random problems whose J blocks hold exact zeros of both signs and whose
// vectors hold, now and then, ±Inf or NaN.

// portrowsVector returns n random entries (randomEntry), with a
// non-finite one now and then when wild.
func portrowsVector(rng *rand.Rand, n int, wild bool) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = randomEntry(rng)
		if wild && rng.IntN(10) == 0 {
			v[i] = [3]float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
		}
	}
	return v
}

// TestPortrowsWholeMatchesCompact: J v_s from buildWhole, and mul and mulT
// over the whole blocks, have the bits of the compact form's (buildMul,
// mul, mulT) and of Problem.MulJ for finite inputs; with a non-finite
// v or γ they still have the compact form's bits (its sums skip J's
// zeros, whose product with ±Inf is NaN). γ has zero rows, which mulT
// skips.
func TestPortrowsWholeMatchesCompact(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 23))
	var whole, compact pgsJac
	for trial := range 4000 {
		p := portglue5Problem(rng)
		wild := trial%2 == 1
		v := portrowsVector(rng, p.NV, wild)
		got, want := portrowsVector(rng, p.NR, true), make([]float64, p.NR) // got's junk must be overwritten
		whole.buildWhole(p)
		whole.mul(v, got, p.NR)
		compact.buildMul(p, v, want)
		if !whole.whole || compact.whole {
			t.Fatalf("trial %d: whole %v, compact %v", trial, whole.whole, compact.whole)
		}
		if !sameBits(got, want) {
			t.Fatalf("trial %d: buildWhole's J v %v, buildMul's %v", trial, got, want)
		}
		if !wild {
			mj := make([]float64, p.NR)
			p.MulJ(v, mj)
			if !sameBits(got, mj) {
				t.Fatalf("trial %d: buildWhole's J v %v, MulJ's %v", trial, got, mj)
			}
		}
		v = portrowsVector(rng, p.NV, wild)
		whole.mul(v, got, p.NR)
		compact.mul(v, want, p.NR)
		if !sameBits(got, want) {
			t.Fatalf("trial %d: mul over whole blocks %v, compact %v", trial, got, want)
		}
		gamma := portrowsVector(rng, p.NR, wild)
		for k := range gamma {
			if rng.IntN(4) == 0 {
				gamma[k] = 0
			}
		}
		jt, jtc := portrowsVector(rng, p.NV, true), make([]float64, p.NV)
		whole.mulT(gamma, jt, p.NV)
		compact.mulT(gamma, jtc, p.NV)
		if !sameBits(jt, jtc) {
			t.Fatalf("trial %d: mulT over whole blocks %v, compact %v", trial, jt, jtc)
		}
	}
}

// TestPortrowsJacobianCoordinatesWhole: jacobianCoordinates gives the same
// J in MuJoCo's coordinates and row order from the whole blocks as from
// the compact non-zeros: random problems, a random subset of their rows in
// random order (perm), random angular blocks with random rotations.
func TestPortrowsJacobianCoordinatesWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 5))
	sim := &Simulator{}
	w := &sim.ws.pgs
	for trial := range 2000 {
		p := portglue5Problem(rng)
		w.perm = portrowsRandomRows(rng, p.NR, w.perm[:0])
		var one, two newtonWork
		for _, nw := range []*newtonWork{&one, &two} {
			nw.resize(p.NV, len(w.perm), p.NR)
		}
		for o := 0; o+3 <= p.NV; o += 3 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				one.blocks = append(one.blocks, o)
			}
		}
		one.rot = portrowsVector(rng, 9*len(one.blocks), false)
		two.blocks, two.rot = one.blocks, one.rot
		w.jac.buildWhole(p)
		one.jacobianCoordinates(sim)
		w.jac.build(p)
		two.jacobianCoordinates(sim)
		if !sameBits(one.j, two.j) {
			t.Fatalf("trial %d: J from the whole blocks %v, from the non-zeros %v", trial, one.j, two.j)
		}
	}
}

// TestPortrowsRotationsMatchWorldVelocity: rotations (each angular block's
// T from its quaternion by spatial.Quat.Rotate of the unit vectors) has
// the bits of T's columns from multibody.Model.WorldVelocity of the unit
// vectors on every block at once, on a tree of a free body, a ball joint,
// a compound joint with a ball part between a hinge and a slide, and a
// hinge, at random rotations (the compound joint's ball part too).
func TestPortrowsRotationsMatchWorldVelocity(t *testing.T) {
	m, _ := portlayoutModel(t)
	rng := rand.New(rand.NewPCG(73, 9))
	var nw newtonWork
	nw.nv = m.NV
	nw.setBlocks(m)
	if len(nw.blocks) != 3 {
		t.Fatalf("%d angular blocks, want 3 (free, ball, ball part)", len(nw.blocks))
	}
	e, col := make([]float64, m.NV), make([]float64, m.NV)
	for trial := range 200 {
		q := randomRotations(m, rng, trial == 0)
		for b, qo := range nw.qblocks {
			if b == 2 && trial > 0 { // the compound joint's ball part
				r := spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
				q[qo], q[qo+1], q[qo+2], q[qo+3] = r.W, r.X, r.Y, r.Z
			}
		}
		nw.rotations(q)
		for c := range 3 {
			clear(e)
			for _, o := range nw.blocks {
				e[o+c] = 1
			}
			m.WorldVelocity(q, e, col)
			for b, o := range nw.blocks {
				for r := range 3 {
					if got := nw.rot[9*b+3*r+c]; math.Float64bits(got) != math.Float64bits(col[o+r]) {
						t.Fatalf("trial %d block %d T[%d,%d] = %v, WorldVelocity's %v", trial, b, r, c, got, col[o+r])
					}
				}
			}
		}
	}
}

// portrowsRandomRows appends to dst about four in five of the rows 0..nr-1,
// in a random order: the rows a random active set keeps.
func portrowsRandomRows(rng *rand.Rand, nr int, dst []int) []int {
	for _, row := range rng.Perm(nr) {
		if rng.IntN(5) != 0 {
			dst = append(dst, row)
		}
	}
	return dst
}

// TestPortrowsInPlaceMatchesSums: with T the identity and J_w's rows
// MuJoCo's in order on one clique, jacobianCoordinates reads J_w in place
// (inPlace): the same bits and pattern as the sums from +0 over the
// compact non-zeros, J_w changed only by −0 made +0, and J v and Jᵀγ
// over J_w (solver.Problem.MulJ, MulJT) unchanged to the bit, ±Inf and
// NaN included. Rows out of order, a constraint without a J block or an
// angular block take the copy; a resize gives nw.j its own storage back.
func TestPortrowsInPlaceMatchesSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(105, 12))
	sim := &Simulator{}
	w := &sim.ws.pgs
	inPlace := 0
	for trial := range 3000 {
		p := portlayoutOneClique(rng, trial%6 == 0)
		w.perm = w.perm[:0]
		if trial%4 == 0 {
			w.perm = portrowsRandomRows(rng, p.NR, w.perm)
		} else {
			for row := range p.NR {
				w.perm = append(w.perm, row)
			}
		}
		var one, two newtonWork
		for _, nw := range []*newtonWork{&one, &two} {
			nw.resize(p.NV, len(w.perm), p.NR)
		}
		if trial%5 == 0 && p.NV >= 3 {
			one.blocks, one.rot = []int{rng.IntN(p.NV - 2)}, portrowsVector(rng, 9, false)
			two.blocks, two.rot = one.blocks, one.rot
		}
		orig := slices.Clone(p.JData)
		v, g := portrowsVector(rng, p.NV, true), portrowsVector(rng, p.NR, true)
		jv, jtg := make([]float64, p.NR), make([]float64, p.NV)
		p.MulJ(v, jv)
		p.MulJT(g, jtg)
		w.jac.build(p)
		two.jacobianCoordinates(sim)
		w.jac.buildWhole(p)
		one.jacobianCoordinates(sim)
		aliased := len(one.j) > 0 && len(p.JData) > 0 && &one.j[0] == &p.JData[0]
		if aliased {
			inPlace++
		}
		if !sameBits(one.j, two.j) {
			t.Fatalf("trial %d (in place %v): J %v, the sums' %v", trial, aliased, one.j, two.j)
		}
		for k := range len(w.perm) {
			if !slices.Equal(one.rowNZ(k), two.rowNZ(k)) {
				t.Fatalf("trial %d row %d: pattern %v, the sums' %v", trial, k, one.rowNZ(k), two.rowNZ(k))
			}
		}
		for i, x := range p.JData {
			if math.Float64bits(x) != math.Float64bits(orig[i]) && (orig[i] != 0 || math.Float64bits(x) != 0) {
				t.Fatalf("trial %d: J_w[%d] %v became %v", trial, i, orig[i], x)
			}
		}
		jv2, jtg2 := make([]float64, p.NR), make([]float64, p.NV)
		p.MulJ(v, jv2)
		p.MulJT(g, jtg2)
		if !sameBits(jv, jv2) || !sameBits(jtg, jtg2) {
			t.Fatalf("trial %d: J v %v → %v, Jᵀγ %v → %v", trial, jv, jv2, jtg, jtg2)
		}
		one.resize(p.NV, len(w.perm), p.NR)
		w.jac.build(p) // J_w's non-zeros alone: not in place
		one.jacobianCoordinates(sim)
		if aliased && len(one.j) > 0 && &one.j[0] == &p.JData[0] {
			t.Fatalf("trial %d: nw.j still J_w's for rows not in place", trial)
		}
	}
	if inPlace < 1000 {
		t.Fatalf("inPlace took %d of 3000 problems", inPlace)
	}
}
