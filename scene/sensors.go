package scene

import (
	"fmt"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/spatial"
)

// Sensor is a sensor whose readings a run writes to sensors.csv (package
// sensor; MJCF <sensor> elements become these).
type Sensor struct {
	Name string `yaml:"name"`
	// Type is one of sensor.TypeNames(): jointpos, jointvel, actuatorfrc,
	// framepos, framequat, framexaxis, frameyaxis, framezaxis,
	// framelinvel, frameangvel, gyro, velocimeter, accelerometer, touch,
	// force, torque, subtreecom, subtreelinvel, subtreeangmom (body: the
	// subtree's root), framelinacc, frameangacc.
	Type string `yaml:"type"`
	// Joint is the body whose joint jointpos and jointvel read, DOF the
	// joint's degree of freedom (a part of a compound joint), default 0.
	Joint string `yaml:"joint,omitempty"`
	DOF   *int   `yaml:"dof,omitempty"`
	// Body carries the sensor's frame (default world), Frame its pose in
	// the body frame (default identity).
	Body  string `yaml:"body,omitempty"`
	Frame *Pose  `yaml:"frame,omitempty"`
	// RefBody and RefFrame, when either is given, make a frame sensor
	// relative to that frame (MuJoCo's reftype and refname).
	RefBody  string `yaml:"ref_body,omitempty"`
	RefFrame *Pose  `yaml:"ref_frame,omitempty"`
	// Actuator names the actuator of an actuatorfrc sensor.
	Actuator string `yaml:"actuator,omitempty"`
	// Zone is a touch sensor's volume in its frame: shape sphere (size
	// [r]), capsule or cylinder ([r, half length]), ellipsoid (radii) or
	// box (half sizes).
	Zone *Zone `yaml:"zone,omitempty"`
	// Cutoff > 0 clamps the readings to [−cutoff, cutoff] (touch: ≤ cutoff).
	Cutoff float64 `yaml:"cutoff,omitempty"`
}

// Zone is a touch sensor's volume.
type Zone struct {
	Shape string `yaml:"shape"`
	Size  Vec    `yaml:"size"`
}

// BuildSensors turns the scene's sensors into the specs of a sensor.Set
// for model m (built from s).
func BuildSensors(s *Scene, m *multibody.Model) ([]sensor.Spec, error) {
	var out []sensor.Spec
	for i, sn := range s.Sensors {
		where := fmt.Sprintf("scene %s: sensors[%d] (%s)", s.Name, i, sn.Name)
		t, ok := sensor.ParseType(sn.Type)
		if !ok {
			return nil, fmt.Errorf("%s: type %q: want one of %v", where, sn.Type, sensor.TypeNames())
		}
		sp := sensor.Spec{Name: sn.Name, Type: t, Body: -1, Frame: poseOr(sn.Frame), Actuator: sn.Actuator, Cutoff: sn.Cutoff}
		body := func(field, name string) (int, error) {
			if name == "" || name == "world" {
				return -1, nil
			}
			b := m.BodyByName(name)
			if b < 0 {
				return 0, fmt.Errorf("%s: %s %q: no body of this name", where, field, name)
			}
			return b, nil
		}
		var err error
		switch t {
		case sensor.JointPos, sensor.JointVel:
			if sn.Joint == "" {
				return nil, fmt.Errorf("%s: %s needs joint", where, sn.Type)
			}
			if sp.Body, err = body("joint", sn.Joint); err != nil {
				return nil, err
			}
			if sn.DOF != nil {
				sp.DOF = *sn.DOF
			}
		case sensor.ActuatorFrc:
			if sn.Actuator == "" {
				return nil, fmt.Errorf("%s: actuatorfrc needs actuator", where)
			}
		default:
			if sp.Body, err = body("body", sn.Body); err != nil {
				return nil, err
			}
		}
		if sn.RefBody != "" || sn.RefFrame != nil {
			sp.HasRef, sp.RefFrame = true, poseOr(sn.RefFrame)
			if sp.RefBody, err = body("ref_body", sn.RefBody); err != nil {
				return nil, err
			}
		}
		if t == sensor.Touch {
			if sn.Zone == nil {
				return nil, fmt.Errorf("%s: touch needs zone", where)
			}
			sp.Zone = sensor.Zone{Shape: sn.Zone.Shape, Size: spatial.Vec3(sn.Zone.Size)}
		}
		out = append(out, sp)
	}
	if _, err := sensor.NewSet(m, out); err != nil {
		return nil, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	return out, nil
}
