package mjcf

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// settle steps s n times, failing on an error or a step that does not
// converge. Converged is SAP eq. 26 itself, ‖D ∇ℓp‖ < εa + εr max(‖D p‖,
// ‖D j_c‖): the momentum error e_m = ‖D ∇ℓp‖ / max(…) of a converged step
// may exceed εr by up to εa / max(…) (measured: 1.000004e-9 with
// εr = 1e-9, εa = 1e-16 in a soft joint equality's run), so e_m ≤ εr is
// not the solver's criterion and is not asserted.
func settle(t *testing.T, b *scene.Built, s *sim.Simulator, n int) {
	t.Helper()
	for range n {
		st, err := s.Step()
		if err != nil || st.Status != solver.Converged {
			t.Fatalf("step %d: status %v, e_m %.17g (εr %g), error %v", st.Step, st.Status, st.MomentumError, b.RelTolerance, err)
		}
	}
}

// runTight is run with the solver's relative tolerance εr tightened to
// 1e-9, so that steady states are exact to about that.
func runTight(t *testing.T, doc, key string) (*scene.Built, *sim.Simulator) {
	t.Helper()
	im, err := Parse("test.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	im.Scene.Solver.Tolerance = model.Ptr(1e-9)
	if key != "" {
		if err := im.Scene.ApplyKeyframe(key); err != nil {
			t.Fatal(err)
		}
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return b, s
}

// newton solves f(x) = 0 from x0 by Newton's method with a numerical
// derivative.
func newton(f func(float64) float64, x0 float64) float64 {
	x := x0
	for range 50 {
		d := (f(x+1e-7) - f(x-1e-7)) / 2e-7
		x -= f(x) / d
	}
	return x
}

// pendulumDoc is a hinge pendulum (about y) of mass 1 kg at 0.5 m below
// the hinge with the actuators act, joint attributes jattr, and a
// keyframe "hold" with ctrl.
func pendulumDoc(act, ctrl, jattr string) string {
	return `<mujoco><compiler angle="radian"/>
  <worldbody><body name="bob"><joint name="hinge" axis="0 1 0" ` + jattr + `/>
    <inertial pos="0 0 -0.5" mass="1" diaginertia="0.001 0.001 0.001"/></body></worldbody>
  <actuator>` + act + `</actuator>
  <keyframe><key name="hold" ctrl="` + ctrl + `"/></keyframe></mujoco>`
}

// TestPositionActuatorHoldsPendulum: a position servo (MuJoCo's position
// actuator, and the same servo written as <general> with an affine bias
// as Menagerie's iiwa does, with gear 1 and 2) holds a pendulum where its
// force balances gravity: gear·kp (u − gear·q) = m g l sin q, with u from
// the keyframe's ctrl. The pendulum settles there to 1e-9 rad.
func TestPositionActuatorHoldsPendulum(t *testing.T) {
	const m, l, kp, u = 1.0, 0.5, 20.0, 1.0
	for _, c := range []struct {
		name, act string
		gear      float64
	}{
		{"position", `<position name="servo" joint="hinge" kp="20" kv="2"/>`, 1},
		{"general", `<general name="servo" joint="hinge" gainprm="20" biastype="affine" biasprm="0 -20 -2"/>`, 1},
		{"position gear 2", `<position name="servo" joint="hinge" kp="20" kv="2" gear="2"/>`, 2},
	} {
		b, s := runTight(t, pendulumDoc(c.act, "1", ""), "hold")
		settle(t, b, s, 5000)
		want := newton(func(q float64) float64 { return c.gear*kp*(u-c.gear*q) - m*g*l*math.Sin(q) }, 0.5)
		if d := math.Abs(b.State.Q[0] - want); d > 1e-9 {
			t.Errorf("%s: q = %.12g, want %.12g (Δ %.2g)", c.name, b.State.Q[0], want, d)
		}
		t.Logf("%s: q = %.12g, closed form %.12g", c.name, b.State.Q[0], want)
	}
}

// TestForceRangeSaturates: a stiff servo aimed above where it can hold the
// pendulum, with forcerange ±2 N·m, saturates: the pendulum (with joint
// damping, as the saturated servo does not damp) rests where gravity's
// torque is the effort limit, m g l sin q = 2. MuJoCo's Euler
// (mujoco-euler, with the joint damping implicit) evaluates gravity at
// the start of the step, so at rest its balance with the saturated
// impulse is exact. (Implicit Euler, which the import used to choose for
// damped joints, needed relinearizations: its single linearization leaves
// gravity's stiffness out of A and misplaced the balance by 1.4e-4 N·m.)
func TestForceRangeSaturates(t *testing.T) {
	im, err := Parse("test.xml", []byte(pendulumDoc(`<position name="servo" joint="hinge" kp="200" kv="20" forcerange="-2 2"/>`, "1.5", `damping="2"`)), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if im.Scene.Scheme != "mujoco-euler" {
		t.Fatalf("scheme %q", im.Scene.Scheme)
	}
	im.Scene.Solver.Tolerance = model.Ptr(1e-8)
	if err := im.Scene.ApplyKeyframe("hold"); err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	settle(t, b, s, 5000)
	want := math.Asin(2 / (g * 0.5))
	if d := math.Abs(b.State.Q[0] - want); d > 1e-8 {
		t.Errorf("q = %.12g, want asin(2/(m g l)) = %.12g", b.State.Q[0], want)
	}
	if r := s.ConstraintReports(); len(r) == 0 || !strings.Contains(r[0].State.String(), "saturated") {
		t.Errorf("reports %+v: the servo should be saturated", r)
	}
}

// TestVelocityAndMotorActuators: on a flywheel (hinge about the vertical,
// no gravity torque, I = 0.02 kg·m²) a velocity actuator f = kv (u − q̇)
// drives it to u = 3 rad/s; a motor with gear 2 and ctrl 0.5 turns it with
// the angular acceleration gear·u/I, exactly under symplectic Euler.
func TestVelocityAndMotorActuators(t *testing.T) {
	wheel := func(act, ctrl string) string {
		return `<mujoco><worldbody><body name="wheel"><joint name="spin" axis="0 0 1"/>
  <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.02"/></body></worldbody>
  <actuator>` + act + `</actuator><keyframe><key name="k" ctrl="` + ctrl + `"/></keyframe></mujoco>`
	}
	b, s := runTight(t, wheel(`<velocity joint="spin" kv="5"/>`, "3"), "k")
	settle(t, b, s, 1000)
	if d := math.Abs(b.State.V[0] - 3); d > 1e-8 {
		t.Errorf("velocity actuator: ω = %.12g, want 3", b.State.V[0])
	}
	b, s = run(t, wheel(`<motor joint="spin" gear="2"/>`, "0.5"), "k")
	settle(t, b, s, 100)
	if want := 100 * h * 2 * 0.5 / 0.02; math.Abs(b.State.V[0]-want) > 1e-12*want {
		t.Errorf("motor: ω = %.15g after 100 steps, want %.15g", b.State.V[0], want)
	}
}

// TestActuatorMapping: the scene actuators an MJCF file maps to, the
// keyframe's ctrl in MuJoCo's actuator order (skipping one that is not
// simulated), ctrlrange, forcerange and the joint's actuatorfrcrange.
func TestActuatorMapping(t *testing.T) {
	doc := `<mujoco><worldbody><body name="bob"><joint name="hinge" axis="0 1 0" actuatorfrcrange="-3 3"/>
    <inertial pos="0 0 -0.5" mass="1" diaginertia="0.001 0.001 0.001"/></body></worldbody>
  <actuator>
    <general name="odd" joint="hinge" gaintype="muscle"/>
    <general joint="hinge" gainprm="4" forcerange="-8 8" ctrlrange="-1 1"/>
    <velocity name="damper" joint="hinge" kv="0.5" ctrllimited="false" ctrlrange="-1 1"/>
  </actuator>
  <keyframe><key name="k" ctrl="0 0.25 -2"/></keyframe></mujoco>`
	im, err := Parse("map.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acts := im.Scene.Actuators
	if len(acts) != 2 {
		t.Fatalf("%d scene actuators, want 2: %+v", len(acts), acts)
	}
	a := acts[0] // general gain 4: a motor with gear 4, effort 8/4
	if a.Name != "actuator1" || a.Type != "motor" || *a.Gear != 4 || *a.Effort != 2 || *a.CtrlRange != [2]float64{-1, 1} {
		t.Errorf("general gain: %+v", a)
	}
	if v := acts[1]; v.Name != "damper" || v.Type != "velocity" || *v.Kd != 0.5 || v.CtrlRange != nil {
		t.Errorf("velocity: %+v", v)
	}
	if e := im.Scene.Bodies[0].Joint.Limits.Effort; e == nil || *e != 3 {
		t.Errorf("actuatorfrcrange: effort %v", e)
	}
	if k := im.Scene.Keyframes[0].Controls; len(k) != 2 || k["actuator1"] != 0.25 || k["damper"] != -2 {
		t.Errorf("keyframe controls %v", k)
	}
	found := false
	for _, w := range im.Warnings {
		found = found || strings.Contains(w.String(), `gaintype "muscle", biastype "none": muscle types are simulated only all three together`)
	}
	if !found {
		t.Errorf("no warning for the unmapped general actuator: %v", im.Warnings)
	}
}

// TestWeldExcludes: MuJoCo's parent filter of welded bodies. upper
// (hinge) carries mid, welded to it (no joint), which carries lower
// (hinge): mid belongs to upper's group, so lower's parent group is
// upper's and the pair (upper, lower) does not collide; the world's geoms
// still touch the top body (the world is exempt).
func TestWeldExcludes(t *testing.T) {
	doc := `<mujoco><worldbody><geom type="plane" size="1 1 0.1"/>
  <body name="upper"><joint axis="0 1 0"/><geom type="sphere" size="0.1"/>
    <body name="mid" pos="0 0 -0.3"><geom type="sphere" size="0.1"/>
      <body name="lower" pos="0 0 -0.3"><joint axis="0 1 0"/><geom type="sphere" size="0.1"/></body></body></body>
  </worldbody></mujoco>`
	im, err := Parse("weld.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ex := im.Scene.Exclude; len(ex) != 1 || ex[0] != [2]string{"upper", "lower"} {
		t.Errorf("exclusions %v, want [[upper lower]]", ex)
	}
}
