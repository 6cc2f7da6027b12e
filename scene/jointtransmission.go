package scene

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// jointTransmission checks an actuator's joint_gear (p is its path): the
// joint is a ball (3 values) or free joint (6 values), finite, not all 0,
// and no dof is given.
func (v *validator) jointTransmission(p string, a *Actuator, bodies []Body) {
	if a.Joint == "" {
		v.add(p+".joint_gear", "given without a joint (the body whose ball or free joint the actuator drives)")
		return
	}
	if a.DOF != nil {
		v.add(p+".dof", "given with joint_gear; a ball or free joint's actuator takes none")
	}
	k := v.bodyRef(p+".joint", a.Joint, bodies, false)
	if k < 0 {
		return
	}
	t, err := jointTypeOf(&bodies[k])
	if err != nil {
		return // reported with the joint
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
	out := &tendon.JointTransmission{Body: m.BodyByName(a.Joint), InParent: a.GearInParent}
	copy(out.Gear[:], a.JointGear)
	return out
}
