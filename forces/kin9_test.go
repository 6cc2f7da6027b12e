package forces

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestKin9AddWrenchMatchesJacobians: Output.addWrench (Workspace.AddWrench
// where it takes the wrench) gives F the bits of wrenchByJacobians, the
// global Jacobians' Jᵀ f + J_ωᵀ τ, on every body of the test system (a
// free body, a chain of five joint kinds, a welded body), onto F of +0
// and of forces already added, and for a non-finite force (the Jacobians'
// NaNs on every velocity).
func TestKin9AddWrenchMatchesJacobians(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 57))
	m, s := system(r)
	ws := multibody.NewWorkspace(m)
	ws.Update(s.Q, s.V)
	c := &Context{Model: m, WS: ws, Q: s.Q, V: s.V}
	for b := range m.Bodies {
		for trial := range 6 {
			p, f, tq := rv(r), rv(r).Scale(5), rv(r)
			if trial == 5 {
				f[1] = math.NaN()
			}
			got, want := NewOutput(m), NewOutput(m)
			if trial%2 == 1 {
				for i := range got.F {
					got.F[i] = r.NormFloat64()
				}
				copy(want.F, got.F)
			}
			got.addWrench(c, b, p, f, tq)
			want.wrenchByJacobians(c, b, p, f, tq)
			for i := range got.F {
				if math.Float64bits(got.F[i]) != math.Float64bits(want.F[i]) {
					t.Fatalf("body %d trial %d: F[%d] = %v, from the Jacobians %v", b, trial, i, got.F[i], want.F[i])
				}
			}
		}
	}
}
