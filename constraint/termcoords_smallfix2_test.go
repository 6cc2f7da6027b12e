package constraint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestSmallfix2TermCoordsFollowEdits: ExplicitForcesCoords with a
// TermCoords kept across calls adds to f what ExplicitForces (dofAt every
// time) adds, to the bit, at its first use, when its keys hit, after an
// actuator's joint and a tendon term's joint are edited in place, after an
// actuator is removed (every later term moves up one place), and for
// another model whose joints have other indices; a call whose keys hit
// allocates nothing. It fails when the kept (body, DOF) or the model is
// not checked.
func TestSmallfix2TermCoordsFollowEdits(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(23, 76))
	s := tm.randomState(rng, 0.3)
	set := &Set{
		Actuators: []Actuator{{Name: "mot", Type: Motor, Body: tm.link2, Gear: 2},
			{Name: "ten", Type: Motor, Tendon: []TendonTerm{{Body: tm.link1, Coef: 0.5}, {Body: tm.pole, Coef: -1.5}}},
			{Name: "gen", Type: General, Body: tm.cart, Gain: 2, Bias: [3]float64{0.1, -3, -0.5}, Explicit: true},
			{Name: "pos", Type: Position, Body: tm.pole, Kp: 50, Kd: 1, Explicit: true}},
	}
	ctl := []Control{{U: 0.3}, {U: -0.7}, {U: 0.4}, {U: 0.2}}
	var tc TermCoords
	check := func(what string, m *multibody.Model) {
		t.Helper()
		if err := set.Validate(m); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, got := make([]float64, m.NV), make([]float64, m.NV)
		set.ExplicitForces(m, s.Q, s.V, ctl[:len(set.Actuators)], want)
		set.ExplicitForcesCoords(m, s.Q, s.V, ctl[:len(set.Actuators)], got, nil, &tc)
		for i := range want {
			if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
				t.Errorf("%s: velocity %d: ExplicitForces %v, ExplicitForcesCoords %v", what, i, want[i], got[i])
			}
		}
	}
	check("first use", tm.m)
	check("kept", tm.m)
	f := make([]float64, tm.m.NV)
	if a := testing.AllocsPerRun(20, func() {
		set.ExplicitForcesCoords(tm.m, s.Q, s.V, ctl, f, nil, &tc)
	}); a != 0 {
		t.Errorf("ExplicitForcesCoords with kept terms: %v allocations a call", a)
	}
	set.Actuators[0].Body = tm.pole
	check("actuator's joint edited", tm.m)
	set.Actuators[1].Tendon[1].Body = tm.cart
	check("tendon term's joint edited", tm.m)
	set.Actuators = slices.Delete(set.Actuators, 0, 1)
	check("actuator removed", tm.m)
	// Another model: the same bodies with link1's and the cart's indices
	// swapped (dofAt reads the offsets alone).
	m2 := *tm.m
	m2.Bodies = slices.Clone(tm.m.Bodies)
	a, b := &m2.Bodies[tm.link1], &m2.Bodies[tm.cart]
	a.QOff, b.QOff = b.QOff, a.QOff
	a.VOff, b.VOff = b.VOff, a.VOff
	want := make([]float64, m2.NV)
	set.ExplicitForces(&m2, s.Q, s.V, ctl[:len(set.Actuators)], want)
	got := make([]float64, m2.NV)
	set.ExplicitForcesCoords(&m2, s.Q, s.V, ctl[:len(set.Actuators)], got, nil, &tc)
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			t.Errorf("another model: velocity %d: ExplicitForces %v, ExplicitForcesCoords %v", i, want[i], got[i])
		}
	}
}
