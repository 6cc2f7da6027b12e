package sensor_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/mjcf"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/sim"
)

const boxDoc = `<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom type="plane" size="2 2 0.1"/>
    <body name="box" pos="0 0 0.1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <site name="bottom" type="box" pos="0 0 -0.1" size="0.11 0.11 0.02"/>
      <site name="top" type="box" pos="0 0 0.1" size="0.11 0.11 0.02"/>
    </body>
  </worldbody>
  <sensor>
    <touch name="bottom" site="bottom" cutoff="5"/>
    <touch name="top" site="top"/>
    <accelerometer name="acc" site="bottom" cutoff="4"/>
    <framequat name="q" objtype="site" objname="bottom" cutoff="0.1"/>
    <force name="f" site="bottom"/>
    <torque name="tq" site="bottom"/>
    <gyro name="g" site="top"/>
  </sensor>
</mujoco>`

// TestSetRestingBox: a box resting on the ground; cutoffs clamp real
// values to ±cutoff and touch to ≤ cutoff but leave quaternions alone;
// only the bottom zone feels the ground; the free body's force and torque
// sensors (its wrench from the world, none through a free joint) read 0
// to the solver's tolerance;
// before any step the acceleration and force sensors read NaN; a warmed-up
// evaluation does not allocate.
func TestSetRestingBox(t *testing.T) {
	im, err := mjcf.Parse("box.xml", []byte(boxDoc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, set.Len())
	set.Evaluate(b.State, nil, out)
	if !math.IsNaN(out[0]) || !math.IsNaN(out[2]) || out[5] != 1 {
		t.Errorf("before any step: %v, want NaN touch and acceleration, q = [1 0 0 0]", out)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := make([]float64, b.Model.NQ), make([]float64, b.Model.NV)
	step := &sensor.Step{DT: b.Config.DT, Q0: q0, V0: v0}
	eval := func() {
		step.Contacts, step.Impulses, step.Reports = s.Contacts(), s.Impulses(), s.ConstraintReports()
		set.Evaluate(s.State, step, out)
	}
	for range 300 {
		copy(q0, s.State.Q)
		copy(v0, s.State.V)
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		eval()
	}
	if n := testing.AllocsPerRun(20, eval); n != 0 {
		t.Errorf("Evaluate allocates %v times", n)
	}
	t.Logf("values %v", out)
	if out[0] != 5 || out[1] != 0 {
		t.Errorf("touch bottom %g (m g = 19.62 cut off at 5), top %g; want 5 and 0", out[0], out[1])
	}
	if out[2] != 0 && math.Abs(out[2]) > 1e-9 || math.Abs(out[3]) > 1e-9 || out[4] != 4 {
		t.Errorf("accelerometer %v, want [0 0 4] (9.81 cut off at 4)", out[2:5])
	}
	if out[5] < 0.999 {
		t.Errorf("framequat %v was clamped", out[5:9])
	}
	// Zero to the contact solver's momentum tolerance, εr = 1e-6 relative:
	// m a − m g − F is the step's momentum residual (measured 2.0e-5 N of
	// 19.62 N).
	for k := 9; k < 15; k++ {
		if math.Abs(out[k]) > 1e-6*2*9.81*2 {
			t.Errorf("force/torque of a free body: %v, want 0", out[9:15])
			break
		}
	}
}
