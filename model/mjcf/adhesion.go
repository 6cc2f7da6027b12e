package mjcf

import (
	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

// adhesion reads the k-th actuator, an <adhesion body gain ctrlrange>,
// into a general actuator on the body's contacts (scene adhesion,
// tendon.BodyTransmission). MuJoCo 2.2.2's reader (xml_native_reader.cc,
// OneActuator) makes it a general actuator with a body transmission, gain
// gainprm[0] = gain (default 1, ≥ 0), no bias, no dynamics, and its
// control always limited to a ctrlrange that must not be negative; the
// force gain·ctrl acts along the transmission's moment, minus the mean of
// the body's contacts' normal Jacobians (mj_transmission, mjTRN_BODY).
func (c *compiler) adhesion(a *xmlutil.Element, k int) error {
	a.MarkUsed()
	v, err := c.view(a, "adhesion", "main")
	if err != nil {
		return err
	}
	body, err := c.bodyRef(a, "body")
	if err != nil {
		return err
	}
	if body == "world" {
		return c.r.Errorf(a, "body", "an adhesion actuator needs a body that is not the world")
	}
	gain, err := c.float(v, "gain", 1)
	if err != nil {
		return err
	}
	if !(gain >= 0) {
		return c.r.Errorf(v.src("gain"), "gain", "%g: an adhesion gain cannot be negative", gain)
	}
	if !v.has("ctrlrange") {
		return c.r.Errorf(a, "ctrlrange", "required: an adhesion actuator's control is limited to a range ≥ 0 (MuJoCo's default 0 0 allows no control)")
	}
	rng, err := c.floats(v, "ctrlrange", 2, nil)
	if err != nil {
		return err
	}
	if rng[0] < 0 || rng[1] < 0 || !(rng[0] < rng[1]) {
		return c.r.Errorf(v.src("ctrlrange"), "ctrlrange", "[%g, %g]: an adhesion control range is not negative and its lower bound is below its upper one", rng[0], rng[1])
	}
	act := model.Actuator{Name: v.str("name", ""), Kind: "adhesion", Body: body, Gear: 1, GainPrm: []float64{gain},
		GainType: "fixed", BiasType: "none", CtrlRange: &[2]float64{rng[0], rng[1]}, Source: model.Source{File: a.File, Line: a.Line}}
	if lim, err := c.limited(v, "forcelimited", "forcerange"); err != nil || !lim {
		if err != nil {
			return err
		}
	} else if x, err := c.floats(v, "forcerange", 2, nil); err != nil {
		return err
	} else {
		act.ForceRange = &[2]float64{x[0], x[1]}
	}
	sa := scene.Actuator{Name: c.actuatorName(act.Name, k), Type: "general", Adhesion: body, Gain: model.Ptr(gain), CtrlRange: act.CtrlRange}
	if why := c.effort(a, act.ForceRange, 1, &sa); why != "" {
		c.r.Warnf(a, "", "<adhesion> on body %q not simulated: %s", body, why)
		return nil
	}
	c.out.Actuators = append(c.out.Actuators, act)
	c.out.Scene.Actuators = append(c.out.Scene.Actuators, sa)
	c.ctrl[k] = sa.Name
	return nil
}
