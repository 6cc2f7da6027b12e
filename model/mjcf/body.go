package mjcf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// worldName is the scene body that carries the geoms of <worldbody>.
const worldName = "worldbody"

// worldbody reads the world body's geoms and sites and its tree of bodies.
func (c *compiler) worldbody(w *xmlutil.Element) error {
	cls, _ := w.Attr("childclass")
	if len(w.All("geom")) > 0 || len(w.All("site")) > 0 {
		idx := c.worldBodyIndex()
		b := &c.out.Scene.Bodies[idx]
		if _, err := c.geoms(w, idx, b, cls, true); err != nil {
			return err
		}
		if err := c.sites(w, worldName, cls); err != nil {
			return err
		}
	}
	for _, e := range w.All("body") {
		if err := c.body(e, -1, spatial.PoseIdentity(), cls); err != nil {
			return err
		}
	}
	return nil
}

// worldBodyIndex returns the fixed scene body of the world's own geoms,
// adding it on first use.
func (c *compiler) worldBodyIndex() int {
	if i, ok := c.bodies[worldName]; ok {
		return i
	}
	s := c.out.Scene
	s.Bodies = append(s.Bodies, scene.Body{Name: worldName, Fixed: true})
	c.bodyMass = append(c.bodyMass, 0)
	c.bodyPose = append(c.bodyPose, spatial.PoseIdentity())
	c.out.Links = append(c.out.Links, model.Link{Name: worldName, Welded: true})
	c.bodies[worldName] = len(s.Bodies) - 1
	return len(s.Bodies) - 1
}

// body reads a <body> whose parent is scene body parent (−1: the world),
// at world pose xp, with the childclass cls in force.
func (c *compiler) body(e *xmlutil.Element, parent int, xp spatial.Pose, cls string) error {
	name, err := c.bodyName(e)
	if err != nil {
		return err
	}
	if cc, ok := e.Attr("childclass"); ok {
		if c.classes[cc] == nil {
			return c.r.Errorf(e, "childclass", "no default class of this name")
		}
		cls = cc
	}
	for _, a := range []string{"mocap", "gravcomp"} {
		if e.Has(a) {
			c.r.Warnf(e, a, "not supported (ignored)")
			e.Attr(a)
		}
	}
	x, err := c.pose(view{e: e})
	if err != nil {
		return err
	}
	s := c.out.Scene
	idx := len(s.Bodies)
	s.Bodies = append(s.Bodies, scene.Body{Name: name})
	c.bodies[name] = idx
	xw := xp.Compose(x)
	c.bodyPose = append(c.bodyPose, xw)
	c.bodyMass = append(c.bodyMass, 0)
	fixed, err := c.bodyJoint(e, idx, parent, x, cls)
	if err != nil {
		return err
	}
	b := &s.Bodies[idx]
	parts, err := c.geoms(e, idx, b, cls, fixed)
	if err != nil {
		return err
	}
	link, err := c.massProps(e, name, parts)
	if err != nil {
		return err
	}
	link.Welded = fixed
	c.out.Links = append(c.out.Links, link)
	c.bodyMass[idx] = link.Mass
	b = &s.Bodies[idx]
	if !fixed && link.Mass > 0 {
		m := link.Mass
		b.Mass = &m
		com := scene.Vec(link.COM) // explicit, even at the origin: the shapes do not move it
		b.COM = &com
		b.Inertia = model.MatrixInertia(link.Inertia)
	}
	massless := !fixed && link.Mass <= 0 && (b.Joint == nil || b.Joint.Type != "weld")
	if err := c.sites(e, name, cls); err != nil {
		return err
	}
	for _, ch := range e.All("body") {
		if err := c.body(ch, idx, xw, cls); err != nil {
			return err
		}
	}
	// A moving body without mass of its own is accepted, as in MuJoCo,
	// when bodies welded to it carry mass: they move with it (MuJoCo's
	// tumbling_thin_object: a free body whose geoms are in welded
	// children). Our moving bodies need mass, so the welded bodies' mass
	// properties are moved onto it: the tree's inertia, and so the motion,
	// is the same; the welded bodies become massless frames.
	if massless {
		parts := c.takeWeldedMass(idx, c.bodyPose[idx].Inverse())
		m, com, I := compose(parts)
		if !(m > 0) {
			return c.masslessError(e, name)
		}
		b := &s.Bodies[idx]
		cv := scene.Vec(com)
		b.Mass, b.COM, b.Inertia = &m, &cv, model.MatrixInertia(I)
		c.fluidBox(name, 0, spatial.Vec3{}, spatial.Mat3{})
	}
	return nil
}

// takeWeldedMass returns the mass properties of the bodies welded to
// scene body idx (children without joints, recursively) in the frame of
// the world pose inv⁻¹, and removes them from those bodies.
func (c *compiler) takeWeldedMass(idx int, inv spatial.Pose) []massPart {
	s := c.out.Scene
	var parts []massPart
	for k := idx + 1; k < len(s.Bodies); k++ {
		b := &s.Bodies[k]
		if b.Joint == nil || b.Joint.Type != "weld" || b.Joint.Parent != s.Bodies[idx].Name {
			continue
		}
		if l := c.out.Links[c.linkIndex(k)]; l.Mass > 0 {
			x := inv.Compose(c.bodyPose[k])
			R := x.R.RotMat()
			parts = append(parts, massPart{m: l.Mass, c: x.Apply(l.COM), I: R.Mul(l.Inertia).Mul(R.T())})
			c.fluidBox(b.Name, l.Mass, l.COM, l.Inertia)
		}
		b.Mass, b.COM, b.Inertia = nil, nil, nil
		parts = append(parts, c.takeWeldedMass(k, inv)...)
	}
	return parts
}

// bodyJoint reads a body's joints into scene body idx, whose pose in its
// parent is x: none (welded), one (its own scene joint), or several, which
// become one compound joint whose parts apply in the file's order, as
// MuJoCo composes them. It reports whether the body is welded to the
// world.
func (c *compiler) bodyJoint(e *xmlutil.Element, idx, parent int, x spatial.Pose, cls string) (bool, error) {
	s := c.out.Scene
	b := &s.Bodies[idx]
	joints := e.ChildrenNamed("joint", "freejoint")
	parentName := "world"
	parentFixed := true
	if parent >= 0 {
		parentName = s.Bodies[parent].Name
		parentFixed = c.out.Links[c.linkIndex(parent)].Welded
	}
	switch {
	case len(joints) == 0 && parent < 0:
		b.Fixed, b.Pose = true, *model.PoseToScene(x)
		return true, nil
	case len(joints) == 0:
		b.Joint = &scene.Joint{Type: "weld", Parent: parentName, ParentFrame: model.PoseToScene(x)}
		return parentFixed, nil
	}
	parts := make([]mjJoint, len(joints))
	dof := 0
	for i, j := range joints {
		mj, err := c.readJoint(j, idx, cls)
		if err != nil {
			return false, err
		}
		if mj.typ == "free" && len(joints) > 1 {
			return false, c.r.Errorf(j, "", "a free joint cannot be combined with other joints in body %q", b.Name)
		}
		mj.ref.dof = dof
		dof += map[string]int{"hinge": 1, "slide": 1, "ball": 3, "free": 6}[mj.typ]
		parts[i] = mj
	}
	if parts[0].typ == "free" {
		if parent >= 0 {
			return false, c.r.Errorf(joints[0], "", "a free joint is only allowed in a top-level body (a child of worldbody)")
		}
		b.Pose = *model.PoseToScene(x)
		if parts[0].ref.name != "" {
			b.Joint = &scene.Joint{Type: "free", Name: parts[0].ref.name}
		}
		return false, c.jointDynamics(parts[0].v, b, "free")
	}
	if len(parts) == 1 {
		return false, c.singleJoint(parts[0], b, parentName, x)
	}
	if err := c.independentParts(b.Name, parts); err != nil {
		return false, err
	}
	sj := &scene.Joint{Type: "compound", Parent: parentName, ParentFrame: model.PoseToScene(x), ChildFrame: model.PoseToScene(spatial.PoseIdentity())}
	for _, mj := range parts {
		sj.Parts = append(sj.Parts, mj.part)
		if mj.friction > 0 {
			c.out.JointFriction = append(c.out.JointFriction, model.JointFriction{Body: b.Name, Value: mj.friction, Source: model.Source{File: mj.v.e.File, Line: mj.v.e.Line}})
		}
		if mj.effort != nil {
			c.r.Warnf(mj.v.src("actuatorfrcrange"), "actuatorfrcrange", "an effort limit on one of several joints of a body is not supported (ignored): bound the actuator's forcerange")
		}
	}
	b.Joint = sj
	return false, nil
}

// mjJoint is one <joint> or <freejoint> as read: its reference for
// keyframes, actuators and equalities, the view through its class, and
// its data as a compound joint's part.
type mjJoint struct {
	ref      *jointRef
	v        view
	typ      string // hinge, slide, ball, free
	part     scene.JointPart
	friction float64
	effort   *float64
}

// readJoint reads one joint element of scene body idx and registers its
// name.
func (c *compiler) readJoint(j *xmlutil.Element, idx int, cls string) (mjJoint, error) {
	var mj mjJoint
	var err error
	if j.Name == "freejoint" {
		// MuJoCo's <freejoint> has no class: no damping or armature from defaults.
		mj.v, mj.typ = view{e: j}, "free"
	} else {
		if mj.v, err = c.view(j, "joint", cls); err != nil {
			return mj, err
		}
		if mj.typ, err = c.keyword(mj.v, "type", "hinge", "hinge", "slide", "ball", "free"); err != nil {
			return mj, err
		}
	}
	jname := mj.v.str("name", "")
	if j.Name == "freejoint" {
		jname, _ = j.Attr("name")
	}
	mj.ref = &jointRef{name: jname, typ: mj.typ, body: idx, e: j}
	c.jointList = append(c.jointList, mj.ref)
	if jname != "" {
		if c.joints[jname] != nil {
			return mj, c.r.Errorf(j, "name", "a second joint with this name")
		}
		c.joints[jname] = mj.ref
	}
	if mj.typ == "free" {
		return mj, nil
	}
	return mj, c.jointPart(&mj)
}

// jointPart reads a hinge, slide or ball joint's pos, axis, ref,
// springref, damping, stiffness, armature, frictionloss, range and
// actuatorfrcrange into mj.part (angles per <compiler angle>).
func (c *compiler) jointPart(mj *mjJoint) error {
	v := mj.v
	p := &mj.part
	p.Name = mj.ref.name
	p.Type = map[string]string{"hinge": "revolute", "slide": "prismatic", "ball": "ball"}[mj.typ]
	pos, err := c.floats(v, "pos", 3, []float64{0, 0, 0})
	if err != nil {
		return err
	}
	pv := scene.Vec(pos)
	p.Pos = &pv
	if mj.typ != "ball" {
		ax, err := c.floats(v, "axis", 3, []float64{0, 0, 1})
		if err != nil {
			return err
		}
		if spatial.Vec3(ax).Norm() < 1e-12 {
			return c.r.Errorf(v.src("axis"), "axis", "the joint axis must be non-zero")
		}
		a := scene.Vec(ax)
		p.Axis = &a
	}
	vals := map[string]float64{}
	for _, a := range []string{"damping", "stiffness", "armature", "frictionloss", "ref", "springref"} {
		x, err := c.float(v, a, 0)
		if err != nil {
			return err
		}
		if x < 0 && a != "ref" && a != "springref" {
			return c.r.Errorf(v.src(a), a, "must be ≥ 0")
		}
		vals[a] = x
	}
	for _, a := range []string{"ref", "springref"} {
		x := vals[a]
		if mj.typ == "hinge" {
			x = c.angle(x) // MuJoCo converts a hinge's ref and springref with <compiler angle>
		}
		switch {
		case x != 0 && mj.typ == "ball":
			c.r.Warnf(v.src(a), a, "%s on a ball joint is not supported (ignored)", a)
		case x != 0 && a == "ref":
			p.Ref = model.Ptr(x)
			mj.ref.ref = x
		case x != 0:
			p.SpringRef = model.Ptr(x)
			mj.ref.springref = x
		}
	}
	for _, a := range []struct {
		n string
		p **float64
	}{{"damping", &p.Damping}, {"stiffness", &p.Stiffness}, {"armature", &p.Armature}} {
		if x := vals[a.n]; x > 0 {
			*a.p = model.Ptr(x)
		}
	}
	if fl := vals["frictionloss"]; fl > 0 {
		p.Friction, mj.friction = model.Ptr(fl), fl
		if p.FrictionSolRef, p.FrictionSolImp, err = c.frictionSoftness(v); err != nil {
			return err
		}
	}
	var lim scene.Joint
	if err := c.jointRange(v, &lim, mj.typ); err != nil {
		return err
	}
	if err := c.jointMargin(v, lim.Limits); err != nil {
		return err
	}
	p.Limits = lim.Limits
	if err := c.jointEffort(v, &lim, mj.typ); err != nil {
		return err
	}
	if lim.Limits != nil && lim.Limits.Effort != nil {
		mj.effort = lim.Limits.Effort
	}
	return nil
}

// singleJoint writes a body's only hinge, slide or ball joint as its scene
// joint: frames F and M at the joint's pos, so the axis passes through it.
func (c *compiler) singleJoint(mj mjJoint, b *scene.Body, parentName string, x spatial.Pose) error {
	p := mj.part
	anchor := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3(*p.Pos)}
	sj := &scene.Joint{Name: p.Name, Type: p.Type, Parent: parentName, ParentFrame: model.PoseToScene(x.Compose(anchor)), ChildFrame: model.PoseToScene(anchor),
		Axis: p.Axis, Ref: p.Ref, Damping: p.Damping, Stiffness: p.Stiffness, Armature: p.Armature, Friction: p.Friction, FrictionSolRef: p.FrictionSolRef, FrictionSolImp: p.FrictionSolImp, Limits: p.Limits}
	if p.SpringRef != nil {
		sj.SpringRef = []float64{*p.SpringRef}
	}
	if mj.effort != nil {
		if sj.Limits == nil {
			sj.Limits = &scene.Limits{}
		}
		sj.Limits.Effort = mj.effort
	}
	if mj.friction > 0 {
		c.out.JointFriction = append(c.out.JointFriction, model.JointFriction{Body: b.Name, Value: mj.friction, Source: model.Source{File: mj.v.e.File, Line: mj.v.e.Line}})
	}
	b.Joint = sj
	return nil
}

// linkIndex returns the index in out.Links of scene body idx (they are
// appended in the same order, the world body's entry included).
func (c *compiler) linkIndex(idx int) int { return idx }

// jointRange reads range and limited.
func (c *compiler) jointRange(v view, sj *scene.Joint, typ string) error {
	if !v.has("range") {
		return nil
	}
	r, err := c.floats(v, "range", 2, nil)
	if err != nil {
		return err
	}
	limited := c.autolimits
	if v.has("limited") {
		l, err := c.keyword(v, "limited", "auto", "true", "false", "auto")
		if err != nil {
			return err
		}
		if l != "auto" {
			limited = l == "true"
		}
	} else if !c.autolimits {
		c.r.Warnf(v.src("range"), "range", "range ignored: limited is not set and autolimits is false")
	}
	if !limited {
		return nil
	}
	if r[0] > r[1] {
		return c.r.Errorf(v.src("range"), "range", "lower limit above the upper limit")
	}
	if typ == "ball" { // MuJoCo: range = (0, largest rotation angle)
		if r[0] != 0 {
			c.r.Warnf(v.src("range"), "range", "a ball joint's range lower value %g is ignored (MuJoCo uses only the upper: the largest rotation angle)", r[0])
		}
		cone := c.angle(r[1])
		if !(cone > 0) || cone > math.Pi {
			return c.r.Errorf(v.src("range"), "range", "a ball joint's largest rotation angle %g must be in (0, π] rad", cone)
		}
		sj.Limits = &scene.Limits{Cone: &cone}
		return c.limitSoftness(v, sj.Limits)
	}
	if typ == "hinge" {
		r[0], r[1] = c.angle(r[0]), c.angle(r[1])
	}
	sj.Limits = &scene.Limits{Lower: []float64{r[0]}, Upper: []float64{r[1]}}
	return c.limitSoftness(v, sj.Limits)
}

// jointMargin reads a limited joint's margin into l (scene.Limits.Margin):
// MuJoCo 2.2.2 makes a limit row when the distance to the bound is below
// it and measures the row from it (mj_instantiateLimit). As in MuJoCo's
// compiler, a hinge's margin is in radians whatever <compiler angle> says
// (mjCJoint::Compile converts only range). On a joint without limits it has
// no effect, as in MuJoCo.
func (c *compiler) jointMargin(v view, l *scene.Limits) error {
	m, err := c.float(v, "margin", 0)
	if err != nil {
		return err
	}
	if l != nil && m != 0 {
		l.Margin = model.Ptr(m)
	}
	return nil
}

// limitSoftness reads solreflimit and solimplimit (MuJoCo's defaults 0.02 1
// and 0.9 0.95 0.001 0.5 2; solimp as c.solimp reads it): the limit is MuJoCo's soft constraint while violated
// (constraint.Compliance).
func (c *compiler) limitSoftness(v view, l *scene.Limits) error {
	ref, err := c.floats(v, "solreflimit", 2, []float64{0.02, 1})
	if err != nil {
		return err
	}
	if (ref[0] > 0) != (ref[1] > 0) || ref[0] == 0 {
		return c.r.Errorf(v.src("solreflimit"), "solreflimit", "want (timeconst > 0, dampratio > 0) or (−stiffness < 0, −damping < 0)")
	}
	imp, err := c.solimp(v, "solimplimit")
	if err != nil {
		return err
	}
	l.SolRef, l.SolImp = ref, imp
	return nil
}

// frictionSoftness reads solreffriction and solimpfriction (MuJoCo's
// defaults 0.02 1 and 0.9 0.95 0.001 0.5 2): the joint's frictionloss is
// MuJoCo's soft constraint (constraint.JointFriction), which creeps under
// a load below it as MuJoCo's does.
func (c *compiler) frictionSoftness(v view) ([]float64, []float64, error) {
	ref, err := c.floats(v, "solreffriction", 2, []float64{0.02, 1})
	if err != nil {
		return nil, nil, err
	}
	if (ref[0] > 0) != (ref[1] > 0) || ref[0] == 0 {
		return nil, nil, c.r.Errorf(v.src("solreffriction"), "solreffriction", "want (timeconst > 0, dampratio > 0) or (−stiffness < 0, −damping < 0)")
	}
	imp, err := c.solimp(v, "solimpfriction")
	if err != nil {
		return nil, nil, err
	}
	return ref, imp, nil
}

// jointDynamics reads a free joint's damping and armature (stiffness and
// frictionloss are not supported on it).
func (c *compiler) jointDynamics(v view, b *scene.Body, typ string) error {
	vals := map[string]float64{}
	for _, a := range []string{"damping", "stiffness", "armature", "frictionloss"} {
		x, err := c.float(v, a, 0)
		if err != nil {
			return err
		}
		if x < 0 {
			return c.r.Errorf(v.src(a), a, "must be ≥ 0")
		}
		vals[a] = x
	}
	for _, a := range []string{"frictionloss", "stiffness"} {
		if vals[a] > 0 {
			c.r.Warnf(v.src(a), a, "%s on a free joint is not supported (ignored)", a)
		}
	}
	if vals["damping"] == 0 && vals["armature"] == 0 {
		return nil
	}
	if b.Joint == nil {
		b.Joint = &scene.Joint{Type: "free"}
	}
	if d := vals["damping"]; d > 0 {
		b.Joint.Damping = &d
	}
	if a := vals["armature"]; a > 0 {
		b.Joint.Armature = &a
	}
	return nil
}

// jointEffort reads actuatorfrcrange (with actuatorfrclimited): the bound
// on the joint torque of the joint's actuators, limits.effort.
func (c *compiler) jointEffort(v view, sj *scene.Joint, typ string) error {
	lim, err := c.limited(v, "actuatorfrclimited", "actuatorfrcrange")
	if err != nil || !lim {
		return err
	}
	r, err := c.floats(v, "actuatorfrcrange", 2, nil)
	if err != nil {
		return err
	}
	if r[0] > r[1] {
		return c.r.Errorf(v.src("actuatorfrcrange"), "actuatorfrcrange", "lower bound above the upper bound")
	}
	if typ == "free" || typ == "ball" {
		c.r.Warnf(v.src("actuatorfrcrange"), "actuatorfrcrange", "an effort limit on a %s joint is not supported (ignored)", typ)
		return nil
	}
	eff := math.Max(math.Abs(r[0]), math.Abs(r[1]))
	if r[0] != -r[1] {
		c.r.Warnf(v.src("actuatorfrcrange"), "actuatorfrcrange", "actuatorfrcrange [%g, %g] is not symmetric: approximated by ±%g", r[0], r[1], eff)
	}
	if sj.Limits == nil {
		sj.Limits = &scene.Limits{}
	}
	sj.Limits.Effort = &eff
	return nil
}

// massProps returns a body's mass properties: its <inertial>, or (per
// inertiafromgeom) the union of its geoms' in the inertia group range,
// with compiler boundmass and boundinertia applied (mass.go).
func (c *compiler) massProps(e *xmlutil.Element, name string, parts []massPart) (model.Link, error) {
	link := model.Link{Name: name}
	in := e.Child("inertial")
	useGeoms := c.inertiaFromGeom == "true" || (c.inertiaFromGeom == "auto" && in == nil)
	if in != nil && !useGeoms {
		v := view{e: in}
		x, err := c.pose(v)
		if err != nil {
			return link, err
		}
		if !in.Has("mass") {
			return link, c.r.Errorf(in, "mass", "missing (required)")
		}
		if link.Mass, err = c.r.Float(in, "mass", 0); err != nil {
			return link, err
		}
		if link.Mass < 0 {
			return link, c.r.Errorf(in, "mass", "must be ≥ 0")
		}
		var I spatial.Mat3
		switch {
		case in.Has("diaginertia") && in.Has("fullinertia"):
			return link, c.r.Errorf(in, "fullinertia", "diaginertia and fullinertia given together")
		case in.Has("diaginertia"):
			d, _, err := c.r.Floats(in, "diaginertia", 3)
			if err != nil {
				return link, err
			}
			I = spatial.Diag3(spatial.Vec3(d))
		case in.Has("fullinertia"):
			f, _, err := c.r.Floats(in, "fullinertia", 6)
			if err != nil {
				return link, err
			}
			I = fullInertia(f)
		default:
			return link, c.r.Errorf(in, "", "<inertial> needs diaginertia or fullinertia")
		}
		if msg := model.CheckInertia(I, link.Mass); msg != "" {
			return link, c.r.Errorf(in, "", "%s", msg)
		}
		link.COM, link.Inertia = x.P, spatial.RotateInertia(x.R.RotMat(), I)
	} else if useGeoms {
		if in != nil {
			in.MarkAllUsed()
		}
		link.Mass, link.COM, link.Inertia = compose(parts)
		if len(parts) > 1 && link.Mass > 0 {
			// MuJoCo stores the sum of several geoms' inertias by its
			// principal axes (mjCBody::GeomFrame, user_objects.cc): one
			// geom's is copied as it is.
			link.Inertia = mjPrincipal(link.Inertia)
		}
	}
	if c.boundMass > 0 && link.Mass < c.boundMass { // every body, massless ones too (MuJoCo)
		link.Mass = c.boundMass
	}
	if c.boundInertia > 0 {
		link.Inertia = boundPrincipal(link.Inertia, c.boundInertia)
	}
	return link, nil
}

// sites reads the <site>s of a body as named frames.
func (c *compiler) sites(e *xmlutil.Element, body, cls string) error {
	for _, s := range e.All("site") {
		v, err := c.view(s, "site", cls)
		if err != nil {
			return err
		}
		x, err := c.pose(v)
		if err != nil {
			return err
		}
		name := v.str("name", "")
		if name == "" {
			name = fmt.Sprintf("%s_site%d", body, len(c.out.Sites))
		}
		typ, err := c.keyword(v, "type", "sphere", "sphere", "capsule", "ellipsoid", "cylinder", "box")
		if err != nil {
			return err
		}
		size, err := c.floats(v, "size", -1, nil)
		if err != nil {
			return err
		}
		sz := [3]float64{0.005, 0.005, 0.005}
		copy(sz[:], size)
		c.out.Sites = append(c.out.Sites, model.Site{Name: name, Body: body, Pose: x, Type: typ, Size: sz})
	}
	return nil
}

// fluidBox keeps MuJoCo's fluid box of a body whose mass takeWeldedMass
// moved (the welded child's own mass; none for the massless parent): the
// fluid acts on each MuJoCo body's own box (forces.Fluid.SetBox). A child
// whose inertia is not positive definite keeps none (the scene's inertia
// needs positive moments).
func (c *compiler) fluidBox(body string, m float64, com spatial.Vec3, I spatial.Mat3) {
	f := c.out.Scene.Fluid
	if f == nil {
		return
	}
	fb := scene.FluidBox{Body: body, Mass: m}
	if m > 0 {
		if ev, _ := spatial.EigSym3(I); !(ev[0] > 0 && ev[1] > 0 && ev[2] > 0) {
			return
		}
		cv := scene.Vec(com)
		fb.COM, fb.Inertia = &cv, model.MatrixInertia(I)
	}
	f.Boxes = append(f.Boxes, fb)
}

// fullInertia is the inertia of an <inertial fullinertia="ixx iyy izz ixy
// ixz iyz">, as MuJoCo 2.2.2 compiles it (mjCAlternative::Set,
// user_objects.cc): diagonalized by its Jacobi iteration (mju_eig3) and
// rebuilt as R diag(λ) Rᵀ from the eigenvalues λ and the rotation R of
// the quaternion it stores as the body's iquat. MuJoCo's iteration stops
// at off-diagonal entries below 1e-12, so its inertia differs from the
// given matrix by up to that much: for Menagerie's Panda (link1) 9e-8
// relative.
func fullInertia(f []float64) spatial.Mat3 {
	return mjPrincipal(spatial.Mat3{{f[0], f[3], f[4]}, {f[3], f[1], f[5]}, {f[4], f[5], f[2]}})
}

// mjPrincipal is the symmetric inertia I as MuJoCo 2.2.2 stores it once
// diagonalized (mjCAlternative::Set): R diag(λ) Rᵀ from mju_eig3's
// eigenvalues λ and the rotation R of its quaternion, without the
// off-diagonal entries below 1e-12 where its Jacobi iteration stops.
func mjPrincipal(in spatial.Mat3) spatial.Mat3 {
	ev, q := mjEig3([9]float64{in[0][0], in[0][1], in[0][2], in[1][0], in[1][1], in[1][2], in[2][0], in[2][1], in[2][2]})
	R := quat2Mat(normalize4(q))
	var I spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				I[i][j] += R[3*i+k] * ev[k] * R[3*j+k]
			}
		}
	}
	return I
}

// masslessError is the error for a moving body e without mass.
func (c *compiler) masslessError(e *xmlutil.Element, name string) error {
	return c.r.Errorf(e, "", "body %q moves but has no mass: give it an <inertial> or geoms with volume (or welded child bodies with mass)", name)
}
