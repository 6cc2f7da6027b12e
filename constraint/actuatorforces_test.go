package constraint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestActuatorForcesNoRow: with Params.ActuatorForces the explicit
// actuators on joints and fixed tendons get no row, the implicit one keeps
// its row, and the reports (impulse δt f, state, one row) and the
// generalized forces Jᵀγ/δt are those of the rows with lo = hi = δt f to
// the bit; those forces are the ones Set.ExplicitForces adds to k.
func TestActuatorForcesNoRow(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(7, 8))
	s := tm.randomState(rng, 0.1)
	set := &Set{
		Actuators: []Actuator{{Name: "mot", Type: Motor, Body: tm.link2, Effort: 1, Gear: 2},
			{Name: "gen", Type: General, Body: tm.link1, Gain: 2, Bias: [3]float64{0.1, -3, -0.5}, Explicit: true},
			{Name: "pos", Type: Position, Body: tm.pole, Kp: 50, Kd: 1, Explicit: true},
			{Name: "imp", Type: Position, Body: tm.cart, Kp: 20, Kd: 2},
			{Name: "ten", Type: Motor, Tendon: []TendonTerm{{Body: tm.link1, Coef: 0.5}, {Body: tm.pole, Coef: -1.5}}}},
	}
	kin := multibody.NewWorkspace(tm.m)
	kin.Update(s.Q, s.V)
	ctl := []Control{{U: 3}, {U: 0.4}, {U: -0.2}, {U: 0.1}, {U: 0.7}}
	in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
	_, f := problem(t, tm.m, kin)
	rows, ra := assembleChecked(t, tm.m, set, kin, in, Params{Beta: 1, MuJoCoLimits: true}, f)
	forced, fa := assembleChecked(t, tm.m, set, kin, in, Params{Beta: 1, MuJoCoLimits: true, ActuatorForces: true}, f)
	if len(rows.Constraints) != 5 || len(forced.Constraints) != 1 {
		t.Fatalf("%d and %d blocks, want 5 rows and 1 (the implicit actuator's)", len(rows.Constraints), len(forced.Constraints))
	}
	gr, gf := fixedImpulses(rows), fixedImpulses(forced)
	rr, rf := ra.Reports(set, rows, gr, nil), fa.Reports(set, forced, gf, nil)
	if len(rr) != 5 || len(rf) != 5 {
		t.Fatalf("%d and %d reports, want 5", len(rr), len(rf))
	}
	for i := range rr {
		if rr[i] != rf[i] {
			t.Errorf("report %d: rows %+v, forces %+v", i, rr[i], rf[i])
		}
	}
	if rf[0].State != Saturated || rf[1].State != Active || rf[0].Impulse[0] != testDT {
		t.Errorf("motor %+v (want saturated at δt e), general %+v", rf[0], rf[1])
	}
	nv := tm.m.NV
	ar, or, af, of := make([]float64, nv), make([]float64, nv), make([]float64, nv), make([]float64, nv)
	ra.GeneralizedForces(rows, gr, testDT, ar, or)
	fa.GeneralizedForces(forced, gf, testDT, af, of)
	k := make([]float64, nv)
	set.ExplicitForces(tm.m, s.Q, s.V, ctl, k)
	for i := range nv {
		if ar[i] != af[i] || or[i] != of[i] {
			t.Errorf("velocity %d: actuator forces %v / %v, other %v / %v", i, ar[i], af[i], or[i], of[i])
		}
		if math.Abs(k[i]-af[i]) > 1e-12*(1+math.Abs(k[i])) {
			t.Errorf("velocity %d: ExplicitForces %v, reported %v", i, k[i], af[i])
		}
	}
}
