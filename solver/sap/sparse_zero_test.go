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
		peers4SameAssembly(t, trial, p, g, e.goff)
	}
	if skipped == 0 {
		t.Fatal("no zero G block: the skip was not exercised")
	}
}
