package constraint

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestMuJoCoLimitsInert: with Params.MuJoCoLimits a limit with MuJoCo's
// solref has a row only past its bound, as MuJoCo's mj_instantiateLimit:
// the cart within [−1, 1] (q = 0.5, moving at 3 m/s) gets no row with the
// flag (its report: no rows, no impulse, inactive) and SAP's one-sided rows
// [0, ∞) without it; past its upper bound (q = 1.2) the upper row is
// MuJoCo's soft row [0, ∞) either way, the lower one missing with the
// flag.
func TestMuJoCoLimitsInert(t *testing.T) {
	tm := newTestModel(t)
	qi, vi, err := scalarDOF(tm.m, tm.cart, 0)
	if err != nil {
		t.Fatal(err)
	}
	soft := Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp}
	set := &Set{Limits: []Limit{{Name: "cart", Body: tm.cart, Lower: -1, Upper: 1, Compliance: soft}}}
	for _, c := range []struct {
		q    float64
		flag bool
		rows int // the rows assembled: both sides', or the upper one's alone
	}{
		{0.5, false, 2},
		{0.5, true, 0},
		{1.2, false, 2},
		{1.2, true, 1},
	} {
		s := tm.m.NewState()
		s.Q[qi], s.V[vi] = c.q, 3
		kin := multibody.NewWorkspace(tm.m)
		kin.Update(s.Q, s.V)
		p, f := problem(t, tm.m, kin)
		var a Assembler
		if err := a.Assemble(tm.m, set, kin, &Input{Q0: s.Q, V0: s.V, DT: testDT}, Params{Beta: 1, MuJoCoLimits: c.flag}, f, p); err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(p.Constraints) != c.rows || p.NR != c.rows {
			t.Fatalf("q = %g, MuJoCoLimits %v: %d blocks, %d rows, want %d", c.q, c.flag, len(p.Constraints), p.NR, c.rows)
		}
		for k := range c.rows {
			if lo, hi := p.IntervalBounds(k); lo != 0 || hi != math.Inf(1) {
				t.Errorf("q = %g, MuJoCoLimits %v: row %d bounds [%g, %g], want [0, +Inf]", c.q, c.flag, k, lo, hi)
			}
		}
		if c.rows == 0 {
			r := a.Reports(set, p, nil, nil)
			if len(r) != 1 || r[0].Rows != 0 || r[0].Impulse != [MaxRows]float64{} || r[0].State != Inactive {
				t.Errorf("q = %g: report %+v, want no rows, no impulse, inactive", c.q, r)
			}
		}
	}
}

// TestLimitMargin: a limit with Margin m acts as MuJoCo's joint margin
// (mj_instantiateLimit: a row when dist < m, measured from dist − m): with
// MuJoCoLimits the cart at q = 0.9 within [−1, 1] has an acting upper row
// for m = 0.15 (dist 0.1 < m), its R and v̂ those of the limit [−1, 0.85]
// without margin to 1e-15 (a_ref = −B v − K d (dist − m)), and none for
// m = 0.05; NeedsSolve says the same. A non-finite margin is refused.
func TestLimitMargin(t *testing.T) {
	tm := newTestModel(t)
	qi, vi, err := scalarDOF(tm.m, tm.cart, 0)
	if err != nil {
		t.Fatal(err)
	}
	soft := Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp, Weight: 0.7}
	s := tm.m.NewState()
	s.Q[qi], s.V[vi] = 0.9, 3
	kin := multibody.NewWorkspace(tm.m)
	kin.Update(s.Q, s.V)
	assemble := func(l Limit) (hi, r, vhat float64, needs bool) {
		set := &Set{Limits: []Limit{l}}
		p, f := problem(t, tm.m, kin)
		var a Assembler
		if err := a.Assemble(tm.m, set, kin, &Input{Q0: s.Q, V0: s.V, DT: testDT}, Params{Beta: 1, MuJoCoLimits: true}, f, p); err != nil {
			t.Fatal(err)
		}
		if len(p.Constraints) == 0 {
			return 0, 0, 0, set.NeedsSolve(tm.m, s.Q) // no row: the upper side within its bound and margin
		}
		_, hi = p.IntervalBounds(0) // the upper side's row: the lower one, far within its bound, has none
		return hi, p.R[0], p.VHat[0], set.NeedsSolve(tm.m, s.Q)
	}
	hi, r, vhat, needs := assemble(Limit{Name: "cart", Body: tm.cart, Lower: -1, Upper: 1, Margin: 0.15, Compliance: soft})
	hiW, rW, vhatW, needsW := assemble(Limit{Name: "cart", Body: tm.cart, Lower: -1, Upper: 0.85, Compliance: soft})
	if !needs || !needsW || hi != math.Inf(1) || hiW != math.Inf(1) {
		t.Fatalf("margin 0.15: NeedsSolve %v, upper row bound %g; bound moved in: %v, %g (want true, +Inf)", needs, hi, needsW, hiW)
	}
	if math.Abs(r-rW) > 1e-15*rW || math.Abs(vhat-vhatW) > 1e-15*math.Abs(vhatW) {
		t.Errorf("margin 0.15: R %v, v̂ %v; the bound moved in by the margin: R %v, v̂ %v", r, vhat, rW, vhatW)
	}
	if hi, r, _, needs := assemble(Limit{Name: "cart", Body: tm.cart, Lower: -1, Upper: 1, Margin: 0.05, Compliance: soft}); needs || hi != 0 || r != 0 {
		t.Errorf("margin 0.05 (dist 0.1): NeedsSolve %v, upper row bound %g, R %g, want false and no row", needs, hi, r)
	}
	bad := &Set{Limits: []Limit{{Name: "cart", Body: tm.cart, Lower: -1, Upper: 1, Margin: math.NaN(), Compliance: soft}}}
	if err := bad.Validate(tm.m); err == nil || !strings.Contains(err.Error(), "margin") {
		t.Errorf("NaN margin: error %v, want one naming the margin", err)
	}
}
