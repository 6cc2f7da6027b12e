package constraint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestExplicitForcesKept: ExplicitForcesKept adds to f what
// ExplicitForces adds, to the bit, and keeps each applied actuator's
// force and saturation as stateForce gives them (a joint motor past its
// effort, a general and a position actuator, a short fixed tendon and one
// of more than eight terms); an assembly with Params.ActuatorForces that
// takes them (Input.Forces) reports what one that computes them reports,
// and one given other forces reports those, so that the kept forces are
// the ones used. A kept list of the wrong length is an error.
func TestExplicitForcesKept(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(11, 12))
	s := tm.randomState(rng, 0.1)
	long := make([]TendonTerm, 9) // more terms than ExplicitForces' short-tendon path takes
	for k := range long {
		long[k] = TendonTerm{Body: []int{tm.link1, tm.link2, tm.pole}[k%3], Coef: 0.25 * float64(k-4)}
	}
	set := &Set{
		Actuators: []Actuator{{Name: "mot", Type: Motor, Body: tm.link2, Effort: 1, Gear: 2},
			{Name: "gen", Type: General, Body: tm.link1, Gain: 2, Bias: [3]float64{0.1, -3, -0.5}, Explicit: true},
			{Name: "pos", Type: Position, Body: tm.pole, Kp: 50, Kd: 1, Explicit: true},
			{Name: "imp", Type: Position, Body: tm.cart, Kp: 20, Kd: 2},
			{Name: "ten", Type: Motor, Tendon: []TendonTerm{{Body: tm.link1, Coef: 0.5}, {Body: tm.pole, Coef: -1.5}}},
			{Name: "long", Type: Motor, Effort: 0.5, Tendon: long}},
	}
	if err := set.Validate(tm.m); err != nil {
		t.Fatal(err)
	}
	ctl := []Control{{U: 3}, {U: 0.4}, {U: -0.2}, {U: 0.1}, {U: 0.7}, {U: -2}}
	nv := tm.m.NV
	f, g := make([]float64, nv), make([]float64, nv)
	kept := make([]ActuatorForce, len(set.Actuators))
	set.ExplicitForces(tm.m, s.Q, s.V, ctl, f)
	set.ExplicitForcesKept(tm.m, s.Q, s.V, ctl, g, kept)
	for i := range nv {
		if math.Float64bits(f[i]) != math.Float64bits(g[i]) {
			t.Errorf("velocity %d: ExplicitForces %v, ExplicitForcesKept %v", i, f[i], g[i])
		}
	}
	for i := range set.Actuators {
		ac := &set.Actuators[i]
		if !ac.IsForce() {
			if kept[i] != (ActuatorForce{}) {
				t.Errorf("actuator %s (implicit): kept %+v", ac.Name, kept[i])
			}
			continue
		}
		force, sat := ac.stateForce(tm.m, s.Q, s.V, ctl[i])
		if math.Float64bits(kept[i].F) != math.Float64bits(force) || kept[i].Sat != sat {
			t.Errorf("actuator %s: kept %+v, stateForce %v %v", ac.Name, kept[i], force, sat)
		}
	}
	if !kept[0].Sat || !kept[5].Sat {
		t.Errorf("the motor and the long tendon's should be saturated: %+v %+v", kept[0], kept[5])
	}
	kin := multibody.NewWorkspace(tm.m)
	kin.Update(s.Q, s.V)
	_, fac := problem(t, tm.m, kin)
	prm := Params{Beta: 1, MuJoCoLimits: true, ActuatorForces: true}
	in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
	reports := func(in Input) []Report {
		p, a := assembleChecked(t, tm.m, set, kin, in, prm, fac)
		return a.Reports(set, p, fixedImpulses(p), nil)
	}
	fresh := reports(in)
	in.Forces = kept
	if got := reports(in); len(got) != len(fresh) {
		t.Fatalf("%d reports with the kept forces, %d without", len(got), len(fresh))
	} else {
		for i := range got {
			if got[i] != fresh[i] {
				t.Errorf("report %d: kept forces %+v, computed %+v", i, got[i], fresh[i])
			}
		}
	}
	other := append([]ActuatorForce(nil), kept...)
	other[1].F *= 2
	in.Forces = other
	if got := reports(in); got[1].Impulse[0] != other[1].F*testDT {
		t.Errorf("given force %v: report %+v, want the impulse δt f of the given force", other[1].F, got[1])
	}
	in.Forces = kept[:2]
	p, _ := problem(t, tm.m, kin)
	if err := (&Assembler{}).Assemble(tm.m, set, kin, &in, prm, fac, p); err == nil {
		t.Error("2 kept forces for 6 actuators: no error")
	}
}
