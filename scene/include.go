package scene

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/spatial"
)

// Includer loads the model named by an include: path is inc.File resolved
// against the including scene's directory. It returns a validated scene
// whose names are not yet prefixed; its scene-level settings (dt,
// duration, gravity, scheme, contact, solver) are ignored. Package
// model/load provides one for MJCF, URDF, SDFormat and YAML files.
type Includer func(path string, inc Include) (*Scene, error)

// Options configure ParseWith and LoadWith.
type Options struct {
	// Dir is the directory against which relative mesh and include paths
	// are resolved (LoadWith sets it to the scene file's directory).
	Dir string
	// Include loads included models; nil makes a scene with an include
	// block an error.
	Include Includer
}

// resolveIncludes merges every include into s: the included bodies go
// first, in include order, before the scene's own bodies (so an include's
// parent can only be a body of an earlier include, or the world), and the
// scene's own field locations are shifted to match.
func (s *Scene) resolveIncludes(file string, l locs, load Includer) error {
	var bodies []Body
	for i, inc := range s.Include {
		p := indexPath("include", i)
		fail := func(path, format string, args ...any) error {
			lc := l.find(path)
			return &FieldError{File: file, Line: lc.line, Path: path, Msg: fmt.Sprintf(format, args...), Set: lc.set}
		}
		if strings.TrimSpace(inc.File) == "" {
			return fail(p+".file", "missing (required)")
		}
		if strings.ContainsAny(inc.Prefix, ".=[],\"\n\r") {
			return fail(p+".prefix", "%q must not contain '.', '=', '[', ']', commas, quotes or line breaks", inc.Prefix)
		}
		if !isWorld(inc.Parent) && !hasName(bodies, inc.Parent) {
			return fail(p+".parent", "%q is not a body of an earlier include (or world)", inc.Parent)
		}
		path := inc.File
		if !filepath.IsAbs(path) && s.Dir != "" && !strings.Contains(path, "://") {
			path = filepath.Join(s.Dir, path)
		}
		if load == nil {
			return fail(p, "%q: including models needs a model loader (load the scene with model/load; stiction run does)", inc.File)
		}
		sub, err := load(path, inc)
		if err != nil {
			return fail(p+".file", "%v", err)
		}
		if err := s.merge(sub, inc); err != nil {
			return fail(p, "%v", err)
		}
		bodies = append(bodies, sub.Bodies...)
	}
	l.shift("bodies", len(bodies))
	s.Bodies = append(bodies, s.Bodies...)
	s.Include = nil
	return nil
}

func hasName(bs []Body, name string) bool {
	for i := range bs {
		if bs[i].Name == name {
			return true
		}
	}
	return false
}

// merge prefixes every name of sub, places its roots and adds its
// materials, exclusions, keyframes, forces, actuators and constraints to s
// (not its bodies).
func (s *Scene) merge(sub *Scene, inc Include) error {
	pre := func(n string) string {
		if isWorld(n) {
			return n
		}
		return inc.Prefix + n
	}
	x := pose(inc.Pose)
	for i := range sub.Bodies {
		b := &sub.Bodies[i]
		b.Name = pre(b.Name)
		if b.Material != "" {
			b.Material = inc.Prefix + b.Material
		}
		for k := range b.Collisions {
			if m := b.Collisions[k].Material; m != "" {
				b.Collisions[k].Material = inc.Prefix + m
			}
		}
		absShapes(b, sub.Dir)
		if b.Joint != nil {
			b.Joint.Parent = pre(b.Joint.Parent)
			if b.Joint.Name != "" {
				b.Joint.Name = inc.Prefix + b.Joint.Name
			}
		}
		place(b, x, inc.Parent)
	}
	if s.Materials == nil {
		s.Materials = map[string]Material{}
	}
	for _, n := range sortedKeys(sub.Materials) {
		mt, name := sub.Materials[n], inc.Prefix+n
		if old, ok := s.Materials[name]; ok && !sameMaterial(old, mt) {
			return fmt.Errorf("material %q of %s differs from the scene's material of that name (give the include a prefix)", name, inc.File)
		}
		s.Materials[name] = mt
	}
	for _, e := range sub.Exclude {
		s.Exclude = append(s.Exclude, [2]string{pre(e[0]), pre(e[1])})
	}
	for _, k := range sub.Keyframes {
		joints := map[string]JointState{}
		for n, js := range k.Joints {
			joints[pre(n)] = js
		}
		i := s.keyframe(k.Name)
		if i < 0 {
			s.Keyframes = append(s.Keyframes, Keyframe{Name: k.Name})
			i = len(s.Keyframes) - 1
		}
		kf := &s.Keyframes[i]
		if kf.Joints == nil {
			kf.Joints = map[string]JointState{}
		}
		for n, js := range joints {
			kf.Joints[n] = js
		}
		mergePrefixed(&kf.Controls, k.Controls, inc.Prefix)
		mergePrefixed(&kf.Activations, k.Activations, inc.Prefix)
	}
	for _, a := range sub.Actuators {
		if a.Name != "" {
			a.Name = inc.Prefix + a.Name
		}
		if a.Joint != "" {
			a.Joint = pre(a.Joint)
		}
		if a.Adhesion != "" {
			a.Adhesion = pre(a.Adhesion)
		}
		if a.Tendon != "" {
			a.Tendon = inc.Prefix + a.Tendon
		}
		if sc := a.SliderCrank; sc != nil {
			pts := prefixPath([]TendonSite{sc.Crank, sc.Slider}, pre)
			a.SliderCrank = &SliderCrank{Crank: pts[0], Slider: pts[1], Axis: sc.Axis, RodLength: sc.RodLength}
		}
		if st := a.Site; st != nil {
			c := *st
			c.Site.Body = pre(c.Site.Body)
			if r := st.Ref; r != nil {
				rr := *r
				rr.Body = pre(rr.Body)
				c.Ref = &rr
			}
			a.Site = &c
		}
		s.Actuators = append(s.Actuators, a)
	}
	for _, t := range sub.Tendons {
		t.Name = inc.Prefix + t.Name
		t.Joints = slices.Clone(t.Joints)
		for k := range t.Joints {
			t.Joints[k].Joint = pre(t.Joints[k].Joint)
		}
		t.Path = prefixPath(t.Path, pre)
		s.Tendons = append(s.Tendons, t)
	}
	for _, sn := range sub.Sensors {
		sn.Name = inc.Prefix + sn.Name
		for _, f := range []*string{&sn.Joint, &sn.Body, &sn.RefBody} {
			if *f != "" && *f != "world" {
				*f = pre(*f)
			}
		}
		if sn.Actuator != "" {
			sn.Actuator = inc.Prefix + sn.Actuator
		}
		s.Sensors = append(s.Sensors, sn)
	}
	for _, c := range sub.Constraints {
		if err := mergeConstraint(&c, pre, x, inc.Prefix, sub.Bodies); err != nil {
			return err
		}
		s.Constraints = append(s.Constraints, c)
	}
	for _, f := range sub.Forces {
		if f.Name != "" {
			f.Name = inc.Prefix + f.Name
		}
		if f.Body != "" {
			f.Body = pre(f.Body)
		}
		for k, n := range f.Bodies {
			f.Bodies[k] = pre(n)
			if isWorld(n) && k < len(f.Points) {
				f.Points[k] = Vec(x.Apply(spatial.Vec3(f.Points[k])))
			}
			if isWorld(n) && k < len(f.Frames) {
				f.Frames[k] = poseToScene(x.Compose(pose(f.Frames[k])))
			}
		}
		s.Forces = append(s.Forces, f)
	}
	return nil
}

// mergeConstraint prefixes the names of an included constraint (pre
// prefixes body names, keeping the world; bodies are sub's, already
// prefixed) and moves its world-frame points
// and frames by the include's pose x. A prescribed motion of a free body
// is in world coordinates and cannot be moved: it is an error unless x is
// the identity.
func mergeConstraint(c *Constraint, pre func(string) string, x spatial.Pose, prefix string, bodies []Body) error {
	if c.Name != "" {
		c.Name = prefix + c.Name
	}
	c.Bodies = slices.Clone(c.Bodies)
	c.Points = slices.Clone(c.Points)
	c.Frames = slices.Clone(c.Frames)
	for k, n := range c.Bodies {
		c.Bodies[k] = pre(n)
		if isWorld(n) && k < len(c.Points) {
			c.Points[k] = Vec(x.Apply(spatial.Vec3(c.Points[k])))
		}
		if isWorld(n) && k < len(c.Frames) {
			c.Frames[k] = poseToScene(x.Compose(pose(c.Frames[k])))
		}
	}
	c.Joints = slices.Clone(c.Joints)
	for k, n := range c.Joints {
		c.Joints[k] = pre(n)
	}
	if c.Body != "" {
		if c.Type == "prescribed" && x != spatial.PoseIdentity() {
			for i := range bodies {
				if bodies[i].Name == pre(c.Body) && !bodies[i].Fixed && (bodies[i].Joint == nil || bodies[i].Joint.Type == "free") {
					return fmt.Errorf("constraint %q: the prescribed motion of free body %q is in world coordinates; it cannot be moved by the include's pose", c.Name, c.Body)
				}
			}
		}
		c.Body = pre(c.Body)
	}
	return nil
}

func (s *Scene) keyframe(name string) int {
	for i := range s.Keyframes {
		if s.Keyframes[i].Name == name {
			return i
		}
	}
	return -1
}

func sameMaterial(a, b Material) bool {
	eq := func(p, q *float64) bool { return (p == nil) == (q == nil) && (p == nil || *p == *q) }
	return eq(a.Stiffness, b.Stiffness) && eq(a.Dissipation, b.Dissipation) && eq(a.Friction, b.Friction)
}

// absShapes makes the body's relative mesh paths absolute against dir.
func absShapes(b *Body, dir string) {
	fix := func(sh *Shape) {
		if sh != nil && sh.File != "" && !filepath.IsAbs(sh.File) && dir != "" {
			sh.File = filepath.Join(dir, sh.File)
		}
	}
	fix(b.Shape)
	for k := range b.Collisions {
		fix(b.Collisions[k].Shape)
	}
	for k := range b.Visuals {
		fix(b.Visuals[k].Shape)
	}
}

// place moves a root body of an included model by x into the frame of
// parent (the world when parent is empty): fixed and free bodies get
// x·pose (attached to a parent body they become welds to it), a joint to
// the world gets x·parent_frame.
func place(b *Body, x spatial.Pose, parent string) {
	attach := !isWorld(parent)
	switch {
	case b.Fixed:
		p := poseToScene(x.Compose(pose(b.Pose)))
		if attach {
			b.Fixed, b.Pose = false, Pose{}
			b.Joint = &Joint{Type: "weld", Parent: parent, ParentFrame: &p}
		} else {
			b.Pose = p
		}
	case b.Joint == nil || b.Joint.Type == "free":
		p := poseToScene(x.Compose(pose(b.Pose)))
		if attach {
			b.Pose, b.Velocity = Pose{}, nil
			b.Joint = &Joint{Type: "weld", Parent: parent, ParentFrame: &p}
			return
		}
		b.Pose = p
		if v := b.Velocity; v != nil {
			if v.Angular != nil {
				w := Vec(x.R.Rotate(spatial.Vec3(*v.Angular)))
				v.Angular = &w
			}
			if v.Linear != nil {
				l := Vec(x.R.Rotate(spatial.Vec3(*v.Linear)))
				v.Linear = &l
			}
		}
	case isWorld(b.Joint.Parent):
		pf := spatial.PoseIdentity()
		if b.Joint.ParentFrame != nil {
			pf = pose(*b.Joint.ParentFrame)
		}
		p := poseToScene(x.Compose(pf))
		b.Joint.ParentFrame = &p
		if attach {
			b.Joint.Parent = parent
		}
	}
}

// poseToScene converts a pose back to the scene form (position and
// quaternion).
func poseToScene(x spatial.Pose) Pose {
	p := Vec(x.P)
	q := [4]float64{x.R.W, x.R.X, x.R.Y, x.R.Z}
	return Pose{Position: &p, Quaternion: &q}
}

// shift renumbers the recorded locations of list's elements by n (list[i]
// becomes list[i+n]), after n elements were inserted in front.
func (l locs) shift(list string, n int) {
	if n == 0 || l == nil {
		return
	}
	moved := locs{}
	for path, lc := range l {
		np, ok := shiftPath(path, list, n)
		pp, _ := shiftPath(lc.parent, list, n)
		lc.parent = pp
		if ok {
			delete(l, path)
		}
		moved[np] = lc
	}
	for p, lc := range moved {
		l[p] = lc
	}
}

// shiftPath renumbers "list[i]..." to "list[i+n]...".
func shiftPath(path, list string, n int) (string, bool) {
	rest, ok := strings.CutPrefix(path, list+"[")
	if !ok {
		return path, false
	}
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return path, false
	}
	i, err := strconv.Atoi(rest[:j])
	if err != nil {
		return path, false
	}
	return indexPath(list, i+n) + rest[j+1:], true
}

// mergePrefixed adds src's entries to *dst (made when needed), each name
// prefixed: an included keyframe's controls and activations.
func mergePrefixed(dst *map[string]float64, src map[string]float64, prefix string) {
	for n, x := range src {
		if *dst == nil {
			*dst = map[string]float64{}
		}
		(*dst)[prefix+n] = x
	}
}
