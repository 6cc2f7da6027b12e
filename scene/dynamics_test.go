package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestDynamicsValidation: a general actuator's dynamics and act0, and a
// keyframe's activations, are checked with the path and value named.
func TestDynamicsValidation(t *testing.T) {
	doc := `name: bad
bodies:
  - name: a
    mass: 1
    shape: {type: sphere, radius: 0.1}
    joint: {type: revolute, axis: [0, 1, 0]}
actuators:
  - {name: g1, type: general, joint: a, dynamics: {type: filter, time_const: -1, act_range: [1, 0]}}
  - {name: g2, type: general, joint: a, dynamics: {type: spring, time_const: 1}}
  - {name: m1, type: motor, joint: a, act0: 1, dynamics: {type: integrator}}
keyframes:
  - {name: k, joints: {}, activations: {m1: 0.5, g1: .nan}}
`
	_, err := Parse("bad.yaml", []byte(doc), nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.yaml:8: actuators[0].dynamics.time_const: -1 must be positive`,
		`bad.yaml:8: actuators[0].dynamics.act_range: [1, 0]: need finite lower < upper`,
		`bad.yaml:9: actuators[1].dynamics.type: "spring": want integrator or filter`,
		`bad.yaml:10: actuators[2].dynamics: given for a motor actuator; only general takes it`,
		`actuators[2].act0: 1 given: needs a finite value, for a muscle or a general actuator with dynamics`,
		`keyframes[0].activations.m1: "m1" is not the name of an actuator with an activation`,
		`keyframes[0].activations.g1: NaN is not finite`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
}

// TestFilterActuatorClosedForm: a body of mass 1 on a horizontal slide,
// driven by a general actuator (gain g) with filter dynamics (τ) under a
// constant control u, from act0 = 0. Euler's update of the activation
// gives act_k = u (1 − r^k) with r = 1 − h/τ, and the force g act_k at
// each step's start gives the velocity v_N = (h g/m) Σ_{k<N} act_k =
// (h g u/m) (N − (1 − r^N)/(1 − r)); with u taken directly it would be
// h g u N/m. The keyframe's activation then starts act at its value.
func TestFilterActuatorClosedForm(t *testing.T) {
	const h, g, u, tau, n = 0.01, 2.0, 1.5, 0.2, 50
	doc := `name: filter
dt: 0.01
duration: 1
materials:
  d: {stiffness: 1e9, dissipation: 0.01, friction: 0.5}
bodies:
  - name: a
    material: d
    mass: 1
    shape: {type: sphere, radius: 0.1}
    joint: {type: prismatic, axis: [1, 0, 0]}
actuators:
  - {name: f, type: general, joint: a, gain: 2, target: {constant: 1.5}, dynamics: {type: filter, time_const: 0.2}}
keyframes:
  - {name: k, joints: {}, activations: {f: 0.25}}
`
	sc, err := Parse("filter.yaml", []byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	r := 1 - h/tau
	wantAct := u * (1 - math.Pow(r, n))
	wantV := h * g * u * (n - (1-math.Pow(r, n))/(1-r))
	t.Logf("after %d steps: act %.15g (closed form %.15g), v %.15g (closed form %.15g; with u direct %.4g)", n, s.State.Act[0], wantAct, s.State.V[0], wantV, h*g*u*n)
	if math.Abs(s.State.Act[0]-wantAct) > 1e-12 || math.Abs(s.State.V[0]-wantV) > 1e-9 {
		t.Errorf("act %.15g, v %.15g; want %.15g, %.15g", s.State.Act[0], s.State.V[0], wantAct, wantV)
	}
	if err := sc.ApplyKeyframe("k"); err != nil {
		t.Fatal(err)
	}
	if b, err = Build(sc); err != nil {
		t.Fatal(err)
	}
	if len(b.State.Act) != 1 || b.State.Act[0] != 0.25 {
		t.Errorf("keyframe k: initial activations %v, want [0.25]", b.State.Act)
	}
}
