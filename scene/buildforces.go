package scene

import (
	"fmt"

	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// buildForces turns validated scene force elements into forces.Elements.
func buildForces(m *multibody.Model, fs []Force) ([]forces.Element, error) {
	var out []forces.Element
	for i := range fs {
		e, err := buildForce(m, &fs[i])
		if err != nil {
			return nil, fmt.Errorf("forces[%d]: %w", i, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func val(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// bodyIndex returns the model index of a body name, −1 for the world.
func bodyIndex(m *multibody.Model, name string) (int, error) {
	if name == "world" {
		return -1, nil
	}
	b := m.BodyByName(name)
	if b < 0 {
		return 0, fmt.Errorf("no body %q", name)
	}
	return b, nil
}

func buildForce(m *multibody.Model, f *Force) (forces.Element, error) {
	switch f.Type {
	case "spring", "path":
		pts := make([]forces.Attachment, len(f.Bodies))
		for k, name := range f.Bodies {
			b, err := bodyIndex(m, name)
			if err != nil {
				return nil, err
			}
			pts[k].Body = b
			if f.Points != nil {
				pts[k].Point = spatial.Vec3(f.Points[k])
			}
		}
		return &forces.PathSpring{Points: pts, Stiffness: val(f.Stiffness), Damping: val(f.Damping), RestLength: val(f.RestLength)}, nil
	case "bushing":
		var bs [2]int
		fr := [2]spatial.Pose{spatial.PoseIdentity(), spatial.PoseIdentity()}
		for k := range 2 {
			b, err := bodyIndex(m, f.Bodies[k])
			if err != nil {
				return nil, err
			}
			bs[k] = b
			if f.Frames != nil {
				fr[k] = pose(f.Frames[k])
			}
		}
		return &forces.FrameSpring{Body1: bs[0], Frame1: fr[0], Body2: bs[1], Frame2: fr[1],
			KT: val(f.Stiffness), KR: val(f.RotStiff), DT: val(f.Damping), DR: val(f.RotDamp)}, nil
	case "wrench":
		b, err := bodyIndex(m, f.Body)
		if err != nil {
			return nil, err
		}
		return &forces.BodyWrench{Body: b, Point: vecOr(f.Point), Force: vecOr(f.Force), Torque: vecOr(f.Torque), Profile: profile(f.Profile)}, nil
	case "motor":
		b, err := bodyIndex(m, f.Body)
		if err != nil {
			return nil, err
		}
		if m.Bodies[b].Tree < 0 || len(f.Effort) != m.Bodies[b].Joint.NV() {
			return nil, fmt.Errorf("motor on %q: its joint has %d degrees of freedom, %d efforts given", f.Body, m.Bodies[b].Joint.NV(), len(f.Effort))
		}
		return &forces.JointMotor{Body: b, Torque: f.Effort, Profile: profile(f.Profile)}, nil
	}
	return nil, fmt.Errorf("unknown force type %q", f.Type)
}

// profile converts a scene profile (nil: the constant 1).
func profile(p *Profile) forces.Profile {
	if p == nil {
		return forces.Profile{Offset: 1}
	}
	out := forces.Profile{Amplitude: p.Amplitude, Frequency: p.Frequency, Phase: p.Phase, Start: p.Start, Stop: p.Stop}
	switch {
	case p.Offset != nil:
		out.Offset = *p.Offset
	case p.Amplitude == 0:
		out.Offset = 1
	}
	return out
}
