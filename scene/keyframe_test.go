package scene

import (
	"strings"
	"testing"
)

// TestKeyframeControls: a keyframe's controls become their actuators'
// constant targets; a control of an unknown actuator or a non-finite
// value is an error naming the field.
func TestKeyframeControls(t *testing.T) {
	doc := robotDoc + `    controls: {servo: 0.7}
actuators:
  - {name: servo, type: position, joint: link, kp: 10, target: {sine: {amplitude: 1, frequency: 1}}}
`
	s, err := Parse("robot.yaml", []byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyKeyframe("up"); err != nil {
		t.Fatal(err)
	}
	if tg := s.Actuators[0].Target; tg.Constant == nil || *tg.Constant != 0.7 || tg.Sine != nil {
		t.Errorf("target %+v, want constant 0.7", tg)
	}
	for _, c := range []struct{ ctl, want string }{
		{"{motor: 1}", `keyframes[0].controls.motor: "motor" is not an actuator name`},
		{"{servo: .nan}", `keyframes[0].controls.servo: NaN is not finite`},
	} {
		bad := robotDoc + "    controls: " + c.ctl + "\nactuators:\n  - {name: servo, type: position, joint: link, kp: 10}\n"
		if _, err := Parse("robot.yaml", []byte(bad), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.ctl, err, c.want)
		}
	}
}
