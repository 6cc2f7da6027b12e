package mjcf

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
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
