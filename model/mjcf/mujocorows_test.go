package mjcf

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// TestCompoundLimitWeights: the soft limits of a body's several hinges
// (one compound joint) take MuJoCo's dof_invweight0, the hinge's diagonal
// entry of M⁻¹ at qpos0, as a lone hinge's do. A box of 1 kg and half
// sizes (0.1, 0.2, 0.3) turning about its centre on hinges x then y has
// M = diag(I_xx, I_yy) at qpos0, so the weights are 1/I_xx = 3/0.13 and
// 1/I_yy = 3/0.10. Without them a compound joint's limit rows took the
// Delassus estimate, and dm_control's humanoid parted from MuJoCo by 1.1e-2
// once its left_hip_x limit acted (perturbed run, step 64).
func TestCompoundLimitWeights(t *testing.T) {
	doc := `<mujoco><worldbody><body name="b" pos="0 0 1">
  <joint name="x" type="hinge" axis="1 0 0" limited="true" range="-10 10"/>
  <joint name="y" type="hinge" axis="0 1 0" limited="true" range="-10 10"/>
  <geom type="box" size="0.1 0.2 0.3" mass="1"/></body></worldbody></mujoco>`
	im, err := Parse("w.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var j = im.Scene.Bodies[len(im.Scene.Bodies)-1].Joint
	if j == nil || len(j.Parts) != 2 {
		t.Fatalf("want a compound joint of two parts, got %+v", j)
	}
	for k, want := range []float64{3 / 0.13, 3 / 0.10} {
		l := j.Parts[k].Limits
		if l == nil || l.Weight == nil || math.Abs(*l.Weight-want) > 1e-12*want {
			t.Errorf("part %d: limit weight %v, want %.12g", k, l, want)
		}
	}
}

// TestOptionImpRatio: <option impratio> reaches the scene's contact
// parameters (MuJoCo's pyramid edges' R divided by it; internal/mjref
// compares the trajectories with MuJoCo), and a value that is not finite
// and positive is refused with the attribute named.
func TestOptionImpRatio(t *testing.T) {
	doc := `<mujoco><option impratio="%s"/><worldbody><geom type="plane" size="1 1 .1"/></worldbody></mujoco>`
	im, err := Parse("i.xml", []byte(fmt.Sprintf(doc, "3")), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := im.Scene.Contact.ImpRatio; r == nil || *r != 3 {
		t.Errorf("impratio 3: scene contact impratio %v", r)
	}
	for _, bad := range []string{"0", "-1", "inf"} {
		_, err := Parse("i.xml", []byte(fmt.Sprintf(doc, bad)), model.Options{})
		if err == nil || !strings.Contains(err.Error(), "impratio") {
			t.Errorf("impratio %s: error %v, want one naming impratio", bad, err)
		}
	}
}

// TestOptionMPR: <option mpr_tolerance mpr_iterations> reach the scene's
// contact parameters (the convex collider's MPR stopping rule) and the
// built contact.Params, without an unsupported-attribute warning, and a
// value out of range is refused with the attribute named.
func TestOptionMPR(t *testing.T) {
	doc := `<mujoco><option %s/><worldbody><geom type="plane" size="1 1 .1"/></worldbody></mujoco>`
	im, err := Parse("m.xml", []byte(fmt.Sprintf(doc, `mpr_tolerance="1e-4" mpr_iterations="7"`)), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := im.Scene.Contact
	if c.MPRTolerance == nil || *c.MPRTolerance != 1e-4 || c.MPRIterations == nil || *c.MPRIterations != 7 {
		t.Errorf("scene contact mpr_tolerance %v, mpr_iterations %v; want 1e-4, 7", c.MPRTolerance, c.MPRIterations)
	}
	for _, w := range im.Warnings {
		if strings.Contains(w.Attribute, "mpr_") {
			t.Errorf("warning %q", w)
		}
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	if p := b.Config.Contact; p.MPRTolerance != 1e-4 || p.MPRIterations != 7 {
		t.Errorf("contact.Params MPR %v, %d; want 1e-4, 7", p.MPRTolerance, p.MPRIterations)
	}
	for _, bad := range []string{`mpr_tolerance="0"`, `mpr_tolerance="-1"`, `mpr_tolerance="nan"`, `mpr_iterations="0"`, `mpr_iterations="1.5"`} {
		_, err := Parse("m.xml", []byte(fmt.Sprintf(doc, bad)), model.Options{})
		name := bad[:strings.Index(bad, "=")]
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming %s", bad, err, name)
		}
	}
}

// TestOptionNoSlip: <option noslip_iterations noslip_tolerance> reach the
// scene's contact parameters and the built contact.Params (MuJoCo's
// noslip pass; internal/mjref compares the trajectories with MuJoCo),
// without an unsupported-attribute warning, unset they are off (a
// tolerance of 0 stands for MuJoCo's default 1e-6), and a value out of range is refused
// with the file, the attribute and the value named.
func TestOptionNoSlip(t *testing.T) {
	doc := `<mujoco><option %s/><worldbody><geom type="plane" size="1 1 .1"/></worldbody></mujoco>`
	im, err := Parse("n.xml", []byte(fmt.Sprintf(doc, `noslip_iterations="3" noslip_tolerance="1e-7"`)), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range im.Warnings {
		if strings.Contains(w.Attribute, "noslip") {
			t.Errorf("warning %q", w)
		}
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	if p := b.Config.Contact; p.NoSlipIterations != 3 || p.NoSlipTolerance != 1e-7 {
		t.Errorf("contact.Params noslip %d, %v; want 3, 1e-7", p.NoSlipIterations, p.NoSlipTolerance)
	}
	im, err = Parse("n.xml", []byte(fmt.Sprintf(doc, `timestep="0.002"`)), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b, err = scene.Build(im.Scene); err != nil {
		t.Fatal(err)
	}
	if p := b.Config.Contact; p.NoSlipIterations != 0 || p.NoSlipTolerance != 0 {
		t.Errorf("unset: contact.Params noslip %d, %v; want 0, 0", p.NoSlipIterations, p.NoSlipTolerance)
	}
	for _, bad := range []string{`noslip_iterations="-1"`, `noslip_iterations="1.5"`, `noslip_tolerance="0"`, `noslip_tolerance="-1e-6"`, `noslip_tolerance="inf"`} {
		_, err := Parse("n.xml", []byte(fmt.Sprintf(doc, bad)), model.Options{})
		name := bad[:strings.Index(bad, "=")]
		value := strings.Trim(bad[strings.Index(bad, "=")+1:], `"`)
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "n.xml") || !strings.Contains(err.Error(), value) {
			t.Errorf("%s: error %v, want one naming n.xml, %s and %s", bad, err, name, value)
		}
	}
}
