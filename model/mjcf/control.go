package mjcf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

// limited reads a MuJoCo limited flag (ctrllimited, forcelimited,
// actuatorfrclimited): true or false, or auto (the default), which means
// limited when the range attribute is given and compiler autolimits is on.
func (c *compiler) limited(v view, flag, rng string) (bool, error) {
	l, err := c.keyword(v, flag, "auto", "true", "false", "auto")
	if err != nil {
		return false, err
	}
	switch {
	case l != "auto":
		return l == "true", nil
	case !v.has(rng):
		return false, nil
	case !c.autolimits:
		c.r.Warnf(v.src(rng), rng, "%s ignored: %s is not set and autolimits is false", rng, flag)
		return false, nil
	}
	return true, nil
}

// sceneActuator maps a parsed MJCF actuator (the k-th of <actuator>) onto
// a scene actuator, with actuator length l = gear·q and joint torque
// gear·f (docs/MODELS.md, "MJCF actuators"):
//
//	motor:    f = u                               → motor
//	position: f = kp (u − l) − kv l̇              → position (kp, kd = kv)
//	velocity: f = kv (u − l̇)                     → velocity (kd = kv)
//	general, gain g, bias (b0, b1, b2):
//	  bias none:                 f = g u          → motor with gear·g, effort/|g|
//	  b0 = 0, b1 = −g, b2 ≤ 0:   f = g (u − l) + b2 l̇ → position (kp = g, kd = −b2)
//	  b0 = 0, b1 = 0, b2 = −g:   f = g (u − l̇)    → velocity (kd = g)
//	  other affine biases:       f = g u + b0 + b1 l + b2 l̇ → general
//	  dyntype integrator, filter: f = g act + b0 + b1 l + b2 l̇ → general
//	                             with dynamics (actdyn.go)
//	  gaintype affine (g, g1, g2): gain g + g1 l + g2 l̇ → general
//	damper: general, affine gain (0, 0, −kv), control ≥ 0
//	intvelocity: general, dyntype integrator, gain kp, bias (0, −kp, 0)
//	cylinder: general, dyntype filter (timeconst), gain area, bias
//
// Under Euler and RK4 every one is explicit, as in MuJoCo (position and
// velocity ones marked explicit: explicitServo); under implicit and
// implicitfast, position, velocity and damping general ones are implicit.
//
// On a fixed tendon (a.Tendon) l is gear·L and the force acts along the
// tendon.
//
// forcerange [lo, hi] becomes the symmetric effort max(|lo|, |hi|) (a
// warning when it is not symmetric), ctrlrange the control range. It
// returns a non-empty reason when the actuator has no equivalent.
func (c *compiler) sceneActuator(a model.Actuator, e *xmlutil.Element, k int) (scene.Actuator, string, error) {
	sa := scene.Actuator{Name: c.actuatorName(a.Name, k), Joint: a.Body, Tendon: a.Tendon}
	if a.DOF != 0 && a.Tendon == "" {
		sa.DOF = model.Ptr(a.DOF)
	}
	typ, gain := "", 1.0
	kind := a.Kind
	if a.GainType == "muscle" && kind == "general" {
		kind = "general-muscle" // all three types muscle (generalMuscle)
	}
	switch kind {
	case "motor":
		typ = "motor"
	case "position":
		if !(a.Kp > 0) || a.Kv < 0 {
			return sa, "", c.r.Errorf(e, "kp", "a position actuator needs kp > 0 and kv ≥ 0 (kp %g, kv %g)", a.Kp, a.Kv)
		}
		typ, sa.Kp = "position", model.Ptr(a.Kp)
		if a.Kv > 0 {
			sa.Kd = model.Ptr(a.Kv)
		}
		c.explicitServo(&sa)
	case "velocity":
		if !(a.Kv > 0) {
			return sa, "", c.r.Errorf(e, "kv", "a velocity actuator needs kv > 0 (kv %g)", a.Kv)
		}
		typ, sa.Kd = "velocity", model.Ptr(a.Kv)
		c.explicitServo(&sa)
	case "muscle", "general-muscle":
		typ = "muscle"
		sa.Muscle = sceneMuscle(a)
	case "general", "intvelocity", "cylinder", "damper":
		if why, ok := statefulGeneral(a, &sa, c.implicitActuators); ok {
			if why != "" {
				return sa, why, nil
			}
			typ = sa.Type
			break
		}
		var why string
		typ, gain, why = generalType(a, &sa, c.implicitActuators)
		if why != "" {
			return sa, why, nil
		}
		if typ == "position" || typ == "velocity" {
			c.explicitServo(&sa)
		}
	}
	sa.Type = typ
	gear := a.Gear * gain
	if gear != 1 {
		sa.Gear = model.Ptr(gear)
	}
	if r := a.CtrlRange; r != nil {
		rr := *r
		sa.CtrlRange = &rr
	}
	why := c.effort(e, a.ForceRange, gain, &sa)
	return sa, why, nil
}

// effort sets sa's effort from a limited forcerange r (nil: none) of an
// actuator whose gain is folded into its gear: max(|r0|, |r1|)/|gain|,
// with a warning when r is not symmetric; it returns why the actuator is
// not simulated when r allows no force.
func (c *compiler) effort(e *xmlutil.Element, r *[2]float64, gain float64, sa *scene.Actuator) string {
	if r == nil {
		return ""
	}
	eff := math.Max(math.Abs(r[0]), math.Abs(r[1])) / math.Abs(gain)
	if !(eff > 0) {
		return fmt.Sprintf("forcerange [%g, %g] allows no force", r[0], r[1])
	}
	if r[0] != -r[1] {
		c.r.Warnf(e, "forcerange", "forcerange [%g, %g] is not symmetric: approximated by ±%g", r[0], r[1], math.Max(math.Abs(r[0]), math.Abs(r[1])))
	}
	sa.Effort = model.Ptr(eff)
	return ""
}

// generalType maps a <general> actuator: it returns the scene type, the
// gain folded into the gear (for a pure gain), or why it has no
// equivalent.
func generalType(a model.Actuator, sa *scene.Actuator, implicit bool) (string, float64, string) {
	if a.GainType != "fixed" && a.GainType != "affine" {
		return "", 0, fmt.Sprintf("gaintype %q (only fixed and affine)", a.GainType)
	}
	g, ga := a.GainPrm[0], affineGain(a)
	var b [3]float64
	copy(b[:], a.BiasPrm)
	switch {
	case a.BiasType != "none" && a.BiasType != "affine":
		return "", 0, fmt.Sprintf("biastype %q (only none and affine)", a.BiasType)
	case g == 0 && ga == [2]float64{} && (a.BiasType == "none" || b == [3]float64{}):
		return "", 0, "gain 0 and no bias (no force)"
	case ga != [2]float64{}: // never a servo of u
	case a.BiasType == "none" || b == [3]float64{}:
		return "motor", g, ""
	case b[0] == 0 && b[1] == -g && g > 0 && b[2] <= 0:
		sa.Kp = model.Ptr(g)
		if b[2] < 0 {
			sa.Kd = model.Ptr(-b[2])
		}
		return "position", 1, ""
	case b[0] == 0 && b[1] == 0 && b[2] == -g && g > 0:
		sa.Kd = model.Ptr(g)
		return "velocity", 1, ""
	}
	sa.Gain, sa.Bias = model.Ptr(g), b[:]
	if ga != [2]float64{} {
		sa.GainAffine = ga[:]
	}
	if b[2] != 0 && !implicit {
		sa.Explicit = model.Ptr(true)
	}
	return "general", 1, ""
}

// affineGain is an affine gain's length and rate coefficients
// (gainprm[1], gainprm[2]; zero for a fixed gain).
func affineGain(a model.Actuator) [2]float64 {
	var ga [2]float64
	if a.GainType == "affine" && len(a.GainPrm) > 1 {
		copy(ga[:], a.GainPrm[1:])
	}
	return ga
}

// explicitServo marks a position or velocity actuator explicit unless the
// integrator is implicit or implicitfast: MuJoCo's Euler and RK4 evaluate
// every actuator force at the start of the step (mj_fwdActuation at
// (q0, v0), at each stage for RK4), where our default servo is implicit.
func (c *compiler) explicitServo(sa *scene.Actuator) {
	if !c.implicitActuators {
		sa.Explicit = model.Ptr(true)
	}
}

// actuatorName returns the scene name of the k-th MJCF actuator: its own,
// or "actuatorK" (numbered from 0, as MuJoCo's ctrl), made unique.
func (c *compiler) actuatorName(name string, k int) string {
	if name != "" {
		return name
	}
	name = fmt.Sprintf("actuator%d", k)
	for c.actuatorTaken(name) {
		name += "_"
	}
	return name
}

func (c *compiler) actuatorTaken(name string) bool {
	for _, a := range c.out.Scene.Actuators {
		if a.Name == name {
			return true
		}
	}
	for _, e := range c.root.All("actuator") {
		for _, a := range e.Children {
			if n, _ := a.Attr("name"); n == name {
				return true
			}
		}
	}
	return false
}

// muscleAttrs are the <muscle> shortcut's attributes in MuJoCo's gainprm
// order (range is two values), with MuJoCo 2.2.2's defaults
// (xml_native_reader.cc).
var muscleAttrs = []struct {
	name string
	n    int
	def  []float64
}{{"range", 2, []float64{0.75, 1.05}}, {"force", 1, []float64{-1}}, {"scale", 1, []float64{200}}, {"lmin", 1, []float64{0.5}},
	{"lmax", 1, []float64{1.6}}, {"vmax", 1, []float64{1.5}}, {"fpmax", 1, []float64{1.3}}, {"fvmax", 1, []float64{1.2}}}

// muscle reads a <muscle>'s parameters as MuJoCo's dynprm (timeconst),
// gainprm = biasprm (range, force, scale, lmin, lmax, vmax, fpmax, fvmax)
// and lengthrange, and refuses, naming the attribute and value, what
// MuJoCo's compiler refuses (range[0] ≥ range[1], lmin ≥ 1, lmax ≤ 1,
// scale, vmax, fpmax or fvmax ≤ 0) and a time constant ≤ 0.
func (c *compiler) muscle(v view, act *model.Actuator) error {
	act.GainType, act.BiasType = "muscle", "muscle"
	tc, err := c.floats(v, "timeconst", 2, []float64{0.01, 0.04})
	if err != nil {
		return err
	}
	if !(tc[0] > 0) || !(tc[1] > 0) {
		return c.r.Errorf(v.src("timeconst"), "timeconst", "the activation and deactivation time constants must be > 0")
	}
	act.DynPrm = tc
	for _, a := range muscleAttrs {
		x, err := c.floats(v, a.name, a.n, a.def)
		if err != nil {
			return err
		}
		act.GainPrm = append(act.GainPrm, x...)
	}
	if err := c.checkMuscle(v, act.GainPrm, muscleAttrName); err != nil {
		return err
	}
	act.BiasPrm = act.GainPrm
	return c.lengthRange(v, act)
}

// lengthRange reads an actuator's lengthrange into act.LengthRange; an
// empty range is left nil, to be computed (MuJoCo's useexisting).
func (c *compiler) lengthRange(v view, act *model.Actuator) error {
	lr, err := c.floats(v, "lengthrange", 2, nil)
	if err != nil {
		return err
	}
	if lr != nil && lr[0] < lr[1] {
		act.LengthRange = &[2]float64{lr[0], lr[1]}
	}
	return nil
}

// muscleAttrName is the <muscle> attribute of parameter k of MuJoCo's
// muscle gainprm (range, range, force, scale, lmin, lmax, vmax, fpmax,
// fvmax).
func muscleAttrName(k int) string {
	if k < 2 {
		return "range"
	}
	return muscleAttrs[k-1].name
}

// checkMuscle refuses, naming the attribute (attr of the parameter's
// index) and value, the muscle parameters g (MuJoCo's gainprm order) that
// MuJoCo 2.2.2's compiler refuses (user_objects.cc, mjCActuator::Compile:
// range[0] ≥ range[1], lmin ≥ 1, lmax ≤ 1, scale, vmax, fpmax or
// fvmax ≤ 0) and a force of 0, which has no meaning.
func (c *compiler) checkMuscle(v view, g []float64, attr func(k int) string) error {
	switch {
	case !(g[0] < g[1]):
		return c.r.Errorf(v.src(attr(0)), attr(0), "a muscle needs range[0] < range[1]")
	case !(g[4] < 1):
		return c.r.Errorf(v.src(attr(4)), attr(4), "a muscle needs lmin < 1 < lmax (lmin %g)", g[4])
	case !(g[5] > 1):
		return c.r.Errorf(v.src(attr(5)), attr(5), "a muscle needs lmin < 1 < lmax (lmax %g)", g[5])
	case g[2] == 0:
		return c.r.Errorf(v.src(attr(2)), attr(2), "a muscle's force must be > 0, or < 0 for scale/acc0")
	}
	for _, k := range []int{3, 6, 7, 8} {
		if n := muscleAttrName(k); !(g[k] > 0) {
			return c.r.Errorf(v.src(attr(k)), attr(k), "a muscle needs %s > 0 (%g)", n, g[k])
		}
	}
	return nil
}

// sceneMuscle is the scene muscle of a parsed <muscle>.
func sceneMuscle(a model.Actuator) *scene.Muscle {
	g := a.GainPrm
	return &scene.Muscle{TimeConst: &[2]float64{a.DynPrm[0], a.DynPrm[1]}, Range: &[2]float64{g[0], g[1]},
		Force: model.Ptr(g[2]), Scale: model.Ptr(g[3]), LMin: model.Ptr(g[4]), LMax: model.Ptr(g[5]), VMax: model.Ptr(g[6]),
		FPMax: model.Ptr(g[7]), FVMax: model.Ptr(g[8]), LengthRange: a.LengthRange, ActRange: a.ActRange}
}
