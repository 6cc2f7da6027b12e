package mjref

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// ballFriction is a rod on a ball joint with frictionloss 0.05, turned
// 60° about the vertical and tilted, so that its child frame's axes are
// not the parent's: gravity's torque (0.098 N·m at the start) exceeds the
// bound on one of the child frame's axes and not on the others. MuJoCo
// bounds each of the three rows of qvel, the angular velocity in the child
// frame, by frictionloss.
const ballFriction = `<mujoco><worldbody>
  <body pos="0 0 1"><joint name="b" type="ball" frictionloss="0.05"/>
    <geom type="capsule" size="0.02" fromto="0 0 0 0.1 0.05 -0.1" mass="0.2"/></body>
</worldbody></mujoco>`

// TestBallFrictionLossFrame: a ball joint's frictionloss rows are MuJoCo's,
// one per axis of the child frame (constraint.JointFriction): the rod
// follows MuJoCo 2.2.2 to 1e-9 in qpos over 300 steps (0.6 s), from a
// pose turned 60° about z and 30° about x. With the rows in the parent
// frame it was 0.2 off.
func TestBallFrictionLossFrame(t *testing.T) {
	path := writeModel(t, ballFriction)
	// The quaternion of 60° about z then 30° about x: q = q_z q_x.
	cz, sz, cx, sx := math.Cos(math.Pi/6), math.Sin(math.Pi/6), math.Cos(math.Pi/12), math.Sin(math.Pi/12)
	q0 := []float64{cz * cx, cz * sx, sz * sx, sz * cx}
	const steps = 300
	mj := run(t, path, Options{Steps: steps, Every: 1, QPos: q0, QVel: []float64{0, 0, 0}})
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	copy(b.State.Q, q0)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	worst, moved := 0.0, 0.0
	for k := 1; k <= steps; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			worst = math.Max(worst, math.Abs(s.State.Q[i]-mj.Steps[k].QPos[i]))
			moved = math.Max(moved, math.Abs(mj.Steps[k].QPos[i]-q0[i]))
		}
	}
	t.Logf("max |Δqpos| over %d steps %.2g (MuJoCo's quaternion moved by up to %.3g)", steps, worst, moved)
	if !(moved > 0.01) {
		t.Fatalf("MuJoCo's rod moved %.3g: the test's premise (it slips) fails", moved)
	}
	if worst > 1e-9 {
		t.Errorf("max |Δqpos| = %.2g over %d steps, want ≤ 1e-9", worst, steps)
	}
}
