package urdf

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

const (
	g  = 9.81
	dt = DefaultDT
)

// link is a URDF link of mass 1 kg at 0.5 m below its frame (I = 0.001
// kg·m² about its centre of mass, 0.251 about the frame's y axis).
func link(name string) string {
	return `<link name="` + name + `"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
  <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>`
}

// build imports a URDF document, lets edit change the scene (nil: none)
// and returns the built scene and a simulator.
func build(t *testing.T, doc string, edit func(*scene.Scene)) (*model.Import, *scene.Built, *sim.Simulator) {
	t.Helper()
	im, err := Parse("test.urdf", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(im.Scene)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return im, b, s
}

// step steps n times, failing unless every step converges with e_m ≤ εr.
func step(t *testing.T, b *scene.Built, s *sim.Simulator, n int) {
	t.Helper()
	for range n {
		st, err := s.Step()
		if err != nil || st.Status != solver.Converged || st.MomentumError > b.RelTolerance {
			t.Fatalf("step %d: %v, e_m %.3g, %v", st.Step, st.Status, st.MomentumError, err)
		}
	}
}

// setQ0 sets the initial coordinate of body name's joint.
func setQ0(s *scene.Scene, name string, q float64) {
	for i := range s.Bodies {
		if s.Bodies[i].Name == name {
			s.Bodies[i].Joint.Q0 = []float64{q}
		}
	}
}

// TestMimicFollowsMaster: joint jb mimics ja (q_b = −0.5 q_a + 0.1); ja
// is driven by a transmission with Drake's controller gains (a PD servo,
// p = 50, d = 5) towards u = 0.6, and carries the reflected rotor inertia
// 10² × 0.001 = 0.1 kg·m² as armature. At rest the mimic relation holds
// (near-rigid coupler) and the pair balances as one rigid mechanism: by
// virtual work, −m g l sin q_a + p (u − q_a) + ρ (−m g l sin q_b) = 0.
func TestMimicFollowsMaster(t *testing.T) {
	doc := `<robot name="mimic" xmlns:drake="http://drake.mit.edu"><link name="base"/>` + link("a") + link("b") + `
  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="100"/><dynamics damping="0.5"/></joint>
  <joint name="jb" type="revolute"><parent link="base"/><child link="b"/><origin xyz="1 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="100"/>
    <mimic joint="ja" multiplier="-0.5" offset="0.1"/></joint>
  <transmission name="ta"><type>transmission_interface/SimpleTransmission</type>
    <joint name="ja"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="motor_a"><mechanicalReduction>1</mechanicalReduction><drake:controller_gains p="50" d="5"/>
      <drake:gear_ratio value="10"/><drake:rotor_inertia value="0.001"/></actuator></transmission></robot>`
	const rho, off, u, p, mgl = -0.5, 0.1, 0.6, 50.0, g * 0.5
	im, b, s := build(t, doc, func(sc *scene.Scene) {
		sc.Actuators[0].Target = &scene.Target{Constant: model.Ptr(u)}
	})
	if a := im.Scene.Actuators; len(a) != 1 || a[0].Type != "pd" || *a[0].Kp != 50 || *a[0].Kd != 5 || a[0].Name != "motor_a" {
		t.Fatalf("actuators %+v", a)
	}
	if c := im.Scene.Constraints; len(c) != 1 || c[0].Type != "coupler" || *c[0].Ratio != rho || *c[0].Offset != off || c[0].Joints[0] != "b" {
		t.Fatalf("constraints %+v", c)
	}
	if arm := b.Model.Bodies[b.Model.BodyByName("a")].Joint.Armature; math.Abs(arm-0.1) > 1e-15 {
		t.Errorf("armature %g, want 10² × 0.001", arm)
	}
	step(t, b, s, 8000)
	qa, qb := b.State.Q[0], b.State.Q[1]
	want := 0.5
	for range 50 { // Newton on the virtual-work balance
		f := -mgl*math.Sin(want) + p*(u-want) + rho*(-mgl*math.Sin(rho*want+off))
		df := -mgl*math.Cos(want) - p + rho*rho*(-mgl*math.Cos(rho*want+off))
		want -= f / df
	}
	loop := math.Abs(qb - (rho*qa + off))
	t.Logf("q_a = %.9g (rigid closed form %.9g), mimic error %.3g rad", qa, want, loop)
	if loop > 1e-5 || math.Abs(qa-want) > 1e-5 {
		t.Errorf("q_a %.9g, want %.9g; mimic error %.3g", qa, want, loop)
	}
}

// TestURDFJointFriction: a pendulum released horizontal (gravity torque
// m g l = 4.905 N·m) with <dynamics friction> 6 N·m sticks; with 3 N·m it
// slides, its joint accelerating at (m g l − 3)/I.
func TestURDFJointFriction(t *testing.T) {
	doc := func(f string) string {
		return `<robot name="f"><link name="base"/>` + link("a") + `<joint name="ja" type="continuous"><parent link="base"/><child link="a"/>
  <axis xyz="0 1 0"/><dynamics friction="` + f + `"/></joint></robot>`
	}
	const I = 0.251
	_, b, s := build(t, doc("6"), func(sc *scene.Scene) { setQ0(sc, "a", math.Pi/2) })
	step(t, b, s, 200)
	if d := math.Abs(b.State.Q[0] - math.Pi/2); d > 1e-6 {
		t.Errorf("stuck pendulum moved by %.3g rad", d)
	}
	_, b, s = build(t, doc("3"), func(sc *scene.Scene) { setQ0(sc, "a", math.Pi/2) })
	step(t, b, s, 10)
	want := -10 * dt * (g*0.5 - 3) / I // q grows downwards: about y, gravity turns it back towards 0
	if math.Abs(b.State.V[0]-want) > 1e-3*math.Abs(want) {
		t.Errorf("sliding: ω = %.6g after 10 steps, want %.6g", b.State.V[0], want)
	}
}

// TestURDFLimits: a pendulum released at q = 1 falls onto its lower limit
// 0.5 and rests there (joint damping), pressed by m g l sin 0.5; with the
// limits at ±2 a PD transmission aimed at 1.5 under <limit effort="1">
// saturates where m g l sin q = 1.
func TestURDFLimits(t *testing.T) {
	doc := func(lower, tr string) string {
		return `<robot name="l" xmlns:drake="http://drake.mit.edu"><link name="base"/>` + link("a") + `<joint name="ja" type="revolute"><parent link="base"/><child link="a"/>
  <axis xyz="0 1 0"/><limit lower="` + lower + `" upper="2" effort="1"/><dynamics damping="2"/></joint>` + tr + `</robot>`
	}
	_, b, s := build(t, doc("0.5", ""), func(sc *scene.Scene) { setQ0(sc, "a", 1) })
	step(t, b, s, 3000)
	if d := 0.5 - b.State.Q[0]; d < 0 || d > 1e-5 {
		t.Errorf("q = %.9g: want at the lower limit 0.5 (penetration %.3g)", b.State.Q[0], d)
	}
	tr := `<transmission name="t"><joint name="ja"/><actuator name="m"><drake:controller_gains p="100" d="10"/></actuator></transmission>`
	_, b, s = build(t, doc("-2", tr), func(sc *scene.Scene) {
		setQ0(sc, "a", 1)
		sc.Actuators[0].Target = &scene.Target{Constant: model.Ptr(1.5)}
	})
	step(t, b, s, 5000)
	if want := math.Asin(1 / (g * 0.5)); math.Abs(b.State.Q[0]-want) > 1e-6 {
		t.Errorf("q = %.9g, want asin(1/(m g l)) = %.9g", b.State.Q[0], want)
	}
}

// TestURDFStartedOutsideLimit: a joint whose range [0.3, 1] excludes its
// initial 0 (Allegro's thumb base, joint_12, whose lower limit is 0.263 and
// which a URDF starts at 0, was kicked to 235 rad/s in one step) comes back
// over MuJoCo's default limit time constant, no faster than MuJoCo 2.2.2
// brings the same hinge back (I = 1 kg·m², no gravity, δt = 1 ms, default
// solreflimit: peak 5.5674 rad/s after 19 steps, back in range at 59 ms).
// Before the recovery cap: 300 rad/s (v̂ = −g0/δt). The import itself
// starts the joint at its nearer limit, with a warning.
func TestURDFStartedOutsideLimit(t *testing.T) {
	doc := `<robot name="o"><link name="base"/><link name="a"><inertial><origin xyz="0 0 -1"/><mass value="1"/>
  <inertia ixx="1e-9" iyy="1e-9" izz="1e-9" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 1 0"/><limit lower="0.3" upper="1" effort="10" velocity="10"/></joint></robot>`
	im, _, _ := build(t, doc, nil)
	if q0 := im.Scene.Bodies[1].Joint.Q0; len(q0) != 1 || q0[0] != 0.3 {
		t.Errorf("imported q0 %v, want [0.3], the nearer limit", q0)
	}
	if w := fmt.Sprint(im.Warnings); !strings.Contains(w, `joint "ja": q = 0 lies outside its limits [0.3, 1]; it starts at 0.3`) {
		t.Errorf("warnings %v", im.Warnings)
	}
	// Started at 0 all the same (a keyframe or --set can do it):
	_, b, s := build(t, doc, func(sc *scene.Scene) {
		sc.Gravity = &scene.Vec{0, 0, 0}
		setQ0(sc, "a", 0)
	})
	peak, back := 0.0, 0.0
	for i := range 300 {
		step(t, b, s, 1)
		peak = math.Max(peak, math.Abs(b.State.V[0]))
		if back == 0 && b.State.Q[0] >= 0.3 {
			back = float64(i+1) * dt
		}
	}
	const mjPeak = 5.567438647
	t.Logf("peak speed %.5g rad/s (MuJoCo %.5g), back in range after %.3g s (MuJoCo 0.059)", peak, mjPeak, back)
	if peak > mjPeak || peak < 0.9*mjPeak || back == 0 || back > 0.07 {
		t.Errorf("peak speed %g (MuJoCo %g), back after %g s", peak, mjPeak, back)
	}
}
