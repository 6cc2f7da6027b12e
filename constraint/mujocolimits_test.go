package constraint

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestMuJoCoLimitsInert: with Params.MuJoCoLimits a limit with MuJoCo's
// solref has a row only past its bound, as MuJoCo's mj_instantiateLimit:
// the cart within [−1, 1] (q = 0.5, moving at 3 m/s) gets inert rows
// (impulse bounds [0, 0]) with the flag and SAP's one-sided rows [0, ∞)
// without it; past its upper bound (q = 1.2) the upper row is MuJoCo's
// soft row [0, ∞) either way, the lower one inert with the flag.
func TestMuJoCoLimitsInert(t *testing.T) {
	tm := newTestModel(t)
	qi, vi, err := scalarDOF(tm.m, tm.cart, 0)
	if err != nil {
		t.Fatal(err)
	}
	soft := Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp}
	set := &Set{Limits: []Limit{{Name: "cart", Body: tm.cart, Lower: -1, Upper: 1, Compliance: soft}}}
	for _, c := range []struct {
		q      float64
		flag   bool
		wantHi [2]float64 // the lower and the upper row's impulse bound
	}{
		{0.5, false, [2]float64{math.Inf(1), math.Inf(1)}},
		{0.5, true, [2]float64{0, 0}},
		{1.2, false, [2]float64{math.Inf(1), math.Inf(1)}},
		{1.2, true, [2]float64{0, math.Inf(1)}},
	} {
		s := tm.m.NewState()
		s.Q[qi], s.V[vi] = c.q, 3
		kin := multibody.NewWorkspace(tm.m)
		kin.Update(s.Q, s.V)
		p, f := problem(t, tm.m, kin)
		var a Assembler
		if err := a.Assemble(tm.m, set, kin, Input{Q0: s.Q, V0: s.V, DT: testDT}, Params{Beta: 1, MuJoCoLimits: c.flag}, f, p); err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		for k := range 2 {
			lo, hi := p.IntervalBounds(k)
			if lo != 0 || hi != c.wantHi[k] {
				t.Errorf("q = %g, MuJoCoLimits %v: row %d bounds [%g, %g], want [0, %g]", c.q, c.flag, k, lo, hi, c.wantHi[k])
			}
		}
	}
}
