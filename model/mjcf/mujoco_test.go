package mjcf

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// run imports an MJCF document, applies keyframe key (if not ""), and
// returns the built scene and a simulator for it.
func run(t *testing.T, doc, key string) (*scene.Built, *sim.Simulator) {
	t.Helper()
	im, err := Parse("test.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
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

const (
	h     = 0.002 // MuJoCo's default timestep, left to the option default
	g     = 9.81
	steps = 100
)

// TestPendulumSemiImplicitEuler: a hinge pendulum (MuJoCo's default Euler
// integrator maps to mujoco-euler, semi-implicit Euler when nothing is
// damped). The expected trajectory is
// MuJoCo's semi-implicit Euler written out for the closed-form dynamics of
// a rigid pendulum, I_O θ̈ = −m g l sin θ, with I_O = I_c + m l² about the
// pivot: ω⁺ = ω + h θ̈(θ), θ⁺ = θ + h ω⁺. Two versions: an explicit
// <inertial>, and a sphere geom whose mass ρ·4πr³/3 and inertia 2/5 m r²
// come from inertiafromgeom; the initial angle comes from a keyframe.
func TestPendulumSemiImplicitEuler(t *testing.T) {
	for _, c := range []struct {
		name, body string
		m, l, Ic   float64
	}{
		{"inertial", `<inertial pos="0 0 -0.5" mass="1.5" diaginertia="0.02 0.02 0.01"/>`, 1.5, 0.5, 0.02},
		{"sphere geom", `<geom type="sphere" size="0.1" pos="0 0 -0.7" density="2000"/>`, 2000 * 4 * math.Pi * 0.001 / 3, 0.7, 0.4 * 0.01 * 2000 * 4 * math.Pi * 0.001 / 3},
	} {
		doc := `<mujoco><compiler angle="radian"/>
  <worldbody><body name="bob"><joint name="hinge" type="hinge" axis="0 1 0"/>` + c.body + `</body></worldbody>
  <keyframe><key name="start" qpos="1.2" qvel="-0.5"/></keyframe></mujoco>`
		b, s := run(t, doc, "start")
		if b.Config.DT != h {
			t.Fatalf("dt %v, want MuJoCo's default %v", b.Config.DT, h)
		}
		I := c.Ic + c.m*c.l*c.l
		th, om := 1.2, -0.5
		worst := 0.0
		for range steps {
			om += h * (-c.m * g * c.l * math.Sin(th) / I)
			th += h * om
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			worst = math.Max(worst, math.Max(math.Abs(b.State.Q[0]-th), math.Abs(b.State.V[0]-om)))
		}
		if worst > 1e-12 {
			t.Errorf("%s: max |Δθ|, |Δω| over %d steps = %.3g", c.name, steps, worst)
		}
		t.Logf("%s: θ(100 h) = %.15g, max deviation %.2g", c.name, th, worst)
	}
}

// TestChainSemiImplicitEuler: a double pendulum (two hinges about y). The
// textbook dynamics in relative angles, with link 1 of length L1 and
// centres of mass at distances l1, l2 from their hinges:
//
//	M11 = I1 + I2 + m1 l1² + m2 (L1² + l2² + 2 L1 l2 cos θ2)
//	M12 = I2 + m2 (l2² + L1 l2 cos θ2),  M22 = I2 + m2 l2²
//	c = m2 L1 l2 sin θ2 (−(2 ω1 ω2 + ω2²), ω1²)
//	τg = −g (m1 l1 sin θ1 + m2 (L1 sin θ1 + l2 sin(θ1+θ2)), m2 l2 sin(θ1+θ2))
//
// integrated by semi-implicit Euler: ω⁺ = ω + h M⁻¹(τg − c), θ⁺ = θ + h ω⁺.
func TestChainSemiImplicitEuler(t *testing.T) {
	const m1, m2, l1, l2, L1, I1, I2 = 1.0, 0.7, 0.25, 0.3, 0.5, 0.004, 0.003
	doc := `<mujoco><compiler angle="radian"/><worldbody>
  <body name="upper"><joint type="hinge" axis="0 1 0"/><inertial pos="0 0 -0.25" mass="1" diaginertia="0.004 0.004 0.001"/>
    <body name="lower" pos="0 0 -0.5"><joint type="hinge" axis="0 1 0"/><inertial pos="0 0 -0.3" mass="0.7" diaginertia="0.003 0.003 0.001"/></body>
  </body></worldbody><keyframe><key name="k" qpos="0.8 -0.4" qvel="1 2"/></keyframe></mujoco>`
	b, s := run(t, doc, "k")
	th := [2]float64{0.8, -0.4}
	om := [2]float64{1, 2}
	worst := 0.0
	for range steps {
		c2, s2 := math.Cos(th[1]), math.Sin(th[1])
		s1, s12 := math.Sin(th[0]), math.Sin(th[0]+th[1])
		M11 := I1 + I2 + m1*l1*l1 + m2*(L1*L1+l2*l2+2*L1*l2*c2)
		M12 := I2 + m2*(l2*l2+L1*l2*c2)
		M22 := I2 + m2*l2*l2
		hc := m2 * L1 * l2 * s2
		f1 := -g*(m1*l1*s1+m2*(L1*s1+l2*s12)) + hc*(2*om[0]*om[1]+om[1]*om[1])
		f2 := -g*m2*l2*s12 - hc*om[0]*om[0]
		det := M11*M22 - M12*M12
		a1, a2 := (M22*f1-M12*f2)/det, (M11*f2-M12*f1)/det
		om[0], om[1] = om[0]+h*a1, om[1]+h*a2
		th[0], th[1] = th[0]+h*om[0], th[1]+h*om[1]
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for k := range 2 {
			worst = math.Max(worst, math.Max(math.Abs(b.State.Q[k]-th[k]), math.Abs(b.State.V[k]-om[k])))
		}
	}
	if worst > 1e-11 {
		t.Errorf("max deviation over %d steps = %.3g", steps, worst)
	}
	t.Logf("θ(100 h) = %.12g, %.12g; max deviation %.2g", th[0], th[1], worst)
}

// TestFreeBodySemiImplicitEuler: a box on a free joint, thrown and spun
// about a principal axis (its z, so ω × Iω = 0 and ω stays constant). Under
// semi-implicit Euler the centre of mass follows x_n = x0 + n h v0 +
// h² g n(n+1)/2 exactly. MuJoCo turns the orientation by the exact
// rotation h ω per step, and so does mujoco-euler (the exponential map of
// mj_integratePos): after n steps the angle is n h ω. (Symplectic Euler's
// q⁺ = normalise(q + h ½ (0, ω) q) turns by 2 atan(h ω/2) per step, short
// of it by n (h ω)³/12 ≈ 8.3e-6 rad here.)
func TestFreeBodySemiImplicitEuler(t *testing.T) {
	doc := `<mujoco><worldbody><body name="box" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3" density="500"/></body></worldbody>
  <keyframe><key name="throw" qpos="0 0 1 1 0 0 0" qvel="1 -0.5 3 0 0 5"/></keyframe></mujoco>`
	b, s := run(t, doc, "throw")
	x0, v0 := [3]float64{0, 0, 1}, [3]float64{1, -0.5, 3}
	const w = 5.0
	for range steps {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	n := float64(steps)
	q := b.State.Q
	for k := range 3 {
		want := x0[k] + n*h*v0[k]
		if k == 2 {
			want -= h * h * g * n * (n + 1) / 2
		}
		if math.Abs(q[4+k]-want) > 1e-12 {
			t.Errorf("position[%d] = %.15g, want %.15g", k, q[4+k], want)
		}
	}
	angle := 2 * math.Atan2(q[3], q[0])
	mujoco := n * h * w
	if d := angle - mujoco; math.Abs(d) > 1e-12 {
		t.Errorf("angle %.15g, MuJoCo's exact rotation %.15g (Δ %.3g)", angle, mujoco, d)
	}
	t.Logf("after %d steps: angle %.15g rad, MuJoCo's %.15g rad (difference %.3g rad)", steps, angle, mujoco, angle-mujoco)
}

// TestDampedPendulumMuJoCoEuler: a hinge with damping 0.7, stiffness 3 and
// armature 0.01 under MuJoCo's default Euler integrator, which treats the
// damping alone implicitly (mj_Euler): with I = I_c + m l² + armature,
// ω⁺ = ω + h (−m g l sin θ − k θ − d ω)/(I + h d), θ⁺ = θ + h ω⁺. The
// import maps it to mujoco-euler, which follows the recurrence to 1e-12
// over 100 steps and ends where MuJoCo 2.2.2 does (mj_step on this file).
func TestDampedPendulumMuJoCoEuler(t *testing.T) {
	const m, l, Ic, arm, d, k = 1.5, 0.5, 0.02, 0.01, 0.7, 3.0
	doc := `<mujoco><compiler angle="radian"/>
  <worldbody><body name="bob"><joint name="hinge" type="hinge" axis="0 1 0" damping="0.7" armature="0.01" stiffness="3"/><inertial pos="0 0 -0.5" mass="1.5" diaginertia="0.02 0.02 0.01"/></body></worldbody>
  <keyframe><key name="start" qpos="1.2" qvel="-0.5"/></keyframe></mujoco>`
	b, s := run(t, doc, "start")
	if s.Scheme().Name != "mujoco-euler" {
		t.Fatalf("scheme %q", s.Scheme().Name)
	}
	I := Ic + m*l*l + arm
	th, om := 1.2, -0.5
	worst := 0.0
	for range steps {
		om += h * (-m*g*l*math.Sin(th) - k*th - d*om) / (I + h*d)
		th += h * om
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, math.Max(math.Abs(b.State.Q[0]-th), math.Abs(b.State.V[0]-om)))
	}
	const mjQ, mjV = 0.68243767305611058, -4.1244182903456448 // MuJoCo 2.2.2 after 100 steps
	dq, dv := b.State.Q[0]-mjQ, b.State.V[0]-mjV
	t.Logf("max deviation from the recurrence %.2g; from MuJoCo 2.2.2 Δθ = %.2g, Δω = %.2g", worst, dq, dv)
	if worst > 1e-12 || math.Abs(dq) > 1e-12 || math.Abs(dv) > 1e-12 {
		t.Errorf("deviation %.3g from the recurrence, (%.3g, %.3g) from MuJoCo", worst, dq, dv)
	}
}

// TestTumblingFreeBodyMuJoCo: a free body with asymmetric inertia, thrown
// and tumbling (ω not on a principal axis), from a keyframe in MuJoCo's
// free-joint convention (qpos = position, quaternion; qvel = world
// velocity, body-frame ω). After 100 steps of Euler and of RK4 its position,
// quaternion and velocities are MuJoCo 2.2.2's (mj_step on this file) to
// 1e-12.
func TestTumblingFreeBodyMuJoCo(t *testing.T) {
	for _, c := range []struct {
		integrator string
		want       [13]float64 // MuJoCo 2.2.2 qpos, qvel after 100 steps
	}{
		{"Euler", [13]float64{0.30000000000000016, -0.3000000000000001, 1.4018379999999986, 0.59280382615076488, 0.25595686223846137, -0.20215327148732615, 0.73634486702972701,
			1, -0.5, 1.0379999999999918, 3.8270686029380618, 2.3581860472914826, 4.9542309743235862}},
		{"RK4", [13]float64{0.30000000000000016, -0.3000000000000001, 1.4037999999999986, 0.59275847527457814, 0.25593137523283249, -0.20452135139200872, 0.73573605184629576,
			1, -0.5, 1.0379999999999918, 3.808715986999609, 2.3438606038602288, 4.9499601839937366}},
	} {
		doc := `<mujoco><option integrator="` + c.integrator + `"/>
  <worldbody><body name="box"><freejoint/><inertial pos="0 0 0" mass="2" diaginertia="0.1 0.2 0.3"/></body></worldbody>
  <keyframe><key name="start" qpos="0.1 -0.2 1 0.9233805168766387 0.10259783520851541 -0.3077935056255462 0.20519567041703082" qvel="1 -0.5 3 4 -2 5"/></keyframe></mujoco>`
		b, s := run(t, doc, "start")
		for range steps {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		q, v := b.State.Q, b.State.V // ours: (quaternion, position), (ω world, velocity)
		quat := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
		wB := quat.Conj().Rotate(spatial.Vec3{v[0], v[1], v[2]})
		got := [13]float64{q[4], q[5], q[6], q[0], q[1], q[2], q[3], v[3], v[4], v[5], wB[0], wB[1], wB[2]}
		if got[3]*c.want[3] < 0 {
			for k := 3; k < 7; k++ {
				got[k] = -got[k]
			}
		}
		worst := 0.0
		for k := range got {
			worst = math.Max(worst, math.Abs(got[k]-c.want[k]))
		}
		t.Logf("%s (%s): max |Δ| from MuJoCo 2.2.2 after %d steps %.2g", c.integrator, s.Scheme().Name, steps, worst)
		if worst > 1e-12 {
			t.Errorf("%s: got %v, MuJoCo %v", c.integrator, got, c.want)
		}
	}
}

// TestDampedBallJointMuJoCo: a body hanging from a damped ball joint
// (damping 0.3, centre of mass off every axis, asymmetric inertia), started
// turned and spinning (keyframe qvel is MuJoCo's body-frame ω). After 100
// steps of Euler (damping implicit) and of RK4 (damping explicit, stages'
// ω combined in the moving frame) its quaternion and body-frame ω are
// MuJoCo 2.2.2's (mj_step on this file) to 1e-12.
func TestDampedBallJointMuJoCo(t *testing.T) {
	for _, c := range []struct {
		integrator string
		want       [7]float64 // MuJoCo 2.2.2 qpos, qvel after 100 steps
	}{
		{"Euler", [7]float64{0.89690215819129182, 0.18492613781469952, -0.29885830761301574, 0.26842606832315258, 0.46263567550974666, 1.5893134368113864, 0.30482150144281378}},
		{"RK4", [7]float64{0.89639979688182791, 0.18560938174458172, -0.2998817600647849, 0.26849113866021468, 0.46036816838453715, 1.5978239123426607, 0.30510304917435854}},
	} {
		doc := `<mujoco><option integrator="` + c.integrator + `"/>
  <worldbody><body name="bob" pos="0 0 1"><joint name="ball" type="ball" damping="0.3"/><inertial pos="0.1 0.05 -0.4" mass="1.2" diaginertia="0.03 0.02 0.01"/></body></worldbody>
  <keyframe><key name="start" qpos="0.9233805168766387 0.10259783520851541 -0.3077935056255462 0.20519567041703082" qvel="1.5 -2 0.7"/></keyframe></mujoco>`
		b, s := run(t, doc, "start")
		for range steps {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		q, v := b.State.Q, b.State.V // ours: quaternion of M in F, ω in F
		quat := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
		wB := quat.Conj().Rotate(spatial.Vec3{v[0], v[1], v[2]})
		got := [7]float64{q[0], q[1], q[2], q[3], wB[0], wB[1], wB[2]}
		if got[0]*c.want[0] < 0 {
			for k := range 4 {
				got[k] = -got[k]
			}
		}
		worst := 0.0
		for k := range got {
			worst = math.Max(worst, math.Abs(got[k]-c.want[k]))
		}
		t.Logf("%s (%s): max |Δ| from MuJoCo 2.2.2 after %d steps %.2g", c.integrator, s.Scheme().Name, steps, worst)
		if worst > 1e-12 {
			t.Errorf("%s: got %v, MuJoCo %v", c.integrator, got, c.want)
		}
	}
}

// TestCompoundMuJoCoEuler: testdata/compound.xml (three bodies with two or
// three joints each: slides and hinges with refs and off-origin anchors,
// and a slide then a ball) from its keyframe, with gravity, under MuJoCo's
// default Euler and under RK4: after 100 steps every coordinate and
// velocity is MuJoCo 2.2.2's (mj_step on this file) to 1e-11, the ball's
// quaternion included (it turns by MuJoCo's exponential map; the
// compound-joint commit measured 6e-8 with symplectic Euler's first-order
// update).
func TestCompoundMuJoCoEuler(t *testing.T) {
	for _, c := range []struct {
		integrator   string
		wantQ, wantV []float64 // MuJoCo 2.2.2 qpos and qvel after 100 steps (the ball's ω in the shin's frame)
	}{
		{"Euler", []float64{0.33131153636085031, -0.4837147884283996, 0.92558930048776833, 0.048436185677148975, -0.34781579936231205, 0.037049702026126764,
			-0.02606505597187285, 0.89471651988706158, 0.1988818952623457, 0.20298193154954405, 0.34456737547605826},
			[]float64{1.333781613694587, -2.3080362484423937, 2.1781830917421474, -1.3301986525355021, -0.065264489229515638, -0.14040151071421572,
				-0.54362377408498941, 0.95172126736736118, -0.76291582463662588, 1.6237362213744881}},
		{"RK4", []float64{0.33104429105462907, -0.48187536677139253, 0.92519207628721478, 0.049129253617053371, -0.34756212345742837, 0.037515148844368081,
			-0.025590372897542523, 0.89490765295492702, 0.19851294450727286, 0.2036674091722773, 0.34387859774462365},
			[]float64{1.33449650357142, -2.307868175149868, 2.1759165514356633, -1.3267608077412545, -0.066936161893154822, -0.13954518585946424,
				-0.54199061884306787, 0.95297030155537588, -0.76043575670939179, 1.6222453118841222}},
	} {
		src, err := os.ReadFile("testdata/compound.xml")
		if err != nil {
			t.Fatal(err)
		}
		src = []byte(strings.Replace(string(src), `<option timestep="0.002"/>`, `<option timestep="0.002" integrator="`+c.integrator+`"/>`, 1))
		im, err := Parse("compound.xml", src, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := im.Scene.ApplyKeyframe("key0"); err != nil {
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
		for range steps {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			if st.Contacts != 0 || st.RK4Fallback {
				t.Fatalf("step %d: %d contacts, rk4 fallback %v", st.Step, st.Contacts, st.RK4Fallback)
			}
		}
		q, v := b.State.Q, append([]float64(nil), b.State.V...)
		ball := spatial.Quat{W: q[7], X: q[8], Y: q[9], Z: q[10]}
		wB := ball.Conj().Rotate(spatial.Vec3{v[7], v[8], v[9]}) // ours: ω in the frame before the ball
		v[7], v[8], v[9] = wB[0], wB[1], wB[2]
		worst := 0.0
		for i := range c.wantQ {
			worst = math.Max(worst, math.Abs(q[i]-c.wantQ[i]))
		}
		for i := range c.wantV {
			worst = math.Max(worst, math.Abs(v[i]-c.wantV[i]))
		}
		t.Logf("%s (%s): max |Δq|, |Δv| from MuJoCo 2.2.2 after %d steps %.2g", c.integrator, s.Scheme().Name, steps, worst)
		if worst > 1e-11 {
			t.Errorf("%s: q %v\nMuJoCo %v\nv %v\nMuJoCo %v", c.integrator, q, c.wantQ, v, c.wantV)
		}
	}
}
