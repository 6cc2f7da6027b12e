package mjref

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// zeroWeightPaddle is a dumbbell on a z-hinge through its centre of mass
// (translational body_invweight0 0) swung into a wall: its pair with the
// world has weight 0, so MuJoCo's rows take R = mjMINVAL.
const zeroWeightPaddle = `<mujoco><option timestep="0.002"/><worldbody>
  <geom type="plane" pos="0.28 0 0" zaxis="-1 0 0" size="1 1 0.1"/>
  <body euler="0 0 40"><joint name="h" type="hinge" axis="0 0 1"/>
    <geom type="sphere" pos="0.25 0 0" size="0.05" mass="0.5"/>
    <geom type="sphere" pos="-0.25 0 0" size="0.05" mass="0.5"/></body>
</worldbody></mujoco>`

// TestZeroWeightRowsMuJoCo: a soft pair whose bodies' translational
// body_invweight0 sum to 0 is MuJoCo's row with R = max(mjMINVAL, ·)
// (contact.Material.WeightSet), as mj_makeImpedance clamps it, not SAP's:
// MuJoCo's collisions.xml (spheres on z-hinges through their centres, in
// contact at t = 0) and a dumbbell on a hinge through its centre of mass
// swung at 3 rad/s into a wall follow MuJoCo 2.2.2's Euler.
func TestZeroWeightRowsMuJoCo(t *testing.T) {
	for _, c := range []struct {
		name, path string
		qvel       []float64
		steps      int
	}{
		{"collisions.xml", filepath.Join("testdata", "mujoco/test/engine/testdata/collisions.xml"), nil, 200},
		{"dumbbell into a wall", writeModel(t, zeroWeightPaddle), []float64{-3}, 300},
	} {
		o := Options{Steps: c.steps, Every: 1}
		if c.qvel != nil { // hinges only: qpos0 = 0
			o.QPos, o.QVel = make([]float64, len(c.qvel)), c.qvel
		}
		mj := run(t, c.path, o)
		b, mp := mappedModel(t, c.path, mj)
		b.Config.Scheme = sim.MuJoCoEuler
		if c.qvel != nil {
			mp.VToStiction(mj.QInit, c.qvel, b.State.V)
		}
		for i, m := range b.Config.Materials {
			if m.SlipWeight == 0 && !m.WeightSet {
				t.Errorf("%s: material %d: weight 0 not marked WeightSet", c.name, i)
			}
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		q := make([]float64, mj.NQ)
		worst, touching, pushed := 0.0, 0, 0.0
		for k := 1; k <= c.steps; k++ {
			if _, err := s.Step(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if mj.Steps[k].NCon > 0 {
				touching++
			}
			mp.QToMuJoCo(s.State.Q, q)
			for i := range q {
				worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
				pushed = math.Max(pushed, math.Abs(mj.Steps[k].QVel[i]-mj.Steps[0].QVel[i]))
			}
		}
		t.Logf("%s: max |Δqpos| over %d steps %.3g (%d in contact in MuJoCo; largest change of MuJoCo's qvel %.3g)", c.name, c.steps, worst, touching, pushed)
		if touching == 0 {
			t.Fatalf("%s: no contact in MuJoCo", c.name)
		}
		if !(worst <= 1e-12) {
			t.Errorf("%s: max |Δqpos| %.3g over %d steps (want ≤ 1e-12)", c.name, worst, c.steps)
		}
	}
}
