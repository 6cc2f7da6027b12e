package sdf

import (
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// link reads a <link>: its world pose, mass properties, collisions and
// visuals.
func (c *ctx) link(e *xmlutil.Element) error {
	name, _ := e.Attr("name")
	full := scoped(c.scope, name)
	if c.im.links == nil {
		c.im.links = map[string]*link{}
	}
	if c.im.links[full] != nil {
		return c.r.Errorf(e, "name", "a second link named %q", full)
	}
	xm, err := c.resolve(name, e, "name")
	if err != nil {
		return err
	}
	l := &link{body: scene.Body{Name: full}, xw: c.xwm.Compose(xm), static: c.static, weld: c.topModel, e: e, r: c.r}
	l.mass.Name = full
	if err := c.inertial(e, name, l); err != nil {
		return err
	}
	for _, tag := range []string{"gravity", "kinematic", "self_collide", "enable_wind", "must_be_base_link"} {
		if t := e.Child(tag); t != nil {
			c.r.Warnf(t, "", "<%s> not supported (ignored)", tag)
		}
	}
	for _, col := range e.All("collision") {
		if err := c.collision(col, name, l); err != nil {
			return err
		}
	}
	for _, vis := range e.All("visual") {
		if err := c.visual(vis, name, l); err != nil {
			return err
		}
	}
	c.im.links[full] = l
	c.im.order = append(c.im.order, l)
	return nil
}

// inLink returns the pose of element e (a child of link) in the link
// frame: its <pose> relative to the link or to the frame it names.
func (c *ctx) inLink(e *xmlutil.Element, link string) (spatial.Pose, error) {
	p, rel, err := c.pose(e)
	if err != nil || rel == "" || rel == link {
		return p, err
	}
	xr, err := c.resolve(rel, e.Child("pose"), "relative_to")
	if err != nil {
		return p, err
	}
	xl, err := c.resolve(link, e, "")
	if err != nil {
		return p, err
	}
	return xl.Inverse().Compose(xr).Compose(p), nil
}

// inertial reads the link's <inertial>: mass, centre of mass (pose) and
// the inertia about it in the pose's frame, turned into the link frame.
func (c *ctx) inertial(e *xmlutil.Element, name string, l *link) error {
	in := e.Child("inertial")
	if in == nil {
		return nil
	}
	x, err := c.inLink(in, name)
	if err != nil {
		return err
	}
	mass, err := c.r.ChildFloat(in, "mass", 1)
	if err != nil {
		return err
	}
	if mass < 0 {
		return c.r.TextErrorf(in.Child("mass"), "mass must be ≥ 0")
	}
	var I spatial.Mat3
	if ie := in.Child("inertia"); ie != nil {
		names := [3][3]string{{"ixx", "ixy", "ixz"}, {"ixy", "iyy", "iyz"}, {"ixz", "iyz", "izz"}}
		def := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
		for i := range 3 {
			for k := range 3 {
				if I[i][k], err = c.r.ChildFloat(ie, names[i][k], def[i][k]); err != nil {
					return err
				}
			}
		}
		if msg := model.CheckInertia(I, mass); msg != "" {
			return c.r.Errorf(ie, "", "%s", msg)
		}
	} else {
		I = spatial.Identity3() // SDFormat's default
	}
	l.mass.Mass, l.mass.COM, l.mass.Inertia = mass, x.P, spatial.RotateInertia(x.R.RotMat(), I)
	return nil
}

// collision reads a <collision>.
func (c *ctx) collision(e *xmlutil.Element, linkName string, l *link) error {
	x, err := c.inLink(e, linkName)
	if err != nil {
		return err
	}
	sh, xs, err := c.geometry(e, l)
	if err != nil {
		return err
	}
	if xs != nil {
		x = x.Compose(*xs)
	}
	mat, err := c.surface(e)
	if err != nil {
		return err
	}
	name, _ := e.Attr("name")
	col := scene.Collision{Name: name, Shape: sh, Pose: model.PoseToScene(x), Material: mat}
	if col.Material == "" {
		l.body.Material = model.DefaultMaterial
	}
	l.body.Collisions = append(l.body.Collisions, col)
	return nil
}

// surface reads <surface><friction><ode><mu> and Drake's
// drake:proximity_properties into a material name ("" for the default).
func (c *ctx) surface(e *xmlutil.Element) (string, error) {
	k, tau, mu := model.DefaultStiffness, model.DefaultDissipation, model.DefaultFriction
	custom := false
	if s := e.Child("surface"); s != nil {
		if f := s.Child("friction"); f != nil {
			if ode := f.Child("ode"); ode != nil {
				if ode.Child("mu") != nil {
					v, err := c.r.ChildFloat(ode, "mu", mu)
					if err != nil {
						return "", err
					}
					if v < 0 {
						return "", c.r.TextErrorf(ode.Child("mu"), "friction must be ≥ 0")
					}
					mu, custom = v, true
				}
				if m2 := ode.Child("mu2"); m2 != nil {
					v, err := c.r.TextFloats(m2, 1)
					if err != nil {
						return "", err
					}
					if v[0] != mu {
						c.r.Warnf(m2, "", "mu2 %g differs from mu %g: friction is isotropic here (mu is used)", v[0], mu)
					}
				}
			}
		}
	}
	if p := e.Child("drake:proximity_properties"); p != nil {
		for _, f := range []struct {
			tag string
			out *float64
		}{{"drake:point_contact_stiffness", &k}, {"drake:relaxation_time", &tau}, {"drake:mu_dynamic", &mu}} {
			if t := p.Child(f.tag); t != nil {
				v, err := c.r.TextFloats(t, 1)
				if err != nil {
					return "", err
				}
				if v[0] < 0 || (f.out == &k && v[0] == 0) {
					return "", c.r.TextErrorf(t, "must be positive")
				}
				*f.out, custom = v[0], true
			}
		}
	}
	if !custom {
		return "", nil
	}
	return model.MaterialFor(c.im.out.Scene, "sdf_", k, tau, mu), nil
}

// visual reads a <visual> with its material's diffuse colour.
func (c *ctx) visual(e *xmlutil.Element, linkName string, l *link) error {
	x, err := c.inLink(e, linkName)
	if err != nil {
		return err
	}
	sh, xs, err := c.geometry(e, l)
	if err != nil {
		return err
	}
	if xs != nil {
		x = x.Compose(*xs)
	}
	if sh.Type == "halfspace" {
		return nil // a plane is not drawn
	}
	name, _ := e.Attr("name")
	v := scene.Visual{Name: name, Shape: sh, Pose: model.PoseToScene(x)}
	if m := e.Child("material"); m != nil {
		if d := m.Child("diffuse"); d != nil {
			rgba, err := c.r.TextFloats(d, -1)
			if err != nil {
				return err
			}
			if len(rgba) != 3 && len(rgba) != 4 {
				return c.r.TextErrorf(d, "want 3 or 4 numbers (r g b [a])")
			}
			col := [4]float64{rgba[0], rgba[1], rgba[2], 1}
			if len(rgba) == 4 {
				col[3] = rgba[3]
			}
			for i := range col {
				col[i] = min(1, max(0, col[i]))
			}
			v.Color = &col
		}
	}
	l.body.Visuals = append(l.body.Visuals, v)
	return nil
}

// geometry reads a <geometry>: the shape and, for a plane, the rotation
// that turns the half-space's +z to the plane's normal.
func (c *ctx) geometry(parent *xmlutil.Element, l *link) (*scene.Shape, *spatial.Pose, error) {
	g := parent.Child("geometry")
	if g == nil {
		return nil, nil, c.r.Errorf(parent, "", "<%s> without <geometry>", parent.Name)
	}
	if len(g.Children) != 1 {
		return nil, nil, c.r.Errorf(g, "", "<geometry> must hold exactly one shape, has %d", len(g.Children))
	}
	s := g.Children[0]
	s.MarkUsed()
	pos := func(tag string) (float64, error) {
		e := s.Child(tag)
		if e == nil {
			return 0, c.r.Errorf(s, "", "<%s> without <%s>", s.Name, tag)
		}
		v, err := c.r.TextFloats(e, 1)
		if err != nil {
			return 0, err
		}
		if !(v[0] > 0) {
			return 0, c.r.TextErrorf(e, "must be positive")
		}
		return v[0], nil
	}
	vec := func(tag string) (*scene.Vec, error) {
		e := s.Child(tag)
		if e == nil {
			return nil, c.r.Errorf(s, "", "<%s> without <%s>", s.Name, tag)
		}
		v, err := c.r.TextFloats(e, 3)
		if err != nil {
			return nil, err
		}
		for _, x := range v {
			if !(x > 0) {
				return nil, c.r.TextErrorf(e, "every element must be positive")
			}
		}
		out := scene.Vec(v)
		return &out, nil
	}
	switch s.Name {
	case "box":
		v, err := vec("size")
		return &scene.Shape{Type: "box", Size: v}, nil, err
	case "sphere":
		r, err := pos("radius")
		return &scene.Shape{Type: "sphere", Radius: &r}, nil, err
	case "cylinder", "capsule":
		r, err := pos("radius")
		if err != nil {
			return nil, nil, err
		}
		h, err := pos("length")
		return &scene.Shape{Type: s.Name, Radius: &r, Length: &h}, nil, err
	case "ellipsoid":
		v, err := vec("radii")
		return &scene.Shape{Type: "ellipsoid", Radii: v}, nil, err
	case "mesh":
		return c.mesh(s)
	case "plane":
		return c.plane(s, l)
	}
	return nil, nil, c.r.Errorf(s, "", "unsupported geometry (want box, sphere, cylinder, capsule, ellipsoid, mesh or plane)")
}

// mesh reads <mesh><uri><scale>.
func (c *ctx) mesh(s *xmlutil.Element) (*scene.Shape, *spatial.Pose, error) {
	uri, ok := c.r.ChildText(s, "uri")
	if !ok || uri == "" {
		return nil, nil, c.r.Errorf(s, "", "<mesh> without <uri>")
	}
	path, err := c.im.opts.ResolveURI(uri, c.dir)
	if err != nil {
		return nil, nil, c.r.TextErrorf(s.Child("uri"), "%v", err)
	}
	sh := &scene.Shape{Type: "mesh", File: path}
	if e := s.Child("scale"); e != nil {
		v, err := c.r.TextFloats(e, 3)
		if err != nil {
			return nil, nil, err
		}
		if v[0] == 0 || v[1] == 0 || v[2] == 0 {
			return nil, nil, c.r.TextErrorf(e, "a scale of 0 flattens the mesh")
		}
		if [3]float64(v) != [3]float64{1, 1, 1} {
			sc := scene.Vec(v)
			sh.Scale = &sc
		}
	}
	if d := s.Child("drake:declare_convex"); d != nil {
		d.MarkAllUsed()
	}
	return sh, nil, nil
}

// plane reads <plane><normal><size>: a half-space, which only a static
// link (or one welded to the world) may carry.
func (c *ctx) plane(s *xmlutil.Element, l *link) (*scene.Shape, *spatial.Pose, error) {
	n := spatial.Vec3{0, 0, 1}
	if e := s.Child("normal"); e != nil {
		v, err := c.r.TextFloats(e, 3)
		if err != nil {
			return nil, nil, err
		}
		if n = spatial.Vec3(v); n.Norm() < 1e-12 {
			return nil, nil, c.r.TextErrorf(e, "the normal must be non-zero")
		}
	}
	if e := s.Child("size"); e != nil {
		e.MarkAllUsed() // a half-space is unbounded
	}
	if !l.static && !l.weld {
		return nil, nil, c.r.Errorf(s, "", "a plane is a half-space: only a static link, or a model file's welded root, can carry one")
	}
	x := spatial.Pose{R: rotateZTo(n)}
	return &scene.Shape{Type: "halfspace"}, &x, nil
}

// rotateZTo returns a rotation taking z to the direction of n.
func rotateZTo(n spatial.Vec3) spatial.Quat {
	u, _ := n.Normalize()
	ax := spatial.Vec3{0, 0, 1}.Cross(u)
	s, c := ax.Norm(), u[2]
	if s < 1e-12 {
		if c > 0 {
			return spatial.QuatIdentity()
		}
		return spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, math.Pi)
	}
	return spatial.QuatFromAxisAngle(ax.Scale(1/s), math.Atan2(s, c))
}
