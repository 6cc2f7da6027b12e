package scene

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// jointTransmission checks an actuator's joint_gear (p is its path): the
// joint is a ball (3 values) or free joint (6 values) with no dof given,
// or a compound joint whose dof is its ball part's first velocity (3
// values); finite, not all 0.
func (v *validator) jointTransmission(p string, a *Actuator, bodies []Body) {
	if a.Joint == "" {
		v.add(p+".joint_gear", "given without a joint (the body whose ball or free joint the actuator drives)")
		return
	}
	k := v.bodyRef(p+".joint", a.Joint, bodies, false)
	if k < 0 {
		return
	}
	t, err := jointTypeOf(&bodies[k])
	if err != nil {
		return // reported with the joint
	}
	if t == multibody.JointCompound {
		v.ballPart(p, a, &bodies[k])
		t = multibody.JointBall
	} else if a.DOF != nil {
		v.add(p+".dof", "given with joint_gear; a ball or free joint's actuator takes none (a compound joint's: its ball part's first velocity)")
	}
	want := map[multibody.JointType]int{multibody.JointBall: 3, multibody.JointFree: 6}[t]
	switch {
	case want == 0:
		v.add(p+".joint_gear", "given for the %s joint of %q; it needs a ball or free joint", t, a.Joint)
	case len(a.JointGear) != want:
		v.add(p+".joint_gear", "has %d values; the %s joint of %q takes %d", len(a.JointGear), t, a.Joint, want)
	case !allFinite(a.JointGear) || allZeros(a.JointGear):
		v.add(p+".joint_gear", "%s must be finite and not all 0", fvec(a.JointGear))
	}
}

// allZeros reports whether every value is 0.
func allZeros(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

// jointTransmissionOf converts a validated joint_gear.
func jointTransmissionOf(m *multibody.Model, a *Actuator) *tendon.JointTransmission {
	out := &tendon.JointTransmission{Body: m.BodyByName(a.Joint), InParent: a.GearInParent, DOF: intOr(a.DOF, 0)}
	copy(out.Gear[:], a.JointGear)
	return out
}

// ballPart checks that the dof of a joint_gear on body b's compound joint
// is the first velocity of a ball part.
func (v *validator) ballPart(p string, a *Actuator, b *Body) {
	k := intOr(a.DOF, 0)
	part := partOfDOF(b.Joint, k)
	if part == nil {
		v.add(p+".dof", "%d is not a degree of freedom of the compound joint of %q", k, b.Name)
		return
	}
	t, _ := partType(part.Type)
	vi := 0
	for i := range b.Joint.Parts {
		if &b.Joint.Parts[i] == part {
			break
		}
		pt, _ := partType(b.Joint.Parts[i].Type)
		vi += pt.NV()
	}
	if t != multibody.JointBall || vi != k {
		v.add(p+".dof", "%d: joint_gear on the compound joint of %q needs the first velocity of a ball part", k, b.Name)
	}
}
