package sdf

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// ctx reads one <model> of one file.
type ctx struct {
	im       *importer
	r        *xmlutil.Reader
	dir      string
	topModel bool // the model of a model file (its root is welded unless Floating)
	scope    string
	name     string       // the model's name, for messages
	xwm      spatial.Pose // the model frame in the world
	static   bool
	frames   map[string]*frameDef
}

// link is a link as read: its body (joint filled in later) and world pose.
type link struct {
	body   scene.Body
	xw     spatial.Pose
	static bool
	weld   bool // a parentless link of a model file's model: welded unless Floating
	joint  bool // some joint has it as child
	e      *xmlutil.Element
	r      *xmlutil.Reader
	mass   model.Link
}

// frameDef is a named frame of a model: pose relative to rel, resolved to
// the model frame on demand.
type frameDef struct {
	e        *xmlutil.Element
	pose     spatial.Pose
	rel      string
	x        spatial.Pose
	state    int // 0 unresolved, 1 resolving, 2 resolved
	external bool
}

// model reads a <model> named within scope, placed at its pose relative
// to the parent frame xp (world pose).
func (c *ctx) model(m *xmlutil.Element, scope string, xp spatial.Pose) error {
	return c.modelAt(m, scope, xp, nil)
}

// modelAt is model with the model's own pose replaced by override (an
// include's pose) when it is not nil.
func (c *ctx) modelAt(m *xmlutil.Element, scope string, xp spatial.Pose, override *spatial.Pose) error {
	name, _ := m.Attr("name")
	if err := checkName(c.r, m, name); err != nil {
		return err
	}
	mc := &ctx{im: c.im, r: c.r, dir: c.dir, topModel: c.topModel, scope: scoped(scope, name), name: scoped(scope, name), frames: map[string]*frameDef{}}
	if c.topModel && scope == "" && m.Parent != nil && m.Parent.Name == "sdf" {
		mc.scope = "" // a model file's own links keep their plain names
	}
	pose, _, err := c.pose(m)
	if err != nil {
		return err
	}
	if override != nil {
		pose = *override
	}
	mc.xwm = xp.Compose(pose)
	if mc.static, err = c.r.ChildBool(m, "static", c.static); err != nil {
		return err
	}
	for _, tag := range []string{"self_collide", "allow_auto_disable", "enable_wind"} {
		if e := m.Child(tag); e != nil {
			c.r.Warnf(e, "", "<%s> not supported (ignored)", tag)
		}
	}
	for _, n := range m.All("model") {
		sub := *mc
		sub.topModel = false
		if err := sub.model(n, mc.scope, mc.xwm); err != nil {
			return err
		}
	}
	for _, inc := range m.All("include") {
		if err := mc.include(inc, mc.scope); err != nil {
			return err
		}
	}
	if err := mc.collectFrames(m); err != nil {
		return err
	}
	for _, l := range m.All("link") {
		if err := mc.link(l); err != nil {
			return err
		}
	}
	for _, j := range m.All("joint") {
		if err := mc.joint(j); err != nil {
			return err
		}
	}
	for _, g := range m.All("drake:collision_filter_group") {
		if err := mc.filterGroup(g, m); err != nil {
			return err
		}
	}
	return nil
}

// pose reads the <pose relative_to> child of e: the pose and the frame it
// is relative to ("" for the default).
func (c *ctx) pose(e *xmlutil.Element) (spatial.Pose, string, error) {
	p := e.Child("pose")
	if p == nil {
		return spatial.PoseIdentity(), "", nil
	}
	rel, _ := p.Attr("relative_to")
	if d, ok := p.Attr("degrees"); ok && strings.TrimSpace(d) == "true" {
		return spatial.Pose{}, "", c.r.Errorf(p, "degrees", "degrees=\"true\" is not supported: give the angles in radians")
	}
	if rot, ok := p.Attr("rotation_format"); ok && strings.TrimSpace(rot) != "euler_rpy" {
		return spatial.Pose{}, "", c.r.Errorf(p, "rotation_format", "only euler_rpy is supported")
	}
	if p.TrimText() == "" {
		return spatial.PoseIdentity(), rel, nil
	}
	v, err := c.r.TextFloats(p, 6)
	if err != nil {
		return spatial.Pose{}, "", err
	}
	return spatial.Pose{R: model.RPY(v[3], v[4], v[5]), P: spatial.Vec3{v[0], v[1], v[2]}}, rel, nil
}

// collectFrames records the frames of the model: __model__, links,
// joints and explicit frames, with their poses and reference frames.
func (c *ctx) collectFrames(m *xmlutil.Element) error {
	c.frames["__model__"] = &frameDef{x: spatial.PoseIdentity(), state: 2}
	add := func(e *xmlutil.Element, def func(e *xmlutil.Element) string) error {
		name, _ := e.Attr("name")
		if err := checkName(c.r, e, name); err != nil {
			return err
		}
		if _, dup := c.frames[name]; dup {
			return c.r.Errorf(e, "name", "a second frame, link or joint with this name in model %q", c.scope)
		}
		pose, rel, err := c.pose(e)
		if err != nil {
			return err
		}
		if rel == "" {
			rel = def(e)
		}
		c.frames[name] = &frameDef{e: e, pose: pose, rel: rel}
		return nil
	}
	model := func(*xmlutil.Element) string { return "__model__" }
	for _, l := range m.All("link") {
		if err := add(l, model); err != nil {
			return err
		}
	}
	for _, j := range m.All("joint") {
		if err := add(j, func(e *xmlutil.Element) string { s, _ := c.r.ChildText(e, "child"); return s }); err != nil {
			return err
		}
	}
	for _, f := range m.All("frame") {
		if err := add(f, func(e *xmlutil.Element) string {
			if a, ok := e.Attr("attached_to"); ok && strings.TrimSpace(a) != "" {
				return strings.TrimSpace(a)
			}
			return "__model__"
		}); err != nil {
			return err
		}
	}
	return nil
}

// resolve returns the pose of frame name in the model frame. A scoped name
// of a nested model's link resolves through that link's world pose; "world"
// through the model's world pose.
func (c *ctx) resolve(name string, from *xmlutil.Element, attr string) (spatial.Pose, error) {
	f, ok := c.frames[name]
	if !ok {
		if name == "world" {
			return c.xwm.Inverse(), nil
		}
		if l := c.im.links[scoped(c.scope, name)]; l != nil {
			return c.xwm.Inverse().Compose(l.xw), nil
		}
		return spatial.Pose{}, c.r.Errorf(from, attr, "no frame %q in model %q", name, c.name)
	}
	switch f.state {
	case 2:
		return f.x, nil
	case 1:
		return spatial.Pose{}, c.r.Errorf(f.e, "", "the poses of frame %q and the frames it is relative to form a cycle", name)
	}
	f.state = 1
	base, err := c.resolve(f.rel, f.e, "")
	if err != nil {
		return spatial.Pose{}, err
	}
	f.x, f.state = base.Compose(f.pose), 2
	return f.x, nil
}

// include reads an <include>: the URI's model, renamed and placed.
func (c *ctx) include(inc *xmlutil.Element, scope string) error {
	uri, ok := c.r.ChildText(inc, "uri")
	if !ok || uri == "" {
		return c.r.Errorf(inc, "", "<include> without <uri>")
	}
	if c.im.depth >= maxIncludeDepth {
		return c.r.Errorf(inc, "", "includes nested deeper than %d (a cycle?)", maxIncludeDepth)
	}
	path, err := c.im.opts.ResolveURI(uri, c.dir)
	if err != nil {
		return c.r.TextErrorf(inc.Child("uri"), "%v", err)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		if path, err = modelFile(path, c.im.opts); err != nil {
			return c.r.TextErrorf(inc.Child("uri"), "%v", err)
		}
	}
	data, err := xmlutil.ReadFile(path)
	if err != nil {
		return c.r.TextErrorf(inc.Child("uri"), "%v", err)
	}
	root, r, err := c.im.open(path, data)
	if err != nil {
		return err
	}
	models := root.All("model")
	if len(models) != 1 {
		return r.Errorf(root, "", "an included file must hold exactly one <model>, has %d", len(models))
	}
	m := models[0]
	if n, ok := c.r.ChildText(inc, "name"); ok {
		for i := range m.Attrs {
			if m.Attrs[i].Name == "name" {
				m.Attrs[i].Value = n
			}
		}
	}
	pose, rel, err := c.pose(inc)
	if err != nil {
		return err
	}
	xp := c.xwm
	if c.frames != nil && rel != "" {
		x, err := c.resolve(rel, inc.Child("pose"), "relative_to")
		if err != nil {
			return err
		}
		xp = c.xwm.Compose(x)
	}
	sub := &ctx{im: c.im, r: r, dir: filepath.Dir(path), xwm: spatial.PoseIdentity()}
	if st, err := c.r.ChildBool(inc, "static", false); err != nil {
		return err
	} else {
		sub.static = st || c.static
	}
	c.im.depth++
	defer func() { c.im.depth-- }()
	// The include's <pose> replaces the included model's own.
	if inc.Child("pose") != nil {
		return sub.modelAt(m, scope, xp, &pose)
	}
	return sub.model(m, scope, xp)
}

var sdfNameRE = regexp.MustCompile(`<sdf[^>]*>\s*([^<\s]+)\s*</sdf>`)

// modelFile returns the SDFormat file of a model directory: the one its
// model.config names, else model.sdf (each through o.Access).
func modelFile(dir string, o model.Options) (string, error) {
	access := func(p string) (string, error) {
		if o.Access == nil {
			return p, nil
		}
		return o.Access(p)
	}
	if cfg, err := access(filepath.Join(dir, "model.config")); err == nil {
		if data, err := xmlutil.ReadFile(cfg); err == nil {
			if m := sdfNameRE.FindAllSubmatch(data, -1); len(m) > 0 {
				return access(filepath.Join(dir, string(m[len(m)-1][1])))
			}
		}
	}
	p, err := access(filepath.Join(dir, "model.sdf"))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("model directory %s has no model.config naming its file and no model.sdf", dir)
	}
	return p, nil
}
