package mjcf

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/model/xmlutil"
)

// A <composite> is expanded, before the model is compiled, into the plain
// MJCF elements MuJoCo 2.2.2's compiler makes of it (src/user/
// user_composite.cc, read through src/xml/xml_native_reader.cc's
// OneComposite): bodies, geoms, joints and sites spliced into the tree
// right after the <composite> element, and the tendons, equality
// constraints and contact exclusions it adds to the model in <tendon>,
// <equality> and <contact> sections placed before the file's own (MuJoCo adds them while it reads
// the world body, before those sections). The rest of the importer then
// reads them like any other element.
//
// Every type of MuJoCo 2.2.2 is expanded: particle, grid, rope, loop,
// cloth, and the soft box, cylinder and ellipsoid (a tendon equality on
// the straight spatial tendons of grids and cloths becomes a distance
// constraint, siteDistance); another type is an error naming the line.

// compositeClass is the default class of the generated elements: it has no
// elements and no parent, so they take MuJoCo's built-in defaults and none
// of the file's, as MuJoCo builds them from a fresh mjCDef. A NUL byte
// cannot occur in an XML attribute, so no file can name it.
const compositeClass = "\x00composite"

// composite is one <composite> being expanded.
type composite struct {
	c       *compiler
	e       *xmlutil.Element
	typ     string
	prefix  string
	count   [3]int
	spacing float64
	flat    float64 // flatinertia (cloth)
	offset  [3]float64
	// geom and joints are the composite's <geom> and <joint kind=…>
	// children by kind (main, twist, stretch), nil where absent.
	geom, site      *xmlutil.Element
	joints, tendons map[string]*xmlutil.Element
	pins            [][2]int // <pin coord>: grid elements without joints
	skin            bool
	// smoothRef and smoothImp are solrefsmooth and solimpsmooth (the loop's
	// closing connect constraint).
	smoothRef, smoothImp string
	// eqs, excludes and spatial are the model-level elements generated.
	eqs, excludes, spatial []*xmlutil.Element
}

// MuJoCo 2.2.2's built-in equality softness (mj_defaultSolRefImp).
var (
	defaultSolref = [2]float64{0.02, 1}
	defaultSolimp = [5]float64{0.9, 0.95, 0.001, 0.5, 2}
)

// expandComposites expands every supported <composite> under the world
// body.
func (c *compiler) expandComposites() error {
	c.classes[compositeClass] = &class{name: compositeClass, elems: map[string]*xmlutil.Element{}}
	var eqs, excludes, spatial []*xmlutil.Element
	var walk func(e *xmlutil.Element) error
	walk = func(e *xmlutil.Element) error {
		var out []*xmlutil.Element
		for _, ch := range e.Children {
			out = append(out, ch)
			if ch.Name != "composite" || (e.Name != "body" && e.Name != "worldbody") {
				if err := walk(ch); err != nil {
					return err
				}
				continue
			}
			typ, err := c.r.Keyword(ch, "type", "", "particle", "grid", "rope", "loop", "cloth", "box", "cylinder", "ellipsoid")
			if err != nil {
				return err
			}
			if typ == "" {
				return c.r.Errorf(ch, "type", "required")
			}
			k, err := c.readComposite(ch, typ)
			if err != nil {
				return err
			}
			gen, err := k.make(e)
			if err != nil {
				return err
			}
			for _, g := range gen {
				g.Parent = e
			}
			out = append(out, gen...)
			eqs, excludes, spatial = append(eqs, k.eqs...), append(excludes, k.excludes...), append(spatial, k.spatial...)
		}
		e.Children = out
		return nil
	}
	for _, w := range c.root.Children {
		if w.Name == "worldbody" {
			if err := walk(w); err != nil {
				return err
			}
		}
	}
	var head []*xmlutil.Element
	if len(spatial) > 0 {
		head = append(head, c.section("tendon", spatial))
	}
	if len(eqs) > 0 {
		head = append(head, c.section("equality", eqs))
	}
	if len(excludes) > 0 {
		head = append(head, c.section("contact", excludes))
	}
	c.root.Children = append(head, c.root.Children...)
	return nil
}

// section returns a generated model section <name> holding children.
func (c *compiler) section(name string, children []*xmlutil.Element) *xmlutil.Element {
	s := &xmlutil.Element{Name: name, Line: children[0].Line, File: children[0].File, Parent: c.root, Children: children}
	for _, ch := range children {
		ch.Parent = s
	}
	s.MarkUsed()
	return s
}

// readComposite reads the attributes and children of a <composite> of a
// supported type (OneComposite).
func (c *compiler) readComposite(e *xmlutil.Element, typ string) (*composite, error) {
	e.MarkUsed()
	k := &composite{c: c, e: e, typ: typ, count: [3]int{1, 1, 1}, joints: map[string]*xmlutil.Element{}, tendons: map[string]*xmlutil.Element{}}
	k.prefix, _ = e.Attr("prefix")
	cnt, ok, err := c.r.Floats(e, "count", 3)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, c.r.Errorf(e, "count", "required")
	}
	for i, x := range cnt {
		if x != math.Trunc(x) || x < 1 || x > 1e4 {
			return nil, c.r.Errorf(e, "count", "want three positive integers (at most 10000)")
		}
		k.count[i] = int(x)
	}
	if k.count[0]*k.count[1]*k.count[2] > 1e4 {
		return nil, c.r.Errorf(e, "count", "%d bodies: at most 10000 are accepted", k.count[0]*k.count[1]*k.count[2])
	}
	if _, err := c.r.Required(e, "spacing"); err != nil {
		return nil, err
	}
	if k.spacing, err = c.r.Float(e, "spacing", 0); err != nil {
		return nil, err
	}
	if !(k.spacing >= 1e-15) || math.IsInf(k.spacing, 0) {
		return nil, c.r.Errorf(e, "spacing", "a positive spacing expected in composite")
	}
	if k.offset, err = c.r.Vec3(e, "offset", [3]float64{}); err != nil {
		return nil, err
	}
	if k.flat, err = c.r.Float(e, "flatinertia", 0); err != nil {
		return nil, err
	}
	if err := k.readSmooth(); err != nil {
		return nil, err
	}
	if err := k.readChildren(); err != nil {
		return nil, err
	}
	return k, k.check()
}

// readSmooth reads solrefsmooth and solimpsmooth after the type's default
// (SetDefault: a loop's closing constraint is hard, AdjustSoft level 0).
func (k *composite) readSmooth() error {
	ref, imp := defaultSolref, defaultSolimp
	switch {
	case k.typ == "loop": // hard (AdjustSoft level 0)
		ref[0], imp[0], imp[1] = 0.01, 0.99, 0.99
	case softBoxTypes[k.typ]: // soft (level 1)
		ref[0], imp[0], imp[1] = 0.02, 0.9, 0.9
	}
	var err error
	if k.smoothRef, err = k.override(k.e, "solrefsmooth", ref[:]); err != nil {
		return err
	}
	k.smoothImp, err = k.override(k.e, "solimpsmooth", imp[:])
	return err
}

// override returns the numbers def with the leading ones replaced by those
// attribute attr of e gives (MuJoCo reads fewer than all), formatted.
func (k *composite) override(e *xmlutil.Element, attr string, def []float64) (string, error) {
	out := append([]float64(nil), def...)
	if e.Has(attr) {
		s, _ := e.Attr(attr)
		v, err := xmlutil.ParseFloats(s, -1)
		if err != nil || len(v) == 0 || len(v) > len(def) {
			return "", k.c.r.Errorf(e, attr, "want 1 to %d numbers", len(def))
		}
		copy(out, v)
	}
	return formatFloats(out), nil
}

// readChildren reads the <geom>, <joint kind>, <site>, <skin> and <pin>
// children.
func (k *composite) readChildren() error {
	for _, ch := range k.e.Children {
		switch ch.Name {
		case "geom":
			if k.geom == nil {
				ch.MarkUsed()
				k.geom = ch
			}
		case "joint", "tendon":
			kinds, into := []string{"main", "twist", "stretch"}, k.joints
			if ch.Name == "tendon" {
				kinds, into = []string{"main", "shear"}, k.tendons
			}
			ch.MarkUsed()
			kind, err := k.c.r.Keyword(ch, "kind", "", kinds...)
			if err != nil {
				return err
			}
			if kind == "" {
				return k.c.r.Errorf(ch, "kind", "required (%s)", strings.Join(kinds, ", "))
			}
			into[kind] = ch
		case "site":
			if k.site == nil {
				ch.MarkUsed()
				k.site = ch
			}
		case "pin":
			ch.MarkUsed()
			v, ok, err := k.c.r.Floats(ch, "coord", -1)
			if err != nil || !ok || len(v) < 1 || len(v) > 2 || v[0] != math.Trunc(v[0]) || len(v) == 2 && v[1] != math.Trunc(v[1]) {
				return k.c.r.Errorf(ch, "coord", "want one or two integers")
			}
			p := [2]int{int(v[0]), 0}
			if len(v) == 2 {
				p[1] = int(v[1])
			}
			k.pins = append(k.pins, p)
		case "skin":
			ch.MarkAllUsed() // visual only: MuJoCo's skin does not take part in the simulation
			k.skin = true
		}
	}
	return nil
}

// check applies MuJoCo's checks of Make and of the type's maker.
func (k *composite) check() error {
	if gt := k.geomType(); gt != "sphere" && gt != "capsule" && gt != "ellipsoid" {
		return k.c.r.Errorf(k.geom, "type", "a composite's geom must be a sphere, capsule or ellipsoid")
	}
	dim, single := 0, false
	for _, n := range k.count {
		if n == 1 {
			single = true
			continue
		}
		if single {
			return k.c.r.Errorf(k.e, "count", "singleton counts must come last")
		}
		dim++
	}
	switch {
	case softBoxTypes[k.typ] && dim != 3:
		return k.c.r.Errorf(k.e, "count", "a %s must be three-dimensional", k.typ)
	case k.typ == "cloth" && dim != 2:
		return k.c.r.Errorf(k.e, "count", "a cloth must be two-dimensional")
	case (k.typ == "rope" || k.typ == "loop") && dim != 1:
		return k.c.r.Errorf(k.e, "count", "a %s must be one-dimensional", k.typ)
	case k.typ == "grid" && dim > 2:
		return k.c.r.Errorf(k.e, "count", "a grid can only be 1-D or 2-D")
	case k.tendons["shear"] != nil && dim != 2:
		return k.c.r.Errorf(k.tendons["shear"], "kind", "shear requires a 2-D grid")
	case k.typ == "grid" && k.skin && dim != 2:
		return k.c.r.Errorf(k.e, "count", "a skin requires a 2-D grid")
	}
	return nil
}

// make returns the elements the composite adds to its parent body (or the
// world body) p.
func (k *composite) make(p *xmlutil.Element) ([]*xmlutil.Element, error) {
	switch k.typ {
	case "particle":
		return k.particles(), nil
	case "grid":
		return k.grid()
	case "cloth":
		return k.cloth(p)
	case "box", "cylinder", "ellipsoid":
		return k.softBox(p)
	default:
		return k.rope(p)
	}
}

// elem returns a generated element with the composite's file and line,
// and the given attributes (name, value pairs; an empty value is left out).
func (k *composite) elem(name string, attrs ...string) *xmlutil.Element {
	e := &xmlutil.Element{Name: name, Line: k.e.Line, File: k.e.File}
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i+1] != "" {
			e.Attrs = append(e.Attrs, xmlutil.Attr{Name: attrs[i], Value: attrs[i+1], Line: k.e.Line})
		}
	}
	return e
}

// add appends children to e, setting their parent.
func add(e *xmlutil.Element, children ...*xmlutil.Element) {
	for _, ch := range children {
		ch.Parent = e
	}
	e.Children = append(e.Children, children...)
}

// copied returns, as name, value pairs, the attributes of the composite's
// child src that MuJoCo carries onto the elements it generates.
func copied(src *xmlutil.Element, names ...string) []string {
	var out []string
	if src == nil {
		return nil
	}
	for _, n := range names {
		if v, ok := src.Attr(n); ok {
			out = append(out, n, v)
		}
	}
	return out
}

// compositeGeomAttrs are the <geom> attributes of a composite that MuJoCo
// 2.2.2 reads (OneComposite); type is handled by the makers.
var compositeGeomAttrs = []string{"size", "contype", "conaffinity", "condim", "group", "priority", "friction", "solmix", "solref", "solimp", "margin", "gap", "material", "rgba", "mass", "density"}

// compositeJointAttrs are the <joint kind> attributes of a composite that
// MuJoCo 2.2.2 carries onto its joints. Its limited is read from the
// <composite> element, which has none, so a joint's limited is not
// carried (and is reported unread).
var compositeJointAttrs = []string{"group", "solreflimit", "solimplimit", "solreffriction", "solimpfriction", "stiffness", "range", "margin", "armature", "damping", "frictionloss"}

// geomElem returns a generated geom of the given type, name and frame,
// with the composite's geom attributes (and the type's defaults, SetDefault).
func (k *composite) geomElem(typ, name, pos, quat string) *xmlutil.Element {
	attrs := []string{"class", compositeClass, "name", name, "type", typ, "pos", pos, "quat", quat}
	if k.typ == "particle" { // no friction with anything: condim 1, priority 1
		for _, a := range []string{"condim", "priority"} {
			if k.geom == nil || !k.geom.Has(a) {
				attrs = append(attrs, a, "1")
			}
		}
	}
	if softBoxTypes[k.typ] && (k.geom == nil || !k.geom.Has("contype")) { // no self-collisions
		attrs = append(attrs, "contype", "0")
	}
	attrs = append(attrs, copied(k.geom, compositeGeomAttrs...)...)
	return k.elem("geom", attrs...)
}

// jointElem returns a generated joint of the composite's kind (main,
// twist, stretch).
func (k *composite) jointElem(kind, name, typ, pos, axis string) *xmlutil.Element {
	attrs := []string{"class", compositeClass, "name", name, "type", typ, "pos", pos, "axis", axis}
	attrs = append(attrs, copied(k.joints[kind], compositeJointAttrs...)...)
	return k.elem("joint", attrs...)
}

// particles makes count bodies on the grid spacing·(i − count/2) + offset,
// each with three slide joints along x, y, z and a sphere (MakeParticle).
// MuJoCo names none of them.
func (k *composite) particles() []*xmlutil.Element {
	var out []*xmlutil.Element
	for ix := 0; ix < k.count[0]; ix++ {
		for iy := 0; iy < k.count[1]; iy++ {
			for iz := 0; iz < k.count[2]; iz++ {
				var pos [3]float64
				for i, n := range [3]int{ix, iy, iz} {
					pos[i] = k.offset[i] + k.spacing*(float64(n)-0.5*float64(k.count[i]))
				}
				b := k.elem("body", "pos", formatFloats(pos[:]))
				for _, axis := range []string{"1 0 0", "0 1 0", "0 0 1"} {
					add(b, k.jointElem("main", "", "slide", "0 0 0", axis))
				}
				add(b, k.geomElem("sphere", "", "0 0 0", ""))
				b.MarkAllUsed()
				out = append(out, b)
			}
		}
	}
	return out
}

// formatFloats formats numbers so that they read back exactly.
func formatFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, " ")
}

// rope makes a rope or loop (MakeRope): the root body p, named prefix+"B"
// and its index, gets the geom of its index; the bodies to its right and
// to its left hang from it in two chains, each a child of the previous one.
func (k *composite) rope(p *xmlutil.Element) ([]*xmlutil.Element, error) {
	ox, err := k.rootIndex(p)
	if err != nil {
		return nil, err
	}
	root := k.ropeGeom(ox)
	root.MarkAllUsed()
	out := []*xmlutil.Element{root}
	for _, dir := range []int{1, -1} { // right, then left
		if end := ox + dir; end < 0 || end >= k.count[0] {
			continue
		}
		b, err := k.ropeChain(ox, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if k.typ == "loop" {
		first, last := k.prefix+"B0", fmt.Sprintf("%sB%d", k.prefix, k.count[0]-1)
		eq := k.elem("connect", "body1", first, "body2", last, "anchor", formatFloats([]float64{-0.5 * k.spacing, 0, 0}),
			"solref", k.smoothRef, "solimp", k.smoothImp)
		ex := k.elem("exclude", "body1", first, "body2", last)
		eq.MarkAllUsed()
		ex.MarkAllUsed()
		k.eqs, k.excludes = append(k.eqs, eq), append(k.excludes, ex)
	}
	return out, nil
}

// rootIndex reads the index of the rope's root body from its name,
// prefix+"B"+index (MakeRope).
func (k *composite) rootIndex(p *xmlutil.Element) (int, error) {
	name, _ := p.Attr("name")
	head := k.prefix + "B"
	if p.Name != "body" || !strings.HasPrefix(name, head) {
		return 0, k.c.r.Errorf(k.e, "", "%s must be the beginning of the name of the %s's body (%q)", head, k.typ, name)
	}
	digits := strings.TrimSpace(name[len(head):])
	end := 0
	for end < len(digits) && (digits[end] >= '0' && digits[end] <= '9' || end == 0 && (digits[0] == '-' || digits[0] == '+')) {
		end++
	}
	ox, err := strconv.Atoi(digits[:end])
	if err != nil {
		return 0, k.c.r.Errorf(k.e, "", "the name of the %s's body (%q) must contain its X coordinate after %s", k.typ, name, head)
	}
	if ox < 0 || ox >= k.count[0] {
		return 0, k.c.r.Errorf(k.e, "count", "the %s's body %q is out of range (count %d)", k.typ, name, k.count[0])
	}
	return ox, nil
}

// ropeChain returns the chain of bodies from index ox+dir to the end
// (dir +1) or to 0 (dir −1), each the child of the one before.
func (k *composite) ropeChain(ox, dir int) (*xmlutil.Element, error) {
	var first, prev *xmlutil.Element
	for ix := ox; ix+dir >= 0 && ix+dir < k.count[0]; ix += dir {
		b, err := k.ropeBody(ix, ix+dir)
		if err != nil {
			return nil, err
		}
		if prev == nil {
			first = b
		} else {
			add(prev, b)
		}
		prev = b
	}
	return first, nil
}

// ropeGeom is the geom of rope element ix, along the body's x axis.
func (k *composite) ropeGeom(ix int) *xmlutil.Element {
	q := math.Sqrt(0.5)
	return k.geomElem(k.geomType(), fmt.Sprintf("%sG%d", k.prefix, ix), "0 0 0", formatFloats([]float64{q, 0, q, 0}))
}

// geomType is the type of the composite's geom (default sphere).
func (k *composite) geomType() string {
	if k.geom == nil || !k.geom.Has("type") {
		return "sphere"
	}
	t, _ := k.geom.Attr("type")
	return strings.TrimSpace(t)
}

// ropeBody returns rope element ix1, the child of element ix
// (AddRopeBody): placed spacing along x from it (a loop's bodies turn by
// 2π/count about z on a circle), with two hinges about its y and z axes
// midway to its parent, and the twist and stretch joints if asked for.
func (k *composite) ropeBody(ix, ix1 int) (*xmlutil.Element, error) {
	dx := k.spacing * float64(ix1-ix)
	pos, quat := formatFloats([]float64{dx, 0, 0}), ""
	if k.typ == "loop" {
		alpha := 2 * math.Pi / float64(k.count[0])
		r := 0.5 * k.spacing * math.Sin(math.Pi-alpha) / math.Sin(0.5*alpha)
		half := 0.5 * alpha
		if ix1 < ix {
			half = -half
		}
		pos = formatFloats([]float64{math.Copysign(r*math.Cos(0.5*alpha), dx), r * math.Sin(0.5*alpha), 0})
		quat = formatFloats([]float64{math.Cos(half), 0, 0, math.Sin(half)})
	}
	b := k.elem("body", "name", fmt.Sprintf("%sB%d", k.prefix, ix1), "pos", pos, "quat", quat)
	jpos := formatFloats([]float64{-0.5 * dx, 0, 0})
	add(b, k.ropeGeom(ix1))
	for i, axis := range []string{"0 1 0", "0 0 1"} {
		add(b, k.jointElem("main", fmt.Sprintf("%sJ%d_%d", k.prefix, i, ix1), "hinge", jpos, axis))
	}
	if err := k.extraJoints(b, fmt.Sprint(ix1), jpos, "1 0 0"); err != nil {
		return nil, err
	}
	b.MarkAllUsed()
	return b, nil
}

// extraJoints adds to body b the twist hinge JT<suffix> and the stretch
// slide JS<suffix> along axis at pos, when the composite asks for them,
// each held at 0 by a joint equality with its kind's solreffix and
// solimpfix (AddRopeBody, AddClothBody).
func (k *composite) extraJoints(b *xmlutil.Element, suffix, pos, axis string) error {
	for _, x := range []struct{ kind, name, typ string }{
		{"twist", "JT", "hinge"}, {"stretch", "JS", "slide"},
	} {
		if k.joints[x.kind] == nil {
			continue
		}
		name := k.prefix + x.name + suffix
		add(b, k.jointElem(x.kind, name, x.typ, pos, axis))
		eq, err := k.fixed(k.joints[x.kind], "joint", "joint1", name, defaultSolref[:], defaultSolimp[:])
		if err != nil {
			return err
		}
		k.eqs = append(k.eqs, eq)
	}
	return nil
}

// fixed returns the equality <kind attr=name> that holds a generated joint
// or tendon at its initial value, with the solreffix and solimpfix of the
// composite's child src (nil: none) over the defaults ref and imp.
func (k *composite) fixed(src *xmlutil.Element, kind, attr, name string, ref, imp []float64) (*xmlutil.Element, error) {
	r, i := formatFloats(ref), formatFloats(imp)
	var err error
	if src != nil {
		if r, err = k.override(src, "solreffix", ref); err != nil {
			return nil, err
		}
		if i, err = k.override(src, "solimpfix", imp); err != nil {
			return nil, err
		}
	}
	eq := k.elem(kind, "class", compositeClass, attr, name, "solref", r, "solimp", i)
	eq.MarkAllUsed()
	return eq, nil
}
