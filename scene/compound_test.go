package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

const compoundYAML = `
name: compound
dt: 0.001
duration: 0.01
gravity: [0, 0, -9.81]
materials:
  default: {stiffness: 1e12, dissipation: 0.01, friction: 1}
bodies:
  - name: arm
    shape: {type: box, size: [0.1, 0.1, 0.4]}
    density: 1000
    material: default
    joint:
      type: compound
      parent_frame: {position: [0, 0, 1]}
      parts:
        - {name: slide, type: prismatic, axis: [1, 0, 0], damping: 2, limits: {lower: [-0.5], upper: [0.5]}}
        - {name: hinge, type: revolute, axis: [0, 1, 0], pos: [0, 0, 0.2], ref: 0.3, stiffness: 4, springref: 0.1, friction: 0.1}
        - {name: wrist, type: ball, pos: [0, 0, -0.2], armature: 0.01}
actuators:
  - {name: push, type: motor, joint: arm, dof: 1}
`

// TestCompoundScene: a YAML compound joint builds with its parts' data in
// the model, its limit and friction on the right degrees of freedom, the
// neutral configuration at ref, and runs.
func TestCompoundScene(t *testing.T) {
	s, err := Parse("compound.yaml", []byte(compoundYAML), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	j := b.Model.Bodies[0].Joint
	if j.Type != multibody.JointCompound || j.NQ() != 6 || j.NV() != 5 || j.Parts[1].Ref != 0.3 || j.Parts[1].SpringRef != 0.1 || j.Parts[2].Armature != 0.01 {
		t.Fatalf("joint %+v", j)
	}
	if q := b.State.Q; q[0] != 0 || q[1] != 0.3 || q[2] != 1 {
		t.Fatalf("neutral q %v, want [0 0.3 1 0 0 0]", q)
	}
	set := b.Config.Constraints
	if len(set.Limits) != 1 || set.Limits[0].DOF != 0 || len(set.Frictions) != 1 || set.Frictions[0].DOF != 1 || len(set.Actuators) != 1 || set.Actuators[0].DOF != 1 {
		t.Fatalf("limits %+v frictions %+v actuators %+v", set.Limits, set.Frictions, set.Actuators)
	}
}

// TestCompoundSceneErrors: malformed parts, and an actuator on a ball
// part, are reported with their paths.
func TestCompoundSceneErrors(t *testing.T) {
	for _, c := range []struct {
		replace []string
		want    []string
	}{
		{[]string{"type: prismatic, axis: [1, 0, 0], damping: 2", "type: planar, axis: [1, 0, 0], damping: -2",
			"pos: [0, 0, -0.2], armature: 0.01", "pos: [0, 0, -0.2], armature: 0.01, springref: 3"},
			[]string{`bodies[0].joint.parts[0].type: "planar" must be one of revolute, prismatic, ball`,
				`bodies[0].joint.parts[2].springref: given for a ball part`}},
		{[]string{"dof: 1", "dof: 2"}, []string{`actuators[0].dof: 2 is a degree of freedom of a ball part of "arm"`}},
		{[]string{"type: compound", "type: compound\n      damping: 1"}, []string{`bodies[0].joint.damping: given for a compound joint; give it on each part`}},
	} {
		bad := strings.NewReplacer(c.replace...).Replace(compoundYAML)
		_, err := Parse("bad.yaml", []byte(bad), nil)
		if err == nil {
			t.Fatalf("accepted:\n%s", bad)
		}
		for _, want := range c.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("missing %q in\n%v", want, err)
			}
		}
	}
}
