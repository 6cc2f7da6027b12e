package scene

import (
	"fmt"
	"strings"
)

// KeyframeNames lists the scene's keyframes in file order.
func (s *Scene) KeyframeNames() []string {
	out := make([]string, len(s.Keyframes))
	for i, k := range s.Keyframes {
		out[i] = k.Name
	}
	return out
}

// ApplyKeyframe makes keyframe name the initial state: for each body it
// names, q and v replace the joint's q0 and v0, or for a free body (no
// joint block, or a free joint) q = (qw, qx, qy, qz, x, y, z) becomes its
// pose and v = (ω, v of the body origin) its velocity; each of its
// controls becomes its actuator's constant target and each of its
// activations its actuator's initial activation. Call it on a validated
// scene, before Build.
func (s *Scene) ApplyKeyframe(name string) error {
	var k *Keyframe
	for i := range s.Keyframes {
		if s.Keyframes[i].Name == name {
			k = &s.Keyframes[i]
		}
	}
	if k == nil {
		if len(s.Keyframes) == 0 {
			return fmt.Errorf("scene %s: no keyframe %q (the scene has no keyframes)", s.Name, name)
		}
		return fmt.Errorf("scene %s: no keyframe %q (keyframes: %s)", s.Name, name, strings.Join(s.KeyframeNames(), ", "))
	}
	for _, bn := range sortedKeys(k.Joints) {
		js := k.Joints[bn]
		b := s.body(bn)
		if b == nil {
			return fmt.Errorf("scene %s: keyframe %s: no body %q", s.Name, name, bn)
		}
		if b.Joint == nil || b.Joint.Type == "free" {
			if len(js.Q) == 7 {
				b.Pose = Pose{Position: &Vec{js.Q[4], js.Q[5], js.Q[6]}, Quaternion: &[4]float64{js.Q[0], js.Q[1], js.Q[2], js.Q[3]}}
			}
			if len(js.V) == 6 {
				b.Velocity = &Velocity{Angular: &Vec{js.V[0], js.V[1], js.V[2]}, Linear: &Vec{js.V[3], js.V[4], js.V[5]}}
			}
			continue
		}
		if js.Q != nil {
			b.Joint.Q0 = append([]float64(nil), js.Q...)
		}
		if js.V != nil {
			b.Joint.V0 = append([]float64(nil), js.V...)
		}
	}
	for _, an := range sortedKeys(k.Controls) {
		a := s.actuator(an)
		if a == nil {
			return fmt.Errorf("scene %s: keyframe %s: no actuator %q", s.Name, name, an)
		}
		u := k.Controls[an]
		a.Target = &Target{Constant: &u}
	}
	for _, an := range sortedKeys(k.Activations) {
		a := s.actuator(an)
		if a == nil {
			return fmt.Errorf("scene %s: keyframe %s: no actuator %q", s.Name, name, an)
		}
		act := k.Activations[an]
		a.Act0 = &act
	}
	return nil
}

// actuator returns the actuator with the name, or nil.
func (s *Scene) actuator(name string) *Actuator {
	for i := range s.Actuators {
		if s.Actuators[i].Name == name {
			return &s.Actuators[i]
		}
	}
	return nil
}
