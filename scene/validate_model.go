package scene

import (
	"math"
	"strings"

	"github.com/stiction-sim/stiction/multibody"
)

// massless reports whether the body is a massless frame welded to a moving
// parent (a URDF link without inertial on a fixed joint): it needs no mass.
func (b *Body) massless() bool {
	return b.Joint != nil && b.Joint.Type == "weld" && !isWorld(b.Joint.Parent) &&
		b.Density == nil && b.Mass == nil && b.Inertia == nil
}

// needsMaterial reports whether some collision shape of the body takes the
// body's material.
func (b *Body) needsMaterial() bool {
	if b.Shape != nil {
		return true
	}
	for _, c := range b.Collisions {
		if c.Material == "" {
			return true
		}
	}
	return false
}

// shapeExtra checks the ellipsoid and mesh fields of a shape; check is
// validator.shape's helper for a field index of shapeFields.
func (v *validator) shapeExtra(p string, sh *Shape, want [6]bool, check func(int, string, bool, string, func())) {
	var radii, scale Vec
	if sh.Radii != nil {
		radii = *sh.Radii
	}
	if sh.Scale != nil {
		scale = *sh.Scale
	}
	check(3, "radii", sh.Radii != nil, fvec(radii[:]), func() {
		for i, x := range radii {
			if finite(x) && x <= 0 {
				v.add(p+".radii", "%s: every semi-axis must be positive (element %d is %s)", fvec(radii[:]), i, fnum(x))
				return
			}
		}
	})
	switch {
	case sh.Vertices != nil && sh.Type != "mesh":
		v.add(p+".vertices", "not allowed for a %s (only a mesh takes vertices)", sh.Type)
	case sh.Vertices != nil && sh.File != "":
		v.add(p, "file %q and vertices given; a mesh takes one of them", sh.File)
	case sh.Vertices != nil:
		if len(sh.Vertices) < 4 {
			v.add(p+".vertices", "%d points; a convex hull needs at least 4", len(sh.Vertices))
		}
		for i, x := range sh.Vertices {
			if !finite(x[0]) || !finite(x[1]) || !finite(x[2]) {
				v.add(indexPath(p+".vertices", i), "%s must be finite", fvec(x[:]))
			}
		}
	default:
		check(4, "file", sh.File != "", sh.File, func() {})
	}
	v.heightField(p, sh)
	if !want[5] && sh.Scale != nil {
		v.add(p+".scale", "%s not allowed for a %s (only a mesh takes a scale)", fvec(scale[:]), sh.Type)
	} else if sh.Scale != nil {
		for i, x := range scale {
			if finite(x) && x == 0 {
				v.add(p+".scale", "%s: scale element %d is 0 (the mesh would be flat)", fvec(scale[:]), i)
				return
			}
		}
	}
}

// collisionBits checks contype and conaffinity: integers in [0, 2³²).
func (v *validator) collisionBits(p string, contype, conaffinity *int) {
	for _, f := range []struct {
		name string
		x    *int
	}{{"contype", contype}, {"conaffinity", conaffinity}} {
		if f.x != nil && (*f.x < 0 || *f.x > math.MaxUint32) {
			v.add(p+"."+f.name, "%d must be in [0, 4294967295] (a 32-bit mask)", *f.x)
		}
	}
}

// collisions checks a body's extra collision shapes.
func (v *validator) collisions(p string, b *Body, mats map[string]Material) {
	for i := range b.Collisions {
		c := &b.Collisions[i]
		cp := indexPath(p+".collisions", i)
		if c.Shape == nil {
			v.add(cp+".shape", "missing (required)")
		} else {
			v.shape(cp+".shape", c.Shape)
			if (c.Shape.Type == "halfspace" || c.Shape.Type == "heightfield") && !(b.Fixed || b.Joint != nil && b.Joint.Type == "weld" && isWorld(b.Joint.Parent)) {
				v.add(cp+".shape.type", "%s on a body that is not fixed; a %s must be fixed to the world", c.Shape.Type, c.Shape.Type)
			}
		}
		if c.Pose != nil {
			v.pose(cp+".pose", *c.Pose)
		}
		if c.Material != "" {
			if _, ok := mats[c.Material]; !ok {
				v.add(cp+".material", "%q is not a defined material (defined: %s)", c.Material, strings.Join(sortedKeys(mats), ", "))
			}
		}
		v.collisionBits(cp, c.Contype, c.Conaffinity)
		for _, d := range []struct {
			n string
			x *float64
		}{{"standoff", c.Standoff}, {"margin", c.Margin}} {
			if d.x != nil && (!finite(*d.x) || *d.x < 0) {
				v.add(cp+"."+d.n, "%s must be finite and ≥ 0", fnum(*d.x))
			}
		}
	}
}

// visuals checks a body's visual shapes.
func (v *validator) visuals(p string, b *Body) {
	for i := range b.Visuals {
		vis := &b.Visuals[i]
		vp := indexPath(p+".visuals", i)
		switch {
		case vis.Shape == nil:
			v.add(vp+".shape", "missing (required)")
		case vis.Shape.Type == "halfspace":
			v.add(vp+".shape.type", "halfspace cannot be drawn as a visual (it is unbounded)")
		case vis.Shape.Type == "heightfield":
			v.add(vp+".shape.type", "heightfield cannot be drawn as a visual (make it a collision shape)")
		default:
			v.shape(vp+".shape", vis.Shape)
		}
		if vis.Pose != nil {
			v.pose(vp+".pose", *vis.Pose)
		}
		if c := vis.Color; c != nil {
			for k, x := range c {
				if finite(x) && (x < 0 || x > 1) {
					v.add(vp+".color", "%s: element %d is %s, outside [0, 1]", fvec(c[:]), k, fnum(x))
					break
				}
			}
		}
	}
}

// exclude checks the excluded body pairs.
func (v *validator) exclude(s *Scene) {
	for i, pair := range s.Exclude {
		p := indexPath("exclude", i)
		for k, name := range pair {
			if !s.hasBody(name) {
				v.add(indexPath(p, k), "%q is not a body name", name)
			}
		}
		if pair[0] == pair[1] {
			v.add(p, "[%s, %s]: a body cannot be excluded from itself", pair[0], pair[1])
		}
	}
}

// hasBody reports whether a body has the name.
func (s *Scene) hasBody(name string) bool {
	for i := range s.Bodies {
		if s.Bodies[i].Name == name {
			return true
		}
	}
	return false
}

// keyframes checks the keyframes: unique names, known bodies, q and v of
// the right lengths for each body's joint, and controls of known actuators.
func (v *validator) keyframes(s *Scene) {
	seen := map[string]bool{}
	for i := range s.Keyframes {
		k := &s.Keyframes[i]
		p := indexPath("keyframes", i)
		switch {
		case strings.TrimSpace(k.Name) == "":
			v.add(p+".name", "%q: a keyframe name must not be empty", k.Name)
		case seen[k.Name]:
			v.add(p+".name", "%q: keyframe names must be unique", k.Name)
		}
		seen[k.Name] = true
		for _, name := range sortedKeys(k.Joints) {
			js := k.Joints[name]
			jp := joinPath(p+".joints", name)
			b := s.body(name)
			if b == nil {
				v.add(jp, "%q is not a body name", name)
				continue
			}
			t, err := jointTypeOf(b)
			if err != nil {
				continue // reported with the body
			}
			if b.Fixed || t == multibody.JointWeld {
				v.add(jp, "body %q has no degrees of freedom", name)
				continue
			}
			nq, nv := jointSize(b)
			if js.Q != nil && len(js.Q) != nq {
				v.add(jp+".q", "%s has %d values; a %s joint has %d coordinates", fvec(js.Q), len(js.Q), t, nq)
			}
			if js.V != nil && len(js.V) != nv {
				v.add(jp+".v", "%s has %d values; a %s joint has %d velocities", fvec(js.V), len(js.V), t, nv)
			}
			if (t == multibody.JointFree || t == multibody.JointBall) && len(js.Q) >= 4 && allFinite(js.Q) && js.Q[0] == 0 && js.Q[1] == 0 && js.Q[2] == 0 && js.Q[3] == 0 {
				v.add(jp+".q", "%s: the quaternion must be non-zero", fvec(js.Q))
			}
		}
		for _, name := range sortedKeys(k.Controls) {
			cp := joinPath(p+".controls", name)
			if s.actuator(name) == nil {
				v.add(cp, "%q is not an actuator name", name)
			} else if u := k.Controls[name]; !finite(u) {
				v.add(cp, "%v is not finite", u)
			}
		}
		for _, name := range sortedKeys(k.Activations) {
			ap := joinPath(p+".activations", name)
			if a := s.actuator(name); a == nil || !a.stateful() {
				v.add(ap, "%q is not the name of an actuator with an activation (a muscle, or general with dynamics)", name)
			} else if x := k.Activations[name]; !finite(x) {
				v.add(ap, "%v is not finite", x)
			}
		}
	}
}

// body returns the body with the name, or nil.
func (s *Scene) body(name string) *Body {
	for i := range s.Bodies {
		if s.Bodies[i].Name == name {
			return &s.Bodies[i]
		}
	}
	return nil
}
