package scene

import (
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// JointPart is one joint of a compound joint (type: compound), as MuJoCo
// composes the several joints of one body: a revolute part rotates about
// axis through pos, a prismatic part translates along axis, a ball part
// rotates about pos; axis and pos are in the body frame as the preceding
// parts leave it, and the parts apply in order (multibody.JointPart).
// Each part has its own coordinate(s), damping, spring, armature, dry
// friction and limits.
type JointPart struct {
	Name string `yaml:"name,omitempty"` // names the part's coordinates in records, actuators and keyframes
	Type string `yaml:"type"`           // revolute, prismatic or ball
	Axis *Vec   `yaml:"axis,omitempty"` // revolute, prismatic: default [0, 0, 1]
	Pos  *Vec   `yaml:"pos,omitempty"`  // revolute, ball: the point rotated about, default the origin
	// Ref is the coordinate at the model pose (MuJoCo's ref); SpringRef the
	// rest value of the stiffness. Revolute and prismatic parts only.
	Ref       *float64 `yaml:"ref,omitempty"`
	SpringRef *float64 `yaml:"springref,omitempty"`
	Damping   *float64 `yaml:"damping,omitempty"`
	// Stiffness is a spring per coordinate (τ = −k (q − springref)), on a
	// ball part τ = −k r, r the rotation vector of its quaternion, as a
	// ball joint's (MuJoCo 2.2.2's mj_passive).
	Stiffness *float64 `yaml:"stiffness,omitempty"`
	Armature  *float64 `yaml:"armature,omitempty"`
	Friction  *float64 `yaml:"friction,omitempty"`
	// FrictionSolRef and FrictionSolImp as a joint's.
	FrictionSolRef []float64 `yaml:"friction_solref,omitempty"`
	FrictionSolImp []float64 `yaml:"friction_solimp,omitempty"`
	// Limits bound a revolute or prismatic part's coordinate (lower and
	// upper with one value each; stiffness and dissipation as a joint's).
	Limits *Limits `yaml:"limits,omitempty"`
}

// partType parses a part's type; only revolute, prismatic and ball parts
// exist.
func partType(s string) (multibody.JointType, bool) {
	t, err := multibody.ParseJointType(s)
	return t, err == nil && (t == multibody.JointRevolute || t == multibody.JointPrismatic || t == multibody.JointBall)
}

// jointSize returns the coordinate and velocity counts of a body's joint
// (its parts' for a compound joint).
func jointSize(b *Body) (nq, nv int) {
	t, err := jointTypeOf(b)
	if err != nil {
		return 0, 0
	}
	if t != multibody.JointCompound {
		return t.NQ(), t.NV()
	}
	for _, p := range b.Joint.Parts {
		if pt, ok := partType(p.Type); ok {
			nq += pt.NQ()
			nv += pt.NV()
		}
	}
	return nq, nv
}

// partOfDOF returns the part of a compound joint that velocity k belongs
// to, or nil.
func partOfDOF(j *Joint, k int) *JointPart {
	vi := 0
	for i := range j.Parts {
		t, _ := partType(j.Parts[i].Type)
		if k < vi+t.NV() {
			return &j.Parts[i]
		}
		vi += t.NV()
	}
	return nil
}

// compoundDOFIsScalar reports whether velocity k of body b's compound joint
// belongs to a revolute or prismatic part.
func compoundDOFIsScalar(b *Body, k int) bool {
	if b.Joint == nil {
		return false
	}
	p := partOfDOF(b.Joint, k)
	if p == nil {
		return false
	}
	t, _ := partType(p.Type)
	return t != multibody.JointBall
}

// parts checks a compound joint's parts.
func (v *validator) parts(p string, j *Joint) {
	if len(j.Parts) == 0 {
		v.add(p+".parts", "missing (a compound joint needs at least one part)")
		return
	}
	for _, f := range []struct {
		n   string
		set bool
	}{{"axis", j.Axis != nil}, {"damping", j.Damping != nil}, {"stiffness", j.Stiffness != nil}, {"armature", j.Armature != nil}, {"friction", j.Friction != nil}, {"limits", j.Limits != nil}, {"ref", j.Ref != nil}, {"springref", j.SpringRef != nil}} {
		if f.set {
			v.add(p+"."+f.n, "given for a compound joint; give it on each part")
		}
	}
	nq, nv := 0, 0
	for i := range j.Parts {
		pp := indexPath(p+".parts", i)
		part := &j.Parts[i]
		t, ok := partType(part.Type)
		if !ok {
			v.add(pp+".type", "%q must be one of revolute, prismatic, ball", part.Type)
			continue
		}
		nq, nv = nq+t.NQ(), nv+t.NV()
		if part.Axis != nil && *part.Axis == (Vec{}) {
			v.add(pp+".axis", "%s must be non-zero", fvec(part.Axis[:]))
		}
		if t == multibody.JointBall {
			for _, f := range []struct {
				n   string
				set bool
			}{{"axis", part.Axis != nil}, {"ref", part.Ref != nil}, {"springref", part.SpringRef != nil}, {"limits", part.Limits != nil}} {
				if f.set {
					v.add(pp+"."+f.n, "given for a ball part; it is for revolute and prismatic parts")
				}
			}
		}
		for _, f := range []struct {
			n string
			x *float64
		}{{"damping", part.Damping}, {"stiffness", part.Stiffness}, {"armature", part.Armature}, {"friction", part.Friction}} {
			if f.x != nil {
				v.nonNegative(pp+"."+f.n, *f.x)
			}
		}
		v.softCompliance(pp+".friction", part.FrictionSolRef, part.FrictionSolImp)
		for _, f := range []struct {
			n string
			x *float64
		}{{"ref", part.Ref}, {"springref", part.SpringRef}} {
			if f.x != nil && (math.IsNaN(*f.x) || math.IsInf(*f.x, 0)) {
				v.add(pp+"."+f.n, "%s must be finite", fnum(*f.x))
			}
		}
		if l := part.Limits; l != nil && t != multibody.JointBall {
			if (l.Lower != nil && len(l.Lower) != 1) || (l.Upper != nil && len(l.Upper) != 1) {
				v.add(pp+".limits", "a %s part has one coordinate: lower and upper take one value each", t)
			} else if len(l.Lower) == 1 && len(l.Upper) == 1 && l.Lower[0] > l.Upper[0] {
				v.add(pp+".limits", "lower %s above upper %s", fnum(l.Lower[0]), fnum(l.Upper[0]))
			}
			if l.Cone != nil {
				v.add(pp+".limits.cone", "given for a %s part; a cone bounds a ball joint", t)
			}
			if l.Effort != nil {
				v.add(pp+".limits.effort", "not supported on a part: bound the actuator's force instead")
			}
			v.limitCompliance(pp+".limits", l.Stiffness, l.Dissipation, l.SolRef, l.SolImp)
		}
	}
	if nv > multibody.MaxCompoundDOF || nq > 7 {
		v.add(p+".parts", "%d coordinates and %d degrees of freedom; a compound joint has at most 7 and %d", nq, nv, multibody.MaxCompoundDOF)
	}
}

// compoundParts converts validated scene parts.
func compoundParts(parts []JointPart) []multibody.JointPart {
	out := make([]multibody.JointPart, len(parts))
	for i, p := range parts {
		t, _ := partType(p.Type)
		out[i] = multibody.JointPart{Name: p.Name, Type: t, Axis: spatial.Vec3{0, 0, 1}, Pos: vecOr(p.Pos),
			Ref: valueOr(p.Ref, 0), SpringRef: valueOr(p.SpringRef, 0), Damping: valueOr(p.Damping, 0),
			Stiffness: valueOr(p.Stiffness, 0), Armature: valueOr(p.Armature, 0)}
		if p.Axis != nil {
			out[i].Axis = spatial.Vec3(*p.Axis)
		}
	}
	return out
}

// partConstraints adds the limits and dry friction of a compound joint's
// parts on body b.
func partConstraints(set *constraint.Set, m *multibody.Model, b int, j *Joint) {
	name := m.Bodies[b].Name
	vi := 0
	for i, p := range j.Parts {
		t, _ := partType(p.Type)
		pname := p.Name
		if pname == "" {
			pname = dofName(name+"/part", i, 2)
		}
		if l := p.Limits; l != nil && t != multibody.JointBall && (l.Lower != nil || l.Upper != nil) {
			cp := limitCompliance(l)
			lim := constraint.Limit{Name: pname + "/limit", Body: b, DOF: vi, Lower: math.Inf(-1), Upper: math.Inf(1), Margin: valueOr(l.Margin, 0), Compliance: cp}
			if l.Lower != nil {
				lim.Lower = l.Lower[0]
			}
			if l.Upper != nil {
				lim.Upper = l.Upper[0]
			}
			set.Limits = append(set.Limits, lim)
		}
		if p.Friction != nil && *p.Friction > 0 {
			for k := range t.NV() {
				set.Frictions = append(set.Frictions, constraint.JointFriction{Name: dofName(pname+"/friction", k, t.NV()), Body: b, DOF: vi + k, Force: *p.Friction,
					Compliance: softCompliance(p.FrictionSolRef, p.FrictionSolImp)})
			}
		}
		vi += t.NV()
	}
}
