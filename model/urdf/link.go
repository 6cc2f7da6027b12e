package urdf

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// inertial reads a link's <inertial>: mass, centre of mass (origin xyz)
// and the inertia, given about the centre of mass in the frame rotated by
// origin rpy, returned in the link frame (I = R I' Rᵀ).
func (im *importer) inertial(l *xmlutil.Element) (model.Link, error) {
	var out model.Link
	in := l.Child("inertial")
	if in == nil {
		return out, nil
	}
	x, err := im.origin(in)
	if err != nil {
		return out, err
	}
	m := in.Child("mass")
	if m == nil {
		return out, im.r.Errorf(in, "", "<inertial> without <mass value=...>")
	}
	if out.Mass, err = im.r.Float(m, "value", 0); err != nil {
		return out, err
	}
	if !m.Has("value") {
		return out, im.r.Errorf(m, "value", "missing (required)")
	}
	if out.Mass < 0 {
		return out, im.r.Errorf(m, "value", "mass must be ≥ 0")
	}
	var I spatial.Mat3
	if e := in.Child("inertia"); e != nil {
		names := [3][3]string{{"ixx", "ixy", "ixz"}, {"ixy", "iyy", "iyz"}, {"ixz", "iyz", "izz"}}
		for i := range 3 {
			for k := range 3 {
				if I[i][k], err = im.r.Float(e, names[i][k], 0); err != nil {
					return out, err
				}
			}
		}
		if !I.IsFinite() {
			return out, im.r.Errorf(e, "", "inertia is not finite")
		}
		if out.Mass > 0 {
			if J, msg := repairInertia(I, out.Mass); msg != "" {
				name, _ := l.Attr("name")
				im.r.Warnf(e, "", "link %q: inertia ixx=%g ixy=%g ixz=%g iyy=%g iyz=%g izz=%g is not physical: %s", name, I[0][0], I[0][1], I[0][2], I[1][1], I[1][2], I[2][2], msg)
				I, out.Repaired = J, msg
			}
		}
	} else if out.Mass > 0 {
		name, _ := l.Attr("name")
		I = sphereInertia(out.Mass)
		out.Repaired = fmt.Sprintf("no <inertia>: a solid sphere of water of mass %g (%.6g on every axis)", out.Mass, I[0][0])
		im.r.Warnf(in, "", "link %q: <inertial> with mass %g but no <inertia>; %s", name, out.Mass, out.Repaired)
	}
	out.COM = x.P
	out.Inertia = spatial.RotateInertia(x.R.RotMat(), I)
	return out, nil
}

// geometries adds a link's collision and visual elements to b.
func (im *importer) geometries(l *xmlutil.Element, b *scene.Body) error {
	for _, c := range l.All("collision") {
		x, err := im.origin(c)
		if err != nil {
			return err
		}
		sh, err := im.geometry(c)
		if err != nil {
			return err
		}
		if sh == nil {
			continue
		}
		mat, err := im.proximity(c)
		if err != nil {
			return err
		}
		name, _ := c.Attr("name")
		b.Collisions = append(b.Collisions, scene.Collision{Name: name, Shape: sh, Pose: model.PoseToScene(x), Material: mat})
	}
	for _, v := range l.All("visual") {
		x, err := im.origin(v)
		if err != nil {
			return err
		}
		sh, err := im.geometry(v)
		if err != nil {
			return err
		}
		if sh == nil {
			continue
		}
		name, _ := v.Attr("name")
		vis := scene.Visual{Name: name, Shape: sh, Pose: model.PoseToScene(x)}
		if m := v.Child("material"); m != nil {
			if vis.Color, err = im.visualColor(m); err != nil {
				return err
			}
		}
		b.Visuals = append(b.Visuals, vis)
	}
	if len(b.Collisions) > 0 && b.Material == "" {
		for _, c := range b.Collisions {
			if c.Material == "" {
				b.Material = model.DefaultMaterial
			}
		}
	}
	return nil
}

// visualColor returns a visual's colour: its own <color rgba>, or that of
// the top-level material it names.
func (im *importer) visualColor(m *xmlutil.Element) (*[4]float64, error) {
	if c := m.Child("color"); c != nil {
		rgba, _, err := im.r.Floats(c, "rgba", 4)
		if err != nil || rgba == nil {
			if err == nil {
				err = im.r.Errorf(c, "rgba", "missing (required)")
			}
			return nil, err
		}
		col := [4]float64(rgba)
		return clampColor(im.r, c, col), nil
	}
	name, _ := m.Attr("name")
	if col, ok := im.colors[name]; ok {
		return clampColor(im.r, m, col), nil
	}
	if name != "" && m.Child("texture") == nil {
		im.r.Warnf(m, "name", "material %q is not defined at the top level; the visual keeps its default colour", name)
	}
	return nil, nil
}

func clampColor(r *xmlutil.Reader, e *xmlutil.Element, c [4]float64) *[4]float64 {
	for i, x := range c {
		if x < 0 || x > 1 {
			r.Warnf(e, "rgba", "colour component %g clamped to [0, 1]", x)
			c[i] = min(1, max(0, x))
		}
	}
	return &c
}

// geometry reads the <geometry> of a visual or collision element.
func (im *importer) geometry(parent *xmlutil.Element) (*scene.Shape, error) {
	g := parent.Child("geometry")
	if g == nil {
		return nil, im.r.Errorf(parent, "", "<%s> without <geometry>", parent.Name)
	}
	var shapes []*xmlutil.Element
	for _, c := range g.Children {
		shapes = append(shapes, c)
	}
	if len(shapes) != 1 {
		return nil, im.r.Errorf(g, "", "<geometry> must hold exactly one shape (box, cylinder, sphere, capsule or mesh), has %d", len(shapes))
	}
	s := shapes[0]
	s.MarkUsed()
	pos := func(attr string) (float64, error) {
		if !s.Has(attr) {
			return 0, im.r.Errorf(s, attr, "missing (required)")
		}
		v, err := im.r.Float(s, attr, 0)
		if err == nil && !(v > 0) {
			err = im.r.Errorf(s, attr, "must be positive")
		}
		return v, err
	}
	switch s.Name {
	case "box":
		size, ok, err := im.r.Floats(s, "size", 3)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, im.r.Errorf(s, "size", "missing (required)")
		}
		for _, x := range size {
			if !(x > 0) {
				return nil, im.r.Errorf(s, "size", "every side must be positive")
			}
		}
		v := scene.Vec(size)
		return &scene.Shape{Type: "box", Size: &v}, nil
	case "sphere":
		r, err := pos("radius")
		return &scene.Shape{Type: "sphere", Radius: &r}, err
	case "cylinder", "capsule":
		r, err := pos("radius")
		if err != nil {
			return nil, err
		}
		l, err := pos("length")
		return &scene.Shape{Type: s.Name, Radius: &r, Length: &l}, err
	case "mesh":
		return im.mesh(s, parent.Name)
	}
	return nil, im.r.Errorf(s, "", "unknown geometry (want box, cylinder, sphere, capsule or mesh)")
}

// mesh reads <mesh filename scale/> of a <visual> or <collision> (owner);
// nil, with a warning, when the file does not exist.
func (im *importer) mesh(s *xmlutil.Element, owner string) (*scene.Shape, error) {
	uri, err := im.r.Required(s, "filename")
	if err != nil {
		return nil, err
	}
	if rest, ok := strings.CutPrefix(uri, "package:///"); ok {
		// package:///PKG/... (an empty authority): ROS's resource
		// retriever reads it as package://PKG/...
		im.r.Warnf(s, "filename", "%q read as package://%s", uri, strings.TrimLeft(rest, "/"))
		uri = "package://" + strings.TrimLeft(rest, "/")
	}
	path, err := im.opts.ResolveURI(uri, im.dir)
	if errors.Is(err, model.ErrNotFound) {
		// DART and Drake refuse the file; ROS tools (rviz, Gazebo,
		// PyBullet) warn and go on without the shape.
		what := "this <" + owner + "> is skipped"
		if owner == "collision" {
			what += ": the link has no contact shape there"
		}
		im.r.Warnf(s, "filename", "%v: %s", err, what)
		return nil, nil
	}
	if err != nil {
		return nil, im.r.Errorf(s, "filename", "%v", err)
	}
	sh := &scene.Shape{Type: "mesh", File: path}
	if s.Has("scale") {
		sc, err := im.r.Vec3(s, "scale", [3]float64{1, 1, 1})
		if err != nil {
			return nil, err
		}
		if sc[0] == 0 || sc[1] == 0 || sc[2] == 0 {
			return nil, im.r.Errorf(s, "scale", "a scale of 0 flattens the mesh")
		}
		if sc != [3]float64{1, 1, 1} {
			v := scene.Vec(sc)
			sh.Scale = &v
		}
	}
	if d := s.Child("drake:declare_convex"); d != nil {
		d.MarkAllUsed() // collision meshes are always their convex hull here
	}
	return sh, nil
}

// proximity reads Drake's <drake:proximity_properties> of a collision
// element (drake:point_contact_stiffness, drake:relaxation_time,
// drake:mu_dynamic) into a material; "" when absent.
func (im *importer) proximity(c *xmlutil.Element) (string, error) {
	p := c.Child("drake:proximity_properties")
	if p == nil {
		return "", nil
	}
	k, tau, mu := model.DefaultStiffness, model.DefaultDissipation, model.DefaultFriction
	for _, f := range []struct {
		tag string
		out *float64
	}{{"drake:point_contact_stiffness", &k}, {"drake:relaxation_time", &tau}, {"drake:mu_dynamic", &mu}} {
		if e := p.Child(f.tag); e != nil {
			v, err := im.r.Float(e, "value", 0)
			if err != nil {
				return "", err
			}
			if v < 0 {
				return "", im.r.Errorf(e, "value", "must be ≥ 0")
			}
			*f.out = v
		}
	}
	if !(k > 0) {
		return "", im.r.Errorf(p, "", "point_contact_stiffness must be positive")
	}
	return model.MaterialFor(im.out.Scene, "drake_", k, tau, mu), nil
}

// transmission reads a ros_control <transmission>: one actuator per joint,
// with its mechanical reduction, Drake's gear ratio and rotor inertia and
// Drake's controller gains (sceneActuator).
func (im *importer) transmission(t *xmlutil.Element) error {
	name, _ := t.Attr("name")
	if ty := t.Child("type"); ty != nil {
		if txt := ty.TrimText(); txt != "" && !strings.HasSuffix(txt, "SimpleTransmission") {
			im.r.Warnf(ty, "", "transmission type %q: read as a simple transmission", txt)
		}
	}
	if ty, ok := t.Attr("type"); ok && !strings.HasSuffix(ty, "SimpleTransmission") {
		im.r.Warnf(t, "type", "transmission type %q: read as a simple transmission", ty)
	}
	if ns := t.Child("robotNamespace"); ns != nil {
		ns.MarkAllUsed()
	}
	joints := t.All("joint")
	acts := t.All("actuator")
	if len(joints) != 1 {
		t.MarkAllUsed()
		im.r.Warnf(t, "", "transmission %q has %d <joint>s; only simple transmissions (one joint) are read: it is skipped", name, len(joints))
		return nil
	}
	jn, err := im.r.Required(joints[0], "name")
	if err != nil {
		return err
	}
	var j *jointInfo
	for _, o := range im.joints {
		if o.name == jn {
			j = o
		}
	}
	if j == nil {
		t.MarkAllUsed()
		im.r.Warnf(joints[0], "name", "transmission %q drives %q, which is not a joint of this file: it is skipped", name, jn)
		return nil
	}
	for _, h := range joints[0].All("hardwareInterface") {
		h.MarkAllUsed()
	}
	a := model.Actuator{Name: name, Kind: "transmission", Body: j.childLink, JointName: jn, Gear: 1, Source: model.Source{File: im.r.File, Line: t.Line}}
	var gains *[2]float64
	if m := t.Child("mechanicalReduction"); m != nil { // the old (pre-2013) place
		v, err := im.r.TextFloats(m, 1)
		if err != nil {
			return err
		}
		a.Gear = v[0]
	}
	for _, ae := range acts {
		if n, ok := ae.Attr("name"); ok {
			a.Name = n
		}
		for _, h := range ae.All("hardwareInterface") {
			h.MarkAllUsed()
		}
		if m := ae.Child("mechanicalReduction"); m != nil {
			v, err := im.r.TextFloats(m, 1)
			if err != nil {
				return err
			}
			a.Gear = v[0]
		}
		for _, f := range []struct {
			tag string
			out *float64
		}{{"drake:gear_ratio", &a.GearRatio}, {"drake:rotor_inertia", &a.RotorInertia}} {
			if e := ae.Child(f.tag); e != nil {
				if *f.out, err = im.r.Float(e, "value", 0); err != nil {
					return err
				}
				if *f.out < 0 {
					return im.r.Errorf(e, "value", "must be ≥ 0")
				}
			}
		}
		if g := ae.Child("drake:controller_gains"); g != nil {
			var pd [2]float64
			for k, attr := range []string{"p", "d"} {
				if pd[k], err = im.r.Float(g, attr, 0); err != nil {
					return err
				}
				if pd[k] < 0 {
					return im.r.Errorf(g, attr, "must be ≥ 0")
				}
			}
			if pd == [2]float64{} {
				return im.r.Errorf(g, "p", "the gains p and d cannot both be 0")
			}
			gains = &pd
		}
	}
	im.out.Actuators = append(im.out.Actuators, a)
	return im.sceneActuator(t, a, j, gains)
}

// sceneActuator adds the actuator of a transmission to the scene: a motor
// (the input u is the actuator effort, the joint torque mechanicalReduction
// × u), or with drake:controller_gains a PD servo (kp, kd); Drake's
// reflected rotor inertia gear_ratio² × rotor_inertia becomes the joint's
// armature.
func (im *importer) sceneActuator(t *xmlutil.Element, a model.Actuator, j *jointInfo, gains *[2]float64) error {
	if j.typ != "revolute" && j.typ != "continuous" && j.typ != "prismatic" {
		im.r.Warnf(t, "", "transmission %q drives the %s joint %q: only revolute, continuous and prismatic joints are actuated (ignored)", a.Name, j.typ, j.name)
		return nil
	}
	if a.Gear == 0 {
		return im.r.Errorf(t, "", "transmission %q: mechanicalReduction must be non-zero", a.Name)
	}
	s := im.out.Scene
	for _, o := range s.Actuators {
		if o.Name == a.Name {
			n := a.Name + "_" + j.name
			im.r.Warnf(t, "", "a second actuator named %q (transmission %q, joint %q): renamed %q", a.Name, transmissionName(t), j.name, n)
			a.Name = n
			break
		}
	}
	sa := scene.Actuator{Name: a.Name, Type: "motor", Joint: j.childLink}
	if a.Gear != 1 {
		g := a.Gear
		sa.Gear = &g
	}
	if gains != nil {
		sa.Type, sa.Kp, sa.Kd = "pd", model.Ptr(gains[0]), model.Ptr(gains[1])
	}
	s.Actuators = append(s.Actuators, sa)
	if r := a.GearRatio * a.GearRatio * a.RotorInertia; r > 0 {
		for i := range s.Bodies {
			if b := &s.Bodies[i]; b.Name == j.childLink && b.Joint != nil {
				arm := r
				if b.Joint.Armature != nil {
					arm += *b.Joint.Armature
				}
				b.Joint.Armature = &arm
			}
		}
	}
	return nil
}

// filterGroup reads a drake:collision_filter_group: its member links, and
// the groups it ignores (itself included), as excluded body pairs.
func (im *importer) filterGroup(g *xmlutil.Element, root *xmlutil.Element) error {
	members := func(g *xmlutil.Element) ([]string, error) {
		var out []string
		for _, m := range g.All("drake:member") {
			l, err := im.r.Required(m, "link")
			if err != nil {
				return nil, err
			}
			if im.links[l] == nil {
				return nil, im.r.Errorf(m, "link", "no link of this name")
			}
			out = append(out, l)
		}
		return out, nil
	}
	mine, err := members(g)
	if err != nil {
		return err
	}
	if _, err := im.r.Required(g, "name"); err != nil {
		return err
	}
	if g.Has("ignore") {
		if _, err := im.r.Bool(g, "ignore", false); err != nil {
			return err
		}
	}
	for _, ig := range g.All("drake:ignored_collision_filter_group") {
		other, err := im.r.Required(ig, "name")
		if err != nil {
			return err
		}
		var og *xmlutil.Element
		for _, c := range root.Children {
			if n, _ := c.Attr("name"); c.Name == "drake:collision_filter_group" && n == other {
				og = c
			}
		}
		if og == nil {
			return im.r.Errorf(ig, "name", "no drake:collision_filter_group of this name")
		}
		theirs, err := members(og)
		if err != nil {
			return err
		}
		for _, a := range mine {
			for _, b := range theirs {
				if a != b {
					im.exclude(a, b)
				}
			}
		}
	}
	return nil
}

func transmissionName(t *xmlutil.Element) string {
	n, _ := t.Attr("name")
	return n
}
