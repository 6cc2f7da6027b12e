package mjref

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/sim"
)

// sensorArm is a 3-body arm with a compound joint (two hinges on link2), a
// slide, sites, and every supported kinematic, inertial and wrench
// sensor, including reference frames and geom frames (massless geoms:
// with a rotated geom of mass 0.1 kg, torque and subtreeangmom differed
// from MuJoCo's by 1.75e-8 and 3.3e-9, measured — the size of the
// difference between MuJoCo's principal-axes body inertia and ours, which
// the parity tests bound to 1e-9 relative in M(q0)). Its geoms do not collide, so that
// MuJoCo's Euler step is v' = v + h qacc exactly (no damping).
const sensorArm = `<mujoco model="sensorarm">
  <option timestep="0.001"/>
  <worldbody>
    <site name="ref" pos="0.1 0.2 0.3" euler="10 20 30"/>
    <body name="link1" pos="0 0 1" euler="5 0 0">
      <joint name="j1" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
      <geom name="cap1" type="capsule" fromto="0.1 0 0 0.4 0.1 0.2" size="0.01" mass="0" contype="0" conaffinity="0"/>
      <site name="s1" pos="0.25 0.01 0.02" euler="30 40 50"/>
      <body name="link2" pos="0.5 0 0">
        <joint name="j2a" type="hinge" axis="0 1 0"/>
        <joint name="j2b" type="hinge" axis="1 0 0" pos="0.1 0 0"/>
        <geom type="box" size="0.2 0.04 0.03" pos="0.2 0 0" mass="0.7" contype="0" conaffinity="0"/>
        <geom name="box2" type="box" size="0.02 0.03 0.04" pos="0.1 0.05 0" euler="10 20 30" mass="0" contype="0" conaffinity="0"/>
        <site name="tip" pos="0.4 0 0.01" quat="0.9 0.1 0.2 0.3"/>
        <site name="mid" pos="0.15 -0.02 0" euler="0 90 0"/>
        <body name="link3" pos="0.4 0 0">
          <joint name="j3" type="slide" axis="1 0 0"/>
          <geom type="sphere" size="0.05" mass="0.3" contype="0" conaffinity="0"/>
        </body>
      </body>
    </body>
  </worldbody>
  <sensor>
    <jointpos joint="j1"/>
    <jointpos joint="j2b"/>
    <jointpos joint="j3"/>
    <jointvel joint="j2a"/>
    <jointvel joint="j2b"/>
    <jointvel joint="j3"/>
    <framepos objtype="site" objname="tip"/>
    <framepos objtype="xbody" objname="link2"/>
    <framepos objtype="body" objname="link3"/>
    <framepos objtype="site" objname="tip" reftype="site" refname="s1"/>
    <framequat objtype="site" objname="tip"/>
    <framequat objtype="site" objname="tip" reftype="xbody" refname="link1"/>
    <framexaxis objtype="site" objname="mid"/>
    <frameyaxis objtype="site" objname="tip" reftype="site" refname="ref"/>
    <framezaxis objtype="xbody" objname="link2" reftype="site" refname="ref"/>
    <framelinvel objtype="site" objname="tip"/>
    <framelinvel objtype="site" objname="tip" reftype="site" refname="s1"/>
    <framelinvel objtype="body" objname="link3"/>
    <frameangvel objtype="xbody" objname="link2"/>
    <frameangvel objtype="site" objname="tip" reftype="site" refname="s1"/>
    <gyro site="tip"/>
    <velocimeter site="tip"/>
    <accelerometer site="tip"/>
    <accelerometer site="s1"/>
    <force site="s1"/>
    <torque site="s1"/>
    <force site="mid"/>
    <torque site="mid"/>
    <framepos objtype="geom" objname="box2"/>
    <framequat objtype="geom" objname="box2"/>
    <framepos objtype="geom" objname="cap1"/>
    <framequat objtype="geom" objname="cap1"/>
    <framelinacc objtype="site" objname="tip"/>
    <frameangacc objtype="xbody" objname="link2"/>
    <framelinacc objtype="body" objname="link3"/>
    <subtreecom body="link2"/>
    <subtreecom body="world"/>
    <subtreelinvel body="link1"/>
    <subtreeangmom body="link1"/>
    <subtreeangmom body="link2"/>
  </sensor>
</mujoco>`

// maxErrByType returns, per sensor type, the largest |ours − MuJoCo's|
// over the values of sensors of that type that pass keep.
func maxErrByType(r *Run, got, want []float64, keep func(string) bool, errs map[string]float64) {
	for _, sn := range r.Sensors {
		if !keep(sn.Type) {
			continue
		}
		for k := sn.Adr; k < sn.Adr+sn.Dim; k++ {
			d := math.Abs(got[k] - want[k])
			if math.IsNaN(d) {
				d = math.Inf(1)
			}
			errs[sn.Type] = max(errs[sn.Type], d)
		}
	}
}

var accTypes = map[string]bool{"accelerometer": true, "framelinacc": true, "frameangacc": true, "force": true, "torque": true, "touch": true, "actuatorfrc": true}

// TestSensorsMatchMuJoCo: at each of MuJoCo's states of a perturbed arm
// run, every position and velocity sensor equals MuJoCo's sensordata to
// 1e-12, and every acceleration and wrench sensor (accelerometer, force,
// torque), evaluated with MuJoCo's step acceleration (qvel' − qvel)/h, to
// 1e-9.
func TestSensorsMatchMuJoCo(t *testing.T) {
	path := writeModel(t, sensorArm)
	qpos := []float64{0.3, -0.7, 0.4, 0.05}
	qvel := []float64{1.5, -2, 3, 0.4}
	r := run(t, path, Options{Steps: 40, Every: 1, Integrator: "euler", QPos: qpos, QVel: qvel})
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != len(r.Steps[0].SensorData) || len(r.Sensors) != len(b.Sensors) {
		t.Fatalf("%d sensor values (%d sensors), MuJoCo %d (%d)", set.Len(), len(b.Sensors), len(r.Steps[0].SensorData), len(r.Sensors))
	}
	mp, err := NewMap(r, b.Model)
	if err != nil {
		t.Fatal(err)
	}
	state := func(s Step) *multibody.State {
		st := b.Model.NewState()
		mp.QToStiction(s.QPos, st.Q)
		mp.VToStiction(s.QPos, s.QVel, st.V)
		return st
	}
	out := make([]float64, set.Len())
	errs := map[string]float64{}
	for k := 0; k+1 < len(r.Steps); k++ {
		s0, s1 := state(r.Steps[k]), state(r.Steps[k+1])
		set.Evaluate(s0, nil, out)
		maxErrByType(r, out, r.Steps[k].SensorData, func(typ string) bool { return !accTypes[typ] }, errs)
		set.Evaluate(s1, &sensor.Step{DT: r.Timestep, Q0: s0.Q, V0: s0.V}, out)
		maxErrByType(r, out, r.Steps[k].SensorData, func(typ string) bool { return accTypes[typ] }, errs)
	}
	for _, typ := range slices.Sorted(maps.Keys(errs)) {
		e := errs[typ]
		tol := 1e-12
		if accTypes[typ] {
			tol = 1e-9
		}
		t.Logf("%-12s max |Stiction − MuJoCo| = %.3g (tolerance %g)", typ, e, tol)
		if !(e <= tol) {
			t.Errorf("%s: max error %.3g > %g", typ, e, tol)
		}
	}
	if len(errs) != 19 {
		t.Errorf("compared %d sensor types, want 19: %v", len(errs), errs)
	}
}

// restingBox is a free box resting on a plane, with a touch zone on its
// bottom face, an accelerometer, and force and torque sensors where a 0.5 kg
// body is welded on top.
const restingBox = `<mujoco model="restingbox">
  <option timestep="0.002"/>
  <worldbody>
    <geom type="plane" size="2 2 0.1"/>
    <body name="box" pos="0 0 0.1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <site name="bottom" type="box" pos="0 0 -0.1" size="0.11 0.11 0.02"/>
      <site name="imu" pos="0.02 0.03 0.04" euler="20 0 0"/>
      <body name="top" pos="0 0 0.1">
        <geom type="sphere" pos="0 0 0.05" size="0.03" mass="0.5" contype="0" conaffinity="0"/>
        <site name="mount" pos="-0.05 0.01 0" euler="0 0 30"/>
      </body>
    </body>
  </worldbody>
  <sensor>
    <touch name="touch" site="bottom"/>
    <accelerometer name="acc" site="imu"/>
    <gyro name="gyro" site="imu"/>
    <force name="f" site="mount"/>
    <torque name="tq" site="mount"/>
  </sensor>
</mujoco>`

// TestSensorsRestingBox: a 2 kg box resting on a plane for 1 s. Our
// contact model is not MuJoCo's, so the comparison is of the steady state:
// the touch sensor reads the total normal force m g in both engines, and
// the accelerometer reads gravity's reaction, +g up in the world, rotated
// into the site frame.
func TestSensorsRestingBox(t *testing.T) {
	path := writeModel(t, restingBox)
	const steps = 500
	r := run(t, path, Options{Steps: steps, Every: 0})
	mjLast := r.Steps[len(r.Steps)-1].SensorData
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, set.Len())
	q0, v0 := make([]float64, b.Model.NQ), make([]float64, b.Model.NV)
	for range steps {
		copy(q0, s.State.Q)
		copy(v0, s.State.V)
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		set.Evaluate(s.State, &sensor.Step{DT: b.Config.DT, Q0: q0, V0: v0, Contacts: s.Contacts(), Impulses: s.Impulses(), Reports: s.ConstraintReports()}, out)
	}
	mg := 2.5 * 9.81
	t.Logf("touch: Stiction %.9g N, MuJoCo %.9g N, m g = %.9g N", out[0], mjLast[0], mg)
	t.Logf("accelerometer: Stiction %v, MuJoCo %v", out[1:4], mjLast[1:4])
	if math.Abs(out[0]-mg) > 1e-6*mg || math.Abs(mjLast[0]-mg) > 1e-3*mg {
		t.Errorf("touch: Stiction %.9g, MuJoCo %.9g, want m g = %.9g (1e-6, MuJoCo 1e-3)", out[0], mjLast[0], mg)
	}
	c, sn := math.Cos(20*math.Pi/180), math.Sin(20*math.Pi/180)
	want := []float64{0, 9.81 * sn, 9.81 * c} // +g up, in a frame rolled 20° about x
	for k := range 3 {
		if d := math.Abs(out[1+k] - want[k]); d > 1e-6 {
			t.Errorf("accelerometer[%d]: Stiction %.9g, want %.9g", k, out[1+k], want[k])
		}
		if d := math.Abs(mjLast[1+k] - want[k]); d > 1e-3 {
			t.Errorf("accelerometer[%d]: MuJoCo %.9g, want %.9g", k, mjLast[1+k], want[k])
		}
		if d := math.Abs(out[4+k]); d > 1e-6 {
			t.Errorf("gyro[%d] = %g at rest", k, out[4+k])
		}
	}
	// The top body's weight 0.5 g, held up through the mount at (−0.05, 0.01,
	// 0) from its centre of mass at (0, 0, 0.05); site frame yawed 30°.
	c30, s30 := math.Cos(math.Pi/6), math.Sin(math.Pi/6)
	rot := func(v [3]float64) [3]float64 { // world → site
		return [3]float64{c30*v[0] + s30*v[1], -s30*v[0] + c30*v[1], v[2]}
	}
	w := 0.5 * 9.81
	fw := [3]float64{0, 0, w}
	lever := [3]float64{0.05, -0.01, 0.05}
	tw := [3]float64{lever[1] * fw[2], -lever[0] * fw[2], 0}
	wantF, wantT := rot(fw), rot(tw)
	t.Logf("force: Stiction %v, MuJoCo %v, want %v", out[7:10], mjLast[7:10], wantF)
	t.Logf("torque: Stiction %v, MuJoCo %v, want %v", out[10:13], mjLast[10:13], wantT)
	for k := range 3 {
		for _, c := range []struct {
			who       string
			got, want float64
		}{{"Stiction force", out[7+k], wantF[k]}, {"Stiction torque", out[10+k], wantT[k]},
			{"MuJoCo force", mjLast[7+k], wantF[k]}, {"MuJoCo torque", mjLast[10+k], wantT[k]}} {
			if math.Abs(c.got-c.want) > 1e-6 {
				t.Errorf("%s[%d] = %.9g, want %.9g", c.who, k, c.got, c.want)
			}
		}
	}
}

// servoPendulum is a hinge pendulum on a position servo (kp = 20) with
// zero control, whose actuator force is −kp q in MuJoCo.
const servoPendulum = `<mujoco model="servo">
  <option timestep="0.001"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><position name="servo" joint="hinge" kp="20"/></actuator>
  <sensor><actuatorfrc name="f" actuator="servo"/><jointpos name="q" joint="hinge"/></sensor>
</mujoco>`

// TestSensorActuatorFrcMuJoCo: the actuatorfrc of each step from MuJoCo's
// state k equals MuJoCo's sensordata at k, −kp q at the start of the step,
// to 1e-12: under MuJoCo's Euler the imported servo is explicit, as
// MuJoCo's (when it was implicit, on the end-of-step angle, they differed
// by δt kp |v'|, 0.072 N·m of 8 N·m).
func TestSensorActuatorFrcMuJoCo(t *testing.T) {
	path := writeModel(t, servoPendulum)
	r := run(t, path, Options{Steps: 50, Every: 1, Integrator: "euler", QPos: []float64{0.4}, QVel: []float64{-1}})
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, set.Len())
	worst, worstV := 0.0, 0.0
	for k := 0; k+1 < len(r.Steps); k++ {
		mk := r.Steps[k]
		s.State.Q[0], s.State.V[0] = mk.QPos[0], mk.QVel[0]
		q0, v0 := []float64{mk.QPos[0]}, []float64{mk.QVel[0]}
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		set.Evaluate(s.State, &sensor.Step{DT: b.Config.DT, Q0: q0, V0: v0, Reports: s.ConstraintReports()}, out)
		want := mk.SensorData[0]
		if math.Abs(want+20*mk.QPos[0]) > 1e-12 {
			t.Fatalf("MuJoCo's actuatorfrc %g is not −kp q = %g", want, -20*mk.QPos[0])
		}
		if d := math.Abs(out[0] - want); d > 1e-12 {
			t.Errorf("step %d: actuatorfrc %.15g, MuJoCo %.15g: differ by %.3g", k, out[0], want, d)
		}
		worst, worstV = max(worst, math.Abs(out[0]-want)), max(worstV, math.Abs(want))
	}
	t.Logf("actuatorfrc: max |Stiction − MuJoCo| = %.3g N·m (max |f| %.3g N·m)", worst, worstV)
}

// suiteSensorModels are the suite models with sensors.
var suiteSensorModels = []string{
	"dm_control/suite/cheetah.xml", "dm_control/suite/finger.xml", "dm_control/suite/fish.xml",
	"dm_control/suite/hopper.xml", "dm_control/suite/humanoid.xml", "dm_control/suite/humanoid_CMU.xml",
	"dm_control/suite/manipulator.xml", "dm_control/suite/stacker.xml", "dm_control/suite/swimmer.xml",
	"dm_control/suite/walker.xml",
}

// TestSensorsSuite: on the public suite models with sensors, from a
// perturbed state and over 20 MuJoCo steps, every position and velocity
// sensor that the import keeps equals MuJoCo's sensordata at MuJoCo's
// states to 1e-9 (relative to max(1, |value|)), and evaluating all of the
// model's sensors does not allocate.
func TestSensorsSuite(t *testing.T) {
	for _, file := range suiteSensorModels {
		t.Run(file, func(t *testing.T) {
			path := "testdata/" + file
			base := run(t, path, Options{Steps: 0})
			qpos := append([]float64(nil), base.QInit...)
			qvel := make([]float64, base.NV)
			for _, j := range base.Joints {
				if j.Type == "hinge" || j.Type == "slide" {
					qpos[j.QPosAdr] += 0.05 * float64(j.QPosAdr%5-2)
				}
			}
			for i := range qvel {
				qvel[i] = 0.05 * float64(i%7-3)
			}
			r := run(t, path, Options{Steps: 20, Every: 1, QPos: qpos, QVel: qvel})
			b, _, err := stiction(path)
			if err != nil {
				t.Fatal(err)
			}
			set, err := sensor.NewSet(b.Model, b.Sensors)
			if err != nil {
				t.Fatal(err)
			}
			mp, err := NewMap(r, b.Model)
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for i, n := range set.Names() {
				col[n] = i
			}
			out := make([]float64, set.Len())
			worst, compared := 0.0, 0
			for _, s := range r.Steps {
				st := b.Model.NewState()
				mp.QToStiction(s.QPos, st.Q)
				mp.VToStiction(s.QPos, s.QVel, st.V)
				set.Evaluate(st, nil, out)
				for i, sn := range r.Sensors {
					if accTypes[sn.Type] {
						continue
					}
					name := sn.Name
					if name == "" {
						name = fmt.Sprintf("sensor%d", i)
					}
					for k := range sn.Dim {
						key := name
						if sn.Dim > 1 {
							key = fmt.Sprintf("%s[%d]", name, k)
						}
						c, ok := col[key]
						if !ok {
							continue
						}
						want := s.SensorData[sn.Adr+k]
						d := math.Abs(out[c]-want) / max(1, math.Abs(want))
						if !(d <= 1e-9) {
							t.Errorf("step %d: %s (%s) = %.15g, MuJoCo %.15g", s.Step, key, sn.Type, out[c], want)
						}
						worst = max(worst, d)
						compared++
					}
				}
			}
			t.Logf("%d position and velocity sensor values of %d sensors compared over %d states: max relative error %.3g", compared/len(r.Steps), len(r.Sensors), len(r.Steps), worst)
			// Every sensor, acceleration and force ones included, evaluates
			// without allocating once warmed up.
			st := b.Model.NewState()
			step := &sensor.Step{DT: r.Timestep, Q0: b.State.Q, V0: b.State.V}
			if n := testing.AllocsPerRun(10, func() { set.Evaluate(st, step, out) }); n != 0 {
				t.Errorf("Evaluate allocates %v times", n)
			}
		})
	}
}

// TestSensorsTrajectoryMuJoCo: Stiction's own run of the arm, with the
// import's mujoco-euler scheme, from MuJoCo's perturbed state: after each
// step, the sensors of the record (sensor.Set on the simulator's state and
// step) equal MuJoCo's sensordata — position and velocity sensors those
// of the same state, acceleration and wrench sensors those of the state
// the step started from (MuJoCo's convention) — to 1e-9 over 40 steps.
func TestSensorsTrajectoryMuJoCo(t *testing.T) {
	path := writeModel(t, sensorArm)
	qpos := []float64{0.3, -0.7, 0.4, 0.05}
	qvel := []float64{1.5, -2, 3, 0.4}
	r := run(t, path, Options{Steps: 40, Every: 1, Integrator: "euler", QPos: qpos, QVel: qvel})
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.Config.Scheme.Name != "mujoco-euler" {
		t.Skipf("the import's scheme is %q, not mujoco-euler", b.Config.Scheme.Name)
	}
	mp, err := NewMap(r, b.Model)
	if err != nil {
		t.Fatal(err)
	}
	mp.QToStiction(r.Steps[0].QPos, b.State.Q)
	mp.VToStiction(r.Steps[0].QPos, r.Steps[0].QVel, b.State.V)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	set, err := sensor.NewSet(b.Model, b.Sensors)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, set.Len())
	q0, v0 := make([]float64, b.Model.NQ), make([]float64, b.Model.NV)
	errs := map[string]float64{}
	for k := 1; k < len(r.Steps); k++ {
		copy(q0, s.State.Q)
		copy(v0, s.State.V)
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		set.Evaluate(s.State, &sensor.Step{DT: b.Config.DT, Q0: q0, V0: v0, Contacts: s.Contacts(), Impulses: s.Impulses(), Reports: s.ConstraintReports()}, out)
		maxErrByType(r, out, r.Steps[k].SensorData, func(typ string) bool { return !accTypes[typ] }, errs)
		maxErrByType(r, out, r.Steps[k-1].SensorData, func(typ string) bool { return accTypes[typ] }, errs)
	}
	for _, typ := range slices.Sorted(maps.Keys(errs)) {
		t.Logf("%-13s max |Stiction − MuJoCo| over the run = %.3g", typ, errs[typ])
		if !(errs[typ] <= 1e-9) {
			t.Errorf("%s: %.3g > 1e-9", typ, errs[typ])
		}
	}
}
