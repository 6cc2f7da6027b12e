package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/forces"
)

const tendonBase = `name: t
dt: 0.001
duration: 0.01
materials:
  d: {stiffness: 1e6, dissipation: 0.01, friction: 0.5}
bodies:
  - name: a
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: revolute, axis: [0, 1, 0]}
  - name: b
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: ball, parent: a, parent_frame: {position: [0, 0, -0.5]}}
`

// TestTendonValidation: tendon and actuator errors name the field.
func TestTendonValidation(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"tendons:\n  - {joints: [{joint: a, coef: 1}]}\n", "tendons[0].name: missing"},
		{"tendons:\n  - {name: t, joints: []}\n", "tendons[0].joints: empty"},
		{"tendons:\n  - {name: t, joints: [{joint: nope, coef: 1}]}\n", `tendons[0].joints[0].joint: "nope" is not a body name`},
		{"tendons:\n  - {name: t, joints: [{joint: b, coef: 1}]}\n", `"b" has a ball joint`},
		{"tendons:\n  - {name: t, joints: [{joint: a, coef: 1}], stiffness: -1}\n", "tendons[0].stiffness"},
		{"tendons:\n  - {name: t, joints: [{joint: a, coef: 1}], limits: {lower: 1, upper: 0}}\n", "lower 1 above upper 0"},
		{"actuators:\n  - {type: motor, tendon: x}\n", `actuators[0].tendon: "x" is not a tendon name`},
		{"tendons:\n  - {name: t, joints: [{joint: a, coef: 1}]}\nactuators:\n  - {type: motor, tendon: t, joint: a}\n", "an actuator drives one of them"},
		{"actuators:\n  - {type: motor, joint: a, gain: 2}\n", "only general takes them"},
		{"actuators:\n  - {type: general, joint: a, bias: [1, 2, 3, 4]}\n", "actuators[0].bias: 4 values"},
	} {
		_, err := Parse("t.yaml", []byte(tendonBase+c.yaml), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
	ok := tendonBase + "tendons:\n  - {name: t, joints: [{joint: a, coef: 2}], stiffness: 1, limits: {upper: 0.5}}\nactuators:\n  - {type: general, tendon: t, gain: 2, bias: [0.1]}\n"
	s, err := Parse("t.yaml", []byte(ok), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.Config.Constraints.TendonLimits); n != 1 {
		t.Errorf("%d tendon limits, want 1", n)
	}
	n := 0
	for _, f := range b.Config.Forces {
		if ft, ok := f.(*forces.FixedTendon); ok && ft.Stiffness == 1 && len(ft.Terms) == 1 && ft.Terms[0].Coef == 2 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d tendon spring-dampers built, want 1", n)
	}
	if a := b.Config.Constraints.Actuators[0]; len(a.Tendon) != 1 || a.Tendon[0].Coef != 2 || a.Gain != 2 || a.Bias[0] != 0.1 {
		t.Errorf("tendon actuator %+v", a)
	}
}
