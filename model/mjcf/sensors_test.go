package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sensor"
)

const sensorDoc = `<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="h1" type="hinge" axis="0 1 0"/>
      <joint name="h2" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.1" mass="1"/>
      <site name="s" type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/>
      <site name="c" type="capsule" size="0.05 0.2"/>
    </body>
  </worldbody>
  <actuator><motor name="m" joint="h1"/></actuator>
  <sensor>
    <jointpos joint="h2" cutoff="0.5"/>
    <jointvel name="v1" joint="h1" noise="0.01"/>
    <magnetometer site="s"/>
    <touch name="t" site="s"/>
    <touch name="tc" site="c"/>
    <framequat name="fq" objtype="xbody" objname="a" reftype="site" refname="s"/>
    <framepos name="fp" objtype="body" objname="a"/>
    <actuatorfrc name="af" actuator="m"/>
    <rangefinder site="s"/>
  </sensor>
</mujoco>`

// TestSensorImport: supported sensors become scene sensors in MuJoCo's
// order with MuJoCo's default names (sensorK, K the index among all
// sensors); compound joint parts map to their degree of freedom; touch
// zones take the site's type and size; unsupported types and noise are
// warnings naming the file and line, once each.
func TestSensorImport(t *testing.T) {
	im, err := Parse("test.xml", []byte(sensorDoc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Scene.Sensors
	if len(s) != 7 {
		t.Fatalf("%d sensors, want 7: %+v", len(s), s)
	}
	if s[0].Name != "sensor0" || s[0].Type != "jointpos" || s[0].Joint != "a" || *s[0].DOF != 1 || s[0].Cutoff != 0.5 {
		t.Errorf("jointpos: %+v", s[0])
	}
	if s[1].Name != "v1" || *s[1].DOF != 0 {
		t.Errorf("jointvel: %+v", s[1])
	}
	if z := s[2].Zone; s[2].Name != "t" || z == nil || z.Shape != "box" || z.Size != (scene.Vec{0.1, 0.2, 0.3}) || s[2].Body != "a" {
		t.Errorf("touch: %+v zone %+v", s[2], z)
	}
	if z := s[3].Zone; z == nil || z.Shape != "capsule" || z.Size != (scene.Vec{0.05, 0.2, 0}) {
		t.Errorf("touch on a capsule: zone %+v", z)
	}
	if s[4].RefBody != "a" || s[4].RefFrame == nil || s[4].Body != "a" {
		t.Errorf("framequat with reftype: %+v", s[4])
	}
	if s[6].Actuator != "m" {
		t.Errorf("actuatorfrc: %+v", s[6])
	}
	var warns []string
	for _, w := range im.Warnings {
		warns = append(warns, w.String())
	}
	all := strings.Join(warns, "\n")
	for _, want := range []string{"test.xml:15: <magnetometer>: sensor <magnetometer> not supported", "test.xml:21: <rangefinder>", "test.xml:14: <jointvel> noise: sensor noise is not simulated"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if n := strings.Count(all, "test.xml:15:"); n != 1 {
		t.Errorf("magnetometer warned %d times:\n%s", n, all)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), ","); got != "sensor0,v1,t,tc,fq[0],fq[1],fq[2],fq[3],fp[0],fp[1],fp[2],af" {
		t.Errorf("columns %s", got)
	}
}

// TestSensorImportErrors: a sensor naming a missing joint, site, body or
// actuator, or a ball joint for jointpos, is an error naming the file,
// line, element, attribute and value.
func TestSensorImportErrors(t *testing.T) {
	for _, c := range []struct{ sensor, want string }{
		{`<jointpos joint="nope"/>`, `test.xml:11: <jointpos> joint="nope": no joint of this name`},
		{`<jointpos joint="b"/>`, `needs a hinge or slide joint`},
		{`<gyro site="nope"/>`, `test.xml:11: <gyro> site="nope": no site of this name`},
		{`<framepos objtype="body" objname="nope"/>`, `test.xml:11: <framepos> objname="nope": no body`},
		{`<framepos objtype="frame" objname="a"/>`, `<framepos> objtype="frame"`},
		{`<actuatorfrc actuator="nope"/>`, `<actuatorfrc> actuator="nope": no actuator`},
		{`<touch site="s" cutoff="-1"/>`, `<touch> cutoff="-1": want a number ≥ 0`},
	} {
		doc := `<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="h" type="hinge"/>
      <joint name="b" type="ball" pos=".1 0 0"/>
      <geom type="sphere" size="0.1" mass="1"/>
      <site name="s"/>
    </body>
  </worldbody>
  <sensor>` + "\n    " + c.sensor + `
  </sensor>
</mujoco>`
		_, err := Parse("test.xml", []byte(doc), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.sensor, err, c.want)
		}
	}
}
