package sap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSparseZeroBlocksSameBits checks that the sparse assembly, which
// leaves out the constraints whose G_i is zero, writes H with the bits of
// the assembly that adds every constraint (assembleSkipping without the
// skip), on random problems whose G blocks are often all ±0 and hold
// zeros of both signs otherwise.
func TestSparseZeroBlocksSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	skipped := 0
	for trial := range 40 {
		p := randomProblem(rng, 2+rng.IntN(6), 6, 1+rng.IntN(12))
		var e evaluator
		e.reset(p)
		g := make([]float64, e.goff[len(p.Constraints)])
		for i := range p.Constraints {
			gi := e.gBlock(g, i)
			zero := rng.IntN(3) == 0
			for k := range gi {
				switch {
				case zero || rng.IntN(4) == 0:
					gi[k] = math.Copysign(0, float64(rng.IntN(2))-0.5)
				default:
					gi[k] = rng.NormFloat64()
				}
			}
			if allZero(gi) {
				skipped++
			}
		}
		var s sparseSystem
		if err := s.setup(p); err != nil {
			t.Fatal(err)
		}
		s.assemble(p, g, e.goff)
		got := append([]float64(nil), s.f.Data()...)

		s.assembleSkipping(p, g, e.goff, false)
		data := s.f.Data()
		for i, x := range data {
			if math.Float64bits(got[i]) != math.Float64bits(x) {
				t.Fatalf("trial %d: H entry %d = %v, want %v", trial, i, got[i], x)
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no zero G block: the skip was not exercised")
	}
}
