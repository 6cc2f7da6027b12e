package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// actDynDoc is a hinge with MJCF actuators that have activations, and
// ACT replaced by more actuators.
const actDynDoc = `<mujoco><default><intvelocity kp="7"/></default>
  <worldbody><body><joint name="h" axis="0 1 0"/>
    <inertial pos="0 0 -0.5" mass="1" diaginertia="0.001 0.001 0.001"/></body></worldbody>
  <actuator>
    <motor joint="h"/>
    <general name="int" joint="h" dyntype="integrator" gainprm="3" biastype="affine" biasprm="0 -1 -0.5" actlimited="true" actrange="-1 2"/>
    <general name="filt" joint="h" dyntype="filter" dynprm="0.25"/>
    <intvelocity name="iv" joint="h" actrange="-0.5 0.5"/>
    ACT
  </actuator>
  KEY</mujoco>`

func actDynParse(t *testing.T, act, key string) (*model.Import, error) {
	t.Helper()
	doc := strings.Replace(strings.Replace(actDynDoc, "ACT", act, 1), "KEY", key, 1)
	return Parse("actdyn.xml", []byte(doc), model.Options{})
}

// TestActuatorDynamicsMapping: general dyntype integrator and filter and
// intvelocity (its kp from the default class) become general scene
// actuators with dynamics, gain and bias as MuJoCo's, actrange where
// limited; a key's act (one per MuJoCo activation) sets their initial
// activations.
func TestActuatorDynamicsMapping(t *testing.T) {
	im, err := actDynParse(t, "", `<keyframe><key name="k" act="0.5 -0.2 0.1"/></keyframe>`)
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 4 {
		t.Fatalf("%d scene actuators, want 4", len(acts))
	}
	in, f, iv := acts[1], acts[2], acts[3]
	switch {
	case in.Type != "general" || *in.Gain != 3 || in.Bias[1] != -1 || in.Bias[2] != -0.5 || in.Dynamics == nil ||
		in.Dynamics.Type != "integrator" || *in.Dynamics.ActRange != [2]float64{-1, 2} || in.Explicit == nil:
		t.Errorf("integrator: %+v %+v", in, in.Dynamics)
	case f.Type != "general" || *f.Gain != 1 || f.Dynamics == nil || f.Dynamics.Type != "filter" || *f.Dynamics.TimeConst != 0.25 || f.Dynamics.ActRange != nil:
		t.Errorf("filter: %+v %+v", f, f.Dynamics)
	case iv.Type != "general" || *iv.Gain != 7 || iv.Bias[1] != -7 || iv.Dynamics == nil || iv.Dynamics.Type != "integrator" || *iv.Dynamics.ActRange != [2]float64{-0.5, 0.5}:
		t.Errorf("intvelocity: %+v %+v", iv, iv.Dynamics)
	}
	if k := im.Scene.Keyframes[0].Activations; len(k) != 3 || k["int"] != 0.5 || k["filt"] != -0.2 || k["iv"] != 0.1 {
		t.Errorf("keyframe activations %v", k)
	}
}

// TestActuatorDynamicsErrors: what MuJoCo's compiler refuses is refused
// with the attribute and value named.
func TestActuatorDynamicsErrors(t *testing.T) {
	for _, c := range []struct{ act, key, want string }{
		{`<intvelocity joint="h"/>`, "", "actrange"},
		{`<intvelocity joint="h" actrange="1 -1"/>`, "", "need lower < upper"},
		{`<general joint="h" actlimited="true" actrange="-1 1"/>`, "", "needs dyntype"},
		{`<general joint="h" dyntype="filter" dynprm="0"/>`, "", "dynprm"},
		{`<general joint="h" dyntype="bogus"/>`, "", "dyntype"},
		{"", `<keyframe><key act="1 2"/></keyframe>`, "na = 3"},
		{`<general joint="h" dyntype="user"/>`, "", `<general> dyntype="user": MuJoCo's user dyntype is a callback of the application (mjcb_act_dyn)`},
		{`<general joint="h" gaintype="user"/>`, "", `gaintype="user": MuJoCo's user gaintype is a callback of the application (mjcb_act_gain)`},
		{`<general joint="h" biastype="user"/>`, "", `biastype="user": MuJoCo's user biastype is a callback of the application (mjcb_act_bias)`},
		{`<general joint="h" gaintype="bogus"/>`, "", "gaintype"},
	} {
		_, err := actDynParse(t, c.act, c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s%s: error %v, want one naming %q", c.act, c.key, err, c.want)
		}
	}
}
