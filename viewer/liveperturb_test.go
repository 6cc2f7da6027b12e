package viewer

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// TestPerturbAllocatesNothing: a warmed-up step with a force or a torque
// perturbation applied allocates nothing (the double pendulum: no contacts
// whose number could grow the simulator's buffers).
func TestPerturbAllocatesNothing(t *testing.T) {
	b, p, s := perturbedSim(t, "double-pendulum")
	body := len(b.Model.Bodies) - 1
	p.Grab(b.Model, body, spatial.Vec3{0, 0, 0.05}, spatial.Vec3{0.2, 0, 1})
	for range 20 {
		s.Step()
	}
	if n := testing.AllocsPerRun(50, func() { s.Step() }); n != 0 {
		t.Errorf("force perturbation: %v allocations per step, want 0", n)
	}
	p.Twist(b.Model, body, spatial.Quat{W: math.Cos(0.5), Z: math.Sin(0.5)})
	if n := testing.AllocsPerRun(50, func() { s.Step() }); n != 0 {
		t.Errorf("torque perturbation: %v allocations per step, want 0", n)
	}
}

// TestPerturbTorqueTurns: twisting a sphere resting on the ground toward a
// rotation about +z spins it about +z, and the torque is I k θ at rest.
func TestPerturbTorqueTurns(t *testing.T) {
	b, p, s := perturbedSim(t, "drop")
	body := len(b.Model.Bodies) - 1
	x0 := b.Model.BodyPose(s.State, body)
	theta := 0.3
	p.Twist(b.Model, body, spatial.Quat{W: math.Cos(theta / 2), Z: math.Sin(theta / 2)}.Mul(x0.R))
	s.Step()
	tq, isTorque := p.Last()
	want := meanMoment(b.Model.Bodies[body].Inertia) * PerturbStiffness * theta
	if !isTorque || math.Abs(tq[2]-want) > 1e-3*want {
		t.Errorf("first torque %v, want (0, 0, %v)", tq, want)
	}
	for range 100 {
		s.Step()
	}
	if w, _ := b.Model.BodyVelocity(s.State, body); !(w[2] > 0) {
		t.Errorf("twisted sphere spins at %v rad/s, want about +z", w)
	}
}

// perturbedSim builds scene name with a perturbation in its forces.
func perturbedSim(t *testing.T, name string) (*scene.Built, *Perturb, *sim.Simulator) {
	t.Helper()
	b, _, err := testLoader(name, "")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPerturb()
	cfg := b.Config
	cfg.Forces = append(cfg.Forces, p)
	s, err := sim.New(b.Model, b.State, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b, p, s
}
