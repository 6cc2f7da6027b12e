package sim

import (
	"math"
	"math/rand/v2"
	"testing"
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
		whole.buildWhole(p, v, got)
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
		w.perm = w.perm[:0]
		for _, row := range rng.Perm(p.NR) {
			if rng.IntN(5) != 0 {
				w.perm = append(w.perm, row)
			}
		}
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
		w.jac.buildWhole(p, nil, nil)
		one.jacobianCoordinates(sim)
		w.jac.build(p)
		two.jacobianCoordinates(sim)
		if !sameBits(one.j, two.j) {
			t.Fatalf("trial %d: J from the whole blocks %v, from the non-zeros %v", trial, one.j, two.j)
		}
	}
}
