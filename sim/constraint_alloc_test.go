package sim_test

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestConstraintStepAllocatesNothing: once warmed up, a step with
// constraints allocates nothing: the arm (limits, PD actuators), the
// shaker (a prescribed body in contact, elimination), a payload attached
// by a point and a body, the four-bar with the midpoint rule and
// re-linearization, and the scene with every constraint type (with fixed
// tendons: spring–damper, limits, tendon and general actuators).
func TestConstraintStepAllocatesNothing(t *testing.T) {
	arm, _ := load(t, "arm")
	sc, err := scene.Parse("shaker.yaml", []byte(fmt.Sprintf(shakerScene, 0.01, 2.0)), nil)
	if err != nil {
		t.Fatal(err)
	}
	shaker, _ := newSim(t, sc)
	m, s, link, box := payload(t, 0.5, 0)
	attach := newConstrained(t, m, s, &constraint.Set{Attachments: []constraint.Attachment{{Master: link, Body: box, PointOnly: true}}}, 1e-3, sim.SymplecticEuler)
	loop := fourBar(t, 0.3, constraint.Compliance{}, 1e-3, sim.Midpoint, 10)
	all, err := scene.Parse("c.yaml", []byte(allConstraintsScene), nil)
	if err != nil {
		t.Fatal(err)
	}
	every, _ := newSim(t, all)
	for _, c := range []struct {
		name string
		s    *sim.Simulator
	}{{"arm", arm}, {"shaker", shaker}, {"point attachment", attach}, {"four-bar midpoint", loop}, {"every type", every}} {
		runSteps(t, c.s, 50)
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := c.s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %v allocations per step", c.name, allocs)
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step, want 0", c.name, allocs)
		}
	}
}

// allConstraintsScene has every actuator and constraint type.
const allConstraintsScene = `name: all
dt: 0.001
duration: 1
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
            limits: {lower: [-1], upper: [1], effort: 20}, friction: 0.1}
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
    pose: {position: [0.1, 0, 0.75]}
  - name: tool
    shape: {type: box, size: [0.05, 0.05, 0.05]}
    material: d
    mass: 0.2
    pose: {position: [0, 0, 0.5]}
  - name: plate
    shape: {type: box, size: [0.4, 0.4, 0.02]}
    material: d
    mass: 2
    joint: {type: prismatic, axis: [1, 0, 0], parent_frame: {position: [2, 0, 0.01]}}
  - name: puck
    shape: {type: sphere, radius: 0.05}
    material: d
    mass: 0.1
    pose: {position: [2, 0, 0.07]}
actuators:
  - {name: a1, type: pd, joint: l1, kp: 100, kd: 10, effort: 5, target: {sine: {offset: 0.1, amplitude: 0.2, frequency: 1}}}
  - {name: a2, type: position, joint: l2, kp: 50, gear: 2, ctrl_range: [-1, 1], target: {table: [[0, 0], [1, 0.5]]}}
  - {name: a3, type: velocity, joint: l2, kd: 2, target: {constant: 0.1}}
  - {name: a4, type: motor, joint: l1, effort: 1}
  - {name: a5, type: general, joint: l1, gain: 2, bias: [0.1, -1, -0.5]}
  - {name: a6, type: motor, tendon: t, target: {constant: 0.2}}
  - {name: a7, type: general, tendon: t, bias: [0.2, 0, 0.3]}
tendons:
  - {name: t, joints: [{joint: l1, coef: 0.5}, {joint: l2, coef: -0.5}], stiffness: 2, damping: 0.1, rest_length: 0.1,
     limits: {lower: -0.5, upper: 0.5}}
constraints:
  - {name: glue, type: weld, bodies: [l1, box]}
  - {name: rope, type: distance, bodies: [world, tool], points: [[0, 0, 1], [0, 0, 0]]}
  - {name: pin, type: ball, bodies: [l2, tool]}
  - {name: mimic, type: coupler, joints: [l2, l1], ratio: -1}
  - {name: hold, type: attach, bodies: [plate, puck], point: [0, 0, -0.05]}
  - {name: shake, type: prescribed, body: plate, motion: [{sine: {amplitude: 0.01, frequency: 5}}]}
`
