package mjref

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestSoftConnect: a connect equality is MuJoCo's soft constraint (its
// three rows' R = (1 − d)/d · w with w the two bodies' body_invweight0
// and d at the norm of the error, a_ref = −B J v − K d g; mjcf softBody,
// constraint.Ball with a Compliance.SolRef): a hinged pendulum whose bob
// is pinned where it starts, and a free box hung by a corner and set
// spinning, follow MuJoCo 2.2.2 to 1e-9 in qpos over 500 steps (1 s).
func TestSoftConnect(t *testing.T) {
	for _, c := range []struct {
		name, doc  string
		qpos, qvel []float64
	}{
		{"pinned pendulum", `<mujoco><compiler angle="radian"/><worldbody>
  <body name="bob"><joint name="hinge" axis="0 1 0"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.001 0.001 0.001"/></body>
  </worldbody><equality><connect name="pin" body1="bob" anchor="0.5 0 0"/></equality></mujoco>`, nil, nil},
		{"hung box", `<mujoco><worldbody>
  <body name="box" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.05 0.02" mass="2"/></body>
  </worldbody><equality><connect name="corner" body1="box" anchor="0.1 0.05 0.02" solref="0.01 0.7" solimp="0.8 0.95 0.01 0.5 2"/></equality></mujoco>`,
			[]float64{0, 0, 1, 1, 0, 0, 0}, []float64{0.3, -0.2, 0.1, 2, -1, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			const steps = 500
			worst, moved := qposError(t, writeModel(t, c.doc), steps, c.qpos, c.qvel)
			t.Logf("max |Δqpos| over %d steps %.2g (MuJoCo's qpos moved by up to %.3g)", steps, worst, moved)
			if worst > 1e-9 {
				t.Errorf("max |Δqpos| = %.2g, want ≤ 1e-9", worst)
			}
		})
	}
}

// qposError runs the model at path for steps steps in MuJoCo 2.2.2 and in
// Stiction, from the initial state (qpos, qvel) in MuJoCo's layout (the
// model's when nil), and returns the largest |Δqpos| over the steps and
// the largest distance MuJoCo's qpos moved from its initial value.
func qposError(t *testing.T, path string, steps int, qpos, qvel []float64) (worst, moved float64) {
	t.Helper()
	mj := run(t, path, Options{Steps: steps, Every: 1, QPos: qpos, QVel: qvel})
	b, mp := mappedModel(t, path, mj)
	if qpos != nil {
		mp.QToStiction(mj.QInit, b.State.Q)
		mp.VToStiction(mj.QInit, mj.VInit, b.State.V)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, mj.NQ)
	for k := 1; k <= steps; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
			moved = math.Max(moved, math.Abs(mj.Steps[k].QPos[i]-mj.QInit[i]))
		}
	}
	return worst, moved
}
