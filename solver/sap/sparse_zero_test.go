package sap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSparseZeroBlocksSameBits checks that the sparse assembly, which
// leaves out the constraints whose G_i is zero, writes H with the bits of
// the assembly that adds every constraint (the loop without the skip,
// below), on random problems whose G blocks are often all ±0 and hold
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

		data := s.f.Data() // the assembly without the skip
		clear(data)
		for c, q := range p.Cliques {
			a, at := p.ABlock(c), s.diag[c]
			for i := range q.Size {
				row := data[at.off+i*at.stride:][:i+1]
				for j, x := range a[i*q.Size : i*q.Size+i+1] {
					row[j] += x
				}
			}
		}
		k := 0
		for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
			hi = constraintEnd(p, lo)
			gi := e.gBlock(g, p.JBlock[lo].Constraint)
			for b2 := lo; b2 < hi; b2++ {
				mulGJ(p, gi, b2, s.tmp)
				for b1 := lo; b1 <= b2; b1++ {
					s.addJtTmp(p, b1, b2, s.pairs[k], data)
					k++
				}
			}
		}
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
