package scene

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// SiteTransmission is an actuator's site transmission (MuJoCo's
// <actuator site refsite gear>): a wrench Gear = (fx, fy, fz, τx, τy, τz)
// on a frame fixed in a body, expressed in that frame, or, with a
// reference frame, the site's position and rotation relative to it as
// the actuator's length (package tendon, SiteTransmission).
type SiteTransmission struct {
	Site SiteRef `yaml:"site"`
	// Ref is the reference site (MuJoCo's refsite); nil: none.
	Ref  *SiteRef   `yaml:"ref,omitempty"`
	Gear [6]float64 `yaml:"gear"`
}

// SiteRef is a frame fixed in a body (or the world).
type SiteRef struct {
	Body  string `yaml:"body"`            // the body, or world
	Frame Pose   `yaml:"frame,omitempty"` // the frame in the body
}

// siteTransmission checks an actuator's site transmission (p is its path).
func (v *validator) siteTransmission(p string, st *SiteTransmission, bodies []Body) {
	refs := []struct {
		n string
		s *SiteRef
	}{{".site", &st.Site}, {".ref", st.Ref}}
	for _, r := range refs {
		if r.s == nil {
			continue
		}
		if r.s.Body == "" {
			v.add(p+r.n+".body", "missing (the site's body, or world)")
		} else {
			v.bodyRef(p+r.n+".body", r.s.Body, bodies, true)
		}
		v.pose(p+r.n+".frame", r.s.Frame)
	}
	if !allFinite(st.Gear[:]) || st.Gear == [6]float64{} {
		v.add(p+".gear", "%s must be finite and not all 0", fvec(st.Gear[:]))
	}
}

// siteTransmissionOf converts a validated site transmission.
func siteTransmissionOf(m *multibody.Model, st *SiteTransmission) *tendon.SiteTransmission {
	frame := func(s SiteRef) tendon.SiteFrame {
		return tendon.SiteFrame{Body: sceneBody(m, s.Body), Frame: pose(s.Frame)}
	}
	out := &tendon.SiteTransmission{Site: frame(st.Site), Gear: st.Gear}
	if st.Ref != nil {
		r := frame(*st.Ref)
		out.Ref = &r
	}
	return out
}
