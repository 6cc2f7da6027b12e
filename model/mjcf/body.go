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
	} else if !fixed && (b.Joint == nil || b.Joint.Type != "weld") {
		return c.r.Errorf(e, "", "body %q moves but has no mass: give it an <inertial> or geoms with volume", name)
	}
	if err := c.sites(e, name, cls); err != nil {
		return err
	}
	for _, ch := range e.All("body") {
		if err := c.body(ch, idx, xw, cls); err != nil {
			return err
		}
	}
	return nil
}

// bodyJoint reads a body's joint (at most one) into scene body idx, whose
// pose in its parent is x. It reports whether the body is welded to the
// world.
func (c *compiler) bodyJoint(e *xmlutil.Element, idx, parent int, x spatial.Pose, cls string) (bool, error) {
	s := c.out.Scene
	b := &s.Bodies[idx]
	joints := append(e.All("joint"), e.All("freejoint")...)
	parentName := "world"
	parentFixed := true
	if parent >= 0 {
		parentName = s.Bodies[parent].Name
		parentFixed = c.out.Links[c.linkIndex(parent)].Welded
	}
	switch {
	case len(joints) > 1:
		return false, c.r.Errorf(joints[1], "", "body %q has %d joints; a body with several joints is not supported (split it into bodies with one joint each)", b.Name, len(joints))
	case len(joints) == 0 && parent < 0:
		b.Fixed, b.Pose = true, *model.PoseToScene(x)
		return true, nil
	case len(joints) == 0:
		b.Joint = &scene.Joint{Type: "weld", Parent: parentName, ParentFrame: model.PoseToScene(x)}
		return parentFixed, nil
	}
	j := joints[0]
	v, err := c.view(j, "joint", cls)
	if err != nil {
		return false, err
	}
	typ := "free"
	if j.Name == "joint" {
		if typ, err = c.keyword(v, "type", "hinge", "hinge", "slide", "ball", "free"); err != nil {
			return false, err
		}
	}
	jname := v.str("name", "")
	if j.Name == "freejoint" {
		jname, _ = j.Attr("name")
	}
	ref := &jointRef{name: jname, typ: typ, body: idx, e: j}
	c.jointList = append(c.jointList, ref)
	if jname != "" {
		if c.joints[jname] != nil {
			return false, c.r.Errorf(j, "name", "a second joint with this name")
		}
		c.joints[jname] = ref
	}
	if typ == "free" {
		if parent >= 0 {
			return false, c.r.Errorf(j, "", "a free joint is only allowed in a top-level body (a child of worldbody)")
		}
		b.Pose = *model.PoseToScene(x)
		if jname != "" {
			b.Joint = &scene.Joint{Type: "free", Name: jname}
		}
		return false, c.jointDynamics(v, b, typ)
	}
	pos, err := c.floats(v, "pos", 3, []float64{0, 0, 0})
	if err != nil {
		return false, err
	}
	anchor := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3(pos)}
	sj := &scene.Joint{Name: jname, Parent: parentName, ParentFrame: model.PoseToScene(x.Compose(anchor)), ChildFrame: model.PoseToScene(anchor)}
	switch typ {
	case "hinge", "slide":
		sj.Type = map[string]string{"hinge": "revolute", "slide": "prismatic"}[typ]
		ax, err := c.floats(v, "axis", 3, []float64{0, 0, 1})
		if err != nil {
			return false, err
		}
		if spatial.Vec3(ax).Norm() < 1e-12 {
			return false, c.r.Errorf(v.src("axis"), "axis", "the joint axis must be non-zero")
		}
		a := scene.Vec(ax)
		sj.Axis = &a
	case "ball":
		sj.Type = "ball"
	}
	b.Joint = sj
	if err := c.jointRange(v, sj, typ); err != nil {
		return false, err
	}
	return false, c.jointDynamics(v, b, typ)
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

// limitSoftness reads solreflimit and solimplimit (MuJoCo's defaults 0.02 1
// and 0.9 0.95 0.001 0.5 2; a three-value solimp keeps the default midpoint
// and power): the limit is MuJoCo's soft constraint while violated
// (constraint.Compliance).
func (c *compiler) limitSoftness(v view, l *scene.Limits) error {
	ref, err := c.floats(v, "solreflimit", 2, []float64{0.02, 1})
	if err != nil {
		return err
	}
	if (ref[0] > 0) != (ref[1] > 0) || ref[0] == 0 {
		return c.r.Errorf(v.src("solreflimit"), "solreflimit", "want (timeconst > 0, dampratio > 0) or (−stiffness < 0, −damping < 0)")
	}
	imp, err := c.floats(v, "solimplimit", -1, []float64{0.9, 0.95, 0.001, 0.5, 2})
	if err != nil {
		return err
	}
	if len(imp) == 3 {
		imp = append(imp, 0.5, 2)
	}
	if len(imp) != 5 || !(imp[0] > 0 && imp[0] < 1 && imp[1] > 0 && imp[1] < 1 && imp[2] >= 0 && imp[3] > 0 && imp[3] < 1 && imp[4] >= 1) {
		return c.r.Errorf(v.src("solimplimit"), "solimplimit", "want dmin, dmax in (0, 1), width ≥ 0[, midpoint in (0, 1), power ≥ 1]")
	}
	l.SolRef, l.SolImp = ref, imp
	return nil
}

// jointDynamics reads damping, stiffness, armature, frictionloss, ref and
// springref.
func (c *compiler) jointDynamics(v view, b *scene.Body, typ string) error {
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
		if vals[a] != 0 {
			c.r.Warnf(v.src(a), a, "a non-zero %s is not supported: q is measured from the model's pose, springs pull towards q = 0", a)
		}
	}
	fl := vals["frictionloss"]
	if fl > 0 {
		c.out.JointFriction = append(c.out.JointFriction, model.JointFriction{Body: b.Name, Value: fl, Source: model.Source{File: v.e.File, Line: v.e.Line}})
		if typ == "free" {
			c.r.Warnf(v.src("frictionloss"), "frictionloss", "joint friction on a free joint is not supported (ignored)")
			fl = 0
		}
	}
	if b.Joint == nil {
		if vals["damping"] > 0 || vals["stiffness"] > 0 || vals["armature"] > 0 {
			b.Joint = &scene.Joint{Type: "free"}
		} else {
			return nil
		}
	}
	if fl > 0 {
		b.Joint.Friction = &fl
	}
	if err := c.jointEffort(v, b.Joint, typ); err != nil {
		return err
	}
	if d := vals["damping"]; d > 0 {
		b.Joint.Damping = &d
	}
	if k := vals["stiffness"]; k > 0 {
		if typ == "free" || typ == "ball" {
			c.r.Warnf(v.src("stiffness"), "stiffness", "stiffness on a %s joint is not supported (ignored)", typ)
		} else {
			b.Joint.Stiffness = &k
		}
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
// inertiafromgeom) the union of its geoms' in the inertia group range.
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
			I = spatial.Mat3{{f[0], f[3], f[4]}, {f[3], f[1], f[5]}, {f[4], f[5], f[2]}}
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
	}
	if c.boundMass > 0 && link.Mass > 0 && link.Mass < c.boundMass {
		link.Mass = c.boundMass
	}
	if c.boundInertia > 0 && link.Mass > 0 {
		for i := range 3 {
			link.Inertia[i][i] = math.Max(link.Inertia[i][i], c.boundInertia)
		}
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
		c.out.Sites = append(c.out.Sites, model.Site{Name: name, Body: body, Pose: x})
	}
	return nil
}
