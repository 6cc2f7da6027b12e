package mjcf

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

func shortName(p string) string { return filepath.Base(p) }

// bodyRef returns the scene name of an MJCF body named in attribute attr
// ("world" for the world body).
func (c *compiler) bodyRef(e *xmlutil.Element, attr string) (string, error) {
	n, err := c.r.Required(e, attr)
	if err != nil {
		return "", err
	}
	if n == "world" {
		return "world", nil
	}
	if _, ok := c.bodies[n]; !ok {
		return "", c.r.Errorf(e, attr, "no body of this name")
	}
	return n, nil
}

// contact reads <contact>: <exclude body1 body2> pairs (<pair>s are read
// by pairs, after the exclusions of welded bodies). An exclusion with the
// world body excludes the world's own geoms.
func (c *compiler) contact(e *xmlutil.Element) error {
	for _, x := range e.All("exclude") {
		a, err := c.bodyRef(x, "body1")
		if err != nil {
			return err
		}
		b, err := c.bodyRef(x, "body2")
		if err != nil {
			return err
		}
		x.Attr("name")
		if a == "world" || b == "world" {
			if _, ok := c.bodies[worldName]; !ok {
				continue // the world has no geoms
			}
			if a == "world" {
				a = worldName
			}
			if b == "world" {
				b = worldName
			}
		}
		if a != b {
			c.out.Scene.Exclude = append(c.out.Scene.Exclude, [2]string{a, b})
		}
	}
	return nil
}

// equality reads <equality> constraints (connect, weld, joint) and maps
// each onto the scene (equality.go).
func (c *compiler) equality(e *xmlutil.Element) error {
	for _, q := range e.Children {
		if q.Name != "connect" && q.Name != "weld" && q.Name != "joint" && q.Name != "tendon" {
			continue
		}
		q.MarkUsed()
		v, err := c.view(q, "equality", "main")
		if err != nil {
			return err
		}
		eq := model.Equality{Kind: q.Name, Active: true, Source: model.Source{File: q.File, Line: q.Line}}
		eq.Name = v.str("name", "")
		if v.has("active") {
			a, err := c.r.Bool(v.src("active"), "active", true)
			if err != nil {
				return err
			}
			eq.Active = a
		}
		if eq.SolRef, err = c.floats(v, "solref", 2, []float64{0.02, 1}); err != nil {
			return err
		}
		if sr := eq.SolRef; (sr[0] > 0) != (sr[1] > 0) || sr[0] == 0 {
			return c.r.Errorf(v.src("solref"), "solref", "want (timeconst > 0, dampratio > 0) or (−stiffness < 0, −damping < 0)")
		}
		if v.has("solimp") {
			if eq.SolImp, err = c.solimp(v, "solimp"); err != nil {
				return err
			}
		}
		if q.Name == "tendon" {
			if err := c.tendonEquality(q, v, eq); err != nil {
				return err
			}
			continue
		}
		if err := c.equalityGeometry(q, &eq); err != nil {
			return err
		}
		c.out.Equalities = append(c.out.Equalities, eq)
		if c.disabled("equality") { // <flag equality="disable">: read, not simulated
			continue
		}
		if !eq.Active {
			c.r.Warnf(v.src("active"), "active", "an inactive equality constraint is not simulated (it cannot be switched on during a run)")
			continue
		}
		if err := c.addEquality(q, eq); err != nil {
			return err
		}
	}
	return nil
}

// equalityGeometry reads the bodies, anchor and relpose of a connect or
// weld, or the joints and polycoef of a joint equality.
func (c *compiler) equalityGeometry(q *xmlutil.Element, eq *model.Equality) error {
	var err error
	if q.Name == "joint" {
		j1, err := c.jointNamed(q, "joint1")
		if err != nil {
			return err
		}
		eq.Joint1, eq.DOF1 = c.out.Scene.Bodies[j1.body].Name, j1.dof // a part of a compound joint: its dof
		if j1.typ != "hinge" && j1.typ != "slide" {
			return c.r.Errorf(q, "joint1", "joint %q is a %s joint; a joint equality couples hinge and slide joints", j1.name, j1.typ)
		}
		if q.Has("joint2") {
			j2, err := c.jointNamed(q, "joint2")
			if err != nil {
				return err
			}
			if j2.typ != "hinge" && j2.typ != "slide" {
				return c.r.Errorf(q, "joint2", "joint %q is a %s joint; a joint equality couples hinge and slide joints", j2.name, j2.typ)
			}
			eq.Joint2, eq.DOF2 = c.out.Scene.Bodies[j2.body].Name, j2.dof
		}
		eq.PolyCoef, err = c.floats(view{e: q}, "polycoef", 5, []float64{0, 1, 0, 0, 0})
		return err
	}
	if eq.Body1, err = c.bodyRef(q, "body1"); err != nil {
		return err
	}
	eq.Body2 = "world"
	if q.Has("body2") {
		if eq.Body2, err = c.bodyRef(q, "body2"); err != nil {
			return err
		}
	}
	if eq.Body1 == eq.Body2 {
		return c.r.Errorf(q, "body2", "a %s needs two different bodies", q.Name)
	}
	a, err := c.floats(view{e: q}, "anchor", 3, []float64{0, 0, 0})
	if err != nil {
		return err
	}
	eq.Anchor = spatial.Vec3(a)
	if q.Name == "weld" && q.Has("relpose") {
		rp, _, err := c.r.Floats(q, "relpose", 7)
		if err != nil {
			return err
		}
		// A zero quaternion (MuJoCo's default "0 1 0 0 0 0 0") means the
		// relative pose at the model's reference configuration.
		if r := (spatial.Quat{W: rp[3], X: rp[4], Y: rp[5], Z: rp[6]}); r != (spatial.Quat{}) {
			x := spatial.Pose{P: spatial.Vec3{rp[0], rp[1], rp[2]}, R: r.Normalize()}
			eq.RelPose = &x
		}
	}
	if q.Name == "weld" {
		if eq.TorqueScale, err = c.r.Float(q, "torquescale", 1); err != nil {
			return err
		}
		if !(eq.TorqueScale >= 0) || math.IsInf(eq.TorqueScale, 1) {
			return c.r.Errorf(q, "torquescale", "%v: want a finite number ≥ 0", eq.TorqueScale)
		}
	}
	return nil
}

// jointNamed returns the joint named in attribute attr.
func (c *compiler) jointNamed(e *xmlutil.Element, attr string) (*jointRef, error) {
	n, err := c.r.Required(e, attr)
	if err != nil {
		return nil, err
	}
	j := c.joints[n]
	if j == nil {
		return nil, c.r.Errorf(e, attr, "no joint of this name")
	}
	return j, nil
}

// actuators reads <actuator>: motor, position, velocity, intvelocity,
// cylinder, muscle and general on a
// joint become scene actuators (control.go); every child counts as one
// actuator of MuJoCo's ctrl vector (c.ctrl), those not simulated with an
// empty name.
func (c *compiler) actuators(e *xmlutil.Element) error {
	for _, a := range e.Children {
		k := len(c.ctrl)
		c.ctrl = append(c.ctrl, "")
		hasAct, err := c.mjStateful(a)
		if err != nil {
			return err
		}
		c.hasAct = append(c.hasAct, hasAct)
		switch a.Name {
		case "motor", "position", "velocity", "general", "muscle", "intvelocity", "cylinder", "damper":
		case "adhesion":
			if err := c.adhesion(a, k); err != nil {
				return err
			}
			continue
		default:
			continue
		}
		a.MarkUsed()
		v, err := c.view(a, a.Name, "main")
		if err != nil {
			return err
		}
		crank, site := v.has("cranksite") || v.has("slidersite"), v.has("site")
		if !v.has("joint") && !v.has("jointinparent") && !v.has("tendon") && !crank && !site {
			c.r.Warnf(a, "", "only joint, jointinparent, tendon, slider-crank and site transmissions are supported (this <%s> has none; ignored)", a.Name)
			continue
		}
		act, why, err := c.parseActuator(a, v)
		if err != nil {
			return err
		}
		on := fmt.Sprintf("joint %q", act.JointName)
		switch {
		case act.Tendon != "" || v.has("tendon"):
			on = fmt.Sprintf("tendon %q", v.str("tendon", ""))
		case crank:
			on = "a slider-crank"
		case site:
			on = fmt.Sprintf("site %q", v.str("site", ""))
		}
		if why != "" {
			c.r.Warnf(a, "", "actuator <%s> on %s not simulated: %s", a.Name, on, why)
			continue
		}
		c.out.Actuators = append(c.out.Actuators, act)
		sa, why, err := c.sceneActuator(act, a, k)
		if err != nil {
			return err
		}
		if why != "" {
			c.r.Warnf(a, "", "actuator <%s> on %s not simulated: %s", a.Name, on, why)
			continue
		}
		if crank {
			if sa.SliderCrank, err = c.sliderCrank(v); err != nil {
				return err
			}
		}
		if site {
			if sa.Site, err = c.siteTransmission(v); err != nil {
				return err
			}
		}
		if err := c.jointGear(v, &sa); err != nil {
			return err
		}
		c.out.Scene.Actuators = append(c.out.Scene.Actuators, sa)
		c.ctrl[k] = sa.Name
	}
	return nil
}

// parseActuator reads an actuator's attributes as the file gives them;
// ctrlrange and forcerange only where they are limited (ctrllimited,
// forcelimited: true, or auto with autolimits and the range given). It
// returns a non-empty reason when the transmission is not simulated: an
// actuator on a ball or free joint (MuJoCo's gear is then a 3- or 6-vector
// torque/wrench), or a zero gear. For hinge and slide joints and fixed
// and spatial tendons MuJoCo uses gear[0] (mj_transmission),
// the other values of a 6-vector are ignored; a site transmission takes
// the whole 6-vector (siteTransmission) and gear 1 here.
func (c *compiler) parseActuator(a *xmlutil.Element, v view) (model.Actuator, string, error) {
	act := model.Actuator{Name: v.str("name", ""), Kind: a.Name, Source: model.Source{File: a.File, Line: a.Line}}
	ja := "joint" // MuJoCo's jointinparent is joint on a hinge or slide (mj_transmission)
	if v.has("jointinparent") {
		ja = "jointinparent"
	}
	var given []string
	for _, t := range []string{"joint", "jointinparent", "tendon"} {
		if v.has(t) {
			given = append(given, t)
		}
	}
	if len(given) > 1 {
		return act, "", c.r.Errorf(v.src(given[1]), given[1], "an actuator has one transmission; %s given", strings.Join(given, " and "))
	}
	crank := v.has("cranksite") || v.has("slidersite")
	if crank && (v.has(ja) || v.has("tendon") || v.has("site")) {
		return act, "", c.r.Errorf(a, "cranksite", "an actuator has one transmission; a slider-crank and a joint or tendon given")
	}
	site := v.has("site")
	if site && (crank || v.has(ja) || v.has("tendon")) {
		return act, "", c.r.Errorf(v.src("site"), "site", "an actuator has one transmission; a site and a joint, tendon or slider-crank given")
	}
	if !site && v.has("refsite") {
		return act, "", c.r.Errorf(v.src("refsite"), "refsite", "a reference site needs a site transmission (site=)")
	}
	why := ""
	switch {
	case site: // the site transmission is read by siteTransmission, with the whole gear
		if a.Name == "muscle" {
			why = "a muscle on a site transmission is not supported"
		}
	case crank: // the slider-crank is read by sliderCrank
	case v.has("tendon"):
		tn := v.str("tendon", "")
		if c.out.Scene.Tendon(tn) == nil {
			return act, "", c.r.Errorf(v.src("tendon"), "tendon", "no tendon of this name")
		}
		act.Tendon = tn
	default:
		jn := v.str(ja, "")
		j := c.joints[jn]
		if j == nil {
			return act, "", c.r.Errorf(v.src(ja), ja, "no joint of this name")
		}
		act.Body, act.DOF, act.JointName = c.out.Scene.Bodies[j.body].Name, j.dof, jn
		if a.Name == "muscle" && (j.typ == "ball" || j.typ == "free") {
			return act, "", c.r.Errorf(v.src(ja), ja, "a muscle on a %s joint is not supported (only hinge and slide joints and tendons)", j.typ)
		}
	}
	gear, err := c.floats(v, "gear", -1, []float64{1})
	if err != nil {
		return act, "", err
	}
	if len(gear) == 0 || len(gear) > 6 {
		return act, "", c.r.Errorf(v.src("gear"), "gear", "has %d values; give 1 to 6", len(gear))
	}
	act.Gear = gear[0]
	if site {
		act.Gear = 1 // the gear is the site's wrench (siteTransmission)
	}
	if wj := c.wrenchJoint(v, ja); wj != "" {
		act.Gear = 1 // the gear is the ball or free joint's torque or wrench (jointGear)
		if g := padded(gear, jointGearLen[wj]); why == "" && allZeros(g) {
			why = fmt.Sprintf("gear %v: the %s joint's gear (its first %d values) is all 0: no force", gear, wj, len(g))
		}
	}
	if why == "" && act.Gear == 0 {
		why = "gear[0] = 0 (the value used for a hinge, slide or tendon): no force"
	}
	if why != "" {
		return act, why, nil
	}
	for _, r := range []struct {
		attr, flag string
		out        **[2]float64
	}{{"ctrlrange", "ctrllimited", &act.CtrlRange}, {"forcerange", "forcelimited", &act.ForceRange}} {
		if r.attr == "ctrlrange" && a.Name == "damper" {
			continue // always limited (damper)
		}
		lim, err := c.limited(v, r.flag, r.attr)
		if err != nil {
			return act, "", err
		}
		if !lim {
			continue
		}
		x, err := c.floats(v, r.attr, 2, nil)
		if err != nil {
			return act, "", err
		}
		if x[0] > x[1] {
			return act, "", c.r.Errorf(v.src(r.attr), r.attr, "lower bound above the upper bound")
		}
		rr := [2]float64(x)
		*r.out = &rr
	}
	switch a.Name {
	case "position":
		if act.Kp, err = c.float(v, "kp", 1); err != nil {
			return act, "", err
		}
		act.Kv, err = c.float(v, "kv", 0)
	case "velocity":
		act.Kv, err = c.float(v, "kv", 1)
	case "muscle":
		err = c.muscle(v, &act)
	case "intvelocity":
		err = c.intVelocity(v, &act)
	case "cylinder":
		err = c.cylinder(v, &act)
	case "damper":
		err = c.damper(v, &act)
	case "general":
		if err = c.gainBiasTypes(v, &act); err != nil {
			return act, "", err
		}
		if act.GainPrm, err = c.floats(v, "gainprm", -1, []float64{1}); err != nil {
			return act, "", err
		}
		if len(act.GainPrm) == 0 {
			return act, "", c.r.Errorf(v.src("gainprm"), "gainprm", "empty: give at least the gain")
		}
		if act.BiasPrm, err = c.floats(v, "biasprm", -1, []float64{0}); err != nil {
			return act, "", err
		}
		if err = c.actDynamics(v, &act); err != nil {
			return act, "", err
		}
		if why, err = c.generalMuscle(v, &act); why != "" || err != nil {
			return act, why, err
		}
		if site && act.GainType == "muscle" { // as <muscle> on a site (above)
			return act, "a muscle on a site transmission is not supported", nil
		}
		// An affine bias (0, −kp, −kv) with gain kp is a PD servo.
		if act.GainType == "fixed" && act.BiasType == "affine" && len(act.BiasPrm) >= 3 && len(act.GainPrm) >= 1 && act.BiasPrm[1] == -act.GainPrm[0] {
			act.Kp, act.Kv = act.GainPrm[0], -act.BiasPrm[2]
		}
	}
	return act, "", err
}

// keyCtrl reads a key's ctrl (one value per actuator, MuJoCo's order)
// into the keyframe's controls of the simulated actuators.
func (c *compiler) keyCtrl(k *xmlutil.Element, kf *scene.Keyframe) error {
	ctrl, ok, err := c.r.Floats(k, "ctrl", -1)
	if err != nil || !ok {
		return err
	}
	if len(ctrl) != len(c.ctrl) {
		return c.r.Errorf(k, "ctrl", "has %d values; the model has nu = %d actuators", len(ctrl), len(c.ctrl))
	}
	for i, u := range ctrl {
		if c.ctrl[i] == "" {
			if u != 0 {
				c.r.Warnf(k, "ctrl", "value %d (%g) is for an actuator that is not simulated (ignored)", i, u)
			}
			continue
		}
		if kf.Controls == nil {
			kf.Controls = map[string]float64{}
		}
		kf.Controls[c.ctrl[i]] = u
	}
	return nil
}

// keyframes reads <keyframe><key name qpos qvel>: MuJoCo's qpos and qvel
// in joint order, converted per joint to our coordinates (free joint:
// (x, y, z, qw..qz) → (qw..qz, x, y, z) and body-frame ω → world frame;
// ball: body-frame ω → parent-joint frame).
func (c *compiler) keyframes(e *xmlutil.Element) error {
	nq, nv := 0, 0
	for _, j := range c.jointList {
		nq += map[string]int{"free": 7, "ball": 4}[j.typ] + map[bool]int{true: 1}[j.typ == "hinge" || j.typ == "slide"]
		nv += map[string]int{"free": 6, "ball": 3}[j.typ] + map[bool]int{true: 1}[j.typ == "hinge" || j.typ == "slide"]
	}
	for i, k := range e.All("key") {
		name, _ := k.Attr("name")
		if name == "" {
			name = fmt.Sprintf("key%d", i)
		}
		qpos, okq, err := c.r.Floats(k, "qpos", -1)
		if err != nil {
			return err
		}
		qvel, okv, err := c.r.Floats(k, "qvel", -1)
		if err != nil {
			return err
		}
		if okq && len(qpos) != nq {
			return c.r.Errorf(k, "qpos", "has %d values; the model has nq = %d", len(qpos), nq)
		}
		if okv && len(qvel) != nv {
			return c.r.Errorf(k, "qvel", "has %d values; the model has nv = %d", len(qvel), nv)
		}
		for _, a := range []string{"time", "mpos", "mquat"} {
			if k.Has(a) {
				k.Attr(a)
				c.r.Warnf(k, a, "keyframe %s not supported (ignored)", a)
			}
		}
		kf := scene.Keyframe{Name: name, Joints: map[string]scene.JointState{}}
		if err := c.keyCtrl(k, &kf); err != nil {
			return err
		}
		if err := c.keyAct(k, &kf); err != nil {
			return err
		}
		iq, iv := 0, 0
		for _, j := range c.jointList {
			body := c.out.Scene.Bodies[j.body].Name
			var js scene.JointState
			switch j.typ {
			case "hinge", "slide":
				if okq {
					js.Q = []float64{qpos[iq]}
				}
				if okv {
					js.V = []float64{qvel[iv]}
				}
				iq, iv = iq+1, iv+1
			case "ball":
				q := spatial.Quat{W: 1}
				if okq {
					q = spatial.Quat{W: qpos[iq], X: qpos[iq+1], Y: qpos[iq+2], Z: qpos[iq+3]}.Normalize()
					js.Q = []float64{q.W, q.X, q.Y, q.Z}
				}
				if okv {
					w := q.Rotate(spatial.Vec3{qvel[iv], qvel[iv+1], qvel[iv+2]})
					js.V = w[:]
				}
				iq, iv = iq+4, iv+3
			case "free":
				q := c.bodyPose[j.body].R
				if okq {
					q = spatial.Quat{W: qpos[iq+3], X: qpos[iq+4], Y: qpos[iq+5], Z: qpos[iq+6]}.Normalize()
					js.Q = []float64{q.W, q.X, q.Y, q.Z, qpos[iq], qpos[iq+1], qpos[iq+2]}
				}
				if okv {
					w := q.Rotate(spatial.Vec3{qvel[iv+3], qvel[iv+4], qvel[iv+5]})
					js.V = []float64{w[0], w[1], w[2], qvel[iv], qvel[iv+1], qvel[iv+2]}
				}
				iq, iv = iq+7, iv+6
			}
			if js.Q != nil || js.V != nil {
				// The joints of one body are the parts of its compound
				// joint, in order: their coordinates concatenate.
				prev := kf.Joints[body]
				prev.Q, prev.V = append(prev.Q, js.Q...), append(prev.V, js.V...)
				kf.Joints[body] = prev
			}
		}
		c.out.Scene.Keyframes = append(c.out.Scene.Keyframes, kf)
	}
	return nil
}

// weldExcludes applies MuJoCo's parent filter to welded bodies. MuJoCo
// welds a body without joints to its parent and filters contacts by the
// welded groups: geoms of one group never collide, nor do those of a
// group and its parent group, unless that parent is the world. The scene
// excludes only a body and its direct parent, so the other pairs of
// bodies with collision geoms are added to its exclusions (for example
// the Allegro's fingertip, welded to the distal link, and the medial
// link). The model itself follows MuJoCo's filter (contact.parent_filter
// "mujoco", multibody.FilterMuJoCo: a body touches a parent welded to the
// world); these exclusions keep it when the file is included in a scene
// with the default filter. <flag filterparent="disable"> turns the parent
// filter off (contact.parent_filter "none", no exclusions here); one weld
// group still never touches itself (multibody.RigidGroup).
func (c *compiler) weldExcludes() {
	s := c.out.Scene
	s.Contact.ParentFilter = "mujoco"
	if c.disabled("filterparent") {
		s.Contact.ParentFilter = "none"
		return
	}
	parent := func(i int) int {
		if j := s.Bodies[i].Joint; j != nil && j.Parent != "" && j.Parent != "world" {
			return c.bodies[j.Parent]
		}
		return -1
	}
	// group returns the body that starts i's welded group (-1: the world).
	group := func(i int) int {
		for i >= 0 {
			b := &s.Bodies[i]
			if b.Fixed {
				return -1
			}
			if b.Joint == nil || b.Joint.Type != "weld" {
				return i
			}
			i = parent(i)
		}
		return -1
	}
	have := map[[2]string]bool{}
	for _, e := range s.Exclude {
		have[e], have[[2]string{e[1], e[0]}] = true, true
	}
	var solid []int
	for i := range s.Bodies {
		if len(s.Bodies[i].Collisions) > 0 {
			solid = append(solid, i)
		}
	}
	for x, a := range solid {
		for _, b := range solid[x+1:] {
			ga, gb := group(a), group(b)
			if ga < 0 || gb < 0 || parent(a) == b || parent(b) == a {
				continue
			}
			if ga != gb && group(parent(ga)) != gb && group(parent(gb)) != ga {
				continue
			}
			pair := [2]string{s.Bodies[a].Name, s.Bodies[b].Name}
			if !have[pair] {
				have[pair] = true
				s.Exclude = append(s.Exclude, pair)
			}
		}
	}
}

// jointGearLen is how many of gear's values a ball or free joint takes.
var jointGearLen = map[string]int{"ball": 3, "free": 6}

// allZeros reports whether every value is 0.
func allZeros(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

// wrenchJoint returns the type of the ball or free joint that an
// actuator's joint or jointinparent (attribute ja) names, "" for another
// transmission or joint type.
func (c *compiler) wrenchJoint(v view, ja string) string {
	if !v.has(ja) {
		return ""
	}
	if j := c.joints[v.str(ja, "")]; j != nil && (j.typ == "ball" || j.typ == "free") {
		return j.typ
	}
	return ""
}

// jointGear gives an actuator on a ball or free joint its gear: MuJoCo
// 2.2.2's mj_transmission takes gear[0:3] as the ball's torque and the
// whole 6-vector as the free joint's force and torque, in the body's
// frame, or in the parent's (the world's for a free joint) with
// jointinparent (tendon.JointTransmission). Missing values are MuJoCo's
// default gear (1 0 0 0 0 0).
func (c *compiler) jointGear(v view, sa *scene.Actuator) error {
	ja := "joint"
	if v.has("jointinparent") {
		ja = "jointinparent"
	}
	typ := c.wrenchJoint(v, ja)
	if typ == "" {
		return nil
	}
	gear, err := c.floats(v, "gear", -1, []float64{1})
	if err != nil {
		return err
	}
	sa.JointGear, sa.GearInParent, sa.DOF = padded(gear, jointGearLen[typ]), ja == "jointinparent", nil
	if j := c.joints[v.str(ja, "")]; c.out.Scene.Bodies[j.body].Joint.Type == "compound" {
		sa.DOF = model.Ptr(j.dof) // a ball part: its first velocity (tendon.JointTransmission)
	}
	return nil
}
