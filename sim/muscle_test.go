package sim_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// muscleScene is a two-link arm in a vertical plane with two muscles: one
// on the shoulder joint with a given length range, one on a fixed tendon
// over both joints whose length range the build finds by MuJoCo's
// simulation (the joints are limited); and a motor.
const muscleScene = `name: muscles
dt: 0.002
duration: 1
scheme: %s
materials:
  d: {stiffness: 1e9, dissipation: 0.01, friction: 0.5}
bodies:
  - name: upper
    shape: {type: capsule, radius: 0.03, length: 0.3}
    material: d
    mass: 1
    joint: {type: revolute, axis: [0, 1, 0], parent_frame: {position: [0, 0, 1]}, child_frame: {position: [0, 0, 0.15]},
            limits: {lower: [-1.5], upper: [1.5]}}
  - name: fore
    shape: {type: capsule, radius: 0.03, length: 0.3}
    material: d
    mass: 0.5
    joint: {type: revolute, parent: upper, axis: [0, 1, 0], parent_frame: {position: [0, 0, -0.15]}, child_frame: {position: [0, 0, 0.15]},
            limits: {lower: [0], upper: [2]}}
actuators:
  - {name: shoulder, type: muscle, joint: upper, gear: 0.05, ctrl_range: [0, 1], muscle: {length_range: [-0.06, 0.06]}}
  - {name: biceps, type: muscle, tendon: t, ctrl_range: [0, 1], muscle: {time_const: [0.02, 0.05], force: 30}}
  - {name: m, type: motor, joint: fore}
tendons:
  - {name: t, joints: [{joint: upper, coef: 0.03}, {joint: fore, coef: 0.04}]}
`

func muscleSim(t *testing.T, scheme string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	sc, err := scene.Parse("muscles.yaml", []byte(fmt.Sprintf(muscleScene, scheme)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return newSim(t, sc)
}

// TestMuscleActivation: a muscle's activation is a state advanced as
// MuJoCo advances act. Under mujoco-euler, from rest with control 1 its
// first step is act = δt·(1 − 0)/(τ_act/2) (MuJoCo's activation time
// constant τ_act (1/2 + 3/2 act) at act = 0), and every step follows
// act' = act + δt acṫ(u, act); under rk4 it follows the classical RK4
// recurrence of the scalar ODE acṫ = f(u, act) (MuJoCo integrates act with
// its tableau); a stateless actuator's entry stays 0; controls outside the
// control range are clamped first.
func TestMuscleActivation(t *testing.T) {
	for _, scheme := range []string{"mujoco-euler", "rk4"} {
		t.Run(scheme, func(t *testing.T) {
			s, b := muscleSim(t, scheme)
			acts := b.Config.Constraints.Actuators
			if len(s.State.Act) != 3 {
				t.Fatalf("%d activations, want 3", len(s.State.Act))
			}
			h := b.Config.DT
			want := []float64{0, 0}
			worst := 0.0
			for k := range 200 {
				u := []float64{1.5, 0.3} // 1.5 is clamped to 1
				if k >= 100 {
					u = []float64{0, 1}
				}
				for i := range 2 {
					if err := s.SetControl(i, u[i], 0); err != nil {
						t.Fatal(err)
					}
					uc := min(u[i], 1)
					f := func(a float64) float64 { return acts[i].Muscle.Dynamics(uc, a) }
					if scheme == "rk4" {
						k1 := f(want[i])
						k2 := f(want[i] + h/2*k1)
						k3 := f(want[i] + h/2*k2)
						k4 := f(want[i] + h*k3)
						want[i] += h * (k1/6 + k2/3 + k3/3 + k4/6)
					} else {
						want[i] += h * f(want[i])
					}
				}
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
				if k == 0 && scheme == "mujoco-euler" {
					if got, w := s.State.Act[0], h*1/(0.01*0.5); math.Abs(got-w) > 1e-15 {
						t.Errorf("first step: act %v, want δt/(τ_act/2) = %v", got, w)
					}
				}
				for i := range 2 {
					worst = math.Max(worst, math.Abs(s.State.Act[i]-want[i]))
				}
				if s.State.Act[2] != 0 {
					t.Fatalf("the motor's activation is %v", s.State.Act[2])
				}
			}
			t.Logf("%s: 200 steps, max |act − recurrence| %.3g; final act %.4g", scheme, worst, s.State.Act[:2])
			if worst > 1e-15 {
				t.Errorf("activation %.3g from the recurrence", worst)
			}
		})
	}
}

// TestMuscleLengthRangeFromLimits: the tendon muscle's length range, found
// by simulating the arm pushed along ∓ the muscle's moment until it rests
// on its joint limits (sim.ActuatorLengthRange, MuJoCo's
// mj_setLengthRange), is the tendon's length at the limits it is pushed
// onto, within the soft limits' small penetration (MuJoCo's soft rows
// give a little): L = 0.03·q_upper + 0.04·q_fore at (−1.5, 0) and
// (1.5, 2).
func TestMuscleLengthRangeFromLimits(t *testing.T) {
	_, b := muscleSim(t, "mujoco-euler")
	lr := b.Config.Constraints.Actuators[1].Muscle.LengthRange
	want := [2]float64{0.03 * -1.5, 0.03*1.5 + 0.04*2}
	t.Logf("length range %.9g, at the limits %.9g", lr, want)
	for k := range 2 {
		if math.Abs(lr[k]-want[k]) > 2e-3*(want[1]-want[0]) {
			t.Errorf("length range %v, want about %v", lr, want)
		}
	}
	if b.Config.Constraints.Actuators[0].Muscle.LengthRange != [2]float64{-0.06, 0.06} {
		t.Errorf("a given length range was replaced: %v", b.Config.Constraints.Actuators[0].Muscle.LengthRange)
	}
}

// TestMuscleCheckpoint: a run with muscles resumed from a checkpoint (its
// activations included) is bit-identical to the straight run.
func TestMuscleCheckpoint(t *testing.T) {
	drive := func(s *sim.Simulator, n int, out []uint64) []uint64 {
		for range n {
			for i := range 2 {
				if err := s.SetControl(i, 0.5+0.5*math.Sin(7*s.State.T+float64(i)), 0); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			for _, x := range append(append(s.State.Q[:len(s.State.Q):len(s.State.Q)], s.State.V...), s.State.Act...) {
				out = append(out, math.Float64bits(x))
			}
		}
		return out
	}
	straight, _ := muscleSim(t, "mujoco-euler")
	want := drive(straight, 200, nil)
	first, _ := muscleSim(t, "mujoco-euler")
	got := drive(first, 100, nil)
	var buf bytes.Buffer
	if err := sim.WriteCheckpoint(&buf, first.Checkpoint()); err != nil {
		t.Fatal(err)
	}
	c, err := sim.ReadCheckpoint(&buf)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := muscleSim(t, "mujoco-euler")
	if err := second.Restore(c); err != nil {
		t.Fatal(err)
	}
	got = drive(second, 100, got)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("word %d of %d differs after the restore", i, len(want))
		}
	}
	c.Act = c.Act[:1]
	if err := second.Restore(c); err == nil {
		t.Error("a checkpoint with 1 activation for 3 actuators was restored")
	}
}

// TestMuscleStepAllocatesNothing: a warmed-up step with muscles (on a
// joint and on a tendon) allocates nothing, under mujoco-euler and rk4.
func TestMuscleStepAllocatesNothing(t *testing.T) {
	for _, scheme := range []string{"mujoco-euler", "rk4"} {
		s, _ := muscleSim(t, scheme)
		for i := range 2 {
			if err := s.SetControl(i, 0.7, 0); err != nil {
				t.Fatal(err)
			}
		}
		runSteps(t, s, 20)
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %v allocations per step", scheme, allocs)
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step, want 0", scheme, allocs)
		}
	}
}
