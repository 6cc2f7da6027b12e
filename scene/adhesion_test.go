package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/tendon"
)

// TestAdhesionAndBallPartValidation: an adhesion actuator (a general
// actuator on a body's contacts, tendon.BodyTransmission) and a
// joint_gear on a compound joint's ball part (tendon.JointTransmission
// with its first velocity as dof) build; their errors name the field.
func TestAdhesionAndBallPartValidation(t *testing.T) {
	base := strings.TrimSuffix(compoundYAML, "actuators:\n  - {name: push, type: motor, joint: arm, dof: 1}\n")
	for _, c := range []struct{ yaml, want string }{
		{"actuators:\n  - {type: general, adhesion: nope}\n", `actuators[0].adhesion: "nope" is not a body name`},
		{"actuators:\n  - {type: motor, adhesion: arm}\n", `actuators[0].type: "motor": an adhesion actuator is general`},
		{"actuators:\n  - {type: general, adhesion: arm, joint: arm}\n", `actuators[0].adhesion: given with a joint`},
		{"actuators:\n  - {type: general, adhesion: arm, bias: [1]}\n", `actuators[0].adhesion: given with bias`},
		{"actuators:\n  - {type: motor, joint: arm, dof: 1, joint_gear: [1, 0, 0]}\n", `actuators[0].dof: 1: joint_gear on the compound joint of "arm" needs the first velocity of a ball part`},
		{"actuators:\n  - {type: motor, joint: arm, dof: 3, joint_gear: [1, 0, 0]}\n", `needs the first velocity of a ball part`},
		{"actuators:\n  - {type: motor, joint: arm, dof: 2, joint_gear: [1, 0, 0, 0, 0, 0]}\n", `has 6 values; the ball joint of "arm" takes 3`},
	} {
		_, err := Parse("t.yaml", []byte(base+c.yaml), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
	s, err := Parse("t.yaml", []byte(base+"actuators:\n  - {type: general, adhesion: arm, gain: 3}\n  - {type: motor, joint: arm, dof: 2, joint_gear: [0, 2, 1]}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	acts := b.Config.Constraints.Actuators
	if bt, ok := acts[0].Transmission.(*tendon.BodyTransmission); !ok || bt.Body != 0 || acts[0].Gain != 3 {
		t.Errorf("adhesion built %#v", acts[0])
	}
	if jt, ok := acts[1].Transmission.(*tendon.JointTransmission); !ok || jt.DOF != 2 || jt.Gear != [6]float64{0, 2, 1} {
		t.Errorf("ball part built %#v", acts[1].Transmission)
	}
}
