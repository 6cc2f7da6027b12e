package mjcf

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/spatial"
)

// Default equality solref (T, ζ) = (0.02, 1): stiffness m_eff/T² per unit
// of effective mass.
const eqT = 0.02

// TestConnectHoldsPendulum: a connect equality pins the bob of a
// horizontal pendulum (mass m at l on a hinge about y) to where it
// starts. A connect is MuJoCo's soft constraint (softBall): at rest each
// row has R f = −K d g with R = (1 − d)/d · w, w the bob's
// body_invweight0 l²/(3 (I + m l²)) = 0.332005, so the pin, carrying the
// bob's weight, sags by l sin q = (1 − d) w m g/(K d²) with d = d(|g|):
// q = 0.000283227146784625 rad in MuJoCo 2.2.2 (mj_step, 1500 steps).
// With the spring mapping it used before (k = m_eff/T²) it sagged by
// tan q = m g T² l/(I + m l²), 0.0078 rad, 28 times as far.
func TestConnectHoldsPendulum(t *testing.T) {
	doc := `<mujoco><compiler angle="radian"/><worldbody>
  <body name="bob"><joint name="hinge" axis="0 1 0"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.001 0.001 0.001"/></body>
  </worldbody><equality><connect name="pin" body1="bob" anchor="0.5 0 0"/></equality></mujoco>`
	b, s := runTight(t, doc, "")
	settle(t, b, s, 1500)
	const want = 0.000283227146784625 // MuJoCo 2.2.2
	if d := math.Abs(b.State.Q[0] - want); d > 1e-9 {
		t.Errorf("q = %.12g, want MuJoCo's %.12g", b.State.Q[0], want)
	}
	t.Logf("bob sags by %.6f mm (q = %.12g rad, MuJoCo %.12g)", 1e3*0.5*math.Sin(b.State.Q[0]), b.State.Q[0], want)
}

// TestWeldHoldsBody: a weld holds a free 2 kg box to the world at its
// initial pose (anchor at its centre of mass, in the world frame as body2
// is the world). A weld is MuJoCo's soft constraint: at rest the vertical
// row carries the weight, R f = −K d g with R = (1 − d)/d · w, w = 1/m the
// box's translational body_invweight0, so the box sinks by
// s = g (1 − d)/(K d²), d = d(s) the default solimp's impedance and
// K = 1/(dmax T ζ)²: s solved by bisection (0.367 mm; the spring mapping
// used before sank it by g T² = 3.9 mm). It does not turn.
func TestWeldHoldsBody(t *testing.T) {
	doc := `<mujoco><worldbody><body name="box" pos="0.2 0 1"><freejoint/>
    <geom type="box" size="0.1 0.05 0.02" mass="2"/></body></worldbody>
  <equality><weld body1="box" anchor="0.2 0 1"/></equality></mujoco>`
	b, s := runTight(t, doc, "")
	settle(t, b, s, 1500)
	imp := constraint.DefaultSolImp
	K, _ := constraint.SolRefKB(constraint.DefaultSolRef, imp[1], h)
	f := func(x float64) float64 { d := constraint.Impedance(imp, x); return x - g*(1-d)/(K*d*d) }
	lo, hi := 0.0, 0.01
	for range 200 {
		if mid := (lo + hi) / 2; f(mid) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	want := (lo + hi) / 2
	q := b.State.Q // (qw, qx, qy, qz, x, y, z)
	if dz := 1 - q[6]; math.Abs(dz-want) > 1e-9 || math.Abs(q[4]-0.2) > 1e-12 || math.Abs(q[0]-1) > 1e-12 {
		t.Errorf("box at %v: sag %.12g, want %.12g, no turn", q, dz, want)
	}
	t.Logf("sag %.9g m, closed form %.9g", 1-q[6], want)
}

// TestConnectClosesLoop: a parallelogram four-bar — two cranks of length
// L = 0.3 m hinged 0.4 m apart, a coupler bar hinged to the first crank's
// tip and connected to the second's by a connect equality (solref 0.004:
// two time steps, MuJoCo's stiffest). The loop keeps the cranks parallel
// (θ1 = θ2) and the coupler level (θ3 = −θ1), and the linkage swings as
// one pendulum: (I1 + I2 + m3 L²) θ̈ = −g (m1 c1 + m2 c2 + m3 L) sin θ,
// whose period is compared with the measured one.
func TestConnectClosesLoop(t *testing.T) {
	doc := `<mujoco><compiler angle="radian"/><worldbody>
  <body name="crank1"><joint name="j1" axis="0 1 0"/><inertial pos="0 0 -0.3" mass="1" diaginertia="0.001 0.001 0.001"/>
    <body name="coupler" pos="0 0 -0.3"><joint name="j3" axis="0 1 0"/><inertial pos="0.2 0 0" mass="0.5" diaginertia="0.001 0.001 0.001"/></body>
  </body>
  <body name="crank2" pos="0.4 0 0"><joint name="j2" axis="0 1 0"/><inertial pos="0 0 -0.3" mass="1" diaginertia="0.001 0.001 0.001"/></body>
  </worldbody>
  <equality><connect body1="coupler" body2="crank2" anchor="0.4 0 0" solref="0.004 1"/></equality>
  <keyframe><key name="k" qpos="0.3 -0.3 0.3"/></keyframe></mujoco>`
	b, s := runTight(t, doc, "k")
	// Joint order in q: crank1, coupler, crank2 (bodies in file order).
	I := 2*(0.001+0.09) + 0.5*0.09
	K := g * (0.3 + 0.3 + 0.5*0.3)
	period := referencePeriod(I, K, 0.3)
	var worstLoop float64
	var crossings []float64
	prev := b.State.Q[0]
	for i := 1; i <= 2000; i++ {
		settle(t, b, s, 1)
		q := b.State.Q
		worstLoop = math.Max(worstLoop, math.Max(math.Abs(q[0]-q[2]), math.Abs(q[1]+q[0])))
		if prev > 0 && q[0] <= 0 {
			crossings = append(crossings, h*(float64(i-1)+prev/(prev-q[0])))
		}
		prev = q[0]
	}
	if len(crossings) < 3 {
		t.Fatalf("%d zero crossings", len(crossings))
	}
	measured := (crossings[len(crossings)-1] - crossings[0]) / float64(len(crossings)-1)
	t.Logf("loop error max(|θ1 − θ2|, |θ3 + θ1|) = %.3g rad; period %.5f s, closed form %.5f s", worstLoop, measured, period)
	if worstLoop > 2e-3 {
		t.Errorf("the loop opens by %.3g rad", worstLoop)
	}
	if math.Abs(measured-period) > 1e-3*period {
		t.Errorf("period %.5f s, want %.5f s", measured, period)
	}
}

// referencePeriod returns the period of I θ̈ = −K sin θ from rest at θ0:
// 4 √(I/K) K(sin(θ0/2)) with the complete elliptic integral of the first
// kind by the arithmetic–geometric mean.
func referencePeriod(I, K, theta0 float64) float64 {
	k := math.Sin(theta0 / 2)
	a, bb := 1.0, math.Sqrt(1-k*k)
	for range 30 {
		a, bb = (a+bb)/2, math.Sqrt(a*bb)
	}
	return 4 * math.Sqrt(I/K) * math.Pi / (2 * a)
}

// TestJointEquality: a joint equality q1 = 0.1 − 0.5 q2 couples two
// pendulums (m = 1 kg at l = 0.5 m, I = 0.251 kg·m² about each hinge);
// a servo (kp 50) holds the second at u = 0.6. The coupler is MuJoCo's
// soft constraint on c = q1 − ρ q2 − 0.1 with the default solref (T, ζ) =
// (0.02, 1) and solimp (0.9, 0.95, 0.001, 0.5, 2): at rest its force is
// f = a_ref/R with a_ref = −K d(c) c, K = 1/(d_max T ζ)², and
// R = (1 − d)/d · w, w = 1/I + 1/I (dof_invweight0 of both joints), so
// the static balance
//
//	−m g l sin q1 + f = 0,  −m g l sin q2 + kp (u − q2) − ρ f = 0
//
// (f = −K d² c / ((1 − d) w), d MuJoCo's impedance at |c|) is solved here
// by Newton's method. The same joint
// locked alone (no joint2: q1 = 0.3, MuJoCo's soft row q1 − 0.3 with
// w = 1/I) rests where −m g l sin q + f(q − 0.3) = 0.
func TestJointEquality(t *testing.T) {
	const m, l, I, kp, u, rho, off = 1.0, 0.5, 0.251, 50.0, 0.6, -0.5, 0.1
	pend := func(name, pos string) string {
		return `<body name="` + name + `" pos="` + pos + `"><joint name="` + name + `" axis="0 1 0"/><inertial pos="0 0 -0.5" mass="1" diaginertia="0.001 0.001 0.001"/></body>`
	}
	doc := `<mujoco><compiler angle="radian"/><worldbody>` + pend("p1", "0 0 0") + pend("p2", "1 0 0") + `</worldbody>
  <equality><joint joint1="p1" joint2="p2" polycoef="0.1 -0.5 0 0 0"/></equality>
  <actuator><position joint="p2" kp="50" kv="5"/></actuator><keyframe><key name="k" ctrl="0.6"/></keyframe></mujoco>`
	b, s := runTight(t, doc, "k")
	settle(t, b, s, 5000)
	const d0, dmax, width, mid, power = 0.9, 0.95, 0.001, 0.5, 2.0
	K := 1 / (dmax * dmax * eqT * eqT)
	force := func(c, w float64) float64 { // the soft row's force at rest
		x := math.Min(math.Abs(c)/width, 1)
		y := math.Pow(x, power) / math.Pow(mid, power-1)
		if x > mid {
			y = 1 - math.Pow(1-x, power)/math.Pow(1-mid, power-1)
		}
		d := d0 + y*(dmax-d0)
		return -K * d * d * c / ((1 - d) * w)
	}
	balance := func(q1, q2 float64) (float64, float64) {
		f := force(q1-rho*q2-off, 2/I)
		return -m*g*l*math.Sin(q1) + f, -m*g*l*math.Sin(q2) + kp*(u-q2) - rho*f
	}
	q1, q2 := off+rho*u, u
	for range 100 { // Newton on the 2×2 balance, central-difference Jacobian
		const h = 1e-9
		f1, f2 := balance(q1, q2)
		p1, p2 := balance(q1+h, q2)
		m1, m2 := balance(q1-h, q2)
		a11, a21 := (p1-m1)/(2*h), (p2-m2)/(2*h)
		p1, p2 = balance(q1, q2+h)
		m1, m2 = balance(q1, q2-h)
		a12, a22 := (p1-m1)/(2*h), (p2-m2)/(2*h)
		det := a11*a22 - a12*a21
		q1 -= (a22*f1 - a12*f2) / det
		q2 -= (a11*f2 - a21*f1) / det
	}
	if d := math.Max(math.Abs(b.State.Q[0]-q1), math.Abs(b.State.Q[1]-q2)); d > 1e-8 {
		t.Errorf("q = %v, closed form (%.10g, %.10g)", b.State.Q, q1, q2)
	}
	t.Logf("coupled: q = (%.9g, %.9g), closed form (%.9g, %.9g); the rigid coupler would give q1 = %.4g", b.State.Q[0], b.State.Q[1], q1, q2, off+rho*q2)

	lock := `<mujoco><compiler angle="radian"/><worldbody>` + pend("p1", "0 0 0") + `</worldbody>
  <equality><joint joint1="p1" polycoef="0.3 1 0 0 0"/></equality></mujoco>`
	b, s = runTight(t, lock, "")
	settle(t, b, s, 2000)
	want := newton(func(q float64) float64 { return -m*g*l*math.Sin(q) + force(q-0.3, 1/I) }, 0.3)
	if d := math.Abs(b.State.Q[0] - want); d > 1e-8 {
		t.Errorf("locked: q = %.10g, want %.10g", b.State.Q[0], want)
	}
	t.Logf("locked: q = %.10g, closed form %.10g", b.State.Q[0], want)
}

// TestWeldReportsWrench: the report of a soft weld gives the impulse and
// the angular impulse on B in the world frame (the quaternion rows mapped
// back, constraint.weldBasis). A 2 kg box welded to the world by a corner
// anchor, at rest: the weld's force carries the weight, f δt = m g δt up,
// and its torque about the anchor balances gravity's about the box's
// centre: τ δt = (c − p) × f δt, with c − p the corner to centre vector.
func TestWeldReportsWrench(t *testing.T) {
	doc := `<mujoco><worldbody><body name="box" pos="0.2 0 1" euler="0 0 30"><freejoint/>
    <geom type="box" size="0.1 0.05 0.02" mass="2"/></body></worldbody>
  <equality><weld body1="box" anchor="0.3 0.05 1.02"/></equality></mujoco>`
	b, s := runTight(t, doc, "")
	settle(t, b, s, 1500)
	r := s.ConstraintReports()
	if len(r) != 1 || r[0].Rows != 6 {
		t.Fatalf("reports %+v, want one weld of 6 rows", r)
	}
	f := spatial.Vec3{0, 0, 2 * g * h}
	c := b.State.Q[4:7] // the box's centre (origin) now
	p := spatial.Vec3{0.3, 0.05, 1.02}
	tau := spatial.Vec3{c[0] - p[0], c[1] - p[1], c[2] - p[2]}.Cross(f)
	imp := r[0].Impulse
	for k := range 3 {
		if math.Abs(imp[k]-f[k]) > 1e-9*f.Norm() || math.Abs(imp[3+k]-tau[k]) > 1e-6*tau.Norm() {
			t.Fatalf("impulse %.9g, want force %.9g and torque %.9g (N·s, N·m·s)", imp, f, tau)
		}
	}
	t.Logf("impulse %.6g (want %.6g, %.6g)", imp, f, tau)
}

// TestWeldImportErrors: a weld's bad torquescale is an error naming the
// file, the line and the value.
func TestWeldImportErrors(t *testing.T) {
	body := `<worldbody><body name="a"><freejoint/><geom type="sphere" size="0.1"/></body></worldbody>`
	for _, c := range []struct{ xml, want string }{
		{`<equality><weld body1="a" torquescale="-1"/></equality>`, `weld.xml:1: <weld> torquescale="-1": -1: want a finite number ≥ 0`},
		{`<equality><weld body1="a" torquescale="inf"/></equality>`, `torquescale="inf"`},
	} {
		_, err := Parse("weld.xml", []byte("<mujoco>"+body+c.xml+"</mujoco>"), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.xml, err, c.want)
		}
	}
}
