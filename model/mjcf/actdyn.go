package mjcf

import (
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

// Actuator activation dynamics, as MuJoCo 2.2.2 reads them
// (xml_native_reader.cc, OneActuator; user_objects.cc, mjCActuator::Compile):
// <general dyntype dynprm actlimited actrange>, and <intvelocity kp
// actrange>, a general actuator with dyntype integrator, gain kp, bias
// (0, −kp, 0) and actlimited true, and <cylinder>, dyntype filter.
// dyntype integrator and filter become a
// scene general actuator with Dynamics (constraint.ActDynamics); dyntype,
// gaintype and biastype all muscle a scene muscle (generalMuscle); user
// types, which are callbacks in MuJoCo, are refused.

// userCallback is the error for a dyntype, gaintype or biastype "user":
// MuJoCo calls the application's mjcb_act_dyn, mjcb_act_gain or
// mjcb_act_bias for it, which a file cannot give.
func userCallback(c *compiler, v view, attr string) error {
	return c.r.Errorf(v.src(attr), attr, "MuJoCo's user %s is a callback of the application (mjcb_act_%s), which a model file cannot give",
		attr, map[string]string{"dyntype": "dyn", "gaintype": "gain", "biastype": "bias"}[attr])
}

// gainBiasTypes reads a <general>'s gaintype (fixed, affine, muscle) and
// biastype (none, affine, muscle); user is refused (userCallback).
func (c *compiler) gainBiasTypes(v view, act *model.Actuator) error {
	var err error
	if act.GainType, err = c.keyword(v, "gaintype", "fixed", "fixed", "affine", "muscle", "user"); err != nil {
		return err
	}
	if act.GainType == "user" {
		return userCallback(c, v, "gaintype")
	}
	if act.BiasType, err = c.keyword(v, "biastype", "none", "none", "affine", "muscle", "user"); err != nil {
		return err
	}
	if act.BiasType == "user" {
		return userCallback(c, v, "biastype")
	}
	return nil
}

// generalMuscle checks a <general> with a muscle type: dyntype, gaintype
// and biastype all muscle, with the same parameters for gain and bias
// (what <muscle> writes), is a muscle, its gainprm (padded with MuJoCo's
// zeros to 9) checked as MuJoCo's compiler checks it, dynprm its two time
// constants (both must be > 0: MuJoCo 2.2.2 divides by max(1e-15, τ)) and
// lengthrange read. Another mix of muscle types returns why it is not
// simulated.
func (c *compiler) generalMuscle(v view, act *model.Actuator) (string, error) {
	n := 0
	for _, t := range []string{act.DynType, act.GainType, act.BiasType} {
		if t == "muscle" {
			n++
		}
	}
	switch {
	case n == 0:
		return "", nil
	case n < 3:
		return fmt.Sprintf("dyntype %q, gaintype %q, biastype %q: muscle types are simulated only all three together", act.DynType, act.GainType, act.BiasType), nil
	}
	g, b, d := padded(act.GainPrm, 9), padded(act.BiasPrm, 9), padded(act.DynPrm, 2)
	if !slices.Equal(g, b) {
		return fmt.Sprintf("muscle gainprm %v and biasprm %v differ (simulated only with one parameter set, as <muscle> gives)", g, b), nil
	}
	if !(d[0] > 0) || !(d[1] > 0) {
		const msg = "a muscle's activation and deactivation time constants dynprm[0], dynprm[1] must be > 0 (%v)"
		if e := v.src("dynprm"); e != nil {
			return "", c.r.Errorf(e, "dynprm", msg, d)
		}
		return "", c.r.Errorf(v.e, "", "dynprm not given (MuJoCo's default 1 0 0): "+msg, d)
	}
	if err := c.checkMuscle(v, g, func(int) string { return "gainprm" }); err != nil {
		return "", err
	}
	act.GainPrm, act.BiasPrm, act.DynPrm = g, b, d
	return "", c.lengthRange(v, act)
}

// padded is x cut or padded with zeros to n values (MuJoCo's
// gainprm, biasprm and dynprm arrays, zero beyond what is given).
func padded(x []float64, n int) []float64 {
	out := make([]float64, n)
	copy(out, x)
	return out
}

// actDynamics reads a <general>'s dyntype, dynprm, actlimited and
// actrange into act. MuJoCo refuses an activation range that is empty or
// limited without dynamics; so does this.
func (c *compiler) actDynamics(v view, act *model.Actuator) error {
	dt, err := c.keyword(v, "dyntype", "none", "none", "integrator", "filter", "muscle", "user")
	if err != nil {
		return err
	}
	act.DynType = dt
	if dt == "user" {
		return userCallback(c, v, "dyntype")
	}
	if act.DynPrm, err = c.floats(v, "dynprm", -1, []float64{1}); err != nil {
		return err
	}
	if dt == "filter" && (len(act.DynPrm) == 0 || !(act.DynPrm[0] > 0)) {
		return c.r.Errorf(v.src("dynprm"), "dynprm", "a filter's time constant dynprm[0] must be > 0 (%v)", act.DynPrm)
	}
	lim, err := c.limited(v, "actlimited", "actrange")
	if err != nil || !lim {
		return err
	}
	return c.actRange(v, act)
}

// actRange reads actrange (limited) into act.ActRange.
func (c *compiler) actRange(v view, act *model.Actuator) error {
	if !v.has("actrange") {
		return c.r.Errorf(v.e, "actrange", "the activation is limited but actrange is not given (MuJoCo: invalid activation range)")
	}
	x, err := c.floats(v, "actrange", 2, nil)
	if err != nil {
		return err
	}
	if !(x[0] < x[1]) {
		return c.r.Errorf(v.src("actrange"), "actrange", "[%g, %g]: need lower < upper", x[0], x[1])
	}
	if act.DynType == "none" {
		return c.r.Errorf(v.src("actrange"), "actrange", "an activation range needs dyntype other than none")
	}
	act.ActRange = &[2]float64{x[0], x[1]}
	return nil
}

// intVelocity reads an <intvelocity>: gain kp (default 1), bias
// (0, −kp, 0), dyntype integrator, activation limited to actrange.
func (c *compiler) intVelocity(v view, act *model.Actuator) error {
	kp, err := c.float(v, "kp", 1)
	if err != nil {
		return err
	}
	act.GainType, act.BiasType, act.DynType = "fixed", "affine", "integrator"
	act.GainPrm, act.BiasPrm, act.DynPrm = []float64{kp}, []float64{0, -kp, 0}, []float64{1}
	return c.actRange(v, act)
}

// statefulGeneral maps a general actuator with integrator or filter
// dynamics: type general with its gain and bias (its force
// g act + b0 + b1 l + b2 l̇ is never a servo of u), and the dynamics. The
// reason is non-empty when it has no equivalent; ok is false for a
// general actuator without such dynamics.
func statefulGeneral(a model.Actuator, sa *scene.Actuator, implicit bool) (why string, ok bool) {
	if a.DynType != "integrator" && a.DynType != "filter" {
		return "", false
	}
	switch {
	case a.GainType != "fixed" && a.GainType != "affine":
		return "gaintype " + a.GainType + " (only fixed and affine)", true
	case a.BiasType != "none" && a.BiasType != "affine":
		return "biastype " + a.BiasType + " (only none and affine)", true
	}
	var b [3]float64
	if a.BiasType == "affine" {
		copy(b[:], a.BiasPrm)
	}
	sa.Type, sa.Gain, sa.Bias = "general", model.Ptr(a.GainPrm[0]), b[:]
	if ga := affineGain(a); ga != [2]float64{} {
		sa.GainAffine = ga[:]
	}
	if b[2] != 0 && !implicit {
		sa.Explicit = model.Ptr(true)
	}
	sa.Dynamics = &scene.Dynamics{Type: a.DynType, ActRange: a.ActRange}
	if a.DynType == "filter" {
		sa.Dynamics.TimeConst = model.Ptr(a.DynPrm[0])
	}
	return "", true
}

// mjStateful reports whether MuJoCo gives the actuator element a an
// activation (an entry of act): a muscle, intvelocity or cylinder, or a
// general actuator whose dyntype (its own or its class's) is not none.
func (c *compiler) mjStateful(a *xmlutil.Element) (bool, error) {
	switch a.Name {
	case "muscle", "intvelocity", "cylinder":
		return true, nil
	case "general":
		v, err := c.view(a, a.Name, "main")
		if err != nil {
			return false, err
		}
		return v.str("dyntype", "none") != "none", nil
	}
	return false, nil
}

// keyAct reads a key's act (one value per actuator with an activation,
// MuJoCo's order) into the keyframe's activations of the simulated
// actuators that have one; a non-zero value for another is ignored with
// a warning.
func (c *compiler) keyAct(k *xmlutil.Element, kf *scene.Keyframe) error {
	act, ok, err := c.r.Floats(k, "act", -1)
	if err != nil || !ok {
		return err
	}
	var idx []int // the MJCF actuators with an activation
	for i, h := range c.hasAct {
		if h {
			idx = append(idx, i)
		}
	}
	if len(act) != len(idx) {
		return c.r.Errorf(k, "act", "has %d values; the model has na = %d activations", len(act), len(idx))
	}
	for j, x := range act {
		name := c.ctrl[idx[j]]
		if sa := c.sceneActuatorNamed(name); sa == nil || !(sa.Type == "muscle" || sa.Dynamics != nil) {
			if x != 0 {
				c.r.Warnf(k, "act", "value %d (%g) is for an actuator whose activation is not simulated (ignored)", j, x)
			}
			continue
		}
		if kf.Activations == nil {
			kf.Activations = map[string]float64{}
		}
		kf.Activations[name] = x
	}
	return nil
}

// sceneActuatorNamed returns the scene actuator of the name, or nil.
func (c *compiler) sceneActuatorNamed(name string) *scene.Actuator {
	for i := range c.out.Scene.Actuators {
		if name != "" && c.out.Scene.Actuators[i].Name == name {
			return &c.out.Scene.Actuators[i]
		}
	}
	return nil
}

// cylinder reads a <cylinder> (a pneumatic or hydraulic cylinder): dyntype
// filter with τ = timeconst (default 1), gain area (default 1; π d²/4
// when diameter d is given, which wins), affine bias (bias, up to 3
// values, default 0).
func (c *compiler) cylinder(v view, act *model.Actuator) error {
	tc, err := c.float(v, "timeconst", 1)
	if err != nil {
		return err
	}
	area, err := c.float(v, "area", 1)
	if err != nil {
		return err
	}
	if v.has("diameter") {
		d, err := c.float(v, "diameter", 0)
		if err != nil {
			return err
		}
		area = math.Pi / 4 * d * d
	}
	bias, err := c.floats(v, "bias", -1, []float64{0, 0, 0})
	if err != nil {
		return err
	}
	if len(bias) > 3 {
		return c.r.Errorf(v.src("bias"), "bias", "has %d values; give up to 3", len(bias))
	}
	if !(tc > 0) {
		return c.r.Errorf(v.src("timeconst"), "timeconst", "a cylinder's time constant must be > 0 (%g)", tc)
	}
	act.GainType, act.BiasType, act.DynType = "fixed", "affine", "filter"
	act.GainPrm, act.BiasPrm, act.DynPrm = []float64{area}, bias, []float64{tc}
	return nil
}

// damper reads a <damper> (MuJoCo 2.2.2): gaintype affine with gain
// (0, 0, −kv), no bias, no dynamics, so f = −kv l̇ u; kv (default 0) must
// be ≥ 0 and ctrlrange is required, non-negative and always limited, as
// MuJoCo's reader requires.
func (c *compiler) damper(v view, act *model.Actuator) error {
	kv, err := c.float(v, "kv", 0)
	if err != nil {
		return err
	}
	if kv < 0 {
		return c.r.Errorf(v.src("kv"), "kv", "a damper's damping coefficient cannot be negative (%g)", kv)
	}
	if !v.has("ctrlrange") {
		return c.r.Errorf(v.e, "ctrlrange", "a damper needs ctrlrange (MuJoCo requires it)")
	}
	r, err := c.floats(v, "ctrlrange", 2, nil)
	if err != nil {
		return err
	}
	if r[0] < 0 || r[1] < 0 || r[0] > r[1] {
		return c.r.Errorf(v.src("ctrlrange"), "ctrlrange", "a damper's control range must be non-negative and ordered ([%g, %g])", r[0], r[1])
	}
	act.CtrlRange = &[2]float64{r[0], r[1]}
	act.GainType, act.BiasType, act.DynType = "affine", "none", "none"
	act.GainPrm, act.BiasPrm, act.DynPrm = []float64{0, 0, -kv}, []float64{0}, []float64{1}
	return nil
}
