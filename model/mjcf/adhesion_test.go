package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// TestAdhesionImport: MuJoCo 2.2.2's <adhesion> becomes a general
// actuator on the body's contacts (scene adhesion, gain, control range),
// takes its place in the control vector (a keyframe's ctrl for it and for
// the actuators after it), and the geoms' margins reach the scene (the
// contacts it counts); a default class may hold its attributes.
func TestAdhesionImport(t *testing.T) {
	doc := `<mujoco><default><adhesion gain="3"/></default>
<worldbody><geom type="plane" size="1 1 .1"/>
<body name="b" pos="0 0 .1"><joint name="h" axis="0 1 0"/><geom type="sphere" size=".1" margin=".01" gap=".01"/></body></worldbody>
<actuator>
  <adhesion name="a" body="b" ctrlrange="0 1"/>
  <motor name="m" joint="h"/>
  <adhesion body="b" gain="5" ctrlrange="0.5 2" forcerange="-4 4"/>
</actuator>
<keyframe><key ctrl="0.5 2 1"/></keyframe></mujoco>`
	im, err := Parse("adh.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range im.Warnings {
		if strings.Contains(w.String(), "adhesion") {
			t.Errorf("warning: %s", w)
		}
	}
	acts := im.Scene.Actuators
	if len(acts) != 3 {
		t.Fatalf("actuators %+v, want 3", acts)
	}
	a, c := acts[0], acts[2]
	if a.Name != "a" || a.Type != "general" || a.Adhesion != "b" || a.Gain == nil || *a.Gain != 3 || *a.CtrlRange != [2]float64{0, 1} || a.Effort != nil {
		t.Errorf("adhesion a: %+v", a)
	}
	if c.Name != "actuator2" || c.Adhesion != "b" || *c.Gain != 5 || *c.CtrlRange != [2]float64{.5, 2} || c.Effort == nil || *c.Effort != 4 {
		t.Errorf("adhesion 2: %+v", c)
	}
	if k := im.Scene.Keyframes[0].Controls; k["a"] != .5 || k["m"] != 2 || k["actuator2"] != 1 {
		t.Errorf("keyframe controls %v", k)
	}
	col := im.Scene.Bodies[len(im.Scene.Bodies)-1].Collisions[0]
	if col.Margin == nil || *col.Margin != .01 || col.Standoff != nil {
		t.Errorf("the sphere's margin %v, standoff %v: want 0.01 and none", col.Margin, col.Standoff)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	if g := b.Model.Geometries[len(b.Model.Geometries)-1]; g.Margin != .01 || g.Standoff != 0 {
		t.Errorf("the sphere's geometry: margin %g, standoff %g", g.Margin, g.Standoff)
	}
}

// TestAdhesionErrors: MuJoCo 2.2.2's reader refuses a negative gain or
// control range; an unknown body, the world and an empty range are errors
// too, naming the file, line and attribute.
func TestAdhesionErrors(t *testing.T) {
	for _, c := range []struct{ act, want string }{
		{`<adhesion body="b" gain="-1" ctrlrange="0 1"/>`, `adh.xml:3: <adhesion> gain="-1": -1: an adhesion gain cannot be negative`},
		{`<adhesion body="b" ctrlrange="-1 1"/>`, `adh.xml:3: <adhesion> ctrlrange="-1 1": [-1, 1]: an adhesion control range is not negative`},
		{`<adhesion body="b"/>`, `adh.xml:3: <adhesion> ctrlrange="": required`},
		{`<adhesion body="b" ctrlrange="1 1"/>`, `[1, 1]: an adhesion control range`},
		{`<adhesion body="c" ctrlrange="0 1"/>`, `adh.xml:3: <adhesion> body="c": no body of this name`},
		{`<adhesion body="world" ctrlrange="0 1"/>`, `a body that is not the world`},
		{`<adhesion ctrlrange="0 1"/>`, `body`},
	} {
		doc := `<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
<body name="b"><freejoint/><geom type="sphere" size=".1"/></body></worldbody>
<actuator>` + c.act + `</actuator></mujoco>`
		_, err := Parse("adh.xml", []byte(doc), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.act, err, c.want)
		}
	}
}
