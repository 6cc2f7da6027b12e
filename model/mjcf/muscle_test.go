package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestMuscleImport: a <muscle> takes MuJoCo 2.2.2's defaults for what it
// does not give (timeconst 0.01 0.04, range 0.75 1.05, force −1, scale
// 200, lmin 0.5, lmax 1.6, vmax 1.5, fpmax 1.3, fvmax 1.2), its default
// class's attributes, and its own, and becomes a scene muscle on its
// tendon or joint.
func TestMuscleImport(t *testing.T) {
	doc := `<mujoco><default><muscle ctrllimited="true" ctrlrange="0 1" lmax="1.8"/></default>
<worldbody><site name="a"/><body><joint name="h" axis="0 1 0" limited="true" range="-1 1"/><geom type="capsule" fromto="0 0 0 0 0 -1" size=".05"/>
<site name="b" pos="0 0 -.5"/></body></worldbody>
<tendon><spatial name="t"><site site="a"/><site site="b"/></spatial></tendon>
<actuator><muscle name="m1" tendon="t"/><muscle name="m2" joint="h" timeconst="0.02 0.08" force="50" lengthrange="-1 1" scale="100"/></actuator></mujoco>`
	im, err := Parse("m.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 2 || acts[0].Type != "muscle" || acts[1].Type != "muscle" {
		t.Fatalf("actuators %+v", acts)
	}
	m1, m2 := acts[0].Muscle, acts[1].Muscle
	if *m1.TimeConst != [2]float64{0.01, 0.04} || *m1.Range != [2]float64{0.75, 1.05} || *m1.Force != -1 || *m1.Scale != 200 ||
		*m1.LMin != 0.5 || *m1.LMax != 1.8 || *m1.VMax != 1.5 || *m1.FPMax != 1.3 || *m1.FVMax != 1.2 || m1.LengthRange != nil {
		t.Errorf("m1 (defaults, lmax from the class): %+v", m1)
	}
	if *m2.TimeConst != [2]float64{0.02, 0.08} || *m2.Force != 50 || *m2.Scale != 100 || *m2.LengthRange != [2]float64{-1, 1} || *m2.LMax != 1.8 {
		t.Errorf("m2 (own attributes): %+v", m2)
	}
	if r := acts[0].CtrlRange; r == nil || *r != [2]float64{0, 1} {
		t.Errorf("ctrl range %v, want [0 1] from the class", r)
	}
	if acts[0].Tendon != "t" || acts[1].Joint == "" {
		t.Errorf("transmissions: tendon %q, joint %q", acts[0].Tendon, acts[1].Joint)
	}
}

// TestMuscleImportErrors: a muscle's bad parameters are refused with the
// file, line, attribute and value (MuJoCo's compile-time rules, and a
// positive time constant), and so is a muscle on a ball joint.
func TestMuscleImportErrors(t *testing.T) {
	body := `<worldbody><body><joint name="h" axis="0 1 0"/><geom type="sphere" size=".1"/>
<body><joint name="b" type="ball"/><geom type="sphere" size=".1"/></body></body></worldbody>`
	for _, c := range []struct{ xml, want string }{
		{`<actuator><muscle joint="h" timeconst="-0.01 0.04"/></actuator>`, `muscle.xml:3: <muscle> timeconst="-0.01 0.04": the activation and deactivation time constants must be > 0`},
		{`<actuator><muscle joint="h" timeconst="0.01 0"/></actuator>`, `timeconst="0.01 0"`},
		{`<actuator><muscle joint="h" range="1 0.5"/></actuator>`, `range="1 0.5": a muscle needs range[0] < range[1]`},
		{`<actuator><muscle joint="h" lmin="1.2"/></actuator>`, `lmin="1.2": a muscle needs lmin < 1 < lmax (lmin 1.2)`},
		{`<actuator><muscle joint="h" lmax="0.9"/></actuator>`, `lmax="0.9": a muscle needs lmin < 1 < lmax (lmax 0.9)`},
		{`<actuator><muscle joint="h" scale="0"/></actuator>`, `scale="0": a muscle needs scale > 0 (0)`},
		{`<actuator><muscle joint="h" vmax="-1"/></actuator>`, `vmax="-1"`},
		{`<actuator><muscle joint="h" fpmax="0"/></actuator>`, `fpmax="0"`},
		{`<actuator><muscle joint="h" fvmax="0"/></actuator>`, `fvmax="0"`},
		{`<actuator><muscle joint="h" force="0"/></actuator>`, `force="0": a muscle's force must be > 0, or < 0 for scale/acc0`},
		{`<actuator><muscle joint="b"/></actuator>`, `joint="b": a muscle on a ball joint is not supported`},
		{`<actuator><muscle joint="h" timeconst="0.01"/></actuator>`, `timeconst="0.01"`},
	} {
		_, err := Parse("muscle.xml", []byte("<mujoco>"+body+"\n"+c.xml+"</mujoco>"), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.xml, err, c.want)
		}
	}
}
