package sim_test

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

const mjG, mjH = 9.81, 0.002 // MuJoCo's default gravity and time step

// newMuJoCoSim returns a contact- and constraint-free simulator of m from
// state s with MuJoCo's gravity, step dt and scheme sc.
func newMuJoCoSim(t testing.TB, m *multibody.Model, s *multibody.State, dt float64, sc sim.Scheme) *sim.Simulator {
	t.Helper()
	m.Gravity = spatial.Vec3{0, 0, -mjG}
	sm, err := sim.New(m, s, sim.Config{DT: dt, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc})
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// dampedPendulum is a hinge about y at the origin, its centre of mass
// l = 0.5 m below, m = 1.5 kg, I_c = 0.02 kg·m², with joint damping d,
// stiffness k (τ = −k θ) and armature 0.01 kg·m², at θ = 1.2, ω = −0.5.
func dampedPendulum(t testing.TB, d, k float64, sc sim.Scheme, dt float64) *sim.Simulator {
	m := &multibody.Model{}
	j := revolute(-1, spatial.PoseIdentity(), spatial.Vec3{0, 1, 0})
	j.Damping, j.Stiffness, j.Armature = d, k, 0.01
	mustAdd(t, m, "bob", spatial.SpatialInertia{Mass: 1.5, Com: spatial.Vec3{0, 0, -0.5}, Icom: spatial.Diag3(spatial.Vec3{0.02, 0.02, 0.01})}, j)
	s := m.NewState()
	s.Q[0], s.V[0] = 1.2, -0.5
	return newMuJoCoSim(t, m, s, dt, sc)
}

// TestMuJoCoEulerDampedPendulum: MuJoCo's Euler (mj_Euler) on a damped,
// sprung hinge pendulum is, with I = I_c + m l² + armature,
//
//	ω⁺ = ω + h (−m g l sin θ − k θ − d ω) / (I + h d),  θ⁺ = θ + h ω⁺:
//
// the damping implicit, gravity and the spring explicit. mujoco-euler
// follows it to 1e-12 over 100 steps, and ends where MuJoCo 2.2.2 does
// (its numbers, printed by mj_step on the same model). Symplectic Euler,
// with the damping explicit, does not.
func TestMuJoCoEulerDampedPendulum(t *testing.T) {
	const m, l, Ic, arm, d = 1.5, 0.5, 0.02, 0.01, 0.7
	I := Ic + m*l*l + arm
	for _, c := range []struct {
		k             float64
		mujocoQ, mujV float64 // MuJoCo 2.2.2, 100 steps of mj_step, integrator Euler
	}{{0, 0.82263670952199219, -2.9886424879896438}, {3, 0.68243767305611058, -4.1244182903456448}} {
		s := dampedPendulum(t, d, c.k, sim.MuJoCoEuler, mjH)
		sym := dampedPendulum(t, d, c.k, sim.SymplecticEuler, mjH)
		th, om := 1.2, -0.5
		worst := 0.0
		for range steps {
			om += mjH * (-m*mjG*l*math.Sin(th) - c.k*th - d*om) / (I + mjH*d)
			th += mjH * om
			for _, x := range []*sim.Simulator{s, sym} {
				if _, err := x.Step(); err != nil {
					t.Fatal(err)
				}
			}
			worst = math.Max(worst, math.Max(math.Abs(s.State.Q[0]-th), math.Abs(s.State.V[0]-om)))
		}
		dq, dv := s.State.Q[0]-c.mujocoQ, s.State.V[0]-c.mujV
		t.Logf("k = %g: max deviation from the recurrence %.2g; from MuJoCo 2.2.2 after %d steps Δθ = %.2g, Δω = %.2g; symplectic Euler Δθ = %.2g",
			c.k, worst, steps, dq, dv, sym.State.Q[0]-c.mujocoQ)
		if worst > 1e-12 || math.Abs(dq) > 1e-12 || math.Abs(dv) > 1e-12 {
			t.Errorf("k = %g: deviation %.3g from the recurrence, (%.3g, %.3g) from MuJoCo", c.k, worst, dq, dv)
		}
		if math.Abs(sym.State.Q[0]-c.mujocoQ) < 1e-6 {
			t.Errorf("k = %g: symplectic Euler matches MuJoCo's Euler too closely: the damping test is vacuous", c.k)
		}
	}
}

const steps = 100

// spinBody returns a free body (m = 2 kg, principal inertia 0.1, 0.2,
// 0.3 kg·m², centre of mass at its origin) at MuJoCo's keyframe qpos
// (x; q) = (0.1, −0.2, 1; q0), qvel (v; ω_B) = (1, −0.5, 3; 4, −2, 5), ω_B
// in the body frame as MuJoCo's free joint has it.
func spinBody(t testing.TB, sc sim.Scheme, dt float64) (*sim.Simulator, spatial.Quat, spatial.Vec3) {
	m := &multibody.Model{}
	b, err := m.AddFreeBody("box", spatial.SpatialInertia{Mass: 2, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})})
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewState()
	q0 := spatial.Quat{W: 0.9233805168766387, X: 0.10259783520851541, Y: -0.3077935056255462, Z: 0.20519567041703082}
	wB := spatial.Vec3{4, -2, 5}
	m.SetFreeBodyPose(s, b, spatial.Pose{R: q0, P: spatial.Vec3{0.1, -0.2, 1}})
	m.SetFreeBodyVelocity(s, b, q0.Rotate(wB), spatial.Vec3{1, -0.5, 3})
	return newMuJoCoSim(t, m, s, dt, sc), q0, wB
}

// eulerRates returns ω̇_B = I⁻¹(−ω_B × I ω_B), the torque-free Euler
// equations of a body with principal inertia I.
func eulerRates(I, w spatial.Vec3) spatial.Vec3 {
	Iw := spatial.Vec3{I[0] * w[0], I[1] * w[1], I[2] * w[2]}
	c := w.Cross(Iw)
	return spatial.Vec3{-c[0] / I[0], -c[1] / I[1], -c[2] / I[2]}
}

// quatExp returns exp(δ) for a rotation vector δ, (cos |δ|/2, sin |δ|/2 δ/|δ|).
func quatExp(d spatial.Vec3) spatial.Quat {
	n := d.Norm()
	if n == 0 {
		return spatial.QuatIdentity()
	}
	s, c := math.Sincos(n / 2)
	return spatial.Quat{W: c, X: s * d[0] / n, Y: s * d[1] / n, Z: s * d[2] / n}
}

// checkSpin compares the free body's state with MuJoCo's (x, q, v, ω_B)
// and returns the largest difference.
func checkSpin(s *sim.Simulator, x spatial.Vec3, q spatial.Quat, v, wB spatial.Vec3) float64 {
	Q, V := s.State.Q, s.State.V
	sign := 1.0
	if Q[0]*q.W+Q[1]*q.X+Q[2]*q.Y+Q[3]*q.Z < 0 {
		sign = -1
	}
	got := spatial.Quat{W: Q[0], X: Q[1], Y: Q[2], Z: Q[3]}
	gotB := got.Conj().Rotate(spatial.Vec3{V[0], V[1], V[2]})
	worst := 0.0
	for k := range 3 {
		worst = math.Max(worst, math.Abs(Q[4+k]-x[k]))
		worst = math.Max(worst, math.Abs(V[3+k]-v[k]))
		worst = math.Max(worst, math.Abs(gotB[k]-wB[k]))
	}
	for k, c := range [4]float64{q.W, q.X, q.Y, q.Z} {
		worst = math.Max(worst, math.Abs(sign*Q[k]-c))
	}
	return worst
}

// TestMuJoCoEulerFreeBodySpin: a free body with asymmetric inertia
// tumbling torque-free (ω not on a principal axis) while it falls. MuJoCo's
// Euler in its coordinates (body-frame ω_B) is
//
//	ω_B⁺ = ω_B + h I⁻¹(−ω_B × I ω_B),  q⁺ = q ⊗ exp(h ω_B⁺),
//	v⁺ = v + h g,  x⁺ = x + h v⁺;
//
// mujoco-euler follows it to 1e-12 over 100 steps (its ω is in the world
// frame: ω_B = R(q)ᵀ ω), and ends where MuJoCo 2.2.2 does.
func TestMuJoCoEulerFreeBodySpin(t *testing.T) {
	s, q, wB := spinBody(t, sim.MuJoCoEuler, mjH)
	I := spatial.Vec3{0.1, 0.2, 0.3}
	x, v := spatial.Vec3{0.1, -0.2, 1}, spatial.Vec3{1, -0.5, 3}
	worst := 0.0
	for range steps {
		wB = wB.Add(eulerRates(I, wB).Scale(mjH))
		q = q.Mul(quatExp(wB.Scale(mjH))).Normalize()
		v[2] -= mjH * mjG
		x = x.Add(v.Scale(mjH))
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, checkSpin(s, x, q, v, wB))
	}
	// MuJoCo 2.2.2, 100 steps of mj_step with integrator Euler.
	mj := checkSpin(s, spatial.Vec3{0.30000000000000016, -0.3000000000000001, 1.4018379999999986},
		spatial.Quat{W: 0.59280382615076488, X: 0.25595686223846137, Y: -0.20215327148732615, Z: 0.73634486702972701},
		spatial.Vec3{1, -0.5, 1.0379999999999918}, spatial.Vec3{3.8270686029380618, 2.3581860472914826, 4.9542309743235862})
	t.Logf("max deviation from the recurrence over %d steps %.2g; from MuJoCo 2.2.2 at the end %.2g", steps, worst, mj)
	if worst > 1e-12 || mj > 1e-12 {
		t.Errorf("deviation %.3g from the recurrence, %.3g from MuJoCo", worst, mj)
	}
}

// TestRK4FreeBodySpin: the same tumbling body under MuJoCo's RK4, whose
// stages combine the body-frame ω_B of the stages (mj_RungeKutta with
// mj_integratePos): for i = 1…3, with A = (½; 0 ½; 0 0 1), b = (1, 2, 2, 1)/6,
//
//	q_i = q ⊗ exp(h Σ_j A_ij ω_j),  ω_i = ω + h Σ_j A_ij ω̇(ω_j),
//	q⁺ = q ⊗ exp(h Σ_j b_j ω_j),  ω⁺ = ω + h Σ_j b_j ω̇(ω_j),
//
// ω̇ from the Euler equations (the torque-free rates do not depend on q),
// and the fall exact (RK4 integrates the constant g exactly). rk4 follows
// it to 1e-12 over 100 steps and ends where MuJoCo 2.2.2 does.
func TestRK4FreeBodySpin(t *testing.T) {
	s, q, wB := spinBody(t, sim.RK4, mjH)
	I := spatial.Vec3{0.1, 0.2, 0.3}
	x0, v0 := spatial.Vec3{0.1, -0.2, 1}, spatial.Vec3{1, -0.5, 3}
	A := [3][3]float64{{0.5, 0, 0}, {0, 0.5, 0}, {0, 0, 1}}
	B := [4]float64{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}
	worst := 0.0
	for n := 1; n <= steps; n++ {
		var w, wd [4]spatial.Vec3
		w[0], wd[0] = wB, eulerRates(I, wB)
		for i := 1; i < 4; i++ {
			var dw spatial.Vec3
			for j := range i {
				dw = dw.Add(wd[j].Scale(A[i-1][j]))
			}
			w[i] = wB.Add(dw.Scale(mjH))
			wd[i] = eulerRates(I, w[i])
		}
		var dq, dw spatial.Vec3
		for j := range 4 {
			dq, dw = dq.Add(w[j].Scale(B[j])), dw.Add(wd[j].Scale(B[j]))
		}
		q, wB = q.Mul(quatExp(dq.Scale(mjH))).Normalize(), wB.Add(dw.Scale(mjH))
		tn := float64(n) * mjH
		x := x0.Add(v0.Scale(tn)).Add(spatial.Vec3{0, 0, -mjG * tn * tn / 2})
		v := v0.Add(spatial.Vec3{0, 0, -mjG * tn})
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, checkSpin(s, x, q, v, wB))
	}
	// MuJoCo 2.2.2, 100 steps of mj_step with integrator RK4.
	mj := checkSpin(s, spatial.Vec3{0.30000000000000016, -0.3000000000000001, 1.4037999999999986},
		spatial.Quat{W: 0.59275847527457814, X: 0.25593137523283249, Y: -0.20452135139200872, Z: 0.73573605184629576},
		spatial.Vec3{1, -0.5, 1.0379999999999918}, spatial.Vec3{3.808715986999609, 2.3438606038602288, 4.9499601839937366})
	t.Logf("max deviation from the recurrence over %d steps %.2g; from MuJoCo 2.2.2 at the end %.2g", steps, worst, mj)
	if worst > 1e-12 || mj > 1e-12 {
		t.Errorf("deviation %.3g from the recurrence, %.3g from MuJoCo", worst, mj)
	}
}

// doublePendulum is TestChainSemiImplicitEuler's double pendulum of
// model/mjcf: two hinges about y, link 1 of length L1 = 0.5 m, masses 1 and
// 0.7 kg with centres l1 = 0.25 and l2 = 0.3 m below their hinges, I1 =
// 0.004, I2 = 0.003 kg·m², at θ = (0.8, −0.4), ω = (1, 2).
func doublePendulum(t testing.TB, sc sim.Scheme, dt float64, opts ...func(*sim.Config)) *sim.Simulator {
	m := &multibody.Model{}
	in := func(mass, l, i float64) spatial.SpatialInertia {
		return spatial.SpatialInertia{Mass: mass, Com: spatial.Vec3{0, 0, -l}, Icom: spatial.Diag3(spatial.Vec3{i, i, 0.001})}
	}
	up := mustAdd(t, m, "upper", in(1, 0.25, 0.004), revolute(-1, spatial.PoseIdentity(), spatial.Vec3{0, 1, 0}))
	mustAdd(t, m, "lower", in(0.7, 0.3, 0.003), revolute(up, at(0, 0, -0.5), spatial.Vec3{0, 1, 0}))
	s := m.NewState()
	copy(s.Q, []float64{0.8, -0.4})
	copy(s.V, []float64{1, 2})
	m.Gravity = spatial.Vec3{0, 0, -mjG}
	cfg := sim.Config{DT: dt, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc}
	for _, o := range opts {
		o(&cfg)
	}
	sm, err := sim.New(m, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// doublePendulumRates returns (ω, M⁻¹(τg − c)) of the double pendulum in
// relative angles (the textbook dynamics written out in model/mjcf's
// TestChainSemiImplicitEuler).
func doublePendulumRates(th, om [2]float64) (dth, dom [2]float64) {
	const m1, m2, l1, l2, L1, I1, I2 = 1.0, 0.7, 0.25, 0.3, 0.5, 0.004, 0.003
	c2, s2 := math.Cos(th[1]), math.Sin(th[1])
	s1, s12 := math.Sin(th[0]), math.Sin(th[0]+th[1])
	M11 := I1 + I2 + m1*l1*l1 + m2*(L1*L1+l2*l2+2*L1*l2*c2)
	M12 := I2 + m2*(l2*l2+L1*l2*c2)
	M22 := I2 + m2*l2*l2
	hc := m2 * L1 * l2 * s2
	f1 := -mjG*(m1*l1*s1+m2*(L1*s1+l2*s12)) + hc*(2*om[0]*om[1]+om[1]*om[1])
	f2 := -mjG*m2*l2*s12 - hc*om[0]*om[0]
	det := M11*M22 - M12*M12
	return om, [2]float64{(M22*f1 - M12*f2) / det, (M11*f2 - M12*f1) / det}
}

// rk4Recurrence is one step h of the classical RK4 recurrence on the
// double pendulum's (θ, ω) with the rates (θ̇, ω̇) = rates(θ, ω).
func rk4Recurrence(rates func(th, om [2]float64) ([2]float64, [2]float64), th, om [2]float64, h float64) ([2]float64, [2]float64) {
	add := func(x, d [2]float64, c float64) [2]float64 { return [2]float64{x[0] + c*d[0], x[1] + c*d[1]} }
	k1q, k1v := rates(th, om)
	k2q, k2v := rates(add(th, k1q, h/2), add(om, k1v, h/2))
	k3q, k3v := rates(add(th, k2q, h/2), add(om, k2v, h/2))
	k4q, k4v := rates(add(th, k3q, h), add(om, k3v, h))
	for k := range 2 {
		th[k] += h / 6 * (k1q[k] + 2*k2q[k] + 2*k3q[k] + k4q[k])
		om[k] += h / 6 * (k1v[k] + 2*k2v[k] + 2*k3v[k] + k4v[k])
	}
	return th, om
}

// TestRK4DoublePendulum: rk4 on the double pendulum follows the classical
// RK4 recurrence of its closed-form dynamics to 1e-12 over 100 steps and
// ends where MuJoCo 2.2.2's RK4 does. Halving the step from 8 ms to
// 0.25 ms divides the difference between successive solutions at t = 0.4 s
// by 2^p with p → 4 (3.70, 3.88, 3.94, 3.97: the same as the recurrence's
// own, still approaching 4 at these steps; the last within 0.05 of 4),
// where mujoco-euler's p → 1.
func TestRK4DoublePendulum(t *testing.T) {
	s := doublePendulum(t, sim.RK4, mjH)
	th, om := [2]float64{0.8, -0.4}, [2]float64{1, 2}
	worst := 0.0
	for range steps {
		th, om = rk4Recurrence(doublePendulumRates, th, om, mjH)
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.RK4Fallback {
			t.Fatal("a contact- and constraint-free rk4 step fell back to mujoco-euler")
		}
		for k := range 2 {
			worst = math.Max(worst, math.Max(math.Abs(s.State.Q[k]-th[k]), math.Abs(s.State.V[k]-om[k])))
		}
	}
	mj := [4]float64{0.5212144887594824, 0.80905484663388649, -1.9110269295807254, 4.5339979266106329} // MuJoCo 2.2.2, 100 RK4 steps
	dmj := 0.0
	for k := range 2 {
		dmj = math.Max(dmj, math.Max(math.Abs(s.State.Q[k]-mj[k]), math.Abs(s.State.V[k]-mj[2+k])))
	}
	t.Logf("max deviation from the RK4 recurrence over %d steps %.2g; from MuJoCo 2.2.2 at the end %.2g", steps, worst, dmj)
	if worst > 1e-12 || dmj > 1e-12 {
		t.Errorf("deviation %.3g from the recurrence, %.3g from MuJoCo", worst, dmj)
	}

	for _, c := range []struct {
		sc       sim.Scheme
		order    float64
		tol      float64
		h0       float64
		halvings int
	}{{sim.RK4, 4, 0.05, 0.008, 5}, {sim.MuJoCoEuler, 1, 0.05, 0.004, 4}} {
		var prev []float64
		var diffs []float64
		for n := range c.halvings + 1 {
			dt := c.h0 / math.Exp2(float64(n))
			s := doublePendulum(t, c.sc, dt)
			runSteps(t, s, int(math.Round(0.4/dt)))
			cur := append(append([]float64(nil), s.State.Q...), s.State.V...)
			if prev != nil {
				d := 0.0
				for k := range cur {
					d = math.Max(d, math.Abs(cur[k]-prev[k]))
				}
				diffs = append(diffs, d)
			}
			prev = cur
		}
		orders := make([]float64, len(diffs)-1)
		for k := range orders {
			orders[k] = math.Log2(diffs[k] / diffs[k+1])
		}
		t.Logf("%s: ‖x(h) − x(h/2)‖∞ at t = 0.4 s for h = %g s, %g…: %.3g; measured orders %.4f", c.sc.Name, c.h0, c.h0/2, diffs, orders)
		if last := orders[len(orders)-1]; math.Abs(last-c.order) > c.tol {
			t.Errorf("%s: measured order %.4f, want %g ± %g", c.sc.Name, last, c.order, c.tol)
		}
	}
}

// TestRK4DeterministicAndResumable: two rk4 runs of the double pendulum are
// bit-identical, and so is a run stopped after 100 steps, checkpointed,
// and resumed in a fresh simulator.
func TestRK4DeterministicAndResumable(t *testing.T) {
	a := trajectoryBits(t, doublePendulum(t, sim.RK4, mjH), 200, nil)
	b := trajectoryBits(t, doublePendulum(t, sim.RK4, mjH), 200, nil)
	first := doublePendulum(t, sim.RK4, mjH)
	c := trajectoryBits(t, first, 100, nil)
	var buf bytes.Buffer
	if err := sim.WriteCheckpoint(&buf, first.Checkpoint()); err != nil {
		t.Fatal(err)
	}
	cp, err := sim.ReadCheckpoint(&buf)
	if err != nil {
		t.Fatal(err)
	}
	second := doublePendulum(t, sim.RK4, mjH)
	if err := second.Restore(cp); err != nil {
		t.Fatal(err)
	}
	c = trajectoryBits(t, second, 100, c)
	if !slices.Equal(a, b) || !slices.Equal(a, c) {
		t.Errorf("rk4 runs differ: repeated %v, resumed %v", slices.Equal(a, b), slices.Equal(a, c))
	}
}

// TestRK4SolvesConstraintsAtStages: an rk4 step without contacts solves
// the constraint rows that act at each of its stages, as MuJoCo's
// mj_RungeKutta does, instead of falling back to mujoco-euler. A hinge
// (no gravity) started 0.1 rad below its lower bound, with MuJoCo's soft
// limit of flat impedance d = 0.9, solref (0.1, 1) and its exact weight
// w = 1/I, accelerates in the limit's quadratic zone as
// q̈ = d a_ref = −d B q̇ − d² K (q − lower) = −20 q̇ − 100 (q − lower)
// (critically damped at 10 rad/s, pushing while t < 0.1 s): 8 rk4 steps
// of 10 ms equal the classical RK4 recurrence on that ODE to round-off
// (measured 2.8e-17 in q and v; a mujoco-euler step, which rk4 fell back
// to before, is 1.6e-4 rad off within the 8 steps).
func TestRK4SolvesConstraintsAtStages(t *testing.T) {
	const lower, d, I = 1.0, 0.9, 0.004 + 0.25*0.25
	K, B := constraint.SolRefKB([2]float64{0.1, 1}, d, mjH)
	lim := constraint.Limit{Name: "stop", Body: 0, Lower: lower, Upper: 3, Compliance: constraint.Compliance{
		SolRef: [2]float64{0.1, 1}, SolImp: [5]float64{d, d, 0.001, 0.5, 2}, Weight: 1 / I}}
	build := func(sc sim.Scheme) *sim.Simulator {
		m := &multibody.Model{}
		mustAdd(t, m, "arm", spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0, 0, -0.25}, Icom: spatial.Diag3(spatial.Vec3{0.004, 0.004, 0.001})},
			revolute(-1, spatial.PoseIdentity(), spatial.Vec3{0, 1, 0}))
		st := m.NewState()
		st.Q[0] = lower - 0.1
		cfg := sim.Config{DT: mjH, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc,
			Constraints: &constraint.Set{Limits: []constraint.Limit{lim}}}
		s, err := sim.New(m, st, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rates := func(th, om [2]float64) ([2]float64, [2]float64) {
		return om, [2]float64{-d*B*om[0] - d*d*K*(th[0]-lower)}
	}
	rk, eu := build(sim.RK4), build(sim.MuJoCoEuler)
	th, om := [2]float64{lower - 0.1}, [2]float64{}
	worst, worstEuler := 0.0, 0.0
	for k := 1; k <= 8; k++ {
		st, err := rk.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.RK4Fallback {
			t.Fatalf("step %d: an rk4 step without contacts fell back to mujoco-euler", k)
		}
		if _, err := eu.Step(); err != nil {
			t.Fatal(err)
		}
		th, om = rk4Recurrence(rates, th, om, mjH)
		worst = math.Max(worst, math.Max(math.Abs(rk.State.Q[0]-th[0]), math.Abs(rk.State.V[0]-om[0])))
		worstEuler = math.Max(worstEuler, math.Abs(eu.State.Q[0]-th[0]))
	}
	t.Logf("8 rk4 steps against the RK4 recurrence of the soft limit's ODE: max |Δq|, |Δv| %.3g (mujoco-euler: |Δq| %.3g)", worst, worstEuler)
	if worst > 1e-9 {
		t.Errorf("rk4 with a soft limit: %.3g from the RK4 recurrence (want ≤ 1e-9)", worst)
	}
}

// TestRK4ExplicitActuators: a motor (u = 0.3, gear 2) and an explicit
// position servo (f = 0.5 (0.2 − q) − 0.1 q̇) on the shoulder and an
// explicit general actuator (f = 0.1 − 2 q − 0.5 q̇) on the elbow, with
// limits within their bounds, are forces at every RK4 stage, as MuJoCo's
// qfrc_actuator: no step falls back, the state follows the classical RK4
// recurrence of the closed-form dynamics with those torques to 1e-12, and
// the actuators' reports carry δt f at the start of the step.
func TestRK4ExplicitActuators(t *testing.T) {
	acts := func(c *sim.Config) {
		c.Constraints = &constraint.Set{
			Limits: []constraint.Limit{{Name: "stop", Body: 0, Lower: -3, Upper: 3}},
			Actuators: []constraint.Actuator{
				{Name: "motor", Type: constraint.Motor, Body: 0, Gear: 2, Target: constraint.Constant(0.3)},
				{Name: "general", Type: constraint.General, Body: 1, Gain: 1, Bias: [3]float64{0.1, -2, -0.5}, Explicit: true},
				{Name: "servo", Type: constraint.Position, Body: 0, Kp: 0.5, Kd: 0.1, Target: constraint.Constant(0.2), Explicit: true},
			},
		}
	}
	s := doublePendulum(t, sim.RK4, mjH, acts)
	rates := func(th, om [2]float64) ([2]float64, [2]float64) {
		tau := [2]float64{2*0.3 + 0.5*(0.2-th[0]) - 0.1*om[0], 0.1 - 2*th[1] - 0.5*om[1]}
		const m1, m2, l1, l2, L1, I1, I2 = 1.0, 0.7, 0.25, 0.3, 0.5, 0.004, 0.003
		c2 := math.Cos(th[1])
		M11 := I1 + I2 + m1*l1*l1 + m2*(L1*L1+l2*l2+2*L1*l2*c2)
		M12 := I2 + m2*(l2*l2+L1*l2*c2)
		M22 := I2 + m2*l2*l2
		_, a := doublePendulumRates(th, om) // M⁻¹(τg − c)
		// a + M⁻¹ τ
		det := M11*M22 - M12*M12
		a[0] += (M22*tau[0] - M12*tau[1]) / det
		a[1] += (M11*tau[1] - M12*tau[0]) / det
		return om, a
	}
	th, om := [2]float64{0.8, -0.4}, [2]float64{1, 2}
	worst := 0.0
	for range steps {
		f1, f2 := 0.1-2*th[1]-0.5*om[1], 0.5*(0.2-th[0])-0.1*om[0]
		th, om = rk4Recurrence(rates, th, om, mjH)
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.RK4Fallback {
			t.Fatal("an rk4 step with explicit actuators and inactive limits fell back to mujoco-euler")
		}
		for _, r := range s.ConstraintReports() {
			want := 0.0
			switch r.Name {
			case "motor":
				want = mjH * 0.3
			case "general":
				want = mjH * f1
			case "servo":
				want = mjH * f2
			}
			if math.Abs(r.Impulse[0]-want) > 1e-15 {
				t.Fatalf("%s: impulse %v, want %v", r.Name, r.Impulse[0], want)
			}
		}
		for k := range 2 {
			worst = math.Max(worst, math.Max(math.Abs(s.State.Q[k]-th[k]), math.Abs(s.State.V[k]-om[k])))
		}
	}
	t.Logf("max deviation from the RK4 recurrence with actuator torques over %d steps: %.2g", steps, worst)
	if worst > 1e-12 {
		t.Errorf("deviation %.3g from the recurrence", worst)
	}
}

// TestParseMuJoCoSchemes: the names parse, a changed θ is rejected, and a
// checkpoint of one MuJoCo scheme is refused by a simulator of the other.
func TestParseMuJoCoSchemes(t *testing.T) {
	for _, n := range []string{"mujoco-euler", "rk4"} {
		s, err := sim.ParseScheme(n)
		if err != nil || s.Name != n || s.Validate() != nil || !s.Explicit() {
			t.Errorf("%s: %+v, %v", n, s, err)
		}
	}
	bad := sim.MuJoCoEuler
	bad.ThetaQ = 1
	if bad.Validate() == nil {
		t.Error("mujoco-euler with θq = 1 accepted")
	}
	c := doublePendulum(t, sim.MuJoCoEuler, mjH).Checkpoint()
	if err := doublePendulum(t, sim.RK4, mjH).Restore(c); err == nil {
		t.Error("an rk4 simulator accepted a mujoco-euler checkpoint")
	}
}
