package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestPeers4LaggedAssemblySameBits checks that the sparse assembly, whose
// products G_i J_b skip the zeros of blocks with G_tn = G_nt = 0
// (gjLagged), writes H with the bits of the assembly through gjProduct
// (assembleSkipping without skip), on random problems whose contact blocks
// have that pattern (its four zeros of either sign), zeros of both signs
// elsewhere in G and in J, and some G_tt or G_nn that is all zero. It
// fails when gjLagged's normal row adds a product more (tried: G_10 x).
func TestPeers4LaggedAssemblySameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 4))
	signedZero := func() float64 { return math.Copysign(0, float64(rng.IntN(2))-0.5) }
	lagged := 0
	for trial := range 60 {
		p := randomProblem(rng, 2+rng.IntN(6), 6, 1+rng.IntN(12))
		for k := range p.JData {
			if rng.IntN(5) == 0 {
				p.JData[k] = signedZero()
			}
		}
		var e evaluator
		e.reset(p)
		g := make([]float64, e.goff[len(p.Constraints)])
		for i := range p.Constraints {
			gi := e.gBlock(g, i)
			for k := range gi {
				gi[k] = rng.NormFloat64()
				if rng.IntN(6) == 0 {
					gi[k] = signedZero()
				}
			}
			gi[2], gi[5], gi[6], gi[7] = signedZero(), signedZero(), signedZero(), signedZero()
			gi[3] = gi[1] // symmetric, as a ContactLagged block's G
			switch rng.IntN(6) {
			case 0: // G_nn = 0: a contact apart whose friction is bounded by n0
				gi[8] = signedZero()
			case 1: // G_tt = 0
				gi[0], gi[1], gi[3], gi[4] = signedZero(), signedZero(), signedZero(), signedZero()
			}
			if laggedG(gi) && !allZero(gi) {
				lagged++
			}
		}
		peers4SameAssembly(t, trial, p, g, e.goff)
	}
	if lagged == 0 {
		t.Fatal("no block with the Lagged pattern: gjLagged was not exercised")
	}
}

// peers4SameAssembly fails t unless the sparse assembly of p with G
// blocks g (offsets goff) writes H with the bits of assembleSkipping
// without its skips.
func peers4SameAssembly(t *testing.T, trial int, p *solver.Problem, g []float64, goff []int) {
	t.Helper()
	var s sparseSystem
	if err := s.setup(p); err != nil {
		t.Fatal(err)
	}
	s.assemble(p, g, goff)
	got := append([]float64(nil), s.f.Data()...)
	s.assembleSkipping(p, g, goff, false)
	for i, x := range s.f.Data() {
		if math.Float64bits(got[i]) != math.Float64bits(x) {
			t.Fatalf("trial %d: H entry %d = %v, want %v", trial, i, got[i], x)
		}
	}
}

// TestPeers4AddLower6SameBits checks addLower6 against addLower's loop on
// random 6×6 blocks added to random targets (row stride 6–9), zeros of
// both signs in both: every entry of the target, the upper part and the
// gaps between rows included, gets the same bits.
func TestPeers4AddLower6SameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 6))
	val := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return math.Copysign(0, float64(rng.IntN(2))-0.5)
		}
		return rng.NormFloat64()
	}
	for trial := range 200 {
		lda := 6 + rng.IntN(4)
		a := make([]float64, 36)
		for k := range a {
			a[k] = val()
		}
		want := make([]float64, 5*lda+6)
		for k := range want {
			want[k] = val()
		}
		got := append([]float64(nil), want...)
		addLower(a, 6, want, lda)
		addLower6(a, got, lda)
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d (lda %d): entry %d = %v, want %v", trial, lda, k, got[k], want[k])
			}
		}
	}
}
