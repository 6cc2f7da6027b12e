package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// Driven pendulum: a cart (2 kg, prismatic along x) whose position is
// prescribed, x(t) = A sin ωt, carrying a pendulum (1 kg point mass at
// L = 0.8 m, revolute about y, θ = 0 hanging).
const (
	cartMass, bobMass, bobL = 2.0, 1.0, 0.8
	bobI                    = bobMass*bobL*bobL + 0.4*bobMass*1e-4
)

func drivenPendulum(t *testing.T, amp, omega, th0, dt float64) *sim.Simulator {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	cart := mustAdd(t, m, "cart", pointMass(cartMass, spatial.Vec3{}), multibody.Joint{Type: multibody.JointPrismatic, Parent: -1,
		ParentFrame: at(0, 0, 1), ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{1, 0, 0}})
	mustAdd(t, m, "bob", pointMass(bobMass, spatial.Vec3{0, 0, -bobL}), revolute(cart, spatial.PoseIdentity(), spatial.Vec3{0, 1, 0}))
	s := m.NewState()
	s.Q[1] = th0
	set := &constraint.Set{Prescribed: []constraint.Prescribed{{Name: "drive", Body: cart, DOFs: []int{0},
		Motion: []constraint.Signal{constraint.Sine{Amplitude: amp, Frequency: omega / (2 * math.Pi)}}}}}
	return newConstrained(t, m, s, set, dt, sim.SymplecticEuler)
}

// TestPrescribedDrivenPendulum: the pendulum whose pivot is driven by
// x(t) = A sin ωt matches the closed-form driven-pendulum equation
// I θ̈ = m L cos θ ẍ − m g L sin θ integrated by the same scheme
// (symplectic Euler, with the pivot's exact velocity ẋ(t_n)) to 1e-8, and
// the reported pivot force f_ρ equals (m_c + m)ẍ + the pendulum's reaction
// −m L (cos θ θ̈ − sin θ θ̇²) (discrete form) to 1e-6 relative. Against an
// RK4 solution of the continuous equation the error is first order.
// Two amplitudes, frequencies and release angles, δt = 1 ms and 10 ms.
func TestPrescribedDrivenPendulum(t *testing.T) {
	for _, c := range []struct{ amp, omega, th0, dt float64 }{{0.1, 4, 0.3, 1e-3}, {0.05, 9, -0.8, 1e-3}, {0.1, 4, 0.3, 1e-2}, {0.02, 15, 1.2, 1e-2}} {
		sm := drivenPendulum(t, c.amp, c.omega, c.th0, c.dt)
		th, w := c.th0, 0.0
		xd := func(t float64) float64 { return c.amp * c.omega * math.Cos(c.omega*t) }
		var terr, ferr float64
		for n := range int(math.Round(2 / c.dt)) {
			t0, t1 := float64(n)*c.dt, float64(n+1)*c.dt
			w1 := w + (c.dt*(-bobMass*g*bobL*math.Sin(th))+bobMass*bobL*math.Cos(th)*(xd(t1)-xd(t0)))/bobI
			f := ((cartMass+bobMass)*(xd(t1)-xd(t0))-bobMass*bobL*math.Cos(th)*(w1-w))/c.dt + bobMass*bobL*math.Sin(th)*w*w
			th, w = th+c.dt*w1, w1
			step(t, sm)
			terr = math.Max(terr, math.Abs(sm.State.Q[1]-th))
			got := report(t, sm, "drive").Impulse[0] / c.dt
			ferr = math.Max(ferr, math.Abs(got-f)/math.Max(1, math.Abs(f)))
			if math.Abs(sm.State.Q[0]-c.amp*math.Sin(c.omega*t1)) > 1e-15 {
				t.Fatalf("cart not on its motion at t = %g", t1)
			}
		}
		t.Logf("A %g, ω %g, θ0 %g, δt %g: |θ − θ_closed form| max %.3g rad, pivot force error max %.3g (relative)", c.amp, c.omega, c.th0, c.dt, terr, ferr)
		if terr > 1e-8 || ferr > 1e-6 {
			t.Errorf("θ error %g, force error %g", terr, ferr)
		}
	}
	// Convergence to the continuous driven pendulum.
	e1, e2 := drivenError(t, 2e-3), drivenError(t, 1e-3)
	t.Logf("against RK4 of the continuous equation: max |θ error| %.3g (δt 2 ms), %.3g (1 ms), ratio %.2f", e1, e2, e1/e2)
	if r := e1 / e2; r < 1.8 || r > 2.2 {
		t.Errorf("error ratio %g: not first order", r)
	}
}

// drivenError returns the largest |θ − θ_RK4| over 2 s for A = 0.1,
// ω = 4, θ0 = 0.3.
func drivenError(t *testing.T, dt float64) float64 {
	const amp, omega = 0.1, 4.0
	sm := drivenPendulum(t, amp, omega, 0.3, dt)
	acc := func(tt, th float64) float64 {
		return (bobMass*bobL*math.Cos(th)*(-amp*omega*omega*math.Sin(omega*tt)) - bobMass*g*bobL*math.Sin(th)) / bobI
	}
	th, w, tt, h := 0.3, 0.0, 0.0, 1e-5
	e := 0.0
	for n := range int(math.Round(2 / dt)) {
		for tt < float64(n+1)*dt-h/2 { // RK4
			k1t, k1w := w, acc(tt, th)
			k2t, k2w := w+h/2*k1w, acc(tt+h/2, th+h/2*k1t)
			k3t, k3w := w+h/2*k2w, acc(tt+h/2, th+h/2*k2t)
			k4t, k4w := w+h*k3w, acc(tt+h, th+h*k3t)
			th += h / 6 * (k1t + 2*k2t + 2*k3t + k4t)
			w += h / 6 * (k1w + 2*k2w + 2*k3w + k4w)
			tt += h
		}
		step(t, sm)
		e = math.Max(e, math.Abs(sm.State.Q[1]-th))
	}
	return e
}

// shakerScene is a 4 kg plate on a prismatic joint along x whose position
// is prescribed as x(t) = A cos(2π f t) (at rest at t = 0), with a 0.1 m
// box (1 kg) resting on it, friction μ = 0.5 on both.
const shakerScene = `name: shaker
dt: 0.001
duration: 2
materials:
  m: {stiffness: 1e8, dissipation: 0.01, friction: 0.5}
bodies:
  - name: plate
    shape: {type: box, size: [1, 1, 0.05]}
    material: m
    mass: 4
    joint: {type: prismatic, axis: [1, 0, 0], parent_frame: {position: [0, 0, 0.025]}}
  - name: box
    shape: {type: box, size: [0.1, 0.1, 0.1]}
    material: m
    mass: 1
    pose: {position: [0, 0, 0.1]}
constraints:
  - {name: shake, type: prescribed, body: plate, motion: [{sine: {amplitude: %g, frequency: %g, phase: 1.5707963267948966}}]}
`

// TestPrescribedShakerPlate: a box on a prescribed shaker plate sticks
// while the plate's acceleration amplitude A ω² is below μ g (its slip on
// the plate, the creep of SAP's regularized friction, stays below 1% of the
// plate's amplitude over 2 s) and slips above it (more than 10%). Scene
// file, contact with friction on a prescribed body.
func TestPrescribedShakerPlate(t *testing.T) {
	const mu, freq = 0.5, 2.0
	w := 2 * math.Pi * freq
	for _, c := range []struct {
		ratio float64 // A ω² / (μ g)
		slip  bool
	}{{0.5, false}, {0.8, false}, {1.25, true}, {2, true}} {
		amp := c.ratio * mu * g / (w * w)
		sc, err := scene.Parse("shaker.yaml", []byte(fmt.Sprintf(shakerScene, amp, freq)), nil)
		if err != nil {
			t.Fatal(err)
		}
		sm, _ := newSim(t, sc)
		rel0 := sm.Model.BodyPose(sm.State, 1).P[0] - sm.State.Q[0]
		slip := 0.0
		for range 2000 {
			step(t, sm)
			rel := sm.Model.BodyPose(sm.State, 1).P[0] - sm.State.Q[0]
			slip = math.Max(slip, math.Abs(rel-rel0))
		}
		t.Logf("A ω²/(μ g) = %.2f: largest slip of the box on the plate %.3g m (plate amplitude %.3g m)", c.ratio, slip, amp)
		if (c.slip && slip < 0.1*amp) || (!c.slip && slip > 0.01*amp) {
			t.Errorf("A ω²/(μ g) = %g: slip %g m, want slipping %v", c.ratio, slip, c.slip)
		}
	}
}
