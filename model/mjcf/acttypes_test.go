package mjcf

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// TestDamperImport: a <damper> is a general actuator with the affine gain
// (0, 0, −kv) and its control range; a negative kv, a missing or negative
// ctrlrange are refused as MuJoCo refuses them, naming the attribute;
// <general gaintype="affine"> keeps its length and rate coefficients.
func TestDamperImport(t *testing.T) {
	body := `<worldbody><body><joint name="h" axis="0 1 0"/><geom type="sphere" size=".1"/></body></worldbody>`
	doc := "<mujoco>" + body + `<actuator><damper joint="h" kv="0.7" ctrlrange="0 2"/>
<general joint="h" gaintype="affine" gainprm="1 0.5 -0.2"/></actuator></mujoco>`
	im, err := Parse("d.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 2 {
		t.Fatalf("%d scene actuators, want 2: %+v", len(acts), acts)
	}
	d, g := acts[0], acts[1]
	if d.Type != "general" || *d.Gain != 0 || len(d.GainAffine) != 2 || d.GainAffine[0] != 0 || d.GainAffine[1] != -0.7 || *d.CtrlRange != [2]float64{0, 2} {
		t.Errorf("damper: %+v", d)
	}
	if g.Type != "general" || *g.Gain != 1 || len(g.GainAffine) != 2 || g.GainAffine[0] != 0.5 || g.GainAffine[1] != -0.2 {
		t.Errorf("affine gain: %+v", g)
	}
	for _, c := range []struct{ xml, want string }{
		{`<damper joint="h" kv="-1" ctrlrange="0 1"/>`, `d.xml:2: <damper> kv="-1": a damper's damping coefficient cannot be negative (-1)`},
		{`<damper joint="h" kv="1"/>`, `ctrlrange="": a damper needs ctrlrange`},
		{`<damper joint="h" kv="1" ctrlrange="-1 1"/>`, `ctrlrange="-1 1": a damper's control range must be non-negative and ordered ([-1, 1])`},
	} {
		_, err := Parse("d.xml", []byte("<mujoco>"+body+"\n<actuator>"+c.xml+"</actuator></mujoco>"), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.xml, err, c.want)
		}
	}
}

// TestSiteTransmissionImport: an actuator on a site becomes a scene
// actuator with a site transmission: the site's body and frame (a site
// turned 90° about z: quaternion (cos 45°, 0, 0, sin 45°)), its 6-value
// gear as given (a wrench in the site's frame, rotated at run time) and
// no scalar gear; a refsite is simulated (the reference's body and
// frame), not warned about.
func TestSiteTransmissionImport(t *testing.T) {
	body := `<worldbody><body name="b"><freejoint/><geom type="sphere" size=".1"/><site name="s" pos="0.1 0 0" euler="0 0 90"/><site name="r"/></body></worldbody>`
	doc := "<mujoco>" + body + `<actuator><motor site="s" gear="1 0 0 0 0 2"/><motor site="s" refsite="r"/></actuator></mujoco>`
	im, err := Parse("s.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 2 || acts[0].Site == nil || acts[1].Site == nil {
		t.Fatalf("scene actuators %+v, want two with a site transmission", acts)
	}
	st := acts[0].Site
	f := st.Site.Frame
	h := math.Sqrt(0.5)
	if st.Site.Body != "b" || f.Position == nil || *f.Position != (scene.Vec{0.1, 0, 0}) || f.Quaternion == nil ||
		math.Abs(f.Quaternion[0]-h) > 1e-15 || f.Quaternion[1] != 0 || f.Quaternion[2] != 0 || math.Abs(f.Quaternion[3]-h) > 1e-15 ||
		st.Gear != [6]float64{1, 0, 0, 0, 0, 2} || st.Ref != nil || acts[0].Gear != nil {
		t.Errorf("site transmission %+v (frame %+v), gear %v", st, f, acts[0].Gear)
	}
	r := acts[1].Site
	if r.Ref == nil || r.Ref.Body != "b" || r.Gear != [6]float64{1, 0, 0, 0, 0, 0} {
		t.Errorf("site transmission with refsite %+v", r)
	}
	for _, x := range im.Warnings {
		if strings.Contains(x.String(), "refsite") || strings.Contains(x.String(), "site") {
			t.Errorf("warning for a simulated site transmission: %v", x)
		}
	}
}
