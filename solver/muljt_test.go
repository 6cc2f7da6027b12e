package solver_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// TestMulJTSkipsZeroImpulses: MulJT, which skips the rows whose γ_r is
// zero, gives Jᵀγ as the dense J's product over every row does, bit for
// bit, on random problems with half of γ zero.
func TestMulJTSkipsZeroImpulses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	kinds := []solver.Kind{solver.ContactCone, solver.Bilateral, solver.Interval}
	for trial := range 20 {
		p := problems.Random(rng, 1+trial%4, kinds, 0.025)
		gamma := make([]float64, p.NR)
		for i := range gamma {
			if rng.IntN(2) == 0 {
				gamma[i] = rng.NormFloat64()
			}
		}
		got := make([]float64, p.NV)
		p.MulJT(gamma, got)
		j := p.DenseJ()
		for c := range p.NV {
			want := 0.0
			for r := range p.NR {
				want += j[r*p.NV+c] * gamma[r]
			}
			if got[c] != want {
				t.Fatalf("trial %d: (Jᵀγ)_%d = %v, the dense product gives %v", trial, c, got[c], want)
			}
		}
	}
}
