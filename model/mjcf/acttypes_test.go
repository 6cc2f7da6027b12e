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
// actuator with a site wrench, its 6-value gear rotated from the site's
// frame into its body's (a site turned 90° about z maps gear x onto body
// y); a refsite warns and is not simulated; a zero gear is refused.
func TestSiteTransmissionImport(t *testing.T) {
	body := `<worldbody><body name="b"><freejoint/><geom type="sphere" size=".1"/><site name="s" pos="0.1 0 0" euler="0 0 90"/><site name="r"/></body></worldbody>`
	doc := "<mujoco>" + body + `<actuator><motor site="s" gear="1 0 0 0 0 2"/><motor site="s" refsite="r"/></actuator></mujoco>`
	im, err := Parse("s.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 1 || acts[0].SiteWrench == nil {
		t.Fatalf("scene actuators %+v, want one with a site wrench", acts)
	}
	w := acts[0].SiteWrench
	if w.Site.Body != "b" || *w.Site.Point != (scene.Vec{0.1, 0, 0}) || math.Abs(w.Force[0]) > 1e-15 || math.Abs(w.Force[1]-1) > 1e-15 ||
		w.Torque != (scene.Vec{0, 0, 2}) || acts[0].Gear != nil {
		t.Errorf("site wrench %+v (site %+v), gear %v", w, w.Site, acts[0].Gear)
	}
	found := false
	for _, x := range im.Warnings {
		found = found || strings.Contains(x.String(), "refsite")
	}
	if !found {
		t.Errorf("no warning for the refsite: %v", im.Warnings)
	}
	_, err = Parse("s.xml", []byte("<mujoco>"+body+`<actuator><motor site="s" gear="0 0 0 0 0 0"/></actuator></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), `gear="0 0 0 0 0 0": a site transmission's gear (its wrench) is zero`) {
		t.Errorf("zero gear: error %v", err)
	}
}
