package scene

import (
	"math"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// schemeNames are the integrator presets.
var schemeNames = sim.SchemeNames()

// forceTypes lists the force element types.
var forceTypes = []string{"spring", "path", "bushing", "wrench", "motor"}

// isWorld reports whether a parent name means the world.
func isWorld(name string) bool { return name == "" || name == "world" }

// poseGiven reports whether any field of a pose is set.
func poseGiven(p Pose) bool {
	return p.Position != nil || p.Quaternion != nil || p.AxisAngle != nil || p.RPYDeg != nil
}

// joint checks bodies[i].joint against its type and the bodies before it.
func (v *validator) joint(p string, i int, b *Body, all []Body) {
	if b.ShapePose != nil {
		v.pose(p+".shape_pose", *b.ShapePose)
	}
	j := b.Joint
	if j == nil {
		return
	}
	p += ".joint"
	t, err := multibody.ParseJointType(j.Type)
	if err != nil {
		if j.Type == "" && v.locs != nil && !v.locs.has(p+".type") {
			v.add(p+".type", "missing (required; one of %s)", strings.Join(multibody.JointTypeNames(), ", "))
		} else {
			v.add(p+".type", "%q must be one of %s", j.Type, strings.Join(multibody.JointTypeNames(), ", "))
		}
		return
	}
	if b.Fixed {
		v.add(p, "given together with fixed: true; use a weld joint instead")
	}
	v.jointParent(p, i, j, t, all)
	if t != multibody.JointFree && t != multibody.JointWeld || t == multibody.JointWeld && !isWorld(j.Parent) {
		if poseGiven(b.Pose) {
			v.add(p[:len(p)-6]+".pose", "given for a body with a %s joint; the joint's frames and q0 place it", t)
		}
		if b.Velocity != nil {
			v.add(p[:len(p)-6]+".velocity", "given for a body with a %s joint; use joint.v0", t)
		}
	}
	if j.ParentFrame != nil {
		v.pose(p+".parent_frame", *j.ParentFrame)
	}
	if j.ChildFrame != nil {
		v.pose(p+".child_frame", *j.ChildFrame)
	}
	if t == multibody.JointCompound {
		v.parts(p, j)
	}
	v.jointData(p, j, t, b)
	v.jointLimits(p, j, t)
}

// jointParent checks the parent name and the free joint's restrictions.
func (v *validator) jointParent(p string, i int, j *Joint, t multibody.JointType, all []Body) {
	if !isWorld(j.Parent) {
		k := slices.IndexFunc(all, func(o Body) bool { return o.Name == j.Parent })
		switch {
		case k < 0:
			v.add(p+".parent", "%q is not a body name (or world)", j.Parent)
		case k >= i:
			v.add(p+".parent", "%q must be listed before this body (bodies[%d] is listed at %d)", j.Parent, k, k)
		case t == multibody.JointFree:
			v.add(p+".parent", "%q: a free joint connects to the world only", j.Parent)
		}
	}
	if t == multibody.JointFree {
		for _, f := range []struct {
			n   string
			set bool
		}{{"parent_frame", j.ParentFrame != nil}, {"child_frame", j.ChildFrame != nil}, {"q0", j.Q0 != nil}, {"v0", j.V0 != nil}} {
			if f.set {
				v.add(p+"."+f.n, "given for a free joint; a free body is placed by pose and velocity")
			}
		}
	}
}

// jointData checks axis, q0, v0, damping, stiffness and limits.
func (v *validator) jointData(p string, j *Joint, t multibody.JointType, b *Body) {
	nq, nv := jointSize(b)
	if j.Ref != nil && (t != multibody.JointRevolute && t != multibody.JointPrismatic) {
		v.add(p+".ref", "given for a %s joint; only revolute and prismatic joints take a ref (a compound joint's parts do)", t)
	} else if j.Ref != nil && (math.IsNaN(*j.Ref) || math.IsInf(*j.Ref, 0)) {
		v.add(p+".ref", "%s must be finite", fnum(*j.Ref))
	}
	if j.SpringRef != nil && len(j.SpringRef) != nq {
		v.add(p+".springref", "%s has %d values; a %s joint has %d coordinates", fvec(j.SpringRef), len(j.SpringRef), t, nq)
	}
	if j.Axis != nil {
		if t != multibody.JointRevolute && t != multibody.JointPrismatic {
			v.add(p+".axis", "%s given for a %s joint; only revolute and prismatic joints take an axis", fvec(j.Axis[:]), t)
		} else if *j.Axis == (Vec{}) {
			v.add(p+".axis", "%s must be non-zero", fvec(j.Axis[:]))
		}
	}
	if t != multibody.JointFree {
		if j.Q0 != nil && len(j.Q0) != nq {
			v.add(p+".q0", "%s has %d values; a %s joint has %d coordinates", fvec(j.Q0), len(j.Q0), t, nq)
		}
		if j.V0 != nil && len(j.V0) != nv {
			v.add(p+".v0", "%s has %d values; a %s joint has %d velocities", fvec(j.V0), len(j.V0), t, nv)
		}
	}
	if (t == multibody.JointBall) && len(j.Q0) == 4 && allFinite(j.Q0) && j.Q0[0] == 0 && j.Q0[1] == 0 && j.Q0[2] == 0 && j.Q0[3] == 0 {
		v.add(p+".q0", "%s: a ball joint's quaternion must be non-zero", fvec(j.Q0))
	}
	if j.Damping != nil {
		v.nonNegative(p+".damping", *j.Damping)
	}
	if j.Armature != nil {
		v.nonNegative(p+".armature", *j.Armature)
	}
	if j.Stiffness != nil {
		v.nonNegative(p+".stiffness", *j.Stiffness)
		if *j.Stiffness > 0 && (t == multibody.JointFree || t == multibody.JointWeld) {
			v.add(p+".stiffness", "%s given for a %s joint; stiffness is for revolute, prismatic, planar, universal and ball joints", fnum(*j.Stiffness), t)
		}
	}
	if l := j.Limits; l != nil {
		if l.Lower != nil && len(l.Lower) != nq {
			v.add(p+".limits.lower", "%s has %d values; a %s joint has %d coordinates", fvec(l.Lower), len(l.Lower), t, nq)
		}
		if l.Upper != nil && len(l.Upper) != nq {
			v.add(p+".limits.upper", "%s has %d values; a %s joint has %d coordinates", fvec(l.Upper), len(l.Upper), t, nq)
		}
		if len(l.Lower) == nq && len(l.Upper) == nq {
			for k := range nq {
				if l.Lower[k] > l.Upper[k] {
					v.add(p+".limits", "lower %s above upper %s (coordinate %d)", fnum(l.Lower[k]), fnum(l.Upper[k]), k)
				}
			}
		}
		if l.Effort != nil {
			v.nonNegative(p+".limits.effort", *l.Effort)
		}
	}
}

// forceFields says which optional fields each force type takes.
var forceFields = map[string][]string{
	"spring":  {"bodies", "points", "stiffness", "damping", "rest_length"},
	"path":    {"bodies", "points", "stiffness", "damping", "rest_length"},
	"bushing": {"bodies", "frames", "stiffness", "damping", "rot_stiffness", "rot_damping"},
	"wrench":  {"body", "point", "force", "torque", "profile"},
	"motor":   {"body", "effort", "profile"},
}

// given lists the optional force fields that are set.
func (f *Force) given() map[string]bool {
	return map[string]bool{
		"bodies": f.Bodies != nil, "points": f.Points != nil, "frames": f.Frames != nil,
		"stiffness": f.Stiffness != nil, "damping": f.Damping != nil, "rest_length": f.RestLength != nil,
		"rot_stiffness": f.RotStiff != nil, "rot_damping": f.RotDamp != nil, "body": f.Body != "",
		"point": f.Point != nil, "force": f.Force != nil, "torque": f.Torque != nil,
		"effort": f.Effort != nil, "profile": f.Profile != nil,
	}
}

// force checks one force element.
func (v *validator) force(p string, f *Force, bodies []Body) {
	allowed, ok := forceFields[f.Type]
	if !ok {
		if f.Type == "" && v.locs != nil && !v.locs.has(p+".type") {
			v.add(p+".type", "missing (required; one of %s)", strings.Join(forceTypes, ", "))
		} else {
			v.add(p+".type", "%q must be one of %s", f.Type, strings.Join(forceTypes, ", "))
		}
		return
	}
	given := f.given()
	for _, name := range []string{"bodies", "points", "frames", "stiffness", "damping", "rest_length", "rot_stiffness", "rot_damping", "body", "point", "force", "torque", "effort", "profile"} {
		if given[name] && !slices.Contains(allowed, name) {
			v.add(p+"."+name, "not allowed for a %s (it takes %s)", f.Type, strings.Join(allowed, ", "))
		}
	}
	find := func(path, name string, world bool) int {
		if world && name == "world" {
			return -1
		}
		k := slices.IndexFunc(bodies, func(o Body) bool { return o.Name == name })
		if k < 0 {
			v.add(path, "%q is not a body name%s", name, map[bool]string{true: " (or world)", false: ""}[world])
		}
		return k
	}
	for _, x := range []struct {
		n string
		p *float64
	}{{"stiffness", f.Stiffness}, {"damping", f.Damping}, {"rest_length", f.RestLength}, {"rot_stiffness", f.RotStiff}, {"rot_damping", f.RotDamp}} {
		if x.p != nil {
			v.nonNegative(p+"."+x.n, *x.p)
		}
	}
	switch f.Type {
	case "spring", "path", "bushing":
		want := map[string]int{"spring": 2, "path": -2, "bushing": 2}[f.Type]
		if (want > 0 && len(f.Bodies) != want) || (want < 0 && len(f.Bodies) < -want) {
			v.add(p+".bodies", "%d bodies given; a %s needs %s", len(f.Bodies), f.Type, map[string]string{"spring": "2", "path": "at least 2", "bushing": "2"}[f.Type])
		}
		for k, name := range f.Bodies {
			find(indexPath(p+".bodies", k), name, true)
		}
		if f.Points != nil && len(f.Points) != len(f.Bodies) {
			v.add(p+".points", "%d points for %d bodies; give one body-frame point per body", len(f.Points), len(f.Bodies))
		}
		if f.Frames != nil && len(f.Frames) != len(f.Bodies) {
			v.add(p+".frames", "%d frames for %d bodies; give one body-frame pose per body", len(f.Frames), len(f.Bodies))
		}
		if f.Type != "bushing" && f.Stiffness == nil {
			v.add(p+".stiffness", "missing (required for a %s)", f.Type)
		}
	case "wrench", "motor":
		if f.Body == "" {
			v.add(p+".body", "missing (required for a %s)", f.Type)
			return
		}
		k := find(p+".body", f.Body, false)
		if f.Type == "motor" && k >= 0 {
			b := &bodies[k]
			t, err := jointTypeOf(b)
			if _, nv := jointSize(b); err == nil && len(f.Effort) != nv {
				v.add(p+".effort", "%s has %d values; the %s joint of %q has %d degrees of freedom", fvec(f.Effort), len(f.Effort), t, f.Body, nv)
			}
		}
	}
}

// jointTypeOf returns the joint type of a scene body (free without a
// joint block, weld if fixed).
func jointTypeOf(b *Body) (multibody.JointType, error) {
	switch {
	case b.Joint != nil:
		return multibody.ParseJointType(b.Joint.Type)
	case b.Fixed:
		return multibody.JointWeld, nil
	}
	return multibody.JointFree, nil
}
