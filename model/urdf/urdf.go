package urdf

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// DefaultDT is the time step of an imported URDF model (URDF has none).
const DefaultDT = 1e-3

// Read imports the URDF file at path.
func Read(path string, opts model.Options) (*model.Import, error) {
	data, err := xmlutil.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("urdf: %w", err)
	}
	return Parse(path, data, opts)
}

// Parse imports the URDF document in data; path names it in messages and
// locates relative mesh files.
func Parse(path string, data []byte, opts model.Options) (*model.Import, error) {
	root, err := xmlutil.Parse(path, data)
	if err != nil {
		return nil, err
	}
	r := &xmlutil.Reader{File: path}
	if root.Name != "robot" {
		return nil, r.Errorf(root, "", "the root element must be <robot>, not <%s>", root.Name)
	}
	root.MarkUsed()
	if env := os.Getenv("ROS_PACKAGE_PATH"); env != "" {
		// ROS's list of package roots, searched after the given ones.
		opts.PackagePaths = append(slices.Clip(opts.PackagePaths), filepath.SplitList(env)...)
	}
	im := &importer{r: r, opts: opts, dir: filepath.Dir(path), out: &model.Import{Format: "urdf"}, colors: map[string][4]float64{}, fileMass: map[string]float64{}}
	if err := im.robot(root); err != nil {
		return nil, err
	}
	im.out.Scene.ApplyDefaults()
	if err := im.out.Scene.Validate(path); err != nil {
		return nil, fmt.Errorf("%s: the imported scene is invalid: %w", path, err)
	}
	if err := im.collisionFilter(); err != nil {
		return nil, err
	}
	im.out.Warnings = append(r.Warnings, xmlutil.Unused(path, root, "not supported (ignored)")...)
	return im.out, nil
}

// importer carries the state of one URDF import.
type importer struct {
	r      *xmlutil.Reader
	opts   model.Options
	dir    string
	out    *model.Import
	colors map[string][4]float64 // top-level materials
	links  map[string]*xmlutil.Element
	joints []*jointInfo
	child  map[string]*jointInfo // joint by child link
	// worldRoot: the root link is named world and stands for the world.
	worldRoot bool
	damped    []dampedJoint // joints with damping, in link order
	// excludedSet holds the scene's excluded pairs, both orders.
	excludedSet map[[2]string]bool
	// fileMass is each visited link's mass as the file gives it (after
	// inertia repairs, before a massless link's floor).
	fileMass map[string]float64
}

// robot reads the whole document.
func (im *importer) robot(root *xmlutil.Element) error {
	name, _ := root.Attr("name")
	if strings.TrimSpace(name) == "" {
		name = strings.TrimSuffix(filepath.Base(im.r.File), filepath.Ext(im.r.File))
	}
	im.out.Scene = model.NewScene(name, DefaultDT)
	for _, m := range root.All("material") {
		if err := im.topMaterial(m); err != nil {
			return err
		}
	}
	im.renameLinks(root)
	if err := im.readLinks(root); err != nil {
		return err
	}
	if err := im.readJoints(root); err != nil {
		return err
	}
	order, err := im.order(root)
	if err != nil {
		return err
	}
	for _, l := range order {
		if err := im.body(l); err != nil {
			return err
		}
	}
	if im.opts.Floating {
		if err := model.LumpFloatingRoot(im.out.Scene); err != nil {
			return im.r.Errorf(order[0], "", "floating root: %v", err)
		}
	}
	im.chooseScheme()
	for _, t := range root.All("transmission") {
		if err := im.transmission(t); err != nil {
			return err
		}
	}
	for _, f := range root.All("frame") {
		if err := im.frame(f); err != nil {
			return err
		}
	}
	for _, g := range root.All("drake:collision_filter_group") {
		if err := im.filterGroup(g, root); err != nil {
			return err
		}
	}
	return nil
}

// topMaterial reads a top-level <material name><color rgba/></material>.
func (im *importer) topMaterial(m *xmlutil.Element) error {
	name, err := im.r.Required(m, "name")
	if err != nil {
		return err
	}
	if c := m.Child("color"); c != nil {
		rgba, _, err := im.r.Floats(c, "rgba", 4)
		if err != nil {
			return err
		}
		if rgba == nil {
			return im.r.Errorf(c, "rgba", "missing (required)")
		}
		im.colors[name] = [4]float64(rgba)
	}
	return nil
}

// renameLinks replaces '.', '=', '[' and ']' in link names (Allegro's
// link_0.0), which a body name cannot hold (it is a --set path segment),
// by '_', in the links and in every reference to them, with a warning.
func (im *importer) renameLinks(root *xmlutil.Element) {
	taken := map[string]bool{}
	for _, l := range root.All("link") {
		n, _ := l.Attr("name")
		taken[n] = true
	}
	renamed := map[string]string{}
	for _, l := range root.All("link") {
		n, _ := l.Attr("name")
		if !strings.ContainsAny(n, ".=[]") {
			continue
		}
		nn := strings.NewReplacer(".", "_", "=", "_", "[", "_", "]", "_").Replace(n)
		for taken[nn] {
			nn += "_"
		}
		taken[nn] = true
		renamed[n] = nn
		im.r.Warnf(l, "name", "link %q renamed %q: a body name cannot hold '.', '=', '[' or ']'", n, nn)
	}
	if len(renamed) == 0 {
		return
	}
	var walk func(e *xmlutil.Element)
	walk = func(e *xmlutil.Element) {
		attr := "link"
		if e.Name == "link" && e.Parent == root {
			attr = "name"
		}
		for i := range e.Attrs {
			if a := &e.Attrs[i]; a.Name == attr {
				if nn, ok := renamed[a.Value]; ok {
					a.Value = nn
				}
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(root)
}

// readLinks indexes the links by name.
func (im *importer) readLinks(root *xmlutil.Element) error {
	im.links = map[string]*xmlutil.Element{}
	for _, l := range root.All("link") {
		name, err := im.r.Required(l, "name")
		if err != nil {
			return err
		}
		if _, dup := im.links[name]; dup {
			return im.r.Errorf(l, "name", "a second link with this name (link names must be unique)")
		}
		if strings.ContainsAny(name, ",\"\n\r") {
			return im.r.Errorf(l, "name", "a link name must not contain commas, quotes or line breaks (it names a body, a column of the trajectory output)")
		}
		im.links[name] = l
	}
	if len(im.links) == 0 {
		return im.r.Errorf(root, "", "no <link> (a robot needs at least one)")
	}
	return nil
}

// order returns the links parent-first, depth first in joint file order,
// and checks that they form one tree.
func (im *importer) order(root *xmlutil.Element) ([]*xmlutil.Element, error) {
	var roots []*xmlutil.Element
	for _, l := range root.Children {
		if l.Name != "link" {
			continue
		}
		name, _ := l.Attr("name")
		if im.child[name] == nil {
			roots = append(roots, l)
		}
	}
	switch {
	case len(roots) == 0:
		return nil, im.r.Errorf(root, "", "the joints form a cycle: every link is some joint's child")
	case len(roots) > 1:
		var names []string
		for _, l := range roots {
			n, _ := l.Attr("name")
			names = append(names, fmt.Sprintf("%s (line %d)", n, l.Line))
		}
		return nil, im.r.Errorf(roots[1], "", "several root links (%s): the links must form one tree joined by joints", strings.Join(names, ", "))
	}
	if n, _ := roots[0].Attr("name"); n == worldLink {
		// A root link named world is the world itself (DART, Pinocchio and
		// Gazebo read it so): its joints attach the robot to the world.
		im.worldRoot = true
		if in := roots[0].Child("inertial"); in != nil {
			in.MarkAllUsed()
			im.r.Warnf(in, "", "the link \"world\" is the world: its <inertial> is ignored")
		}
		for _, tag := range []string{"visual", "collision"} {
			for _, g := range roots[0].All(tag) {
				g.MarkAllUsed()
				im.r.Warnf(g, "", "the link \"world\" is the world: its <%s> is ignored", tag)
			}
		}
		var fixed []string
		for _, j := range im.joints {
			if j.parent == worldLink && j.typ == "fixed" {
				fixed = append(fixed, j.name)
			}
		}
		if im.opts.Floating && len(fixed) != 1 {
			im.r.Warnf(roots[0], "", "floating root asked for, but the robot is attached to the link \"world\" by %d fixed joints: it stays attached", len(fixed))
			im.opts.Floating = false
		}
	}
	var out []*xmlutil.Element
	var visit func(l *xmlutil.Element)
	visit = func(l *xmlutil.Element) {
		out = append(out, l)
		name, _ := l.Attr("name")
		for _, j := range im.joints {
			if j.parent == name {
				visit(im.links[j.childLink])
			}
		}
	}
	visit(roots[0])
	if im.worldRoot {
		out = out[1:]
		if len(out) == 0 {
			return nil, im.r.Errorf(roots[0], "", "the only link is \"world\" (the world itself): the robot has no body")
		}
	}
	if len(out)+btoi(im.worldRoot) != len(im.links) {
		for _, j := range im.joints {
			if !contains(out, im.links[j.childLink]) {
				return nil, im.r.Errorf(j.e, "", "joint %q is part of a cycle of joints (link %q is not reachable from the root)", j.name, j.childLink)
			}
		}
	}
	return out, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// worldLink is the name of a root link that stands for the world.
const worldLink = "world"

func contains(es []*xmlutil.Element, e *xmlutil.Element) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// body adds the scene body of link l.
func (im *importer) body(l *xmlutil.Element) error {
	name, _ := l.Attr("name")
	b := scene.Body{Name: name}
	link, err := im.inertial(l)
	if err != nil {
		return err
	}
	link.Name = name
	im.fileMass[name] = link.Mass
	j := im.child[name]
	toWorld := j != nil && im.worldRoot && j.parent == worldLink
	switch {
	case j == nil && im.opts.Floating:
	case j == nil:
		b.Fixed = true
		link.Welded = true
	case toWorld && j.typ == "fixed":
		// The weld to the world link: this link is the robot's base.
		x, err := im.origin(j.e)
		if err != nil {
			return err
		}
		if a := j.e.Child("axis"); a != nil {
			a.MarkAllUsed()
		}
		b.Pose = *model.PoseToScene(x)
		if !im.opts.Floating {
			b.Fixed = true
			link.Welded = true
		}
	default:
		if err := im.joint(j, &b); err != nil {
			return err
		}
		link.Welded = j.typ == "fixed" && im.welded(j.parent)
	}
	if err := im.geometries(l, &b); err != nil {
		return err
	}
	if !b.Fixed && link.Mass == 0 && j != nil && !link.Welded && j.typ != "fixed" {
		// A massless link on a moving joint: DART and Pinocchio take it as
		// written (zero mass, its inertia kept); the engine needs a
		// positive mass (see inertia.go, MinMass and ShapedMinMass).
		r := extent(&b)
		link.Mass = MinMass
		if r > 0 && len(b.Collisions) > 0 {
			link.Mass = max(MinMass, ShapedMinMass*im.ancestorMass(name))
		}
		switch {
		case link.Inertia != (spatial.Mat3{}):
			link.Repaired = fmt.Sprintf("no mass on a moving joint: mass %.3g kg, its inertia kept", link.Mass)
		case r > 0:
			// A sphere of water of 1e-9 kg (r = 62 µm) would put its
			// contacts' effective mass at 1e-16 kg: the link rotates
			// freely while its shapes touch, and contact stiffness
			// scaled by that mass stalls the solver (Bravo-7's fingers).
			link.Inertia = radiusInertia(link.Mass, r)
			link.Repaired = fmt.Sprintf("no mass on a moving joint: mass %.3g kg and the inertia of a solid sphere of that mass of radius %.3g m, which holds its shapes", link.Mass, r)
		default:
			link.Inertia = sphereInertia(link.Mass)
			link.Repaired = fmt.Sprintf("no mass on a moving joint: mass %.3g kg and the inertia of a solid sphere of water of that mass", link.Mass)
		}
		im.r.Warnf(l, "", "link %q has no mass but moves on its %s joint %q: %s", name, j.typ, j.name, link.Repaired)
	}
	if !b.Fixed && link.Mass > 0 {
		b.Mass = &link.Mass
		c := scene.Vec(link.COM) // explicit, even at the origin: the shapes do not move it
		b.COM = &c
		b.Inertia = model.MatrixInertia(link.Inertia)
	} else if !b.Fixed && !link.Welded && link.Mass == 0 && link.Inertia != (spatial.Mat3{}) {
		// Massless, with an inertia, welded to a moving link (bolt's
		// feet): DART keeps the inertia; the engine needs a mass to carry
		// it, so the link gets WeldedMinMass (merged into its parent).
		link.Mass = WeldedMinMass
		link.Repaired = fmt.Sprintf("an inertia but no mass, on a fixed joint: mass %g kg, its inertia kept", WeldedMinMass)
		im.r.Warnf(l, "", "link %q has %s", name, link.Repaired)
		b.Mass = &link.Mass
		c := scene.Vec(link.COM)
		b.COM = &c
		b.Inertia = model.MatrixInertia(link.Inertia)
	}
	im.out.Links = append(im.out.Links, link)
	im.out.Scene.Bodies = append(im.out.Scene.Bodies, b)
	return nil
}

// ancestorMass returns the file's mass of the nearest ancestor of link
// name that has one, 0 when none has.
func (im *importer) ancestorMass(name string) float64 {
	for j := im.child[name]; j != nil; j = im.child[j.parent] {
		if m := im.fileMass[j.parent]; m > 0 {
			return m
		}
	}
	return 0
}

// frame reads a Drake <frame name link xyz rpy/> as a site.
func (im *importer) frame(f *xmlutil.Element) error {
	name, err := im.r.Required(f, "name")
	if err != nil {
		return err
	}
	link, err := im.r.Required(f, "link")
	if err != nil {
		return err
	}
	if im.links[link] == nil {
		return im.r.Errorf(f, "link", "no link of this name")
	}
	xyz, err := im.r.Vec3(f, "xyz", [3]float64{})
	if err != nil {
		return err
	}
	rpy, err := im.r.Vec3(f, "rpy", [3]float64{})
	if err != nil {
		return err
	}
	im.out.Sites = append(im.out.Sites, model.Site{Name: name, Body: link, Pose: spatial.Pose{R: model.RPY(rpy[0], rpy[1], rpy[2]), P: xyz}})
	return nil
}

// welded reports whether link is welded to the world (the welded root, or
// fixed joints up to it).
func (im *importer) welded(link string) bool {
	for {
		j := im.child[link]
		if j == nil {
			return !im.opts.Floating
		}
		if im.worldRoot && j.parent == worldLink && j.typ != "fixed" {
			return false
		}
		if j.typ != "fixed" {
			return false
		}
		link = j.parent
	}
}
