package scene

import (
	"math"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/multibody"
)

// actuatorTypes and constraintTypes list the accepted type names.
var (
	actuatorTypes   = []string{"motor", "position", "velocity", "pd", "general", "muscle"}
	constraintTypes = []string{"weld", "ball", "distance", "coupler", "attach", "prescribed"}
)

// constraintFields says which optional fields each constraint type takes.
var constraintFields = map[string][]string{
	"weld":       {"bodies", "frames", "stiffness", "rot_stiffness", "dissipation", "solref", "solimp", "weight", "scale"},
	"ball":       {"bodies", "points", "stiffness", "dissipation", "solref", "solimp", "weight"},
	"distance":   {"bodies", "points", "length", "stiffness", "dissipation", "solref", "solimp", "weight"},
	"coupler":    {"joints", "dofs", "ratio", "offset", "stiffness", "dissipation", "solref", "solimp", "weight", "scale", "coefs"},
	"attach":     {"bodies", "point"},
	"prescribed": {"body", "dofs", "motion"},
}

// given lists the optional constraint fields that are set.
func (c *Constraint) given() map[string]bool {
	return map[string]bool{
		"bodies": c.Bodies != nil, "points": c.Points != nil, "frames": c.Frames != nil, "length": c.Length != nil,
		"point": c.Point != nil, "joints": c.Joints != nil, "dofs": c.DOFs != nil, "ratio": c.Ratio != nil,
		"offset": c.Offset != nil, "stiffness": c.Stiffness != nil, "rot_stiffness": c.RotStiffness != nil,
		"dissipation": c.Dissipation != nil, "body": c.Body != "", "motion": c.Motion != nil,
		"solref": c.SolRef != nil, "solimp": c.SolImp != nil, "weight": c.Weight != nil, "scale": c.Scale != nil, "coefs": c.Coefs != nil,
	}
}

// scalarJoint reports whether joint type t has one coordinate per degree of
// freedom with q̇ = v (the joints that limits, actuators, couplers and
// prescribed motions act on).
func scalarJoint(t multibody.JointType) bool {
	return t == multibody.JointRevolute || t == multibody.JointPrismatic || t == multibody.JointPlanar || t == multibody.JointUniversal
}

// jointLimits checks limits.cone, limits.stiffness and limits.dissipation,
// where lower and upper may be given, and joint.friction.
func (v *validator) jointLimits(p string, j *Joint, t multibody.JointType) {
	v.softCompliance(p+".friction", j.FrictionSolRef, j.FrictionSolImp)
	if j.FrictionWeight != nil {
		v.positive(p+".friction_weight", *j.FrictionWeight)
	}
	if j.Friction != nil {
		v.nonNegative(p+".friction", *j.Friction)
		if t == multibody.JointFree || t == multibody.JointWeld {
			v.add(p+".friction", "%s given for a %s joint; dry friction acts on revolute, prismatic, planar, universal and ball joints", fnum(*j.Friction), t)
		}
	}
	l := j.Limits
	if l == nil {
		return
	}
	if (l.Lower != nil || l.Upper != nil) && !scalarJoint(t) {
		v.add(p+".limits", "lower/upper given for a %s joint; they bound revolute, prismatic, planar and universal joints (a ball joint takes cone)", t)
	}
	if l.Cone != nil {
		if t != multibody.JointBall {
			v.add(p+".limits.cone", "%s given for a %s joint; cone limits a ball joint", fnum(*l.Cone), t)
		} else if c := *l.Cone; finite(c) && (c <= 0 || c > math.Pi) {
			v.add(p+".limits.cone", "%s must be in (0, π] (rad)", fnum(c))
		}
	}
	v.limitCompliance(p+".limits", l.Stiffness, l.Dissipation, l.SolRef, l.SolImp)
	if l.Weight != nil {
		v.positive(p+".limits.weight", *l.Weight)
	}
}

// limitCompliance checks a limit's stiffness, dissipation, solref and
// solimp (a joint's, a compound part's or a tendon's; path ends in
// ".limits").
func (v *validator) limitCompliance(p string, stiffness, dissipation *float64, solref, solimp []float64) {
	if stiffness != nil {
		v.positive(p+".stiffness", *stiffness)
	}
	if dissipation != nil {
		v.nonNegative(p+".dissipation", *dissipation)
	}
	if n := len(solref); n != 0 && n != 2 {
		v.add(p+".solref", "%d values; want 2 (timeconst, dampratio)", n)
	}
	if n := len(solimp); n != 0 && (n != 5 || len(solref) == 0) {
		v.add(p+".solimp", "%d values; want 5 (dmin, dmax, width, midpoint, power), with solref", n)
	}
}

// softCompliance checks the solref and solimp of a joint's or part's
// friction (path ends in ".friction", the fields are friction_solref and
// friction_solimp).
func (v *validator) softCompliance(p string, solref, solimp []float64) {
	if n := len(solref); n != 0 && n != 2 {
		v.add(p+"_solref", "%d values; want 2 (timeconst, dampratio)", n)
	}
	if n := len(solimp); n != 0 && (n != 5 || len(solref) == 0) {
		v.add(p+"_solimp", "%d values; want 5 (dmin, dmax, width, midpoint, power), with friction_solref", n)
	}
}

// bodyRef returns the index of the named body in bodies, reporting an
// unknown name at path; −1 for "world" when world is allowed, −2 on error.
func (v *validator) bodyRef(path, name string, bodies []Body, world bool) int {
	if world && name == "world" {
		return -1
	}
	k := slices.IndexFunc(bodies, func(o Body) bool { return o.Name == name })
	if k < 0 {
		suffix := ""
		if world {
			suffix = " (or world)"
		}
		v.add(path, "%q is not a body name%s", name, suffix)
		return -2
	}
	return k
}

// scalarDOF checks that body k has a revolute, prismatic, planar or
// universal joint and that dof is one of its degrees of freedom.
func (v *validator) scalarDOF(path string, bodies []Body, k int, dof int, dofPath string) {
	t, err := jointTypeOf(&bodies[k])
	if err != nil {
		return // reported with the joint
	}
	if t == multibody.JointCompound {
		_, nv := jointSize(&bodies[k])
		if dof < 0 || dof >= nv {
			v.add(dofPath, "%d is not a degree of freedom of the compound joint of %q (it has %d)", dof, bodies[k].Name, nv)
		} else if !compoundDOFIsScalar(&bodies[k], dof) {
			v.add(dofPath, "%d is a degree of freedom of a ball part of %q; this needs a revolute or prismatic part", dof, bodies[k].Name)
		}
		return
	}
	if !scalarJoint(t) {
		v.add(path, "%q has a %s joint; this needs a revolute, prismatic, planar, universal or compound joint", bodies[k].Name, t)
		return
	}
	if dof < 0 || dof >= t.NV() {
		v.add(dofPath, "%d is not a degree of freedom of the %s joint of %q (it has %d)", dof, t, bodies[k].Name, t.NV())
	}
}

// listName checks an actuator's or constraint's optional name: usable as a
// --set segment and a CSV column, and unique in its list.
func (v *validator) listName(p, name string, seen map[string]int, i int) {
	if name == "" {
		return
	}
	switch {
	case strings.ContainsAny(name, ".=[],\"\n\r"):
		v.add(p+".name", "%q must not contain '.', '=', '[', ']', commas, quotes or line breaks", name)
	case isDigits(name):
		v.add(p+".name", "%q must not be all digits (it would read as an index in --set paths)", name)
	}
	if j, dup := seen[name]; dup {
		v.add(p+".name", "%q is already the name of element %d; names must be unique", name, j)
	} else {
		seen[name] = i
	}
}

// actuators checks the actuators list.
func (v *validator) actuators(s *Scene) {
	seen := map[string]int{}
	for i := range s.Actuators {
		a := &s.Actuators[i]
		p := indexPath("actuators", i)
		v.listName(p, a.Name, seen, i)
		v.actuator(p, a, s)
	}
}

// actuator checks one actuator.
func (v *validator) actuator(p string, a *Actuator, s *Scene) {
	bodies := s.Bodies
	if !slices.Contains(actuatorTypes, a.Type) {
		if a.Type == "" && v.locs != nil && !v.locs.has(p+".type") {
			v.add(p+".type", "missing (required; one of %s)", strings.Join(actuatorTypes, ", "))
		} else {
			v.add(p+".type", "%q must be one of %s", a.Type, strings.Join(actuatorTypes, ", "))
		}
		return
	}
	switch {
	case a.Adhesion != "":
		v.adhesion(p, a, bodies)
	case a.Site != nil && (a.Joint != "" || a.Tendon != "" || a.SliderCrank != nil):
		v.add(p+".site", "given with a joint, tendon or slider-crank; an actuator drives one of them")
	case a.Site != nil:
		v.siteTransmission(p+".site", a.Site, bodies)
		if a.DOF != nil {
			v.add(p+".dof", "given for a site actuator; it takes none")
		}
	case a.SliderCrank != nil && (a.Joint != "" || a.Tendon != ""):
		v.add(p+".slider_crank", "given with a joint or tendon; an actuator drives one of them")
	case a.SliderCrank != nil:
		v.sliderCrank(p+".slider_crank", a.SliderCrank, bodies)
		if a.DOF != nil {
			v.add(p+".dof", "given for a slider-crank actuator; it takes none")
		}
	case a.Tendon != "" && a.Joint != "":
		v.add(p, "joint %q and tendon %q given; an actuator drives one of them", a.Joint, a.Tendon)
	case a.Tendon != "":
		if s.Tendon(a.Tendon) == nil {
			v.add(p+".tendon", "%q is not a tendon name (tendons: %v)", a.Tendon, tendonNames(s))
		}
		if a.DOF != nil {
			v.add(p+".dof", "given for a tendon actuator; it takes none")
		}
	case a.Joint == "":
		v.add(p+".joint", "missing (required: the body whose joint the actuator drives, or give tendon)")
	}
	switch {
	case a.JointGear != nil || a.GearInParent:
		v.jointTransmission(p, a, bodies)
	case a.Joint != "":
		if k := v.bodyRef(p+".joint", a.Joint, bodies, false); k >= 0 {
			v.scalarDOF(p+".joint", bodies, k, intOr(a.DOF, 0), p+".dof")
		}
	}
	if a.Gear != nil && *a.Gear == 0 {
		v.add(p+".gear", "0 must be non-zero")
	}
	for _, g := range []struct {
		n string
		x *float64
	}{{"kp", a.Kp}, {"kd", a.Kd}} {
		if g.x != nil {
			v.nonNegative(p+"."+g.n, *g.x)
		}
	}
	kp, kd := valueOr(a.Kp, 0), valueOr(a.Kd, 0)
	switch a.Type {
	case "motor":
		if a.Kp != nil || a.Kd != nil {
			v.add(p, "kp or kd given for a motor; a motor's force is its control input")
		}
	case "position":
		if !(kp > 0) {
			v.add(p+".kp", "%s: a position actuator needs kp > 0", fnum(kp))
		}
	case "velocity":
		if a.Kp != nil {
			v.add(p+".kp", "%s given for a velocity actuator; it takes kd only", fnum(kp))
		}
		if !(kd > 0) {
			v.add(p+".kd", "%s: a velocity actuator needs kd > 0", fnum(kd))
		}
	case "pd":
		if finite(kp) && finite(kd) && !(kp+kd > 0) {
			v.add(p, "kp = %s and kd = %s: a pd actuator needs kp > 0 or kd > 0", fnum(kp), fnum(kd))
		}
	case "general":
		if a.Kp != nil || a.Kd != nil {
			v.add(p, "kp or kd given for a general actuator; it takes gain and bias")
		}
		if len(a.Bias) > 3 {
			v.add(p+".bias", "%d values; give up to 3 (b0, b1, b2)", len(a.Bias))
		}
		for k, b := range a.Bias {
			if !finite(b) {
				v.add(indexPath(p+".bias", k), "%s must be finite", fnum(b))
			}
		}
		if a.Gain != nil && !finite(*a.Gain) {
			v.add(p+".gain", "%s must be finite", fnum(*a.Gain))
		}
		if len(a.GainAffine) > 2 {
			v.add(p+".gain_affine", "%d values; give up to 2 (length and rate coefficients)", len(a.GainAffine))
		}
		for k, g := range a.GainAffine {
			if !finite(g) {
				v.add(indexPath(p+".gain_affine", k), "%s must be finite", fnum(g))
			}
		}
	case "muscle":
		if a.Kp != nil || a.Kd != nil {
			v.add(p, "kp or kd given for a muscle; it takes muscle parameters")
		}
		v.muscle(p+".muscle", a.Muscle)
	}
	v.dynamics(p+".dynamics", a)
	if a.Act0 != nil && (!a.stateful() || !finite(*a.Act0)) {
		v.add(p+".act0", "%s given: needs a finite value, for a muscle or a general actuator with dynamics", fnum(*a.Act0))
	}
	if a.Type != "muscle" && a.Muscle != nil {
		v.add(p+".muscle", "given for a %s actuator; only a muscle takes it", a.Type)
	}
	if a.Type != "general" && (a.Gain != nil || a.Bias != nil || a.GainAffine != nil) {
		v.add(p, "gain, gain_affine or bias given for a %s actuator; only general takes them", a.Type)
	}
	if a.Explicit != nil && a.Type != "general" && a.Type != "position" && a.Type != "velocity" {
		v.add(p+".explicit", "given for a %s actuator; only general, position and velocity take it", a.Type)
	}
	if a.Effort != nil {
		v.positive(p+".effort", *a.Effort)
	}
	if r := a.CtrlRange; r != nil && finite(r[0]) && finite(r[1]) && r[0] > r[1] {
		v.add(p+".ctrl_range", "%s: lower bound above upper bound", fvec(r[:]))
	}
	if a.Target != nil {
		v.target(p+".target", a.Target)
	}
}

// target checks a Target: exactly one form, a table with increasing times,
// a non-negative frequency.
func (v *validator) target(p string, t *Target) {
	n := 0
	for _, g := range []bool{t.Constant != nil, t.Table != nil, t.Sine != nil} {
		if g {
			n++
		}
	}
	if n != 1 {
		v.add(p, "give exactly one of constant, table, sine (%d given)", n)
		return
	}
	if t.Table != nil {
		if len(t.Table) == 0 {
			v.add(p+".table", "empty; give at least one [t, value] row")
		}
		for k := 1; k < len(t.Table); k++ {
			if a, b := t.Table[k-1][0], t.Table[k][0]; finite(a) && finite(b) && !(b > a) {
				v.add(indexPath(p+".table", k), "time %s is not after the previous row's %s; times must increase", fnum(b), fnum(a))
				return
			}
		}
	}
	if t.Sine != nil {
		v.nonNegative(p+".sine.frequency", t.Sine.Frequency)
	}
}

// constraints checks the constraints list.
func (v *validator) constraints(s *Scene) {
	seen := map[string]int{}
	attached := map[int]int{}   // attached body → constraint index
	prescribed := map[int]int{} // prescribed body → constraint index
	for i := range s.Constraints {
		c := &s.Constraints[i]
		p := indexPath("constraints", i)
		v.listName(p, c.Name, seen, i)
		v.constraint(p, c, s.Bodies, i, attached, prescribed)
	}
	v.attachCycles(s, attached)
}

// constraint checks one constraint; attached and prescribed collect the
// bodies moved by attach and prescribed constraints.
func (v *validator) constraint(p string, c *Constraint, bodies []Body, i int, attached, prescribed map[int]int) {
	allowed, ok := constraintFields[c.Type]
	if !ok {
		if c.Type == "" && v.locs != nil && !v.locs.has(p+".type") {
			v.add(p+".type", "missing (required; one of %s)", strings.Join(constraintTypes, ", "))
		} else {
			v.add(p+".type", "%q must be one of %s", c.Type, strings.Join(constraintTypes, ", "))
		}
		return
	}
	given := c.given()
	for _, name := range []string{"bodies", "points", "frames", "length", "point", "joints", "dofs", "ratio", "offset", "stiffness", "rot_stiffness", "dissipation", "body", "motion", "solref", "solimp", "weight", "scale", "coefs"} {
		if given[name] && !slices.Contains(allowed, name) {
			v.add(p+"."+name, "not allowed for a %s (it takes %s)", c.Type, strings.Join(allowed, ", "))
		}
	}
	if c.Stiffness != nil {
		v.positive(p+".stiffness", *c.Stiffness)
	}
	if c.RotStiffness != nil {
		v.positive(p+".rot_stiffness", *c.RotStiffness)
	}
	if c.Dissipation != nil {
		v.nonNegative(p+".dissipation", *c.Dissipation)
	}
	if n := len(c.SolRef); n != 0 && n != 2 {
		v.add(p+".solref", "%d values; want 2 (timeconst, dampratio)", n)
	}
	if n := len(c.SolImp); n != 0 && (n != 5 || c.SolRef == nil) {
		v.add(p+".solimp", "%d values; want 5 (dmin, dmax, width, midpoint, power), with solref", n)
	}
	if c.SolRef != nil && (c.Stiffness != nil || c.Dissipation != nil) {
		v.add(p+".solref", "give either solref (MuJoCo's soft constraint) or stiffness and dissipation")
	}
	if c.Weight != nil {
		v.positive(p+".weight", *c.Weight)
	}
	if c.Scale != nil && c.Type != "weld" && (*c.Scale == 0 || math.IsNaN(*c.Scale) || math.IsInf(*c.Scale, 0)) {
		v.add(p+".scale", "%v: want a finite non-zero number", *c.Scale)
	}
	if c.Type == "weld" {
		v.softWeld(p, c)
	}
	switch c.Type {
	case "weld", "ball", "distance", "attach":
		v.bodyPair(p, c, bodies, i, attached, prescribed)
	case "coupler":
		v.coupler(p, c, bodies)
	case "prescribed":
		v.prescribed(p, c, bodies, i, attached, prescribed)
	}
}

// bodyPair checks the bodies, points and frames of a weld, ball, distance
// or attach constraint.
func (v *validator) bodyPair(p string, c *Constraint, bodies []Body, i int, attached, prescribed map[int]int) {
	if len(c.Bodies) != 2 {
		v.add(p+".bodies", "%d bodies given; a %s needs 2: [A, B]", len(c.Bodies), c.Type)
		return
	}
	a := v.bodyRef(indexPath(p+".bodies", 0), c.Bodies[0], bodies, true)
	b := v.bodyRef(indexPath(p+".bodies", 1), c.Bodies[1], bodies, c.Type != "attach")
	if a == -2 || b == -2 {
		return
	}
	if a == b || (a >= 0 && b >= 0 && bodies[a].Fixed && bodies[b].Fixed) || (a == -1 && b >= 0 && bodies[b].Fixed) || (b == -1 && a >= 0 && bodies[a].Fixed) {
		v.add(p+".bodies", "%s: a %s needs two different bodies, not both fixed", fstrs(c.Bodies), c.Type)
		return
	}
	if c.Points != nil && len(c.Points) != 2 {
		v.add(p+".points", "%d points given; give one body-frame point per body (2)", len(c.Points))
	}
	if c.Frames != nil {
		if len(c.Frames) != 2 {
			v.add(p+".frames", "%d frames given; give one body-frame pose per body (2)", len(c.Frames))
		}
		for k := range c.Frames {
			v.pose(indexPath(p+".frames", k), c.Frames[k])
		}
	}
	if c.Length != nil {
		v.positive(p+".length", *c.Length)
	}
	if c.Type != "attach" {
		return
	}
	if t, err := jointTypeOf(&bodies[b]); err == nil && (t != multibody.JointFree || bodies[b].Joint != nil) {
		v.add(indexPath(p+".bodies", 1), "%q is not a free body; attach moves a body without a joint block (it replaces its free joint)", c.Bodies[1])
		return
	}
	if j, dup := attached[b]; dup {
		v.add(indexPath(p+".bodies", 1), "%q is already attached by constraints[%d]; a body has one master", c.Bodies[1], j)
		return
	}
	if j, dup := prescribed[b]; dup {
		v.add(indexPath(p+".bodies", 1), "%q already follows a prescribed motion (constraints[%d])", c.Bodies[1], j)
		return
	}
	attached[b] = i
}

// coupler checks a joint coupler.
func (v *validator) coupler(p string, c *Constraint, bodies []Body) {
	if c.Coefs != nil {
		v.tendonCoupler(p, c, bodies)
		return
	}
	if len(c.Joints) != 2 {
		v.add(p+".joints", "%d joints given; a coupler needs 2: [i, j] for q_i = ratio·q_j + offset", len(c.Joints))
		return
	}
	if c.DOFs != nil && len(c.DOFs) != 2 {
		v.add(p+".dofs", "%d dofs given; give one per joint (2)", len(c.DOFs))
		return
	}
	var ks [2]int
	for k, name := range c.Joints {
		ks[k] = v.bodyRef(indexPath(p+".joints", k), name, bodies, false)
		if ks[k] >= 0 {
			dof := 0
			if c.DOFs != nil {
				dof = c.DOFs[k]
			}
			v.scalarDOF(indexPath(p+".joints", k), bodies, ks[k], dof, indexPath(p+".dofs", k))
		}
	}
	if ks[0] >= 0 && ks[0] == ks[1] && (c.DOFs == nil || c.DOFs[0] == c.DOFs[1]) {
		v.add(p+".joints", "%s couples a degree of freedom with itself", fstrs(c.Joints))
	}
}

// tendonCoupler checks a coupler given by coefficients: one per joint,
// finite, on scalar coordinates; no ratio or scale.
func (v *validator) tendonCoupler(p string, c *Constraint, bodies []Body) {
	if len(c.Joints) == 0 || len(c.Coefs) != len(c.Joints) {
		v.add(p+".coefs", "%d coefficients for %d joints; give one per joint", len(c.Coefs), len(c.Joints))
		return
	}
	if c.DOFs != nil && len(c.DOFs) != len(c.Joints) {
		v.add(p+".dofs", "%d dofs given; give one per joint (%d)", len(c.DOFs), len(c.Joints))
		return
	}
	if c.Ratio != nil || c.Scale != nil {
		v.add(p+".coefs", "a coupler with coefs takes no ratio or scale")
	}
	for k, name := range c.Joints {
		if x := c.Coefs[k]; math.IsNaN(x) || math.IsInf(x, 0) {
			v.add(indexPath(p+".coefs", k), "%v: want a finite number", x)
		}
		if b := v.bodyRef(indexPath(p+".joints", k), name, bodies, false); b >= 0 {
			dof := 0
			if c.DOFs != nil {
				dof = c.DOFs[k]
			}
			v.scalarDOF(indexPath(p+".joints", k), bodies, b, dof, indexPath(p+".dofs", k))
		}
	}
}

// prescribed checks a prescribed motion.
func (v *validator) prescribed(p string, c *Constraint, bodies []Body, i int, attached, prescribed map[int]int) {
	if c.Body == "" {
		v.add(p+".body", "missing (required: the body whose joint follows the motion)")
		return
	}
	k := v.bodyRef(p+".body", c.Body, bodies, false)
	if k < 0 {
		return
	}
	t, err := jointTypeOf(&bodies[k])
	if err != nil {
		return
	}
	want := len(c.DOFs)
	switch {
	case t == multibody.JointFree:
		if c.DOFs != nil {
			v.add(p+".dofs", "given for a free body; its motion is the position x, y, z of its origin (3 targets)")
		}
		want = 3
	case !scalarJoint(t):
		v.add(p+".body", "%q has a %s joint; prescribed motion moves revolute, prismatic, planar and universal joints and free bodies", c.Body, t)
		return
	case c.DOFs == nil:
		want = t.NV()
	default:
		for d, dof := range c.DOFs {
			if dof < 0 || dof >= t.NV() || slices.Index(c.DOFs, dof) != d {
				v.add(indexPath(p+".dofs", d), "%d is not a distinct degree of freedom of the %s joint of %q (it has %d)", dof, t, c.Body, t.NV())
				return
			}
		}
	}
	if len(c.Motion) != want {
		v.add(p+".motion", "%d targets given; give one per moved coordinate (%d)", len(c.Motion), want)
	}
	for d := range c.Motion {
		v.target(indexPath(p+".motion", d), &c.Motion[d])
	}
	if j, dup := prescribed[k]; dup {
		v.add(p+".body", "%q already follows constraints[%d]; give all of a joint's moved dofs in one prescribed constraint", c.Body, j)
		return
	}
	if j, dup := attached[k]; dup {
		v.add(p+".body", "%q is attached by constraints[%d] and cannot also be prescribed", c.Body, j)
		return
	}
	prescribed[k] = i
}

// attachCycles reports attachments that form a loop (A attached to B
// attached to A): the elimination needs a directed acyclic graph (notes
// §0.18).
func (v *validator) attachCycles(s *Scene, attached map[int]int) {
	master := func(b int) int {
		c := &s.Constraints[attached[b]]
		return slices.IndexFunc(s.Bodies, func(o Body) bool { return o.Name == c.Bodies[0] })
	}
	for ci := range s.Constraints {
		b, ok := attachedBy(attached, ci)
		if !ok {
			continue
		}
		seen := map[int]bool{b: true}
		for x := master(b); x >= 0; x = master(x) {
			if seen[x] {
				v.add(indexPath("constraints", ci)+".bodies", "%s: the attachments form a loop through %q; attachments must form a tree", fstrs(s.Constraints[ci].Bodies), s.Bodies[x].Name)
				return
			}
			seen[x] = true
			if _, ok := attached[x]; !ok {
				break
			}
		}
	}
}

// attachedBy returns the body that constraint ci attaches, if any.
func attachedBy(attached map[int]int, ci int) (int, bool) {
	for b, c := range attached {
		if c == ci {
			return b, true
		}
	}
	return 0, false
}

// fstrs formats a list of names.
func fstrs(s []string) string { return "[" + strings.Join(s, ", ") + "]" }

// intOr returns *p, or def when p is nil.
func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// softWeld checks the fields of MuJoCo's soft weld: rot_stiffness goes
// without solref, scale (its torquescale, finite, ≥ 0) and weight with it.
func (v *validator) softWeld(p string, c *Constraint) {
	if c.SolRef == nil {
		given := c.given()
		for _, name := range []string{"weight", "scale"} {
			if given[name] {
				v.add(p+"."+name, "given without solref; a weld takes %s with solref (MuJoCo's soft weld)", name)
			}
		}
		return
	}
	if c.RotStiffness != nil {
		v.add(p+".rot_stiffness", "give either solref (MuJoCo's soft weld) or stiffness, rot_stiffness and dissipation")
	}
	if c.Scale != nil && (!(*c.Scale >= 0) || math.IsInf(*c.Scale, 1)) {
		v.add(p+".scale", "%v: want a finite number ≥ 0 (MuJoCo's torquescale)", *c.Scale)
	}
}

// muscle checks a muscle's parameters (MuJoCo's rules, with its defaults
// for the missing ones).
func (v *validator) muscle(p string, mu *Muscle) {
	pm := muscleParams(mu)
	if mu == nil {
		return
	}
	if !(pm.TimeConst[0] > 0) || !(pm.TimeConst[1] > 0) {
		v.add(p+".time_const", "%s: need both > 0", fvec(pm.TimeConst[:]))
	}
	if !(pm.Range[0] < pm.Range[1]) {
		v.add(p+".range", "%s: need range[0] < range[1]", fvec(pm.Range[:]))
	}
	if !(pm.LMin < 1) || !(pm.LMax > 1) {
		v.add(p, "lmin %s, lmax %s: need lmin < 1 < lmax", fnum(pm.LMin), fnum(pm.LMax))
	}
	for _, x := range []struct {
		n string
		x float64
	}{{"scale", pm.Scale}, {"vmax", pm.VMax}, {"fpmax", pm.FPMax}, {"fvmax", pm.FVMax}} {
		v.positive(p+"."+x.n, x.x)
	}
	if !finite(pm.Force) || pm.Force == 0 {
		v.add(p+".force", "%s: give F0 > 0, or < 0 for scale / acc0", fnum(pm.Force))
	}
	if r := mu.LengthRange; r != nil && !(r[0] < r[1]) {
		v.add(p+".length_range", "%s: need lower < upper", fvec(r[:]))
	}
	if r := mu.ActRange; r != nil && (!allFinite(r[:]) || !(r[0] < r[1])) {
		v.add(p+".act_range", "%s: need finite lower < upper", fvec(r[:]))
	}
}

// dynamics checks a general actuator's activation dynamics.
func (v *validator) dynamics(p string, a *Actuator) {
	d := a.Dynamics
	if d == nil {
		return
	}
	if a.Type != "general" {
		v.add(p, "given for a %s actuator; only general takes it", a.Type)
	}
	switch d.Type {
	case "integrator":
		if d.TimeConst != nil {
			v.add(p+".time_const", "%s given for integrator dynamics; only filter takes it", fnum(*d.TimeConst))
		}
	case "filter":
		if d.TimeConst != nil {
			v.positive(p+".time_const", *d.TimeConst)
		}
	default:
		v.add(p+".type", "%q: want integrator or filter", d.Type)
	}
	if r := d.ActRange; r != nil && !(finite(r[0]) && finite(r[1]) && r[0] < r[1]) {
		v.add(p+".act_range", "%s: need finite lower < upper", fvec(r[:]))
	}
}

// stateful reports whether the actuator has an activation (a muscle, or
// a general actuator with dynamics).
func (a *Actuator) stateful() bool {
	return a.Type == "muscle" || (a.Type == "general" && a.Dynamics != nil)
}
