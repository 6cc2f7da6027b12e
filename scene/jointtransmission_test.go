package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/tendon"
)

// TestJointTransmissionValidation: joint_gear's errors name the field and
// value, and a valid one builds a tendon.JointTransmission (the MJCF
// importer's ball and free joint actuators are checked against MuJoCo in
// internal/mjref, TestJointTransmissionBallFreeMuJoCo).
func TestJointTransmissionValidation(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"actuators:\n  - {type: motor, joint: a, joint_gear: [1, 0, 0]}\n", `actuators[0].joint_gear: given for the revolute joint of "a"; it needs a ball or free joint`},
		{"actuators:\n  - {type: motor, joint: b, joint_gear: [1, 0]}\n", `actuators[0].joint_gear: has 2 values; the ball joint of "b" takes 3`},
		{"actuators:\n  - {type: motor, joint: b, joint_gear: [0, 0, 0]}\n", "actuators[0].joint_gear: [0, 0, 0] must be finite and not all 0"},
		{"actuators:\n  - {type: motor, joint: b, dof: 1, joint_gear: [1, 0, 0]}\n", "actuators[0].dof: given with joint_gear"},
		{"actuators:\n  - {type: motor, gear_in_parent: true}\n", "actuators[0].joint_gear: given without a joint"},
		{"actuators:\n  - {type: motor, joint: b}\n", `actuators[0].joint: "b" has a ball joint`},
	} {
		_, err := Parse("t.yaml", []byte(tendonBase+c.yaml), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
	s, err := Parse("t.yaml", []byte(tendonBase+"actuators:\n  - {type: motor, joint: b, joint_gear: [0, 2, 1], gear_in_parent: true}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := b.Config.Constraints.Actuators[0].Transmission.(*tendon.JointTransmission)
	if !ok || tr.Gear != [6]float64{0, 2, 1} || !tr.InParent || tr.Body != 1 {
		t.Errorf("built %#v", b.Config.Constraints.Actuators[0].Transmission)
	}
}
