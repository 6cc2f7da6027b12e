package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestDependentJointsRefused: joints of one body whose motions are
// dependent at the model pose (coaxial hinges through one point; a hinge
// and a ball about one point; a hinge in the plane of two others; two
// parallel hinges and a slide across them) make the mass matrix singular
// and are refused naming the body and joints, unless the dependent joints
// have armature; two parallel hinges alone, or a ball between slides,
// load.
func TestDependentJointsRefused(t *testing.T) {
	for _, c := range []struct{ joints, want string }{
		{`<joint name="a"/><joint name="b"/>`, `body "body1": the motion of joint "b" is a combination of the motions of "a"`},
		{`<joint name="a" axis="0 1 0" pos=".1 0 0"/><joint name="c" type="ball" pos=".1 0 0"/>`, `the motion of joint "c" is a combination of the motions of "a"`},
		{`<joint name="a" axis="1 0 0"/><joint name="b" axis="0 1 0"/><joint name="c" axis="1 1 0"/>`, `joint "c" is a combination of the motions of "a" and "b"`},
		{`<joint name="a" axis="1 0 0"/><joint name="b" type="slide" axis="0 0 1"/><joint name="c" axis="1 0 0" pos="0 1 0"/>`, `joint "c" is a combination of the motions of "a" and "b"`},
		{`<joint name="a"/><joint name="b" armature="0.1"/>`, ""},
		{`<joint name="a"/><joint name="b" pos="0 .1 0"/>`, ""},
		{`<joint name="a" type="slide"/><joint name="b" type="ball"/><joint name="c" type="slide" axis="1 0 0"/>`, ""},
	} {
		doc := `<mujoco><worldbody><body pos="0 0 1">` + c.joints + `<geom type="sphere" size=".1"/></body></worldbody></mujoco>`
		_, err := Parse("dep.xml", []byte(doc), model.Options{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.joints, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "mass matrix is singular")):
			t.Errorf("%s: error %v, want %q", c.joints, err, c.want)
		}
	}
}
