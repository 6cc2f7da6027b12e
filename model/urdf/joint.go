package urdf

import (
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// jointInfo is a URDF joint as read.
type jointInfo struct {
	e                 *xmlutil.Element
	name, typ         string
	parent, childLink string
}

var jointTypes = []string{"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}

// readJoints reads every joint's name, type, parent and child, and checks
// that the links exist and that no link has two parents.
func (im *importer) readJoints(root *xmlutil.Element) error {
	im.child = map[string]*jointInfo{}
	names := map[string]bool{}
	for _, e := range root.All("joint") {
		j := &jointInfo{e: e}
		var err error
		if j.name, err = im.r.Required(e, "name"); err != nil {
			return err
		}
		if names[j.name] {
			return im.r.Errorf(e, "name", "a second joint with this name (joint names must be unique)")
		}
		names[j.name] = true
		if j.typ, err = im.r.Keyword(e, "type", "", jointTypes...); err != nil {
			return err
		}
		if j.typ == "" {
			return im.r.Errorf(e, "type", "missing (required; one of revolute, continuous, prismatic, fixed, floating, planar)")
		}
		for _, side := range []struct {
			tag string
			out *string
		}{{"parent", &j.parent}, {"child", &j.childLink}} {
			c := e.Child(side.tag)
			if c == nil {
				return im.r.Errorf(e, "", "joint %q has no <%s link=...>", j.name, side.tag)
			}
			if *side.out, err = im.r.Required(c, "link"); err != nil {
				return err
			}
			if im.links[*side.out] == nil {
				return im.r.Errorf(c, "link", "no link of this name")
			}
		}
		if j.parent == j.childLink {
			return im.r.Errorf(e.Child("child"), "link", "a joint cannot connect a link to itself")
		}
		if old := im.child[j.childLink]; old != nil {
			return im.r.Errorf(e.Child("child"), "link", "link %q is already the child of joint %q (line %d): a link has at most one parent", j.childLink, old.name, old.e.Line)
		}
		im.child[j.childLink] = j
		im.joints = append(im.joints, j)
	}
	return nil
}

// origin reads an <origin xyz rpy/> child of e (identity if absent).
func (im *importer) origin(e *xmlutil.Element) (spatial.Pose, error) {
	o := e.Child("origin")
	if o == nil {
		return spatial.PoseIdentity(), nil
	}
	xyz, err := im.r.Vec3(o, "xyz", [3]float64{})
	if err != nil {
		return spatial.Pose{}, err
	}
	rpy, err := im.r.Vec3(o, "rpy", [3]float64{})
	if err != nil {
		return spatial.Pose{}, err
	}
	return spatial.Pose{R: model.RPY(rpy[0], rpy[1], rpy[2]), P: xyz}, nil
}

// joint fills b's joint (or, for a floating joint below the welded root,
// its pose) from URDF joint j.
func (im *importer) joint(j *jointInfo, b *scene.Body) error {
	e := j.e
	x, err := im.origin(e)
	if err != nil {
		return err
	}
	axis := spatial.Vec3{1, 0, 0}
	if a := e.Child("axis"); a != nil && (j.typ == "fixed" || j.typ == "floating") {
		a.MarkAllUsed() // URDF ignores the axis of fixed and floating joints
	} else if a != nil {
		if axis, err = im.r.Vec3(a, "xyz", axis); err != nil {
			return err
		}
		if axis.Norm() < 1e-12 {
			return im.r.Errorf(a, "xyz", "the joint axis must be non-zero")
		}
	}
	sj := &scene.Joint{Name: j.name, Parent: j.parent}
	switch j.typ {
	case "fixed":
		sj.Type = "weld"
	case "revolute", "continuous":
		sj.Type = "revolute"
	case "prismatic":
		sj.Type = "prismatic"
	case "planar":
		// Our planar joint moves in F's xy plane: turn F (and M) so that
		// their z axis is the URDF joint's normal.
		sj.Type = "planar"
		rz := rotateZTo(axis)
		x = x.Compose(spatial.Pose{R: rz})
		sj.ChildFrame = model.PoseToScene(spatial.Pose{R: rz})
	case "floating":
		if !im.welded(j.parent) {
			return im.r.Errorf(e, "type", "a floating joint must hang from the welded root (or links fixed to it): its child becomes a free body")
		}
		b.Pose = *model.PoseToScene(im.worldPose(j.parent).Compose(x))
		return im.dynamics(j, nil)
	}
	sj.ParentFrame = model.PoseToScene(x)
	if sj.Type == "revolute" || sj.Type == "prismatic" {
		a := scene.Vec(axis)
		sj.Axis = &a
	}
	if err := im.limits(j, sj); err != nil {
		return err
	}
	if err := im.dynamics(j, sj); err != nil {
		return err
	}
	if err := im.mimic(j); err != nil {
		return err
	}
	b.Joint = sj
	return nil
}

// worldPose returns the world pose of a link welded to the world.
func (im *importer) worldPose(link string) spatial.Pose {
	j := im.child[link]
	if j == nil {
		return spatial.PoseIdentity()
	}
	x, _ := im.origin(j.e)
	return im.worldPose(j.parent).Compose(x)
}

// rotateZTo returns a rotation taking z to the unit vector along n.
func rotateZTo(n spatial.Vec3) spatial.Quat {
	u, _ := n.Normalize()
	z := spatial.Vec3{0, 0, 1}
	c := z.Dot(u)
	ax := z.Cross(u)
	s := ax.Norm()
	if s < 1e-12 {
		if c > 0 {
			return spatial.QuatIdentity()
		}
		return spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, math.Pi)
	}
	return spatial.QuatFromAxisAngle(ax.Scale(1/s), math.Atan2(s, c))
}

// limits reads <limit lower upper effort velocity/>: position limits for
// revolute and prismatic joints (continuous joints have none), the effort
// limit; the velocity limit is parsed and reported as not simulated.
func (im *importer) limits(j *jointInfo, sj *scene.Joint) error {
	l := j.e.Child("limit")
	if l == nil {
		if j.typ == "revolute" || j.typ == "prismatic" {
			im.r.Warnf(j.e, "", "a %s joint should have a <limit> (URDF requires one); the joint is unlimited", j.typ)
		}
		return nil
	}
	lim := &scene.Limits{}
	lo, err := im.r.Float(l, "lower", 0)
	if err != nil {
		return err
	}
	hi, err := im.r.Float(l, "upper", 0)
	if err != nil {
		return err
	}
	if j.typ == "revolute" || j.typ == "prismatic" {
		if lo > hi {
			return im.r.Errorf(l, "lower", "lower limit above the upper limit %g", hi)
		}
		lim.Lower, lim.Upper = []float64{lo}, []float64{hi}
		im.startWithin(j, l, sj, lo, hi)
	}
	if l.Has("effort") {
		eff, err := im.r.Float(l, "effort", 0)
		if err != nil {
			return err
		}
		if eff < 0 {
			return im.r.Errorf(l, "effort", "must be ≥ 0")
		}
		lim.Effort = &eff
	}
	if l.Has("velocity") {
		if _, err := im.r.Float(l, "velocity", 0); err != nil {
			return err
		}
		im.r.Warnf(l, "velocity", "velocity limit parsed, not simulated")
	}
	if lim.Lower != nil || lim.Effort != nil {
		sj.Limits = lim
	}
	return nil
}

// startWithin starts a joint whose limits exclude q = 0 (the pose the
// file draws; Kinova's joint 2 has [0.82, 5.46] rad) at the nearer limit,
// with a warning: started outside, the limit constraint would throw the
// link back within a step or two (the Allegro thumb reached 235 rad/s;
// Kinova gained 2.6 times m·g·1 m of energy in 2 s).
func (im *importer) startWithin(j *jointInfo, l *xmlutil.Element, sj *scene.Joint, lo, hi float64) {
	if sj.Q0 != nil || (lo <= 0 && 0 <= hi) {
		return
	}
	q := lo
	if hi < 0 {
		q = hi
	}
	sj.Q0 = []float64{q}
	im.r.Warnf(l, "", "joint %q: q = 0 lies outside its limits [%g, %g]; it starts at %g", j.name, lo, hi, q)
}

// dynamics reads <dynamics damping friction/>: the joint's damping and
// its dry friction (joint.friction).
func (im *importer) dynamics(j *jointInfo, sj *scene.Joint) error {
	d := j.e.Child("dynamics")
	if d == nil {
		return nil
	}
	damp, err := im.r.Float(d, "damping", 0)
	if err != nil {
		return err
	}
	fric, err := im.r.Float(d, "friction", 0)
	if err != nil {
		return err
	}
	if damp < 0 {
		return im.r.Errorf(d, "damping", "must be ≥ 0")
	}
	if fric < 0 {
		return im.r.Errorf(d, "friction", "must be ≥ 0")
	}
	if sj != nil && damp > 0 && sj.Type != "weld" {
		sj.Damping = &damp
		im.damped = append(im.damped, dampedJoint{e: d, name: j.name, damping: damp})
	}
	if fric > 0 {
		im.out.JointFriction = append(im.out.JointFriction, model.JointFriction{Body: j.childLink, Value: fric, Source: model.Source{File: im.r.File, Line: d.Line}})
		switch {
		case sj == nil:
			im.r.Warnf(d, "friction", "joint friction on a floating joint is not supported (ignored)")
		case sj.Type != "weld":
			sj.Friction = &fric
			if l := sj.Limits; l != nil && l.Effort != nil && fric >= *l.Effort {
				im.r.Warnf(d, "friction", "joint friction %g is at least the effort limit %g: the joint's actuators cannot move it (Drake ignores URDF joint friction; --set or an include's set bodies.%s.joint.friction=0 removes it)", fric, *l.Effort, j.childLink)
			}
		}
	}
	return nil
}

// mimic reads <mimic joint multiplier offset/> as a joint coupler
// constraint "mimic_NAME": q = multiplier·q_joint + offset.
func (im *importer) mimic(j *jointInfo) error {
	m := j.e.Child("mimic")
	if m == nil {
		return nil
	}
	other, err := im.r.Required(m, "joint")
	if err != nil {
		return err
	}
	var src *jointInfo
	for _, o := range im.joints {
		if o.name == other {
			src = o
		}
	}
	if src == nil {
		im.r.Warnf(m, "joint", "joint %q mimics %q, which is not a joint of this file: the mimic is skipped", j.name, other)
		return nil
	}
	mul, err := im.r.Float(m, "multiplier", 1)
	if err != nil {
		return err
	}
	off, err := im.r.Float(m, "offset", 0)
	if err != nil {
		return err
	}
	for _, x := range []*jointInfo{j, src} {
		if x.typ != "revolute" && x.typ != "continuous" && x.typ != "prismatic" {
			im.r.Warnf(m, "joint", "joint %q mimics %q, but %q is %s: a mimic couples revolute, continuous and prismatic joints; it is skipped", j.name, src.name, x.name, x.typ)
			return nil
		}
	}
	im.out.Equalities = append(im.out.Equalities, model.Equality{
		Kind: "mimic", Name: j.name, Joint1: j.childLink, Joint2: src.childLink, Multiplier: mul, Offset: off, Active: true,
		Source: model.Source{File: im.r.File, Line: m.Line},
	})
	if src == j {
		return im.r.Errorf(m, "joint", "a joint cannot mimic itself")
	}
	// q_j = multiplier·q_src + offset: a near-rigid coupler, as Drake's.
	c := scene.Constraint{Name: "mimic_" + j.name, Type: "coupler", Joints: []string{j.childLink, src.childLink}}
	if mul != 1 {
		c.Ratio = &mul
	}
	if off != 0 {
		c.Offset = &off
	}
	im.out.Scene.Constraints = append(im.out.Scene.Constraints, c)
	return nil
}
