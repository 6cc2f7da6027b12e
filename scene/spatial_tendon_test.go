package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// TestSpatialTendonValidation: spatial tendon and slider-crank errors name
// the field and value.
func TestSpatialTendonValidation(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"tendons:\n  - {name: t, path: [{body: a}]}\n", "tendons[0].path: 1 sites: give at least two"},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: nope}]}\n", `tendons[0].path[1].body: "nope" is not a body name`},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: b}], joints: [{joint: a, coef: 1}]}\n", "joints and path given"},
		{"tendons:\n  - {name: t, path: [{body: a, wrap: {shape: box, body: world, radius: 1}}, {body: b}]}\n", `tendons[0].path[0].wrap.shape: "box": want sphere or cylinder`},
		{"tendons:\n  - {name: t, path: [{body: a, wrap: {shape: sphere, body: world, radius: 0}}, {body: b}]}\n", "tendons[0].path[0].wrap.radius: 0 must be positive"},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: b, wrap: {shape: sphere, body: world, radius: 1}}]}\n", "the last site has no next site"},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: b}, {body: a, pulley: -2}, {body: b}]}\n", "tendons[0].path[2].pulley: -2 must be positive and finite"},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: b, pulley: 2}, {body: a}]}\n", "tendons[0].path[1].pulley: the branch before it, from site 0, has 1 site"},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: b}, {body: a, pulley: 2}]}\n", "tendons[0].path[2].pulley: the last branch has 1 site"},
		{"tendons:\n  - {name: t, path: [{body: a}, {body: b, wrap: {shape: sphere, body: world, radius: 1}}, {body: a, pulley: 2}, {body: b}]}\n", "tendons[0].path[1].wrap: the site before a pulley ends its branch"},
		{"actuators:\n  - {type: motor, slider_crank: {crank: {body: a}, slider: {body: world}, axis: [0, 0, 0], rod_length: 1}}\n", "actuators[0].slider_crank.axis"},
		{"actuators:\n  - {type: motor, slider_crank: {crank: {body: a}, slider: {body: world}, axis: [1, 0, 0], rod_length: -1}}\n", "actuators[0].slider_crank.rod_length: -1 must be positive"},
		{"actuators:\n  - {type: motor, joint: a, slider_crank: {crank: {body: a}, slider: {body: world}, axis: [1, 0, 0], rod_length: 1}}\n", "given with a joint or tendon"},
		{"actuators:\n  - {type: motor, site_wrench: {site: {body: a}}}\n", "actuators[0].site_wrench: force [0 0 0] and torque [0 0 0]: need finite values, not both zero"},
		{"actuators:\n  - {type: motor, joint: a, site_wrench: {site: {body: a}, force: [1, 0, 0]}}\n", "actuators[0].site_wrench: given with a joint, tendon or slider-crank"},
		{"actuators:\n  - {type: motor, site_wrench: {site: {body: nope}, force: [1, 0, 0]}}\n", "actuators[0].site_wrench.site.body"},
	} {
		_, err := Parse("t.yaml", []byte(tendonBase+c.yaml), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
}

// TestSpatialTendonScene: a spatial tendon spring (rest length 0.3) between
// a fixed point and a free ball, and a slider-crank servo on a hinge: the
// ball settles where the spring holds its weight, k (L − L0) = m g
// (L = 0.3 + 9.81/100), and the crank's servo turns the hinge until the
// slider-crank's length is its target 0.
func TestSpatialTendonScene(t *testing.T) {
	doc := `name: s
dt: 0.002
duration: 1
gravity: [0, 0, -9.81]
materials:
  d: {stiffness: 1e6, dissipation: 0.01, friction: 0.5}
bodies:
  - name: ball
    shape: {type: sphere, radius: 0.05}
    material: d
    mass: 1
    joint: {type: prismatic, axis: [0, 0, 1]}
  - name: wheel
    shape: {type: sphere, radius: 0.05}
    material: d
    mass: 1
    joint: {type: revolute, axis: [0, 0, 1], parent_frame: {position: [1, 0, 0]}}
forces: []
tendons:
  - name: spring
    path:
      - {body: world, point: [0, 0, 0.5]}
      - {body: ball}
    stiffness: 100
    damping: 5
    rest_length: 0.3
actuators:
  - name: crank
    type: position
    kp: 3
    kd: 0.5
    slider_crank:
      crank: {body: wheel, point: [0.1, 0, 0]}
      slider: {body: world, point: [1, -0.1, 0]}
      axis: [1, 0.5, 0]
      rod_length: 0.08
`
	s, err := Parse("s.yaml", []byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		if _, err := sm.Step(); err != nil {
			t.Fatal(err)
		}
	}
	z := b.Model.Bodies[b.Model.BodyByName("ball")].QOff
	got, want := 0.5-sm.State.Q[z], 0.3+9.81/100
	if math.Abs(got-want) > 1e-6 {
		t.Errorf("tendon length at rest %.9f, want k (L − L0) = m g: %.9f", got, want)
	}
	sc := ActuatorSliderCrank(b.Model, &s.Actuators[0])
	ws := multibody.NewWorkspace(b.Model)
	ws.Update(sm.State.Q, sm.State.V)
	l := sc.Jacobian(b.Model, ws, make([]float64, b.Model.NV), make([]float64, 3*b.Model.NV))
	if math.Abs(l) > 1e-6 {
		t.Errorf("slider-crank length %.3g at rest, want the servo's target 0", l)
	}
	t.Logf("spring length %.9f (want %.9f), slider-crank length %.2g", got, want, l)
}
