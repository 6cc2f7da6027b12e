package mjcf

import (
	"github.com/stiction-sim/stiction/model/xmlutil"
)

// class is a default class: its own default elements by element name
// (joint, geom, site, mesh, motor, ...) and its parent class.
type class struct {
	name   string
	parent *class
	elems  map[string]*xmlutil.Element
	e      *xmlutil.Element
}

// readDefaults reads a <default> tree: the outermost unnamed one is class
// "main".
func (c *compiler) readDefaults(d *xmlutil.Element, parent *class) error {
	name, ok := d.Attr("class")
	if !ok || name == "" {
		if parent != nil {
			return c.r.Errorf(d, "class", "a nested <default> needs a class name")
		}
		name = "main"
	}
	cl := c.classes[name]
	if cl == nil {
		cl = &class{name: name, parent: parent, elems: map[string]*xmlutil.Element{}, e: d}
		c.classes[name] = cl
	} else if name != "main" || parent != nil {
		return c.r.Errorf(d, "class", "default class %q is defined twice", name)
	}
	for _, ch := range d.Children {
		if ch.Name == "default" {
			ch.MarkUsed()
			if err := c.readDefaults(ch, cl); err != nil {
				return err
			}
			continue
		}
		ch.MarkUsed()
		if old := cl.elems[ch.Name]; old != nil {
			return c.r.Errorf(ch, "", "class %q has two <%s> defaults", name, ch.Name)
		}
		cl.elems[ch.Name] = ch
	}
	return nil
}

// view is an element seen through its default class: an attribute not
// given on the element comes from the nearest class in the chain that
// defines it.
type view struct {
	e     *xmlutil.Element
	chain []*xmlutil.Element // default elements of the same kind, nearest class first
}

// view returns e seen through its class: its class attribute, else the
// childclass in force (cls), else main. kind is the element kind whose
// defaults apply (the element's own name, or e.g. "position" for an
// actuator).
func (c *compiler) view(e *xmlutil.Element, kind string, cls string) (view, error) {
	name := cls
	if n, ok := e.Attr("class"); ok {
		name = n
	}
	if name == "" {
		name = "main"
	}
	cl := c.classes[name]
	if cl == nil {
		if name != "main" {
			return view{}, c.r.Errorf(e, "class", "no default class of this name")
		}
		return view{e: e}, nil
	}
	v := view{e: e}
	for ; cl != nil; cl = cl.parent {
		if d := cl.elems[kind]; d != nil {
			v.chain = append(v.chain, d)
		}
	}
	return v, nil
}

// src returns the element that defines attribute name (the element itself
// or a default), or nil.
func (v view) src(name string) *xmlutil.Element {
	if v.e.Has(name) {
		return v.e
	}
	for _, d := range v.chain {
		if d.Has(name) {
			return d
		}
	}
	return nil
}

// has reports whether the attribute is given (directly or by default).
func (v view) has(name string) bool { return v.src(name) != nil }

// str returns the attribute's value, or def.
func (v view) str(name, def string) string {
	if s := v.src(name); s != nil {
		val, _ := s.Attr(name)
		return val
	}
	return def
}

// floats reads the attribute as n numbers (any count for n < 0), or def.
func (c *compiler) floats(v view, name string, n int, def []float64) ([]float64, error) {
	s := v.src(name)
	if s == nil {
		return def, nil
	}
	out, _, err := c.r.Floats(s, name, n)
	return out, err
}

// float reads a one-number attribute, or def.
func (c *compiler) float(v view, name string, def float64) (float64, error) {
	x, err := c.floats(v, name, 1, []float64{def})
	if err != nil {
		return def, err
	}
	return x[0], nil
}

// keyword reads a keyword attribute, or def.
func (c *compiler) keyword(v view, name, def string, allowed ...string) (string, error) {
	s := v.src(name)
	if s == nil {
		return def, nil
	}
	return c.r.Keyword(s, name, def, allowed...)
}

// supported lists, per element kind, the attributes the importer reads;
// default elements' other attributes are reported as unsupported.
var supported = map[string][]string{
	"joint":       {"class", "type", "pos", "axis", "range", "limited", "solreflimit", "solimplimit", "solreffriction", "solimpfriction", "damping", "stiffness", "armature", "frictionloss", "name", "ref", "springref", "actuatorfrcrange", "actuatorfrclimited", "margin"},
	"geom":        {"class", "type", "size", "fromto", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mesh", "hfield", "density", "mass", "shellinertia", "contype", "conaffinity", "condim", "friction", "solref", "solimp", "group", "rgba", "material", "name", "margin", "gap"},
	"site":        {"class", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "name", "size", "rgba", "group", "type"},
	"mesh":        {"class", "scale", "file", "name"},
	"material":    {"class", "rgba", "name"},
	"motor":       {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "name"},
	"position":    {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "kp", "kv", "name"},
	"velocity":    {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "kv", "name"},
	"general":     {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "gaintype", "biastype", "gainprm", "biasprm", "dyntype", "dynprm", "actlimited", "actrange", "lengthrange", "jointinparent", "name"},
	"cylinder":    {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "timeconst", "area", "diameter", "bias", "name"},
	"intvelocity": {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "kp", "actrange", "name"},
	"damper":      {"class", "joint", "jointinparent", "tendon", "gear", "ctrlrange", "forcerange", "forcelimited", "kv", "name"},
	"muscle":      {"class", "joint", "tendon", "gear", "ctrlrange", "forcerange", "ctrllimited", "forcelimited", "timeconst", "range", "force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax", "lengthrange", "name"},
	"adhesion":    {"class", "body", "gain", "ctrlrange", "forcerange", "forcelimited", "name"},
	"equality":    {"class", "solref", "solimp", "active"},
	"tendon":      {"class", "limited", "range", "stiffness", "damping", "springlength", "frictionloss", "solreflimit", "solimplimit", "margin", "rgba", "width", "material", "group", "name"},
	"pair":        {"class"},
}

// markDefaults marks the supported attributes of every default element
// used, so that only unsupported ones are reported (a supported attribute
// of a class that no element uses is not an error).
func (c *compiler) markDefaults() {
	for _, cl := range c.classes {
		for kind, d := range cl.elems {
			for _, a := range supported[kind] {
				d.Attr(a)
			}
		}
	}
}
