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

// TestGeneralMuscleImport: a <general> with dyntype, gaintype and
// biastype muscle is the <muscle> with the same parameters (gainprm =
// biasprm in MuJoCo's order, padded with zeros, dynprm its time
// constants); a <general> on a jointinparent hinge drives the hinge as
// joint= does; other mixes of muscle types, different gain and bias
// parameters warn and are not simulated; a limited muscle activation
// (actlimited, actrange) becomes the muscle's act_range;
// what MuJoCo's compiler refuses is refused naming gainprm or dynprm.
func TestGeneralMuscleImport(t *testing.T) {
	const prm = `"0.8 1.1 20 1 0.6 1.5 2 1.2 1.3"`
	doc := `<mujoco><worldbody><body><joint name="h" axis="0 1 0"/><geom type="sphere" size=".1"/></body></worldbody>
<actuator>
  <muscle name="m" joint="h" lengthrange="-1 1" timeconst="0.02 0.05" range="0.8 1.1" force="20" scale="1" lmin="0.6" lmax="1.5" vmax="2" fpmax="1.2" fvmax="1.3"/>
  <general name="g" joint="h" lengthrange="-1 1" dyntype="muscle" gaintype="muscle" biastype="muscle" dynprm="0.02 0.05" gainprm=` + prm + ` biasprm=` + prm + `/>
  <general name="jip" jointinparent="h" gainprm="3"/>
  <general name="mix" joint="h" dyntype="muscle" gainprm="3"/>
  <general name="differ" joint="h" dyntype="muscle" gaintype="muscle" biastype="muscle" dynprm="0.02 0.05" gainprm=` + prm + `/>
  <general name="lim" joint="h" dyntype="muscle" gaintype="muscle" biastype="muscle" dynprm="0.02 0.05" gainprm=` + prm + ` biasprm=` + prm + ` actlimited="true" actrange="0 1"/>
</actuator></mujoco>`
	im, err := Parse("gm.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 4 {
		t.Fatalf("%d scene actuators, want 4 (m, g, jip, lim): %+v", len(acts), acts)
	}
	m, g, jip, lim := acts[0], acts[1], acts[2], acts[3]
	if lim.Type != "muscle" || lim.Muscle == nil || lim.Muscle.ActRange == nil || *lim.Muscle.ActRange != [2]float64{0, 1} {
		t.Errorf("actlimited general muscle %+v", lim.Muscle)
	}
	if g.Type != "muscle" || g.Muscle == nil || *g.Muscle.TimeConst != *m.Muscle.TimeConst || *g.Muscle.Range != *m.Muscle.Range ||
		*g.Muscle.Force != 20 || *g.Muscle.Scale != 1 || *g.Muscle.LMin != 0.6 || *g.Muscle.LMax != 1.5 || *g.Muscle.VMax != 2 ||
		*g.Muscle.FPMax != 1.2 || *g.Muscle.FVMax != 1.3 || *g.Muscle.LengthRange != *m.Muscle.LengthRange {
		t.Errorf("general muscle %+v, <muscle> %+v", g.Muscle, m.Muscle)
	}
	if jip.Type != "motor" || jip.Joint != m.Joint || *jip.Gear != 3 {
		t.Errorf("jointinparent: %+v (want a motor of gear 3 on %q)", jip, m.Joint)
	}
	for _, want := range []string{`dyntype "muscle", gaintype "fixed", biastype "none": muscle types are simulated only all three together`,
		`differ (simulated only with one parameter set`} {
		found := false
		for _, w := range im.Warnings {
			found = found || strings.Contains(w.String(), want)
		}
		if !found {
			t.Errorf("no warning %q: %v", want, im.Warnings)
		}
	}
	body := `<worldbody><body><joint name="h" axis="0 1 0"/><geom type="sphere" size=".1"/></body></worldbody>`
	gm := `<general joint="h" dyntype="muscle" gaintype="muscle" biastype="muscle" `
	for _, c := range []struct{ xml, want string }{
		{gm + `dynprm="0.02 0.05" gainprm="1 0.5 -1 200 0.5 1.6 1.5 1.3 1.2" biasprm="1 0.5 -1 200 0.5 1.6 1.5 1.3 1.2"/>`, `gainprm="1 0.5 -1 200 0.5 1.6 1.5 1.3 1.2": a muscle needs range[0] < range[1]`},
		{gm + `dynprm="0.02 0.05" gainprm="0.75 1.05 -1 200 1.2 1.6 1.5 1.3 1.2" biasprm="0.75 1.05 -1 200 1.2 1.6 1.5 1.3 1.2"/>`, `a muscle needs lmin < 1 < lmax (lmin 1.2)`},
		{gm + `dynprm="0.02 0.05" gainprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3" biasprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3"/>`, `a muscle needs fvmax > 0 (0)`},
		{gm + `gainprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2" biasprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"/>`, `gm.xml:2: <general>: dynprm not given (MuJoCo's default 1 0 0): a muscle's activation and deactivation time constants dynprm[0], dynprm[1] must be > 0 ([1 0])`},
		{`<general joint="h" jointinparent="h"/>`, `jointinparent="h": an actuator has one transmission; joint and jointinparent given`},
		{`<general jointinparent="nope"/>`, `jointinparent="nope": no joint of this name`},
	} {
		_, err := Parse("gm.xml", []byte("<mujoco>"+body+"\n<actuator>"+c.xml+"</actuator></mujoco>"), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.xml, err, c.want)
		}
	}
}
