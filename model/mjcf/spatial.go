package mjcf

import (
	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// spatialTendon reads one <spatial> tendon: a path of <site>s, with a
// sphere or cylinder <geom> (and its optional sidesite) between two sites
// to wrap over (MuJoCo's rules: the path starts and ends at a site, a geom
// sits between two sites). A <pulley divisor> starts a new branch of the
// path at the next site (scene.TendonSite.Pulley), as MuJoCo's: not first
// after another pulley nor last, every branch with two sites or more.
func (c *compiler) spatialTendon(t *xmlutil.Element) error {
	v, name, err := c.tendonHead(t)
	if err != nil {
		return err
	}
	c.spatialTendons[name] = true
	for _, a := range []string{"rgba", "width", "material", "group"} {
		t.Attr(a) // visual only
	}
	st := scene.Tendon{Name: name}
	var prev string             // the previous element of the path
	var pulley *xmlutil.Element // the pulley before the next site
	var divisor float64
	branch := 0 // sites in the current branch
	for _, e := range t.Children {
		e.MarkUsed()
		switch e.Name {
		case "site":
			s, err := c.pathSite(e, "site")
			if err != nil {
				return err
			}
			if pulley != nil {
				s.Pulley, pulley = model.Ptr(divisor), nil
				branch = 0
			}
			branch++
			st.Path = append(st.Path, s)
		case "geom":
			if prev != "site" {
				return c.r.Errorf(e, "geom", "a wrapping geom must follow a site")
			}
			w, err := c.wrapGeom(e)
			if err != nil {
				return err
			}
			st.Path[len(st.Path)-1].Wrap = w
		case "pulley":
			if prev == "pulley" {
				return c.r.Errorf(e, "", "two pulleys in a row")
			}
			if prev != "" && branch < 2 {
				return c.r.Errorf(e, "", "the branch before this pulley has %d site: it needs at least two", branch)
			}
			if divisor, err = c.pulleyDivisor(e); err != nil {
				return err
			}
			pulley = e
		default:
			continue
		}
		prev = e.Name
	}
	if len(st.Path) < 2 || prev != "site" {
		return c.r.Errorf(t, "", "a spatial tendon needs at least two sites and must end with a site")
	}
	if branch < 2 {
		return c.r.Errorf(t, "", "the branch after the last pulley has %d site: it needs at least two", branch)
	}
	if err := c.tendonProps(v, &st, nil); err != nil {
		return err
	}
	c.out.Scene.Tendons = append(c.out.Scene.Tendons, st)
	return nil
}

// pulleyDivisor reads a <pulley>'s divisor: required, positive (MuJoCo
// refuses a negative one; 0 would make the branch's length infinite).
func (c *compiler) pulleyDivisor(e *xmlutil.Element) (float64, error) {
	if _, err := c.r.Required(e, "divisor"); err != nil {
		return 0, err
	}
	d, err := c.r.Float(e, "divisor", 1)
	if err != nil {
		return 0, err
	}
	if !(d > 0) {
		return 0, c.r.Errorf(e, "divisor", "%g: a pulley's divisor must be positive", d)
	}
	return d, nil
}

// pathSite returns the scene site named by attribute attr of e.
func (c *compiler) pathSite(e *xmlutil.Element, attr string) (scene.TendonSite, error) {
	n, err := c.r.Required(e, attr)
	if err != nil {
		return scene.TendonSite{}, err
	}
	s := c.site(n)
	if s == nil {
		return scene.TendonSite{}, c.r.Errorf(e, attr, "no site named %q", n)
	}
	p := scene.Vec(s.Pose.P)
	return scene.TendonSite{Body: s.Body, Point: &p}, nil
}

// wrapGeom returns the wrap of a path's <geom geom sidesite>: a sphere or
// cylinder geom (collision or visual) with its body and frame.
func (c *compiler) wrapGeom(e *xmlutil.Element) (*scene.TendonWrap, error) {
	n, err := c.r.Required(e, "geom")
	if err != nil {
		return nil, err
	}
	body, x, sh := c.namedGeom(n)
	if sh == nil {
		return nil, c.r.Errorf(e, "geom", "no sphere or cylinder geom named %q", n)
	}
	if (sh.Type != "sphere" && sh.Type != "cylinder") || sh.Radius == nil {
		return nil, c.r.Errorf(e, "geom", "geom %q is a %s: tendons wrap over spheres and cylinders only", n, sh.Type)
	}
	w := &scene.TendonWrap{Shape: sh.Type, Body: body, Frame: model.PoseToScene(x), Radius: *sh.Radius}
	if e.Has("sidesite") {
		s, err := c.pathSite(e, "sidesite")
		if err != nil {
			return nil, err
		}
		w.Side = &s
	}
	return w, nil
}

// namedGeom returns the scene body, body-frame pose and shape of the named
// geom (collision or visual), nil shape if none.
func (c *compiler) namedGeom(name string) (string, spatial.Pose, *scene.Shape) {
	s := c.out.Scene
	pose := func(p *scene.Pose) spatial.Pose {
		if p == nil {
			return spatial.PoseIdentity()
		}
		return model.ScenePose(*p)
	}
	if i, ok := c.geomIndex[name]; ok {
		pg := c.pending[i]
		b := &s.Bodies[pg.body]
		if pg.index < len(b.Collisions) {
			col := b.Collisions[pg.index]
			return b.Name, pose(col.Pose), col.Shape
		}
	}
	for bi := range s.Bodies {
		b := &s.Bodies[bi]
		for _, v := range b.Visuals {
			if v.Name == name {
				return b.Name, pose(v.Pose), v.Shape
			}
		}
	}
	return "", spatial.Pose{}, nil
}

// sliderCrank reads an actuator's slider-crank transmission (cranksite,
// slidersite, cranklength > 0): the slide axis is the slider site's z
// axis in its body's frame (mj_transmission).
func (c *compiler) sliderCrank(v view) (*scene.SliderCrank, error) {
	e := v.e
	cs, err := c.pathSite(e, "cranksite")
	if err != nil {
		return nil, err
	}
	ss, err := c.pathSite(e, "slidersite")
	if err != nil {
		return nil, err
	}
	rod, err := c.float(v, "cranklength", 0)
	if err != nil {
		return nil, err
	}
	if !(rod > 0) {
		return nil, c.r.Errorf(v.src("cranklength"), "cranklength", "a slider-crank needs cranklength > 0")
	}
	ax := scene.Vec(c.site(mustAttr(e, "slidersite")).Pose.R.Rotate(spatial.Vec3{0, 0, 1}))
	return &scene.SliderCrank{Crank: cs, Slider: ss, Axis: ax, RodLength: rod}, nil
}

// straight reports whether spatial tendon t runs straight between two
// sites (no wrap, no pulley): MuJoCo's composite grid and cloth tendons.
func straight(t *scene.Tendon) bool {
	return t != nil && len(t.Path) == 2 && t.Path[0].Wrap == nil && t.Path[1].Wrap == nil && t.Path[1].Pulley == nil
}

// siteDistance maps a tendon equality on a straight spatial tendon st
// (straight) to a distance constraint between its two sites, of length
// tendon_length0 + a0 (MuJoCo's row L − tendon_length0 − a0, where L is
// the sites' distance and its Jacobian the unit vector between them times
// the difference of the sites' Jacobians: the distance constraint's
// row), MuJoCo's soft constraint with its solref, solimp and weight
// tendon_invweight0 (softDistance).
func (c *compiler) siteDistance(q *xmlutil.Element, eq model.Equality, st *scene.Tendon, a0 float64) error {
	var x [2]spatial.Vec3
	for k, p := range st.Path {
		x[k] = c.bodyPose[c.bodies[p.Body]].Apply(spatial.Vec3(*p.Point))
	}
	l := x[1].Sub(x[0]).Norm() + a0
	if !(l > 0) {
		c.r.Warnf(q, "tendon1", "tendon equality not simulated: tendon %q would be held at length %g", st.Name, l)
		return nil
	}
	s := c.out.Scene
	con := scene.Constraint{Name: eq.Name, Type: "distance", Bodies: []string{st.Path[0].Body, st.Path[1].Body},
		Points: []scene.Vec{*st.Path[0].Point, *st.Path[1].Point}, Length: model.Ptr(l)}
	c.eqs = append(c.eqs, pendingEq{kind: "distance", index: len(s.Constraints), solref: eq.SolRef, solimp: eq.SolImp, e: q, a: st.Name})
	s.Constraints = append(s.Constraints, con)
	return nil
}

// siteWrench reads an actuator's site transmission (site=, no refsite):
// the site and its 6-value gear (missing values 0), a wrench in the site's
// frame, rotated into its body's frame (mj_transmission, mjTRN_SITE).
func (c *compiler) siteWrench(v view) (*scene.SiteWrench, error) {
	st, err := c.pathSite(v.e, "site")
	if err != nil {
		return nil, err
	}
	gear, err := c.floats(v, "gear", -1, []float64{1})
	if err != nil {
		return nil, err
	}
	var g [6]float64
	copy(g[:], gear)
	if g == [6]float64{} {
		return nil, c.r.Errorf(v.src("gear"), "gear", "a site transmission's gear (its wrench) is zero")
	}
	r := c.site(mustAttr(v.e, "site")).Pose.R
	return &scene.SiteWrench{Site: st, Force: scene.Vec(r.Rotate(spatial.Vec3{g[0], g[1], g[2]})),
		Torque: scene.Vec(r.Rotate(spatial.Vec3{g[3], g[4], g[5]}))}, nil
}
