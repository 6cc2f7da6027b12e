package viewer

import (
	"encoding/json"
	"math"
	"time"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/spatial"
)

// HelloJSON is the first message a page gets, and the message that follows
// an open or a keyframe reset: the model and what can be done with it.
type HelloJSON struct {
	Type      string           `json:"type"` // "hello"
	Model     string           `json:"model"`
	Models    []string         `json:"models"`
	Keyframes []string         `json:"keyframes"`
	Control   bool             `json:"control"` // this page may send commands
	Scene     record.SceneJSON `json:"scene"`
	Columns   []string         `json:"columns"` // of FrameMsg.Stats
	Bodies    []BodyInfo       `json:"bodies"`
	Actuators []ActuatorInfo   `json:"actuators"`
	Joints    []JointInfo      `json:"joints"`
	Sensors   []string         `json:"sensors"`     // names, in the order of FrameMsg.Sensors
	SensorDim []int            `json:"sensor_dims"` // number of values of each
}

// BodyInfo describes a body for the inspector.
type BodyInfo struct {
	Name        string        `json:"name"`
	Mass        float64       `json:"mass"`
	SubtreeMass float64       `json:"subtree_mass"`
	Com         [3]float64    `json:"com"`          // body frame, m
	Inertia     [3]float64    `json:"inertia"`      // principal moments of the inertia about the COM, kg·m²
	InertiaAxes [3][3]float64 `json:"inertia_axes"` // the principal axes (unit, right-handed), body frame
	Fixed       bool          `json:"fixed"`        // welded to the world
}

// principalInertia returns the principal moments of the inertia I about
// the centre of mass, in ascending order, and its principal axes: unit,
// right-handed, in the body frame, so that I = Σ_k I_k a_k a_kᵀ. The
// viewer draws a body's equivalent-inertia box along them, as MuJoCo does.
func principalInertia(I spatial.Mat3) (moments [3]float64, axes [3][3]float64) {
	ev, V := spatial.EigSym3(I)
	for k := range 3 {
		axes[k] = [3]float64{V[0][k], V[1][k], V[2][k]}
	}
	a0, a1 := spatial.Vec3(axes[0]), spatial.Vec3(axes[1])
	axes[2] = a0.Cross(a1) // right-handed (and the third eigenvector, up to sign)
	return ev, axes
}

// ActuatorInfo describes an actuator for its slider.
type ActuatorInfo struct {
	Name   string  `json:"name"`
	Type   string  `json:"type"`
	Min    float64 `json:"min"` // control range (both 0: none)
	Max    float64 `json:"max"`
	Effort float64 `json:"effort"` // force limit, 0 for none
	Joint  int     `json:"joint"`  // index in Joints, −1 for a tendon
}

// JointInfo describes a joint with degrees of freedom for its slider.
type JointInfo struct {
	Name  string    `json:"name"`
	Body  int       `json:"body"`
	Type  string    `json:"type"`
	NQ    int       `json:"nq"`
	Lower []float64 `json:"lower,omitempty"`
	Upper []float64 `json:"upper,omitempty"`
}

// FrameMsg is the state of the session sent to the pages about 60 times a
// second while it runs, and after every command while it is paused.
type FrameMsg struct {
	Type     string       `json:"type"` // "frame"
	Step     int          `json:"step"`
	Wall     float64      `json:"wall"` // wall time spent running since the last reset, s
	Paused   bool         `json:"paused"`
	Rate     float64      `json:"rate"`
	Frame    FrameJSON    `json:"frame"`
	Vel      [][6]float32 `json:"vel"`      // per body (ω, v of the origin), world
	Pairs    [][2]int32   `json:"pairs"`    // per contact: bodies A and B
	Q        []float64    `json:"q"`        // per joint of the hello, its coordinates
	Ctrl     []Num        `json:"ctrl"`     // per actuator, the page's control (null: the scene's)
	Input    []Num        `json:"input"`    // per actuator, the applied input (after clamping)
	Force    []Num        `json:"force"`    // per actuator, its force of the last step (signed, before the gear)
	Sat      []bool       `json:"sat"`      // per actuator, at its effort limit
	Axes     [][6]float32 `json:"axes"`     // per joint: world point and axis (revolute, prismatic), else zero
	Stats    []Num        `json:"stats"`    // the last step's row (columns of the hello)
	OK       bool         `json:"ok"`       // the last step converged
	Failed   int          `json:"failed"`   // steps that did not converge since the previous frame
	Perturb  *PerturbJSON `json:"perturb"`  // the applied perturbation, or null
	Recorded int          `json:"recorded"` // steps in the history the record command writes
	Sensors  []Num        `json:"sensors"`  // the sensors' values, concatenated
	Built    float64      `json:"built"`    // when the server built the frame: Unix time, ms
	Served   int          `json:"served"`   // commands the session has served (from any page) before the frame
}

// PerturbJSON is the applied perturbation.
type PerturbJSON struct {
	Body   int        `json:"body"`
	Torque bool       `json:"torque"`
	Point  [3]float64 `json:"point"`  // grabbed point, world
	Target [3]float64 `json:"target"` // world target (force mode)
	Force  [3]float64 `json:"force"`  // force, N (torque, N·m, in torque mode), world
}

// ErrorJSON answers a command that failed.
type ErrorJSON struct {
	Type    string `json:"type"` // "error"
	Command string `json:"command"`
	Message string `json:"message"`
}

func errorMessage(cmd string, err error) []byte {
	return mustJSON(ErrorJSON{Type: "error", Command: cmd, Message: err.Error()})
}

func recordedMessage(dir string) []byte {
	return mustJSON(map[string]string{"type": "recorded", "dir": dir})
}

func resetMessage() []byte { return []byte(`{"type":"reset"}`) }

func pongMessage(id int) []byte { return mustJSON(map[string]any{"type": "pong", "id": id}) }

// mustJSON encodes v, which holds no unencodable value (Num for floats
// that may be non-finite).
func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(ErrorJSON{Type: "error", Message: "encoding: " + err.Error()})
	}
	return data
}

// stepColumns are the columns of FrameMsg.Stats: steps.csv's without status.
func stepColumns() []string {
	var out []string
	for _, c := range record.StepsHeader {
		if c != "status" {
			out = append(out, c)
		}
	}
	return out
}

// hello describes the session's model (control tells the page whether it
// may send commands; the hub sets it per page).
func (s *Session) hello() HelloJSON {
	m := s.b.Model
	h := HelloJSON{Type: "hello", Model: s.name, Models: s.opt.Models, Keyframes: s.keys, Columns: stepColumns(),
		Scene: record.DescribeScene(s.b.Name, s.b.Config.DT, s.b.RecordEvery, m, s.hist.initial())}
	h.Models, h.Keyframes = nonNil(h.Models), nonNil(h.Keyframes)
	h.Bodies, h.Actuators, h.Joints = []BodyInfo{}, []ActuatorInfo{}, []JointInfo{}
	h.Sensors, h.SensorDim = s.sens.names()
	for b := range m.Bodies {
		bi := &m.Bodies[b]
		in := bi.Inertia
		moments, axes := principalInertia(in.Icom)
		h.Bodies = append(h.Bodies, BodyInfo{Name: bi.Name, Mass: in.Mass, SubtreeMass: SubtreeMass(m, b), Com: in.Com,
			Inertia: moments, InertiaAxes: axes, Fixed: bi.Tree < 0})
	}
	js := jointBodies(m)
	for _, b := range js {
		j := &m.Bodies[b].Joint
		h.Joints = append(h.Joints, JointInfo{Name: jointName(m, b), Body: b, Type: j.Type.String(), NQ: j.NQ(), Lower: j.Lower, Upper: j.Upper})
	}
	for _, a := range s.actuators() {
		ji := -1
		if len(a.Tendon) == 0 {
			for k, b := range js {
				if b == a.Body {
					ji = k
				}
			}
		}
		h.Actuators = append(h.Actuators, ActuatorInfo{Name: a.Name, Type: a.Type.String(), Min: a.CtrlMin, Max: a.CtrlMax, Effort: a.Effort, Joint: ji})
	}
	return h
}

// broadcastHello sends the hello to every page, each with its control.
func (s *Session) broadcastHello() {
	h := s.hello()
	s.hub.broadcastEach(func(c *client) []byte {
		h.Control = c.control
		return mustJSON(h)
	}, true)
}

// frame returns the current state for the pages.
func (s *Session) frame() FrameMsg {
	sm, m, dt := s.sim, s.b.Model, s.b.Config.DT
	fm := FrameMsg{Type: "frame", Step: sm.Steps(), Wall: s.wallTime().Seconds(), Paused: s.paused, Rate: s.rate,
		OK: s.last.Step == 0 || stepOK(s.last), Failed: s.failed, Recorded: s.hist.steps()}
	fm.Frame = FrameFromState(m, sm.State, sm.Contacts(), sm.Impulses(), dt)
	AddConstraints(&fm.Frame, sm.ConstraintReports(), dt)
	fm.Vel = make([][6]float32, len(m.Bodies))
	for b := range m.Bodies {
		w, v := m.BodyVelocity(sm.State, b)
		fm.Vel[b] = [6]float32{float32(w[0]), float32(w[1]), float32(w[2]), float32(v[0]), float32(v[1]), float32(v[2])}
	}
	for _, p := range sm.Contacts() {
		fm.Pairs = append(fm.Pairs, [2]int32{int32(p.BodyA), int32(p.BodyB)})
	}
	s.jointState(&fm)
	s.actuatorState(&fm)
	if s.last.Step > 0 {
		for j, x := range record.StepValues(s.last) {
			if record.StepsHeader[j] != "status" {
				fm.Stats = append(fm.Stats, Num(x))
			}
		}
	}
	fm.Perturb = s.perturbState()
	fm.Sensors = s.sens.values(sm, dt)
	fm.Pairs, fm.Q, fm.Axes = nonNil(fm.Pairs), nonNil(fm.Q), nonNil(fm.Axes)
	fm.Built = float64(time.Now().UnixMicro()) / 1e3
	fm.Served = s.served
	return fm
}

// nonNil returns x, or an empty slice for nil (JSON [] rather than null).
func nonNil[T any](x []T) []T {
	if x == nil {
		return []T{}
	}
	return x
}

func (s *Session) frameMessage() []byte { return mustJSON(s.frame()) }

// jointState fills the joints' coordinates and axes.
func (s *Session) jointState(fm *FrameMsg) {
	m, st := s.b.Model, s.sim.State
	for _, b := range jointBodies(m) {
		bi := &m.Bodies[b]
		fm.Q = append(fm.Q, st.Q[bi.QOff:bi.QOff+bi.Joint.NQ()]...)
		var ax [6]float32
		if t := bi.Joint.Type; t == multibody.JointRevolute || t == multibody.JointPrismatic {
			x := m.BodyPose(st, b)
			p := x.Apply(bi.Joint.ChildFrame.P)
			a := x.R.Rotate(bi.Joint.ChildFrame.R.Rotate(bi.Joint.Axis)) // the axis is fixed in M as in F
			ax = [6]float32{float32(p[0]), float32(p[1]), float32(p[2]), float32(a[0]), float32(a[1]), float32(a[2])}
		}
		fm.Axes = append(fm.Axes, ax)
	}
}

// actuatorState fills the actuators' controls, inputs and forces.
func (s *Session) actuatorState(fm *FrameMsg) {
	n := len(s.ctrl)
	fm.Ctrl, fm.Input, fm.Force, fm.Sat = make([]Num, n), make([]Num, n), make([]Num, n), make([]bool, n)
	for i, u := range s.ctrl {
		fm.Ctrl[i], fm.Input[i], fm.Force[i] = Num(u), Num(math.NaN()), Num(math.NaN())
	}
	dt := s.b.Config.DT
	for _, r := range s.sim.ConstraintReports() {
		if r.Type != constraint.TypeActuator || r.Item >= n {
			continue
		}
		fm.Input[r.Item], fm.Force[r.Item] = Num(r.Input), Num(r.Impulse[0]/dt)
		fm.Sat[r.Item] = r.State == constraint.Saturated
	}
}

// perturbState returns the applied perturbation, or nil.
func (s *Session) perturbState() *PerturbJSON {
	b, on := s.pert.Active()
	if !on {
		return nil
	}
	x := s.b.Model.BodyPose(s.sim.State, b)
	f, torque := s.pert.Last()
	p := x.Apply(s.pert.Point())
	if torque {
		p = x.Apply(s.b.Model.Bodies[b].Inertia.Com)
	}
	return &PerturbJSON{Body: b, Torque: torque, Point: p, Target: s.pert.Target(), Force: f}
}

// jointBodies lists the bodies whose joint has coordinates, in body order.
func jointBodies(m *multibody.Model) []int {
	var out []int
	for b := range m.Bodies {
		if m.Bodies[b].Joint.NQ() > 0 && m.Bodies[b].Tree >= 0 {
			out = append(out, b)
		}
	}
	return out
}

// jointName is the joint's name, or its body's.
func jointName(m *multibody.Model, b int) string { return record.JointName(m, b) }
