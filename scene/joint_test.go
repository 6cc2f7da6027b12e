package scene

import (
	"math"
	"strings"
	"testing"
)

// TestJointSceneErrors: joint and force problems are reported with file,
// line, field path and value.
func TestJointSceneErrors(t *testing.T) {
	doc := `name: x
dt: 0.01
duration: 1
scheme: leapfrog
materials:
  d: {stiffness: 1, dissipation: 0, friction: 0}
bodies:
  - name: a
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: revolute, parent: b, axis: [0, 0, 0], q0: [1, 2], stiffness: -1}
  - name: c
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    pose: {position: [1, 0, 0]}
    joint: {type: ball, parent: a, limits: {lower: [1], upper: [0]}}
  - name: e
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: free, parent: a, stiffness: 3}
  - name: f
    shape: {type: sphere, radius: 0.1}
    material: d
    mass: 1
    joint: {type: hinge}
forces:
  - {type: spring, bodies: [a, zz], stiffness: 1, effort: [1]}
  - {type: motor, body: c, effort: [1]}
  - {type: rope}
`
	_, err := Parse("bad.yaml", []byte(doc), nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.yaml:4: scheme: "leapfrog" must be one of explicit-euler, symplectic-euler, implicit-euler, midpoint`,
		`bad.yaml:12: bodies[0].joint.parent: "b" is not a body name (or world)`,
		`bad.yaml:12: bodies[0].joint.axis: [0, 0, 0] must be non-zero`,
		`bad.yaml:12: bodies[0].joint.q0: [1, 2] has 2 values; a revolute joint has 1 coordinates`,
		`bad.yaml:12: bodies[0].joint.stiffness: -1 must be ≥ 0`,
		`bad.yaml:17: bodies[1].pose: given for a body with a ball joint`,
		`bad.yaml:23: bodies[2].joint.stiffness: 3 given for a free joint`,
		`bad.yaml:18: bodies[1].joint.limits.lower: [1] has 1 values; a ball joint has 4 coordinates`,
		`bad.yaml:23: bodies[2].joint.parent: "a": a free joint connects to the world only`,
		`bad.yaml:28: bodies[3].joint.type: "hinge" must be one of weld, free, revolute, prismatic, ball, planar, universal`,
		`bad.yaml:30: forces[0].effort: not allowed for a spring`,
		`bad.yaml:30: forces[0].bodies[1]: "zz" is not a body name (or world)`,
		`bad.yaml:31: forces[1].effort: [1] has 1 values; the ball joint of "c" has 3 degrees of freedom`,
		`bad.yaml:32: forces[2].type: "rope" must be one of spring, path, bushing, wrench, motor`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

// TestJointScenesBuild: the articulated embedded scenes build into one tree
// each with the right degrees of freedom, and --set reaches joint and force
// fields.
func TestJointScenesBuild(t *testing.T) {
	for _, c := range []struct {
		name   string
		trees  int
		nq, nv int
	}{{"pendulum", 1, 1, 1}, {"double-pendulum", 1, 2, 2}, {"chain", 1, 7, 7}, {"spring-cylinder", 1, 3, 3}} {
		sc, err := Load(c.name, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(sc)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Model.Trees) != c.trees || b.Model.NQ != c.nq || b.Model.NV != c.nv {
			t.Errorf("%s: %d trees, nq %d, nv %d", c.name, len(b.Model.Trees), b.Model.NQ, b.Model.NV)
		}
	}
	sc, err := Load("chain", []string{"bodies.link1.joint.q0=[0.5]", "bodies.link3.joint.damping=0.5", "scheme=implicit-euler"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	if b.State.Q[0] != 0.5 || b.Model.Bodies[3].Joint.Damping != 0.5 || b.Config.Scheme.Name != "implicit-euler" {
		t.Errorf("--set not applied: q0 %v, damping %v, scheme %q", b.State.Q[0], b.Model.Bodies[3].Joint.Damping, b.Config.Scheme.Name)
	}
	sc, err = Load("spring-cylinder", []string{"forces.spring.stiffness=50"})
	if err != nil {
		t.Fatal(err)
	}
	if *sc.Forces[0].Stiffness != 50 {
		t.Errorf("forces.spring.stiffness = %v", *sc.Forces[0].Stiffness)
	}
	// The pendulum bob hangs 1 m below the hinge at (0, 0, 2), rotated by q0.
	sc, _ = Load("pendulum", nil)
	b, _ = Build(sc)
	p := b.Model.BodyPose(b.State, 1).P
	th := math.Pi / 3
	if math.Abs(p[0]+math.Sin(th)) > 1e-12 || math.Abs(p[2]-(2-math.Cos(th))) > 1e-12 {
		t.Errorf("pendulum bob at %v, want (−sin 60°, 0, 2 − cos 60°)", p)
	}
}
