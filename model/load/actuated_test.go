package load

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// servoEquilibrium returns the configuration where the scene's position
// servos (gear 1, f = kp (u − q) − kd q̇ with u their constant targets)
// hold the model against gravity: kp (u − q) = τ_hold(q), with τ_hold =
// −τ_g(q) from inverse dynamics at rest, solved by Newton's method from
// q0 with a finite-difference Jacobian. Only joints with one coordinate
// per velocity are handled (the robots' revolute joints).
func servoEquilibrium(t *testing.T, s *scene.Scene, b *scene.Built) []float64 {
	t.Helper()
	m := b.Model
	n := m.NV
	if m.NQ != n {
		t.Fatalf("nq %d ≠ nv %d", m.NQ, n)
	}
	kp, u := make([]float64, n), make([]float64, n)
	for _, a := range s.Actuators {
		if a.Type != "position" || (a.Gear != nil && *a.Gear != 1) {
			t.Fatalf("actuator %s: %s gear %v", a.Name, a.Type, a.Gear)
		}
		i := m.Bodies[m.BodyByName(a.Joint)].VOff
		kp[i], u[i] = *a.Kp, *a.Target.Constant
	}
	ws := multibody.NewWorkspace(m)
	zero := make([]float64, n)
	resid := func(q, out []float64) {
		ws.Update(q, zero)
		ws.InverseDynamics(nil, out)
		for i := range out {
			out[i] = kp[i]*(u[i]-q[i]) - out[i]
		}
	}
	q := append([]float64(nil), b.State.Q...)
	f, fp := make([]float64, n), make([]float64, n)
	J := make([][]float64, n)
	for range 20 {
		resid(q, f)
		for j := range n {
			J[j] = make([]float64, n+1)
		}
		for j := range n {
			q[j] += 1e-7
			resid(q, fp)
			q[j] -= 1e-7
			for i := range n {
				J[i][j] = (fp[i] - f[i]) / 1e-7
			}
		}
		for i := range n {
			J[i][n] = -f[i]
		}
		dq := solveDense(J)
		for i := range q {
			q[i] += dq[i]
		}
	}
	return q
}

// solveDense solves the augmented system [A | b] by Gaussian elimination
// with partial pivoting.
func solveDense(a [][]float64) []float64 {
	n := len(a)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := a[r][n]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// simulate builds s and steps it n times, each step converging with
// e_m ≤ εr; it returns the built scene.
func simulate(t *testing.T, s *scene.Scene, n int) *scene.Built {
	t.Helper()
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		st, err := sm.Step()
		if err != nil || st.Status != solver.Converged || st.MomentumError > b.RelTolerance {
			t.Fatalf("step %d: %v, e_m %.3g, %v", st.Step, st.Status, st.MomentumError, err)
		}
	}
	return b
}

// TestIiwaHoldsHome: Menagerie's iiwa under its own servos (general
// actuators with gain 2000 and bias (0, −2000, −200): kp = 2000 N·m/rad,
// kv = 200 N·m·s/rad) started from and commanded to its "home" keyframe
// (the keyframe's ctrl), with gravity. A P servo without gravity
// compensation droops: the arm settles, after 2 s, at the static
// equilibrium kp (u − q) = τ_hold(q) computed from inverse dynamics, and
// the droop from home is reported. MJCF asks for implicitfast, which maps
// to mujoco-euler: gravity is explicit, so the static balance is exact
// with or without relinearizations (which only implicit schemes use;
// implicit Euler's single linearization misplaced it by 1.4e-6 rad).
func TestIiwaHoldsHome(t *testing.T) {
	im, err := Model(modelPath(t, iiwaMJCF), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Scene
	if len(s.Actuators) != 7 || *s.Actuators[0].Kp != 2000 || *s.Actuators[0].Kd != 200 {
		t.Fatalf("actuators %+v", s.Actuators)
	}
	if err := s.ApplyKeyframe("home"); err != nil {
		t.Fatal(err)
	}
	home := []float64{0, 0.785398, 0, -1.5708, 0, 0, 0}
	for _, relin := range []int{0, 2} {
		s.Relinearizations = relin
		b := simulate(t, s, 1000)
		want := servoEquilibrium(t, s, b)
		var droop, err float64
		for i := range home {
			droop = math.Max(droop, math.Abs(b.State.Q[i]-home[i]))
			err = math.Max(err, math.Abs(b.State.Q[i]-want[i]))
		}
		t.Logf("relinearizations %d: max |q − q_home| = %.4g rad (joint 2: %.4g), max |q − equilibrium| = %.3g rad", relin, droop, b.State.Q[1]-home[1], err)
		if err > 1e-6 {
			t.Errorf("q = %v, static equilibrium %v", b.State.Q, want)
		}
		if droop > 0.05 {
			t.Errorf("the arm droops by %.3g rad from home", droop)
		}
	}
}

// TestAllegroClosesFingers: Menagerie's Allegro hand's position actuators
// (kp = 1 N·m/rad, joint damping 0.1) close the index, middle and ring
// fingers (proximal 1.2, medial 1.0, distal 0.8 rad) and turn the thumb
// in; after 3 s every joint rests at the servos' static equilibrium
// against gravity, computed from inverse dynamics, within the servos'
// droop of their targets. (The fingertips do not touch the medial links:
// MuJoCo's parent filter of welded bodies, mjcf.weldExcludes.)
func TestAllegroClosesFingers(t *testing.T) {
	im, err := Model(modelPath(t, handMJCF), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Scene
	if len(s.Actuators) != 16 {
		t.Fatalf("%d actuators", len(s.Actuators))
	}
	close := map[string]float64{"ffa1": 1.2, "ffa2": 1.0, "ffa3": 0.8, "mfa1": 1.2, "mfa2": 1.0, "mfa3": 0.8,
		"rfa1": 1.2, "rfa2": 1.0, "rfa3": 0.8, "tha0": 1.2, "tha1": 0.3}
	for i := range s.Actuators {
		u := close[s.Actuators[i].Name]
		s.Actuators[i].Target = &scene.Target{Constant: &u}
	}
	s.Relinearizations = 2
	b := simulate(t, s, 1500)
	want := servoEquilibrium(t, s, b)
	var err2, moved float64
	for i := range want {
		err2 = math.Max(err2, math.Abs(b.State.Q[i]-want[i]))
	}
	for _, a := range s.Actuators {
		i := b.Model.Bodies[b.Model.BodyByName(a.Joint)].VOff
		moved = math.Max(moved, math.Abs(b.State.Q[i]-*a.Target.Constant))
	}
	t.Logf("max |q − target| = %.3g rad (the servos' droop under gravity), max |q − equilibrium| = %.3g rad", moved, err2)
	if err2 > 1e-6 || moved > 0.05 {
		t.Errorf("q = %v, static equilibrium %v", b.State.Q, want)
	}
}
