package constraint

import (
	"strings"
	"testing"
)

// TestActDynamics: the activation rate of each dynamics (control clamped
// to the control range first), the activation clamp, and what Validate
// refuses.
func TestActDynamics(t *testing.T) {
	in := Actuator{Type: General, Gain: 1, Dyn: DynIntegrator, CtrlMin: -1, CtrlMax: 2, ActRange: &[2]float64{-0.5, 0.5}}
	f := Actuator{Type: General, Dyn: DynFilter, DynTau: 0.25}
	switch {
	case in.ActRate(3, 7) != 2 || in.ActRate(-0.5, 7) != -0.5:
		t.Errorf("integrator: rates %v, %v; want the clamped control 2, -0.5", in.ActRate(3, 7), in.ActRate(-0.5, 7))
	case f.ActRate(1, 0.5) != 2:
		t.Errorf("filter: rate %v, want (1 − 0.5)/0.25 = 2", f.ActRate(1, 0.5))
	case in.ClampAct(0.7) != 0.5 || in.ClampAct(-2) != -0.5 || f.ClampAct(9) != 9:
		t.Errorf("clamp: %v %v %v", in.ClampAct(0.7), in.ClampAct(-2), f.ClampAct(9))
	case !in.Stateful() || !f.Stateful() || (&Actuator{Type: General}).Stateful():
		t.Error("Stateful: want true for dynamics, false without")
	case in.explicitForce(3, 0.4, 1, 1) != 0.4 || (&Actuator{Type: General, Gain: 1}).explicitForce(3, 0.4, 1, 1) != 3:
		t.Error("a general actuator's force takes act with dynamics, u without")
	}
	tm := newTestModel(t)
	for _, c := range []struct {
		ac   Actuator
		want string
	}{
		{Actuator{Type: Motor, Body: tm.link1, Dyn: DynIntegrator}, "dynamics integrator given for a motor actuator"},
		{Actuator{Type: General, Body: tm.link1, Dyn: DynFilter}, "filter dynamics needs a finite time constant > 0"},
		{Actuator{Type: General, Body: tm.link1, Dyn: DynIntegrator, DynTau: 1}, "time constant 1 given for integrator dynamics"},
		{Actuator{Type: General, Body: tm.link1, ActRange: &[2]float64{0, 1}}, "activation range [0 1]: needs an activation (a muscle, or dynamics: none)"},
		{Actuator{Type: General, Body: tm.link1, Dyn: DynIntegrator, ActRange: &[2]float64{1, 1}}, "activation range [1 1]"},
		{Actuator{Type: General, Body: tm.link1, Dyn: 7}, "unknown actuator dynamics 7"},
	} {
		err := (&Set{Actuators: []Actuator{c.ac}}).Validate(tm.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.ac, err, c.want)
		}
	}
}
