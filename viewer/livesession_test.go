package viewer

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/scene"
)

// testLoader builds an embedded scene (no keyframes).
func testLoader(name, key string) (*scene.Built, []string, error) {
	src, err := runner.NewSource(name, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	src.Keyframe = key
	b, err := src.Build()
	return b, nil, err
}

// startSession runs a session of scene name until the test ends.
func startSession(t *testing.T, name string, opt SessionOptions) *Session {
	t.Helper()
	s, err := NewSession(testLoader, name, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go s.Run(ctx)
	t.Cleanup(cancel)
	return s
}

func do(t *testing.T, s *Session, c Command) {
	t.Helper()
	if err := s.Do(context.Background(), c); err != nil {
		t.Fatalf("%s: %v", c.Type, err)
	}
}

func inspect(t *testing.T, s *Session, f func(v *Snapshot)) {
	t.Helper()
	if err := s.Inspect(context.Background(), f); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](x T) *T { return &x }

// TestSessionStepAndPause: step takes exactly one δt on the step counter
// and the clock (t = t0 + n δt, as Simulator.Step computes it), count steps
// take count, and a paused session's time does not move.
func TestSessionStepAndPause(t *testing.T) {
	s := startSession(t, "drop", SessionOptions{Paused: true})
	var t0, dt float64
	inspect(t, s, func(v *Snapshot) { t0, dt = v.T(), v.DT() })
	do(t, s, Command{Type: "step"})
	inspect(t, s, func(v *Snapshot) {
		if v.Steps() != 1 || v.T() != t0+dt {
			t.Errorf("after one step: %d steps, t = %v, want 1 and %v", v.Steps(), v.T(), t0+dt)
		}
	})
	do(t, s, Command{Type: "step", Count: 9})
	inspect(t, s, func(v *Snapshot) {
		if v.Steps() != 10 || math.Abs(v.T()-(t0+10*dt)) > 1e-15 {
			t.Errorf("after 10 steps: %d steps, t = %v", v.Steps(), v.T())
		}
	})
	do(t, s, Command{Type: "rate", Factor: ptr(0.0)})
	do(t, s, Command{Type: "resume"})
	waitFor(t, s, func(v *Snapshot) bool { return v.Steps() > 20 })
	do(t, s, Command{Type: "pause"})
	var a, b float64
	inspect(t, s, func(v *Snapshot) { a = v.T() })
	time.Sleep(50 * time.Millisecond)
	inspect(t, s, func(v *Snapshot) { b = v.T() })
	if a != b {
		t.Errorf("paused session moved from t = %v to %v", a, b)
	}
	if err := s.Do(context.Background(), Command{Type: "resume"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Do(context.Background(), Command{Type: "step"}); err == nil {
		t.Error("step while running: no error")
	}
}

// waitFor polls the session until cond holds (at most 20 s).
func waitFor(t *testing.T, s *Session, cond func(v *Snapshot) bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		ok := false
		inspect(t, s, func(v *Snapshot) { ok = cond(v) })
		if ok {
			return
		}
	}
	t.Fatal("condition not reached in 20 s")
}

// TestSessionResetBitIdentical: reset restores q, v and t bit for bit, and
// the steps after a reset repeat those after the start bit for bit.
func TestSessionResetBitIdentical(t *testing.T) {
	s := startSession(t, "clutter", SessionOptions{Paused: true})
	var q0, v0 []float64
	inspect(t, s, func(v *Snapshot) { st := v.State(); q0, v0 = st.Q, st.V })
	do(t, s, Command{Type: "step", Count: 30})
	var q30 []float64
	inspect(t, s, func(v *Snapshot) { q30 = v.State().Q })
	if err := s.Do(context.Background(), Command{Type: "control", Actuator: ptr(0), Value: []float64{1}}); err == nil {
		t.Error("control of actuator 0 of a scene without actuators: no error")
	}
	do(t, s, Command{Type: "perturb", Body: ptr(5), Point: &[3]float64{}, Target: &[3]float64{0, 0, 1}})
	do(t, s, Command{Type: "step", Count: 10})
	do(t, s, Command{Type: "reset"})
	inspect(t, s, func(v *Snapshot) {
		st := v.State()
		if !slices.Equal(st.Q, q0) || !slices.Equal(st.V, v0) || v.Steps() != 0 {
			t.Errorf("reset: state differs from the initial one (steps %d)", v.Steps())
		}
		if _, _, on := v.Perturbation(); on {
			t.Error("reset left the perturbation on")
		}
		if n, f := v.History(); n != 0 || f != 1 {
			t.Errorf("reset: history has %d steps and %d frames, want 0 and 1", n, f)
		}
	})
	do(t, s, Command{Type: "step", Count: 30})
	inspect(t, s, func(v *Snapshot) {
		if !slices.Equal(v.State().Q, q30) {
			t.Error("30 steps after the reset differ from the 30 steps after the start")
		}
	})
}

// TestSessionControlAndQpos: a control slider drives the arm's base joint
// (PD, vertical axis: no gravity torque, so no steady error) to its target;
// a control outside the range is clamped; qpos sets a joint while paused and
// is refused while running.
func TestSessionControlAndQpos(t *testing.T) {
	s := startSession(t, "arm", SessionOptions{Paused: true})
	var h HelloJSON
	inspect(t, s, func(v *Snapshot) { h = v.s.hello() })
	act := -1
	for i, a := range h.Actuators {
		if a.Joint >= 0 && h.Joints[a.Joint].Name == "base" {
			act = i
		}
	}
	if act < 0 {
		t.Fatalf("no actuator on the base joint among %v", h.Actuators)
	}
	do(t, s, Command{Type: "control", Actuator: ptr(act), Value: []float64{0.5}})
	do(t, s, Command{Type: "step", Count: 1500})
	inspect(t, s, func(v *Snapshot) {
		_, m := v.Model()
		q := v.State().Q[m.Bodies[h.Joints[h.Actuators[act].Joint].Body].QOff]
		if math.Abs(q-0.5) > 2e-3 {
			t.Errorf("base joint at %.5f rad 1.5 s after a 0.5 rad control, want within 2 mrad", q)
		}
		t.Logf("base joint %.6f rad after 1.5 s (target 0.5)", q)
	})
	if a := h.Actuators[act]; a.Min < a.Max {
		do(t, s, Command{Type: "control", Actuator: ptr(act), Value: []float64{a.Max + 10}})
		inspect(t, s, func(v *Snapshot) {
			if v.Control(act) != a.Max {
				t.Errorf("control above the range: %v, want clamped to %v", v.Control(act), a.Max)
			}
		})
	}
	do(t, s, Command{Type: "zero"})
	do(t, s, Command{Type: "qpos", Joint: ptr(1), Value: []float64{0.25}})
	inspect(t, s, func(v *Snapshot) {
		_, m := v.Model()
		if q := v.State().Q[m.Bodies[h.Joints[1].Body].QOff]; q != 0.25 || v.Control(act) != 0 {
			t.Errorf("qpos: joint 1 at %v, want 0.25; control %v after zero", q, v.Control(act))
		}
	})
	for _, c := range []Command{
		{Type: "qpos", Joint: ptr(1), Value: []float64{0.1, 0.2}},
		{Type: "qpos", Joint: ptr(99), Value: []float64{0.1}},
		{Type: "control", Actuator: ptr(99), Value: []float64{0}},
	} {
		if err := s.Do(context.Background(), c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	do(t, s, Command{Type: "resume"})
	if err := s.Do(context.Background(), Command{Type: "qpos", Joint: ptr(1), Value: []float64{0.1}}); err == nil {
		t.Error("qpos while running: no error")
	}
}

// TestSessionPerturbLifts: grabbing the drop scene's sphere at its centre
// toward a point 0.5 m up lifts it; the critically damped spring settles
// where m k (z_target − z) = m g, z = 0.5 − g/k = 0.4019 m.
func TestSessionPerturbLifts(t *testing.T) {
	s := startSession(t, "drop", SessionOptions{Paused: true})
	body := -1
	inspect(t, s, func(v *Snapshot) {
		_, m := v.Model()
		for b := range m.Bodies {
			if m.Bodies[b].Tree >= 0 {
				body = b
			}
		}
	})
	do(t, s, Command{Type: "perturb", Body: ptr(body), Point: &[3]float64{}, Target: &[3]float64{0, 0, 0.5}})
	do(t, s, Command{Type: "step", Count: int(2 / 0.001)})
	inspect(t, s, func(v *Snapshot) {
		_, m := v.Model()
		st := v.State()
		z := m.BodyPose(&st, body).P[2]
		g := -m.Gravity[2]
		want := 0.5 - g/PerturbStiffness
		if math.Abs(z-want) > 2e-3 {
			t.Errorf("perturbed sphere at z = %.5f m after 2 s, want %.5f (spring equilibrium)", z, want)
		}
		_, f, on := v.Perturbation()
		if !on || math.Abs(f[2]-SubtreeMass(m, body)*g) > 0.02*SubtreeMass(m, body)*g {
			t.Errorf("perturbation force %v, want m g = %v up", f, SubtreeMass(m, body)*g)
		}
	})
	do(t, s, Command{Type: "release"})
	do(t, s, Command{Type: "step", Count: 1000})
	inspect(t, s, func(v *Snapshot) {
		_, m := v.Model()
		st := v.State()
		if z := m.BodyPose(&st, body).P[2]; z > 0.06 {
			t.Errorf("released sphere at z = %.4f m after 1 s, want back on the ground", z)
		}
	})
}

// TestSessionRecord: the record command writes the history as a run
// directory that record.ReadRun reads back: every step, a frame every
// RecordEvery steps, and the last frame at the state the session is in.
func TestSessionRecord(t *testing.T) {
	dir := t.TempDir()
	s := startSession(t, "stack", SessionOptions{Paused: true, RecordDir: dir})
	do(t, s, Command{Type: "step", Count: 100})
	var st multibodyState
	var every int
	inspect(t, s, func(v *Snapshot) { st.s = v.State(); every = v.s.b.RecordEvery })
	do(t, s, Command{Type: "record"})
	runs, _ := filepath.Glob(filepath.Join(dir, "session-*"))
	if len(runs) != 1 {
		t.Fatalf("record wrote %v, want one session directory", runs)
	}
	r, err := record.ReadRun(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 100 || len(r.Frames) != 1+100/every {
		t.Errorf("recorded %d steps and %d frames, want 100 and %d", len(r.Steps), len(r.Frames), 1+100/every)
	}
	last := r.Frames[len(r.Frames)-1]
	if last.T != st.s.T {
		t.Errorf("last recorded frame at t = %v, want %v", last.T, st.s.T)
	}
}

// multibodyState holds a state copy for the tests.
type multibodyState struct{ s multibody.State }

// TestDecodeCommandErrors: malformed, unknown and out-of-range messages are
// refused with an error naming the field.
func TestDecodeCommandErrors(t *testing.T) {
	for msg, want := range map[string]string{
		`{}`:                                               "needs type",
		`{"type":"fly"}`:                                   "unknown type",
		`{"type":"pause","x":1}`:                           "unknown field",
		`{"type":"step","count":-1}`:                       "count -1",
		`{"type":"step","count":1e9}`:                      "count",
		`{"type":"rate"}`:                                  "needs factor",
		`{"type":"rate","factor":-1}`:                      "factor -1",
		`{"type":"rate","factor":1e400}`:                   "bad message",
		`{"type":"control","value":[1]}`:                   "needs actuator",
		`{"type":"control","actuator":0}`:                  "value",
		`{"type":"qpos","joint":-2,"value":[1]}`:           "joint -2",
		`{"type":"perturb","body":1}`:                      "needs point and target",
		`{"type":"perturb","body":1,"rotation":[2,0,0,0]}`: "unit quaternion",
		`{"type":"perturb","body":1,"point":[0,0,0],"target":[0,0,1e6]}`: "target[2]",
		`{"type":"open"}`:                   "needs model",
		`{"type":"pause"}{"type":"resume"}`: "more than one",
		`[1,2]`:                             "bad message",
		`"pause"`:                           "bad message",
	} {
		_, err := DecodeCommand([]byte(msg))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", msg, err, want)
		}
	}
	if c, err := DecodeCommand([]byte(`{"type":"perturb","body":3,"point":[0,0,0.1],"target":[1,2,3]}`)); err != nil || *c.Body != 3 || c.Target[2] != 3 {
		t.Errorf("good perturb: %+v, %v", c, err)
	}
}

// FuzzDecodeCommand: no input panics, and an accepted command validates.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{`{"type":"pause"}`, `{"type":"step","count":3}`, `{"type":"rate","factor":0.5}`,
		`{"type":"qpos","joint":1,"value":[0.1]}`, `{"type":"perturb","body":1,"rotation":[1,0,0,0]}`, `{"type":"control","actuator":0,"value":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommand(data)
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Errorf("accepted %q but Validate says %v", data, verr)
			}
		}
	})
}

// TestSessionSensors: a framepos sensor on a falling box reads the box's
// position in every frame, and a velocimeter its velocity.
func TestSessionSensors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "box.yaml")
	const sc = `name: sensed
dt: 0.001
duration: 1
materials:
  default: {stiffness: 1e8, dissipation: 0.01, friction: 0.8}
bodies:
  - name: ground
    fixed: true
    shape: {type: halfspace}
    material: default
  - name: box
    shape: {type: box, size: [0.1, 0.1, 0.1]}
    material: default
    mass: 1
    pose: {position: [0.1, 0.2, 0.5]}
sensors:
  - {name: where, type: framepos, body: box}
  - {name: speed, type: framelinvel, body: box}
`
	if err := os.WriteFile(file, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startSession(t, file, SessionOptions{Paused: true})
	do(t, s, Command{Type: "step", Count: 100})
	inspect(t, s, func(v *Snapshot) {
		h, fm := v.s.hello(), v.s.frame()
		if !slices.Equal(h.Sensors, []string{"where", "speed"}) || !slices.Equal(h.SensorDim, []int{3, 3}) {
			t.Fatalf("sensors %v %v", h.Sensors, h.SensorDim)
		}
		st := v.State()
		z, vz := st.Q[6], st.V[5]
		if math.Abs(float64(fm.Sensors[2])-z) > 1e-12 || math.Abs(float64(fm.Sensors[5])-vz) > 1e-12 {
			t.Errorf("sensors %v, want z = %v and v_z = %v", fm.Sensors, z, vz)
		}
	})
}
