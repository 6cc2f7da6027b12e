package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestSiteActuatorErrors: a site actuator's bad transmission is an error
// naming the file, line, attribute and value.
func TestSiteActuatorErrors(t *testing.T) {
	doc := func(act string) string {
		return `<mujoco><worldbody><body name="b"><joint name="hinge" axis="0 1 0"/><geom size=".1"/>
    <site name="s" pos="0 0 .1"/></body><site name="r"/></worldbody>
  <actuator>` + act + `</actuator></mujoco>`
	}
	for _, c := range []struct{ act, want string }{
		{`<motor site="nope"/>`, `test.xml:3: <motor> site="nope": no site named "nope"`},
		{`<motor site="s" refsite="nope"/>`, `refsite="nope": no site named "nope"`},
		{`<motor site="s" joint="hinge"/>`, "an actuator has one transmission; a site and a joint, tendon or slider-crank given"},
		{`<motor site="s" jointinparent="hinge"/>`, "an actuator has one transmission; a site and a joint, tendon or slider-crank given"},
		{`<motor joint="hinge" refsite="r"/>`, "a reference site needs a site transmission"},
		{`<motor site="s" gear="0 0 0 0 0 0"/>`, "a site transmission's gear is all 0"},
	} {
		_, err := Parse("test.xml", []byte(doc(c.act)), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.act, err, c.want)
		}
	}
	im, err := Parse("test.xml", []byte(doc(`<position site="s" refsite="r" gear="0 0 0 0 1 0" kp="3"/>`)), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := im.Scene.Actuators
	checkGeneralMuscleOnSite(t, doc)
	if len(a) != 1 || a[0].Site == nil || a[0].Site.Ref == nil || a[0].Site.Gear != [6]float64{0, 0, 0, 0, 1, 0} || a[0].Site.Site.Body != "b" || a[0].Site.Ref.Body != "worldbody" {
		t.Errorf("site actuator imported as %+v", a)
	}
}

// checkGeneralMuscleOnSite: a <general> with the three muscle types on a
// site is not simulated and warns, as a <muscle> on a site.
func checkGeneralMuscleOnSite(t *testing.T, doc func(string) string) {
	t.Helper()
	const prm = `"0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"`
	im, err := Parse("test.xml", []byte(doc(`<general site="s" refsite="r" lengthrange="-1 1" dyntype="muscle" gaintype="muscle" biastype="muscle" dynprm="0.02 0.05" gainprm=`+prm+` biasprm=`+prm+`/>`)), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range im.Warnings {
		found = found || strings.Contains(w.String(), "a muscle on a site transmission is not supported")
	}
	if len(im.Scene.Actuators) != 0 || !found {
		t.Errorf("general muscle on a site: actuators %+v, warnings %v", im.Scene.Actuators, im.Warnings)
	}
}
