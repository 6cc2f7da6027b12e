package mjref

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// frictionCreep is a 0.2 kg rod on a hinge whose frictionloss (1 N·m)
// exceeds gravity's torque on it (0.196 N·m): rigid dry friction would
// hold it, MuJoCo's soft friction loss lets it creep (0.072 rad/s).
const frictionCreep = `<mujoco><worldbody>
  <body pos="0 0 1"><joint name="h" axis="0 1 0" frictionloss="1"/><geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0" mass="0.2"/></body>
</worldbody></mujoco>`

// TestFrictionLossCreep: MJCF's frictionloss is MuJoCo's soft constraint
// (solreffriction, solimpfriction; constraint.JointFriction with a
// Compliance): the loaded hinge creeps as in MuJoCo 2.2.2, qpos within
// 1e-9 over 500 steps (1 s), where it stuck before (1.4e-6 rad after 1 s,
// MuJoCo 0.0712).
func TestFrictionLossCreep(t *testing.T) {
	path := writeModel(t, frictionCreep)
	mj := run(t, path, Options{Steps: 500, Every: 1})
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for k := 1; k < len(mj.Steps); k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, math.Abs(s.State.Q[0]-mj.Steps[k].QPos[0]))
	}
	last := mj.Steps[len(mj.Steps)-1].QPos[0]
	t.Logf("hinge after 1 s: Stiction %.9g, MuJoCo %.9g; max |Δq| %.2g", s.State.Q[0], last, worst)
	if worst > 1e-9 {
		t.Errorf("max |Δq| = %.2g over 500 steps (MuJoCo ends at %.6g, Stiction %.6g)", worst, last, s.State.Q[0])
	}
}
