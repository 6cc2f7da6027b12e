package load

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/spatial"
)

// TestIncludeCarriesControl: an included MJCF model brings its actuators,
// constraints and keyframe controls, with prefixed names, and its
// world-frame constraint points moved by the include's pose. The model is
// a pendulum pinned by a connect equality to the world at its bob, and a
// servo on its hinge. Included twice (prefixes a_ and b_, the second 1 m
// along y and turned 90° about z), each copy sags exactly as the original
// does, and the keyframe's control reaches both servos.
func TestIncludeCarriesControl(t *testing.T) {
	dir := t.TempDir()
	xml := `<mujoco><compiler angle="radian"/><worldbody>
  <body name="bob"><joint name="hinge" axis="0 1 0"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.001 0.001 0.001"/></body>
  </worldbody><equality><connect name="pin" body1="bob" anchor="0.5 0 0"/></equality>
  <actuator><position name="servo" joint="hinge" kp="1" kv="0.1"/></actuator>
  <keyframe><key name="k" ctrl="0.2"/></keyframe></mujoco>`
	if err := os.WriteFile(filepath.Join(dir, "pin.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := "name: two pins\ndt: 0.002\nduration: 1\n" +
		"include:\n  - {file: pin.xml, prefix: a_}\n" +
		"  - {file: pin.xml, prefix: b_, pose: {position: [0, 1, 0], axis_angle: {axis: [0, 0, 1], angle_deg: 90}}}\n"
	path := filepath.Join(dir, "two.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _, err := Scene(path, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actuators) != 2 || s.Actuators[1].Name != "b_servo" || s.Actuators[1].Joint != "b_bob" {
		t.Fatalf("actuators %+v", s.Actuators)
	}
	c := s.Constraints[1]
	if c.Name != "b_pin" || c.Bodies[0] != "world" || c.Bodies[1] != "b_bob" {
		t.Fatalf("constraint %+v", c)
	}
	// The world point (0.5, 0, 0) of the pin, turned 90° about z and moved
	// 1 m along y.
	if p := spatial.Vec3(c.Points[0]); p.Sub(spatial.Vec3{0, 1.5, 0}).Norm() > 1e-15 {
		t.Errorf("b_pin world point %v, want (0, 1.5, 0)", p)
	}
	if err := s.ApplyKeyframe("k"); err != nil {
		t.Fatal(err)
	}
	for _, a := range s.Actuators {
		if a.Target == nil || *a.Target.Constant != 0.2 {
			t.Fatalf("actuator %s target %+v", a.Name, a.Target)
		}
	}
	s.Solver.Tolerance = model.Ptr(1e-9)
	b := simulate(t, s, 1500)
	// The original, loaded alone with its keyframe, settles where each copy
	// must (the connect's soft law is MuJoCo's: model/mjcf
	// TestConnectHoldsPendulum; the servo pulls the bob past its
	// uncontrolled sag).
	orig, _, err := Scene(filepath.Join(dir, "pin.xml"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := orig.ApplyKeyframe("k"); err != nil {
		t.Fatal(err)
	}
	orig.Solver.Tolerance = model.Ptr(1e-9)
	want := simulate(t, orig, 1500).State.Q[0]
	// Without the servo it sags to MuJoCo 2.2.2's q_free; the pin's
	// stiffness about the hinge is then about m g l / q_free, and the servo's
	// kp·0.2 = 0.2 N·m turns it a further 0.2 q_free/(m g l) (≈ 1.2e-5 rad;
	// solimp stiffens the pin slightly with depth): at least half of it.
	const free = 0.000283227146784625
	if pull := 0.2 * free / (9.81 * 0.5); want-free < pull/2 || want-free > pull {
		t.Fatalf("the original with its servo settles at q = %.10g: %.3g past its sag %.10g, want 0.5-1 times %.3g", want, want-free, free, pull)
	}
	for i, q := range b.State.Q {
		if math.Abs(q-want) > 1e-8 {
			t.Errorf("copy %d: q = %.10g, want the original's %.10g", i, q, want)
		}
	}
}

// newtonSolve solves f(x) = 0 from x0 with a numerical derivative.
func newtonSolve(f func(float64) float64, x0 float64) float64 {
	x := x0
	for range 50 {
		x -= f(x) / ((f(x+1e-7) - f(x-1e-7)) / 2e-7)
	}
	return x
}

// TestIncludeSet: an include's set overrides reach the included model in
// its own names (before the prefix); a bad override is an error naming
// it.
func TestIncludeSet(t *testing.T) {
	dir := t.TempDir()
	xml := `<mujoco><worldbody><body name="bob"><joint name="hinge" axis="0 1 0"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.001 0.001 0.001"/></body></worldbody>
  <actuator><position name="servo" joint="hinge" kp="1"/></actuator></mujoco>`
	if err := os.WriteFile(filepath.Join(dir, "bob.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := func(set string) string {
		return "name: set\ndt: 0.002\nduration: 1\ninclude:\n  - {file: bob.xml, prefix: a_, set: [" + set + "]}\n"
	}
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(doc(`"bodies.bob.joint.q0=[0.3]", "actuators.servo.kp=7"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _, err := Scene(path, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if q := s.Bodies[0].Joint.Q0; len(q) != 1 || q[0] != 0.3 || *s.Actuators[0].Kp != 7 || s.Actuators[0].Name != "a_servo" {
		t.Errorf("q0 %v, actuator %+v", q, s.Actuators[0])
	}
	if err := os.WriteFile(path, []byte(doc(`"bodies.nobody.joint.q0=[0.3]"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Scene(path, nil, Options{}); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Errorf("error %v, want one naming the bad override", err)
	}
}
