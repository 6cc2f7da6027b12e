package scene

import (
	"strings"
	"testing"
)

// TestMuscleValidation: a muscle's bad parameters are reported with the
// file, line and field; muscle parameters on another type are refused.
func TestMuscleValidation(t *testing.T) {
	doc := `name: bad
bodies:
  - name: a
    mass: 1
    shape: {type: sphere, radius: 0.1}
    joint: {type: revolute, axis: [0, 1, 0]}
actuators:
  - {name: m1, type: muscle, joint: a, muscle: {time_const: [-1, 0.04], range: [1, 0.5], lmin: 1.5, scale: 0}}
  - {name: m2, type: muscle, joint: a, kp: 1, muscle: {force: 0, length_range: [1, 1], fvmax: -1}}
  - {name: m3, type: motor, joint: a, muscle: {force: 1}}
`
	_, err := Parse("bad.yaml", []byte(doc), nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.yaml:8: actuators[0].muscle.time_const: [-1, 0.04]: need both > 0`,
		`bad.yaml:8: actuators[0].muscle.range: [1, 0.5]: need range[0] < range[1]`,
		`bad.yaml:8: actuators[0].muscle: lmin 1.5, lmax 1.6: need lmin < 1 < lmax`,
		`bad.yaml:8: actuators[0].muscle.scale: 0 must be positive`,
		`bad.yaml:9: actuators[1]: kp or kd given for a muscle`,
		`bad.yaml:9: actuators[1].muscle.force: 0: give F0 > 0, or < 0 for scale / acc0`,
		`bad.yaml:9: actuators[1].muscle.length_range: [1, 1]: need lower < upper`,
		`bad.yaml:9: actuators[1].muscle.fvmax: -1 must be positive`,
		`bad.yaml:10: actuators[2].muscle: given for a motor actuator; only a muscle takes it`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q", want)
		}
	}
	if t.Failed() {
		t.Log(err)
	}
}

// TestMuscleLengthRangeUnbounded: a muscle without a length range on an
// unlimited hinge has none to find (MuJoCo's simulation keeps turning
// the joint): the build fails naming the actuator and the side.
func TestMuscleLengthRangeUnbounded(t *testing.T) {
	doc := `name: free
dt: 0.01
duration: 1
materials:
  d: {stiffness: 1e9, dissipation: 0.01, friction: 0.5}
bodies:
  - name: a
    material: d
    mass: 1
    shape: {type: sphere, radius: 0.1}
    joint: {type: revolute, axis: [0, 1, 0]}
actuators:
  - {name: m1, type: muscle, joint: a}
`
	for _, sets := range [][]string{nil, {"contact.sleep=true"}} { // the length range's mujoco-euler run never sleeps
		sc, err := Parse("free.yaml", []byte(doc), sets)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Build(sc)
		if err == nil || !strings.Contains(err.Error(), `actuator "m1": length range computation did not converge on side 0`) {
			t.Errorf("%v: error %v, want the length range's failure naming m1", sets, err)
		}
	}
}
