package scene

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// adhesion checks an adhesion actuator (p is its path): a general
// actuator on a body of the scene, with no other transmission, no dof or
// gear, and no bias (MuJoCo 2.2.2's <adhesion>: gaintype fixed, biastype
// none, xml_native_reader.cc).
func (v *validator) adhesion(p string, a *Actuator, bodies []Body) {
	v.bodyRef(p+".adhesion", a.Adhesion, bodies, false)
	switch {
	case a.Joint != "" || a.Tendon != "" || a.Site != nil || a.SliderCrank != nil || a.JointGear != nil:
		v.add(p+".adhesion", "given with a joint, tendon, site or slider-crank; an actuator drives one of them")
	case a.Type != "general":
		v.add(p+".type", "%q: an adhesion actuator is general (its force is gain·u)", a.Type)
	case a.DOF != nil || a.Gear != nil:
		v.add(p+".adhesion", "given with dof or gear; an adhesion actuator takes neither")
	case len(a.Bias) > 0 || len(a.GainAffine) > 0 || a.Dynamics != nil:
		v.add(p+".adhesion", "given with bias, gain_affine or dynamics; an adhesion actuator's force is gain·u")
	}
}

// adhesionOf converts a validated adhesion actuator's body transmission.
func adhesionOf(m *multibody.Model, a *Actuator) *tendon.BodyTransmission {
	return &tendon.BodyTransmission{Body: m.BodyByName(a.Adhesion)}
}
