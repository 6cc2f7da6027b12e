package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestAdhesionWarns: MuJoCo 2.2.2's <adhesion> (a body transmission) is
// not simulated: it warns once, naming the line, the body and why, takes
// its place in the control vector (a keyframe's ctrl for it warns), and
// the actuators after it are imported.
func TestAdhesionWarns(t *testing.T) {
	doc := `<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
<body name="b" pos="0 0 .1"><joint name="h" axis="0 1 0"/><geom type="sphere" size=".1" margin=".01"/></body></worldbody>
<actuator>
  <adhesion body="b" gain="5" ctrlrange="0 1"/>
  <motor name="m" joint="h"/>
</actuator>
<keyframe><key ctrl="0.5 2"/></keyframe></mujoco>`
	im, err := Parse("adh.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range im.Warnings {
		ws = append(ws, w.String())
	}
	all := strings.Join(ws, "\n")
	if n := strings.Count(all, "<adhesion>"); n != 2 || !strings.Contains(all, `adh.xml:4: <adhesion>: <adhesion> on body "b" not simulated (ignored): MuJoCo 2.2.2's body transmission`) {
		t.Errorf("warnings (want one for the element, none per attribute):\n%s", all)
	}
	if !strings.Contains(all, "value 0 (0.5) is for an actuator that is not simulated") {
		t.Errorf("no warning for the keyframe's ctrl of the adhesion actuator:\n%s", all)
	}
	if len(im.Scene.Actuators) != 1 || im.Scene.Actuators[0].Name != "m" {
		t.Errorf("actuators %+v, want the motor only", im.Scene.Actuators)
	}
	if u := im.Scene.Keyframes[0].Controls["m"]; u != 2 {
		t.Errorf("the motor's keyframe control %g, want 2", u)
	}
}
