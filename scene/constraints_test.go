package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// constraintsDoc is a valid scene with every actuator and constraint type.
const constraintsDoc = `name: c
dt: 0.001
duration: 0.01
materials:
  d: {stiffness: 1e9, dissipation: 0.01, friction: 0.5}
bodies:
  - name: ground
    fixed: true
    shape: {type: halfspace}
    material: d
  - name: l1
    shape: {type: capsule, radius: 0.02, length: 0.3}
    material: d
    mass: 1
    joint: {type: revolute, axis: [0, 1, 0], parent_frame: {position: [0, 0, 1]}, child_frame: {position: [0, 0, 0.2]},
            limits: {lower: [-1], upper: [1], effort: 20, stiffness: 1e5, dissipation: 0.01}, friction: 0.1}
  - name: l2
    shape: {type: capsule, radius: 0.02, length: 0.3}
    material: d
    mass: 1
    joint: {type: revolute, parent: l1, axis: [0, 1, 0], parent_frame: {position: [0, 0, -0.2]}, child_frame: {position: [0, 0, 0.2]}}
  - name: b
    shape: {type: sphere, radius: 0.05}
    material: d
    mass: 1
    joint: {type: ball, parent: l2, parent_frame: {position: [0, 0, -0.25]}, limits: {cone: 0.5}, friction: 0.01}
  - name: box
    shape: {type: box, size: [0.05, 0.05, 0.05]}
    material: d
    mass: 0.2
    pose: {position: [0.5, 0, 1]}
  - name: plate
    shape: {type: box, size: [0.4, 0.4, 0.02]}
    material: d
    mass: 2
    joint: {type: prismatic, axis: [1, 0, 0], parent_frame: {position: [2, 0, 0.1]}}
  - name: puck
    shape: {type: sphere, radius: 0.05}
    material: d
    mass: 0.1
    pose: {position: [2, 0, 1]}
actuators:
  - {name: a1, type: pd, joint: l1, kp: 100, kd: 10, effort: 5, target: {sine: {offset: 0.1, amplitude: 0.2, frequency: 1}}}
  - {name: a2, type: position, joint: l2, kp: 50, gear: 2, ctrl_range: [-1, 1], target: {table: [[0, 0], [1, 0.5]]}}
  - {name: a3, type: velocity, joint: l2, kd: 2, target: {constant: 0.1}}
  - {name: a4, type: motor, joint: l1, effort: 1}
constraints:
  - {name: loop, type: ball, bodies: [world, l2], points: [[0, 0, 0.2], [0, 0, -0.2]]}
  - {name: glue, type: weld, bodies: [l1, box], rot_stiffness: 100}
  - {name: rope, type: distance, bodies: [world, puck], points: [[2, 0, 2], [0, 0, 0]], length: 1}
  - {name: mimic, type: coupler, joints: [l2, l1], ratio: -1, offset: 0.1}
  - {name: hold, type: attach, bodies: [plate, puck], point: [0, 0, 0.05]}
  - {name: shake, type: prescribed, body: plate, motion: [{sine: {amplitude: 0.01, frequency: 5}}]}
`

func TestConstraintsSceneValid(t *testing.T) {
	s, err := Parse("c.yaml", []byte(constraintsDoc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actuators) != 4 || len(s.Constraints) != 6 || *s.Bodies[1].Joint.Friction != 0.1 {
		t.Errorf("decoded %d actuators, %d constraints", len(s.Actuators), len(s.Constraints))
	}
	for _, set := range []string{"actuators.a1.kp=300", "constraints.loop.stiffness=1e6", "constraints.shake.motion[0]={constant: 0}"} {
		if _, err := Parse("c.yaml", []byte(constraintsDoc), []string{set}); err != nil {
			t.Errorf("--set %s: %v", set, err)
		}
	}
}

// TestConstraintsSceneErrors: bad actuators, constraints, limits and
// friction are reported with file, line, path and value.
func TestConstraintsSceneErrors(t *testing.T) {
	doc := `name: x
dt: 0.01
duration: 1
materials:
  d: {stiffness: 1, dissipation: 0, friction: 0}
bodies:
  - name: a
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: revolute, limits: {cone: 0.3, stiffness: -1}, friction: -2}
  - name: c
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: ball, parent: a, limits: {lower: [0, 0, 0, 0], cone: 4}}
  - name: f
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
actuators:
  - {name: m, type: motor, joint: a, kp: 1}
  - {name: m, type: servo, joint: a}
  - {type: position, joint: c, kp: 0}
  - {type: pd, joint: a, dof: 2, kp: 0, kd: 0, gear: 0, effort: -1, ctrl_range: [1, 0]}
  - {type: velocity, joint: zz, kd: 1, target: {constant: 1, sine: {frequency: 1}}}
  - {type: motor, joint: a, target: {table: [[0, 1], [0, 2]]}}
constraints:
  - {type: ball, bodies: [a], points: [[0, 0, 0]]}
  - {type: weld, bodies: [a, a], length: 1}
  - {type: coupler, joints: [a, c]}
  - {type: attach, bodies: [a, c]}
  - {type: attach, bodies: [a, f]}
  - {type: attach, bodies: [c, f]}
  - {type: prescribed, body: f, motion: [{constant: 0}]}
  - {type: prescribed, body: a, dofs: [1], motion: [{constant: 0}]}
  - {type: distance, bodies: [world, f], length: 0, stiffness: 0}
  - {type: glue}
  - {type: weld, bodies: [world, a], scale: 2, weight: 1}
  - {type: weld, bodies: [world, a], solref: [0.02, 1], rot_stiffness: 5, scale: -1}
`
	_, err := Parse("bad.yaml", []byte(doc), nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.yaml:11: bodies[0].joint.limits.cone: 0.3 given for a revolute joint; cone limits a ball joint`,
		`bad.yaml:11: bodies[0].joint.limits.stiffness: -1 must be positive`,
		`bad.yaml:11: bodies[0].joint.friction: -2 must be ≥ 0`,
		`bad.yaml:16: bodies[1].joint.limits: lower/upper given for a ball joint`,
		`bad.yaml:16: bodies[1].joint.limits.cone: 4 must be in (0, π] (rad)`,
		`bad.yaml:22: actuators[0]: kp or kd given for a motor`,
		`bad.yaml:23: actuators[1].name: "m" is already the name of element 0`,
		`bad.yaml:23: actuators[1].type: "servo" must be one of motor, position, velocity, pd`,
		`bad.yaml:24: actuators[2].joint: "c" has a ball joint; this needs a revolute, prismatic, planar, universal or compound joint`,
		`bad.yaml:24: actuators[2].kp: 0: a position actuator needs kp > 0`,
		`bad.yaml:25: actuators[3].dof: 2 is not a degree of freedom of the revolute joint of "a" (it has 1)`,
		`bad.yaml:25: actuators[3].gear: 0 must be non-zero`,
		`bad.yaml:25: actuators[3]: kp = 0 and kd = 0: a pd actuator needs kp > 0 or kd > 0`,
		`bad.yaml:25: actuators[3].effort: -1 must be positive`,
		`bad.yaml:25: actuators[3].ctrl_range: [1, 0]: lower bound above upper bound`,
		`bad.yaml:26: actuators[4].joint: "zz" is not a body name`,
		`bad.yaml:26: actuators[4].target: give exactly one of constant, table, sine (2 given)`,
		`bad.yaml:27: actuators[5].target.table[1]: time 0 is not after the previous row's 0; times must increase`,
		`bad.yaml:29: constraints[0].bodies: 1 bodies given; a ball needs 2: [A, B]`,
		`bad.yaml:30: constraints[1].length: not allowed for a weld`,
		`bad.yaml:30: constraints[1].bodies: [a, a]: a weld needs two different bodies, not both fixed`,
		`bad.yaml:31: constraints[2].joints[1]: "c" has a ball joint`,
		`bad.yaml:32: constraints[3].bodies[1]: "c" is not a free body`,
		`bad.yaml:34: constraints[5].bodies[1]: "f" is already attached by constraints[4]; a body has one master`,
		`bad.yaml:35: constraints[6].motion: 1 targets given; give one per moved coordinate (3)`,
		`bad.yaml:35: constraints[6].body: "f" is attached by constraints[4] and cannot also be prescribed`,
		`bad.yaml:36: constraints[7].dofs[0]: 1 is not a distinct degree of freedom of the revolute joint of "a" (it has 1)`,
		`bad.yaml:37: constraints[8].length: 0 must be positive`,
		`bad.yaml:37: constraints[8].stiffness: 0 must be positive`,
		`bad.yaml:38: constraints[9].type: "glue" must be one of weld, ball, distance, coupler, attach, prescribed`,
		`bad.yaml:39: constraints[10].weight: given without solref; a weld takes weight with solref (MuJoCo's soft weld)`,
		`bad.yaml:39: constraints[10].scale: given without solref; a weld takes scale with solref (MuJoCo's soft weld)`,
		`bad.yaml:40: constraints[11].rot_stiffness: give either solref (MuJoCo's soft weld) or stiffness, rot_stiffness and dissipation`,
		`bad.yaml:40: constraints[11].scale: -1: want a finite number ≥ 0 (MuJoCo's torquescale)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q", want)
		}
	}
	if t.Failed() {
		t.Log(err)
	}
}

// TestAttachLoop: attachments that form a loop are an error.
func TestAttachLoop(t *testing.T) {
	doc := constraintsDoc + "  - {type: attach, bodies: [puck, box]}\n  - {type: attach, bodies: [box, puck]}\n"
	doc = strings.Replace(doc, "  - {name: hold, type: attach, bodies: [plate, puck], point: [0, 0, 0.05]}\n", "", 1)
	doc = strings.Replace(doc, "  - {name: glue, type: weld, bodies: [l1, box], rot_stiffness: 100}\n", "", 1)
	_, err := Parse("loop.yaml", []byte(doc), nil)
	if err == nil || !strings.Contains(err.Error(), "the attachments form a loop") {
		t.Fatalf("got %v", err)
	}
}

// TestConstraintsSceneBuilds: the scene with every type builds into a Set
// with the expected items and defaults, and simulates.
func TestConstraintsSceneBuilds(t *testing.T) {
	s, err := Parse("c.yaml", []byte(constraintsDoc), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	set := b.Config.Constraints
	if set == nil {
		t.Fatal("no constraint set")
	}
	if len(set.Limits) != 1 || len(set.Cones) != 1 || len(set.Frictions) != 4 || len(set.Actuators) != 4 ||
		len(set.Welds) != 1 || len(set.Balls) != 1 || len(set.Distances) != 1 || len(set.Couplers) != 1 ||
		len(set.Attachments) != 1 || len(set.Prescribed) != 1 {
		t.Fatalf("set %+v", set)
	}
	if l := set.Limits[0]; l.Name != "l1/limit" || l.Lower != -1 || l.Upper != 1 || l.Compliance.Stiffness != 1e5 {
		t.Errorf("limit %+v", l)
	}
	if a := set.Actuators[1]; a.Gear != 2 || a.CtrlMin != -1 || a.CtrlMax != 1 || a.Kp != 50 {
		t.Errorf("actuator %+v", a)
	}
	if u, r := set.Actuators[1].Target.Eval(0.5); u != 0.25 || r != 0.5 {
		t.Errorf("table target at 0.5: %v, %v", u, r)
	}
	if !b.Model.Excluded(b.Model.BodyByName("l1"), b.Model.BodyByName("box")) {
		t.Error("welded bodies still collide")
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range b.Steps {
		st, err := sm.Step()
		if err != nil {
			t.Fatal(err)
		}
		if !st.OK() || st.Constraints != 16 {
			t.Fatalf("step %d: %+v", st.Step, st)
		}
	}
	for _, r := range sm.ConstraintReports() {
		t.Logf("%-16s %-10v %-9v rows %d violation %.3g impulse %.4g", r.Name, r.Type, r.State, r.Rows, r.Violation, r.Impulse[:r.Rows])
	}
}
