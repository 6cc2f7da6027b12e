package sdf

import (
	"fmt"
	"math"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

var jointTypes = []string{"revolute", "continuous", "prismatic", "fixed", "ball", "universal"}

// linkRef returns the link a joint names as parent or child ("world" gives
// nil), scoped within the model.
func (c *ctx) linkRef(j *xmlutil.Element, tag string) (*link, string, error) {
	e := j.Child(tag)
	if e == nil {
		return nil, "", c.r.Errorf(j, "", "<joint> without <%s>", tag)
	}
	name := e.TrimText()
	if name == "world" && tag == "parent" {
		return nil, name, nil
	}
	l := c.im.links[scoped(c.scope, name)]
	if l == nil {
		return nil, name, c.r.TextErrorf(e, "no link of this name in model %q", c.name)
	}
	return l, name, nil
}

// joint reads a <joint> into its child link's body.
func (c *ctx) joint(e *xmlutil.Element) error {
	name, _ := e.Attr("name")
	typ, err := c.r.Keyword(e, "type", "", append(jointTypes, "revolute2", "screw", "gearbox")...)
	if err != nil {
		return err
	}
	switch typ {
	case "":
		return c.r.Errorf(e, "type", "missing (required)")
	case "revolute2", "screw", "gearbox":
		return c.r.Errorf(e, "type", "%s joints are not supported", typ)
	}
	parent, pname, err := c.linkRef(e, "parent")
	if err != nil {
		return err
	}
	child, cname, err := c.linkRef(e, "child")
	if err != nil {
		return err
	}
	if parent == child {
		return c.r.Errorf(e.Child("child"), "", "a joint cannot connect a link to itself")
	}
	if child.joint {
		return c.r.Errorf(e.Child("child"), "", "link %q already has a parent joint", child.body.Name)
	}
	child.joint = true
	xmj, err := c.resolve(name, e, "name")
	if err != nil {
		return err
	}
	xwj := c.xwm.Compose(xmj)
	xwp := spatial.PoseIdentity()
	if parent != nil {
		xwp = parent.xw
	}
	full := scoped(c.scope, name)
	sj := &scene.Joint{Name: full, Parent: "world"}
	if parent != nil {
		sj.Parent = parent.body.Name
	}
	_ = pname
	_ = cname
	pf, cf := xwp.Inverse().Compose(xwj), child.xw.Inverse().Compose(xwj)
	switch typ {
	case "fixed":
		sj.Type = "weld"
	case "ball":
		sj.Type = "ball"
	case "revolute", "continuous", "prismatic":
		sj.Type = map[string]string{"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic"}[typ]
		ax, err := c.axis(e, "axis", xwj)
		if err != nil {
			return err
		}
		a := scene.Vec(ax)
		sj.Axis = &a
		if err := c.axisData(e.Child("axis"), sj, typ != "continuous", child.body.Name); err != nil {
			return err
		}
	case "universal":
		sj.Type = "universal"
		a1, err := c.axis(e, "axis", xwj)
		if err != nil {
			return err
		}
		a2, err := c.axis(e, "axis2", xwj)
		if err != nil {
			return err
		}
		if math.Abs(a1.Dot(a2)) > 1e-9 {
			return c.r.Errorf(e.Child("axis2"), "", "a universal joint's two axes must be perpendicular (cos = %g)", a1.Dot(a2))
		}
		R := frameFrom(a1, a2)
		pf, cf = pf.Compose(spatial.Pose{R: R}), cf.Compose(spatial.Pose{R: R})
		if err := c.axisData(e.Child("axis"), sj, false, child.body.Name); err != nil {
			return err
		}
	}
	sj.ParentFrame, sj.ChildFrame = model.PoseToScene(pf), model.PoseToScene(cf)
	refl, err := c.drakeJoint(e, full, child.body.Name)
	if err != nil {
		return err
	}
	if refl > 0 {
		sj.Armature = &refl
	}
	if typ == "revolute" || typ == "continuous" || typ == "prismatic" {
		c.actuator(sj, full, child.body.Name)
	}
	if p := e.Child("physics"); p != nil {
		c.r.Warnf(p, "", "joint <physics> not supported (ignored)")
	}
	child.body.Joint = sj
	return nil
}

// axis reads <axis><xyz expressed_in> (or axis2) as a unit vector in the
// joint frame (world pose xwj).
func (c *ctx) axis(e *xmlutil.Element, tag string, xwj spatial.Pose) (spatial.Vec3, error) {
	a := e.Child(tag)
	if a == nil {
		return spatial.Vec3{}, c.r.Errorf(e, "", "<joint type=%q> without <%s>", strings.TrimSpace(attr(e, "type")), tag)
	}
	xyz := a.Child("xyz")
	if xyz == nil {
		return spatial.Vec3{}, c.r.Errorf(a, "", "<%s> without <xyz>", tag)
	}
	v, err := c.r.TextFloats(xyz, 3)
	if err != nil {
		return spatial.Vec3{}, err
	}
	u, n := spatial.Vec3(v).Normalize()
	if n < 1e-12 {
		return spatial.Vec3{}, c.r.TextErrorf(xyz, "the axis must be non-zero")
	}
	if _, ok := a.Attr("use_parent_model_frame"); ok {
		return spatial.Vec3{}, c.r.Errorf(a, "use_parent_model_frame", "SDFormat 1.4/1.5 axis frames are not supported: use <xyz expressed_in>")
	}
	if in, ok := xyz.Attr("expressed_in"); ok && strings.TrimSpace(in) != "" {
		xe, err := c.resolve(strings.TrimSpace(in), xyz, "expressed_in")
		if err != nil {
			return spatial.Vec3{}, err
		}
		u = xwj.R.Conj().Rotate(c.xwm.R.Rotate(xe.R.Rotate(u)))
	}
	return u, nil
}

func attr(e *xmlutil.Element, name string) string { v, _ := e.Attr(name); return v }

// frameFrom returns the rotation whose x and y axes are a1 and a2.
func frameFrom(a1, a2 spatial.Vec3) spatial.Quat {
	z := a1.Cross(a2)
	m := spatial.Mat3{{a1[0], a2[0], z[0]}, {a1[1], a2[1], z[1]}, {a1[2], a2[2], z[2]}}
	return quatFromMat(m)
}

// quatFromMat converts a rotation matrix (Shepperd's method).
func quatFromMat(m spatial.Mat3) spatial.Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	var q spatial.Quat
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = spatial.Quat{W: s / 4, X: (m[2][1] - m[1][2]) / s, Y: (m[0][2] - m[2][0]) / s, Z: (m[1][0] - m[0][1]) / s}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := math.Sqrt(1+m[0][0]-m[1][1]-m[2][2]) * 2
		q = spatial.Quat{W: (m[2][1] - m[1][2]) / s, X: s / 4, Y: (m[0][1] + m[1][0]) / s, Z: (m[0][2] + m[2][0]) / s}
	case m[1][1] > m[2][2]:
		s := math.Sqrt(1+m[1][1]-m[0][0]-m[2][2]) * 2
		q = spatial.Quat{W: (m[0][2] - m[2][0]) / s, X: (m[0][1] + m[1][0]) / s, Y: s / 4, Z: (m[1][2] + m[2][1]) / s}
	default:
		s := math.Sqrt(1+m[2][2]-m[0][0]-m[1][1]) * 2
		q = spatial.Quat{W: (m[1][0] - m[0][1]) / s, X: (m[0][2] + m[2][0]) / s, Y: (m[1][2] + m[2][1]) / s, Z: s / 4}
	}
	return q.Normalize()
}

// axisData reads an axis's <limit> and <dynamics>.
func (c *ctx) axisData(a *xmlutil.Element, sj *scene.Joint, limited bool, body string) error {
	if l := a.Child("limit"); l != nil {
		lo, err := c.r.ChildFloat(l, "lower", -1e16)
		if err != nil {
			return err
		}
		hi, err := c.r.ChildFloat(l, "upper", 1e16)
		if err != nil {
			return err
		}
		eff, err := c.r.ChildFloat(l, "effort", -1)
		if err != nil {
			return err
		}
		if v := l.Child("velocity"); v != nil {
			// Not simulated, so a malformed value only warns (Drake's own
			// iiwa14_polytope_collision.sdf has a stray quote in one).
			if _, err := xmlutil.ParseFloats(v.TrimText(), 1); err != nil {
				c.r.Warnf(v, "", "velocity limit %q ignored: %v", v.TrimText(), err)
			} else {
				c.r.Warnf(v, "", "velocity limit parsed, not simulated")
			}
		}
		lim := &scene.Limits{}
		if limited && (lo > -1e15 || hi < 1e15) {
			if lo > hi {
				return c.r.TextErrorf(l.Child("lower"), "lower limit above the upper limit %g", hi)
			}
			lim.Lower, lim.Upper = []float64{lo}, []float64{hi}
		}
		if eff >= 0 {
			lim.Effort = &eff
		}
		if lim.Lower != nil || lim.Effort != nil {
			sj.Limits = lim
		}
	}
	d := a.Child("dynamics")
	if d == nil {
		return nil
	}
	vals := map[string]float64{}
	for _, tag := range []string{"damping", "friction", "spring_reference", "spring_stiffness"} {
		v, err := c.r.ChildFloat(d, tag, 0)
		if err != nil {
			return err
		}
		if v < 0 && tag != "spring_reference" {
			return c.r.TextErrorf(d.Child(tag), "must be ≥ 0")
		}
		vals[tag] = v
	}
	if v := vals["damping"]; v > 0 {
		sj.Damping = &v
	}
	if v := vals["spring_stiffness"]; v > 0 {
		sj.Stiffness = &v
		if vals["spring_reference"] != 0 {
			c.r.Warnf(d.Child("spring_reference"), "", "spring reference %g not supported: the joint spring pulls towards 0", vals["spring_reference"])
		}
	}
	if v := vals["friction"]; v > 0 {
		c.im.out.JointFriction = append(c.im.out.JointFriction, model.JointFriction{Body: body, Value: v, Source: model.Source{File: c.r.File, Line: d.Line}})
		sj.Friction = &v
	}
	return nil
}

// actuator adds the joint's actuator as Drake does for SDFormat: every
// revolute, continuous and prismatic joint whose effort limit is not 0 is
// actuated (no limit, or a negative one, means an unlimited effort). It is
// a motor named after the joint: its input is the joint torque or force.
func (c *ctx) actuator(sj *scene.Joint, joint, body string) {
	if l := sj.Limits; l != nil && l.Effort != nil && *l.Effort == 0 {
		return
	}
	s := c.im.out.Scene
	s.Actuators = append(s.Actuators, scene.Actuator{Name: joint, Type: "motor", Joint: body})
}

// drakeJoint reads Drake's drake:gear_ratio and drake:rotor_inertia as an
// actuator record and returns the reflected rotor inertia gear_ratio² ×
// rotor_inertia, which Drake adds to the joint's diagonal of the mass
// matrix (the joint's armature).
func (c *ctx) drakeJoint(e *xmlutil.Element, joint, body string) (float64, error) {
	g, r := e.Child("drake:gear_ratio"), e.Child("drake:rotor_inertia")
	if g == nil && r == nil {
		return 0, nil
	}
	a := model.Actuator{Name: joint, Kind: "drake", Body: body, JointName: joint, Gear: 1, Source: model.Source{File: c.r.File, Line: e.Line}}
	for _, f := range []struct {
		e   *xmlutil.Element
		out *float64
	}{{g, &a.GearRatio}, {r, &a.RotorInertia}} {
		if f.e != nil {
			v, err := c.r.TextFloats(f.e, 1)
			if err != nil {
				return 0, err
			}
			if v[0] < 0 {
				return 0, c.r.TextErrorf(f.e, "must be ≥ 0")
			}
			*f.out = v[0]
		}
	}
	c.im.out.Actuators = append(c.im.out.Actuators, a)
	return a.GearRatio * a.GearRatio * a.RotorInertia, nil
}

// filterGroup reads a drake:collision_filter_group as excluded pairs.
func (c *ctx) filterGroup(g, m *xmlutil.Element) error {
	members := func(g *xmlutil.Element) ([]string, error) {
		var out []string
		for _, e := range g.All("drake:member") {
			n := scoped(c.scope, e.TrimText())
			if c.im.links[n] == nil {
				return nil, c.r.TextErrorf(e, "no link of this name")
			}
			out = append(out, n)
		}
		return out, nil
	}
	mine, err := members(g)
	if err != nil {
		return err
	}
	g.Attr("name")
	for _, ig := range g.All("drake:ignored_collision_filter_group") {
		other := ig.TrimText()
		var og *xmlutil.Element
		for _, o := range m.Children {
			if n, _ := o.Attr("name"); o.Name == "drake:collision_filter_group" && n == other {
				og = o
			}
		}
		if og == nil {
			return c.r.TextErrorf(ig, "no drake:collision_filter_group of this name")
		}
		theirs, err := members(og)
		if err != nil {
			return err
		}
		s := c.im.out.Scene
		for _, a := range mine {
			for _, b := range theirs {
				if a != b {
					s.Exclude = append(s.Exclude, [2]string{a, b})
				}
			}
		}
	}
	return nil
}

// finish orders the bodies parents first and decides the roots: static
// links are fixed, a model file's parentless links are welded unless
// Floating, other parentless links are free.
func (im *importer) finish() error {
	s := im.out.Scene
	done := map[string]bool{"world": true}
	for len(done) <= len(im.order) {
		progress := false
		for _, l := range im.order {
			if done[l.body.Name] {
				continue
			}
			if j := l.body.Joint; j != nil && !done[j.Parent] {
				continue
			}
			if err := im.root(l); err != nil {
				return err
			}
			s.Bodies = append(s.Bodies, l.body)
			im.out.Links = append(im.out.Links, l.mass)
			done[l.body.Name] = true
			progress = true
		}
		if !progress {
			for _, l := range im.order {
				if !done[l.body.Name] {
					return l.r.Errorf(l.e, "", "link %q is part of a cycle of joints", l.body.Name)
				}
			}
		}
	}
	if im.opts.Floating && len(s.Bodies) > 0 && s.Bodies[0].Joint == nil && !s.Bodies[0].Fixed {
		if err := model.LumpFloatingRoot(s); err != nil {
			return fmt.Errorf("%s: floating root: %w", im.files[0].r.File, err)
		}
	}
	return nil
}

// root fills a link's mass properties and, for a link without a joint, its
// placement.
func (im *importer) root(l *link) error {
	b := &l.body
	fixed := l.static || (b.Joint == nil && l.weld && !im.opts.Floating) ||
		(b.Joint != nil && b.Joint.Type == "weld" && b.Joint.Parent == "world")
	if l.static {
		b.Joint = nil // a static model does not move: its joints are moot
	}
	if b.Joint == nil {
		b.Pose = *model.PoseToScene(l.xw)
		if fixed {
			b.Fixed = true
		}
	}
	l.mass.Welded = fixed
	if fixed || l.mass.Mass == 0 {
		if !fixed && b.Joint != nil && b.Joint.Type != "weld" {
			return l.r.Errorf(l.e, "", "link %q has no mass but moves on joint %q; give it an <inertial> with a positive mass", b.Name, b.Joint.Name)
		}
		if !fixed && b.Joint == nil && !im.opts.Floating {
			return l.r.Errorf(l.e, "", "link %q has no mass but is free (no joint); give it an <inertial> with a positive mass or make the model static", b.Name)
		}
		return nil
	}
	m := l.mass.Mass
	b.Mass = &m
	c := scene.Vec(l.mass.COM) // explicit, even at the origin: the shapes do not move it
	b.COM = &c
	b.Inertia = model.MatrixInertia(l.mass.Inertia)
	return nil
}
