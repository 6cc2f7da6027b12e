package mjref

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

//go:embed csrc/mjref.c
var source []byte

// ErrNoMuJoCo is wrapped by BuildTool's error when gcc, MuJoCo's header
// or its library is missing (install gcc and libmujoco-dev).
var ErrNoMuJoCo = errors.New("MuJoCo reference tool unavailable")

// Header is where Debian's libmujoco-dev puts MuJoCo's main header.
const Header = "/usr/include/mujoco/mujoco.h"

// BuildTool compiles csrc/mjref.c into dir with gcc against libmujoco
// (gcc -O2 mjref.c -lmujoco -lm) and returns the executable's path. The
// error wraps ErrNoMuJoCo when gcc or MuJoCo's header is missing, or when
// the link fails for want of the library.
func BuildTool(dir string) (string, error) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return "", fmt.Errorf("%w: gcc not found: %v", ErrNoMuJoCo, err)
	}
	if _, err := os.Stat(Header); err != nil {
		return "", fmt.Errorf("%w: %s missing (apt-get install libmujoco-dev)", ErrNoMuJoCo, Header)
	}
	src := filepath.Join(dir, "mjref.c")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return "", fmt.Errorf("mjref: write %s: %w", src, err)
	}
	exe := filepath.Join(dir, "mjref")
	cmd := exec.Command(gcc, "-O2", "-o", exe, src, "-lmujoco", "-lm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "-lmujoco") {
			return "", fmt.Errorf("%w: gcc cannot link libmujoco: %s", ErrNoMuJoCo, msg)
		}
		return "", fmt.Errorf("mjref: gcc %s: %v: %s", src, err, msg)
	}
	return exe, nil
}

// Options are the C tool's command-line options.
type Options struct {
	Steps      int     // steps to take with zero control
	Every      int     // record every Every-th step; 0 records only the first and last states
	DT         float64 // timestep override; 0 keeps the model's
	Integrator string  // "euler", "rk4" or "implicit"; "" keeps the model's
	Key        string  // keyframe index or name; "" for none
	Poses      bool    // record every body's xpos and xquat with each step
	// KeepWarm keeps Newton's and CG's warm start as mj_step left it across
	// the mj_forward that records each state (as the tool always does for
	// PGS): the trajectory of mj_step alone, as Gymnasium steps it. Off,
	// each step's solve starts from mj_forward's answer at its state.
	KeepWarm bool
	// Stages > 0 records the evaluations of mj_forwardSkip within step
	// Stages (from state Stages−1 to Stages) as Run.Stages.
	Stages int
	// QPos and QVel, when both are set, are the initial state (MuJoCo's
	// layout), applied after the keyframe.
	QPos, QVel []float64
	// Repeats > 0 selects the timing mode (Time): Steps steps from the
	// initial state, Repeats times.
	Repeats int
	// Ctrl, when not nil, are the steps' controls (one per actuator) in
	// place of zero; with CtrlFreq > 0, control i at the step's start time
	// t is Ctrl_i (1 + sin(2π CtrlFreq t + i))/2 (CtrlPattern).
	Ctrl     []float64
	CtrlFreq float64
}

// CtrlPattern is the control of actuator i at time t under Options' Ctrl
// and CtrlFreq, as the C tool computes it.
func (o Options) CtrlPattern(i int, t float64) float64 {
	if i >= len(o.Ctrl) {
		return 0
	}
	if o.CtrlFreq > 0 {
		return o.Ctrl[i] * 0.5 * (1 + math.Sin(2*math.Pi*o.CtrlFreq*t+float64(i)))
	}
	return o.Ctrl[i]
}

// Args returns the tool's arguments for file.
func (o Options) Args(file string) []string {
	a := []string{"-n", strconv.Itoa(o.Steps), "-every", strconv.Itoa(o.Every)}
	if o.DT > 0 {
		a = append(a, "-dt", strconv.FormatFloat(o.DT, 'g', -1, 64))
	}
	if o.Integrator != "" {
		a = append(a, "-integrator", o.Integrator)
	}
	if o.Key != "" {
		a = append(a, "-key", o.Key)
	}
	if o.QPos != nil || o.QVel != nil {
		a = append(a, "-state")
	}
	if o.Poses {
		a = append(a, "-poses")
	}
	if o.KeepWarm {
		a = append(a, "-keepwarm")
	}
	if o.Stages > 0 {
		a = append(a, "-stages", strconv.Itoa(o.Stages))
	}
	if o.Repeats > 0 {
		a = append(a, "-time", strconv.Itoa(o.Repeats))
	}
	if o.Ctrl != nil {
		c := make([]string, len(o.Ctrl))
		for i, x := range o.Ctrl {
			c[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		a = append(a, "-ctrl", strings.Join(c, ","))
		if o.CtrlFreq > 0 {
			a = append(a, "-ctrlfreq", strconv.FormatFloat(o.CtrlFreq, 'g', -1, 64))
		}
	}
	return append(a, file)
}

// Run is the C tool's output: MuJoCo's compiled model and its trajectory.
type Run struct {
	File         string     `json:"file"`
	NQ           int        `json:"nq"`
	NV           int        `json:"nv"`
	NBody        int        `json:"nbody"`
	NJnt         int        `json:"njnt"`
	NGeom        int        `json:"ngeom"`
	NKey         int        `json:"nkey"`
	Timestep     float64    `json:"timestep"`
	Integrator   string     `json:"integrator"`
	Gravity      [3]float64 `json:"gravity"`
	Solver       string     `json:"solver"`     // MuJoCo's constraint solver: "pgs", "cg" or "newton"
	Iterations   int        `json:"iterations"` // its iteration limit
	Tolerance    float64    `json:"tolerance"`  // its tolerance
	DisableFlags int        `json:"disableflags"`
	Sparse       bool       `json:"sparse"`      // mj_isSparse: MuJoCo's solver takes its sparse path
	MeanInertia  float64    `json:"meaninertia"` // stat.meaninertia: PGS's stopping rule scales by it
	Root         int        `json:"root"`        // body whose position Steps record: the first free body, else body 1
	Bodies       []Body     `json:"bodies"`
	Joints       []Joint    `json:"joints"`
	QPos0        []float64  `json:"qpos0"` // the model's reference configuration
	QInit        []float64  `json:"qinit"` // the initial state (after keyframe and -state)
	VInit        []float64  `json:"vinit"`
	M            []float64  `json:"M"` // joint-space mass matrix at QInit, nv×nv row-major
	Sensors      []Sensor   `json:"sensors"`
	Actuators    []Actuator `json:"actuators"`
	NA           int        `json:"na"` // actuators with an activation state
	Steps        []Step     `json:"steps"`
	// Stages are the evaluations of mj_forwardSkip within the step that
	// Options.Stages names (RK4's four stages, Euler's one), in order.
	Stages []Stage `json:"stages"`
	// FirstContact is the time of the first state with a contact, −1 if
	// none.
	FirstContact    float64 `json:"first_contact"`
	PeakPenetration float64 `json:"peak_penetration"` // max over all steps of −min dist, m
	PeakStep        int     `json:"peak_step"`
	MaxContacts     int     `json:"max_contacts"`
	// Warnings counts MuJoCo's warnings by kind ("badqacc", "inertia", …).
	Warnings map[string]int `json:"warnings"`
	// KeepWarm is the run's Options.KeepWarm: the trajectory of mj_step
	// alone, which the port of MuJoCo's own Newton and CG follows.
	KeepWarm bool `json:"-"`
}

// Body is one of MuJoCo's compiled bodies (body 0 is the world).
type Body struct {
	Name    string     `json:"name"`
	Parent  int        `json:"parent"`
	Mass    float64    `json:"mass"`
	Inertia [3]float64 `json:"inertia"` // principal moments about the centre of mass
	IPos    [3]float64 `json:"ipos"`    // centre of mass in the body frame
	IQuat   [4]float64 `json:"iquat"`   // principal axes in the body frame (w, x, y, z)
	Pos     [3]float64 `json:"pos"`     // body frame in the parent's
	Quat    [4]float64 `json:"quat"`
	XPos    [3]float64 `json:"xpos"` // world pose at the initial state
	XQuat   [4]float64 `json:"xquat"`
	// InvWeight0 is body_invweight0: MuJoCo's translational and
	// rotational inverse weights at qpos0 (mj_setConst), its contacts'
	// diagApprox.
	InvWeight0 [2]float64 `json:"invweight0"`
	JntAdr     int        `json:"jntadr"`
	JntNum     int        `json:"jntnum"`
}

// Joint is one of MuJoCo's compiled joints.
type Joint struct {
	Name         string     `json:"name"`
	Type         string     `json:"type"` // free, ball, slide, hinge
	Body         int        `json:"body"`
	QPosAdr      int        `json:"qposadr"`
	DofAdr       int        `json:"dofadr"`
	Limited      int        `json:"limited"`
	Range        [2]float64 `json:"range"`
	Pos          [3]float64 `json:"pos"`
	Axis         [3]float64 `json:"axis"`
	Damping      float64    `json:"damping"`
	Armature     float64    `json:"armature"`
	Stiffness    float64    `json:"stiffness"`
	FrictionLoss float64    `json:"frictionloss"`
}

// NQ is the joint's number of coordinates.
func (j Joint) NQ() int {
	switch j.Type {
	case "free":
		return 7
	case "ball":
		return 4
	}
	return 1
}

// NV is the joint's number of velocities.
func (j Joint) NV() int {
	switch j.Type {
	case "free":
		return 6
	case "ball":
		return 3
	}
	return 1
}

// Sensor is one of MuJoCo's sensors; its values are
// Step.SensorData[Adr:Adr+Dim].
type Sensor struct {
	Name  string `json:"name"`
	Type  string `json:"type"` // the MJCF element: jointpos, gyro, touch, …
	ObjID int    `json:"objid"`
	Adr   int    `json:"adr"`
	Dim   int    `json:"dim"`
}

// Step is one recorded state.
type Step struct {
	Step        int        `json:"step"`
	Time        float64    `json:"time"`
	QPos        []float64  `json:"qpos"`
	QVel        []float64  `json:"qvel"`
	SensorData  []float64  `json:"sensordata"`
	RootXPos    [3]float64 `json:"root_xpos"`
	XPos        []float64  `json:"xpos"`  // with Options.Poses: every body's position, 3 per body
	XQuat       []float64  `json:"xquat"` // and orientation (w, x, y, z), 4 per body
	NCon        int        `json:"ncon"`
	NLimit      int        `json:"nlimit"`      // active joint- and tendon-limit rows (efc rows of type limit)
	SolverIter  int        `json:"solver_iter"` // d->solver_iter: the last solve's iterations
	Penetration float64    `json:"penetration"`
	// Act, ActuatorForce, ActuatorLength and ActuatorVelocity are d->act
	// (NA values) and the actuators' force, length and velocity (models
	// with actuators).
	Act              []float64 `json:"act"`
	ActuatorForce    []float64 `json:"actuator_force"`
	ActuatorLength   []float64 `json:"actuator_length"`
	ActuatorVelocity []float64 `json:"actuator_velocity"`
}

// Stage is one evaluation of mj_forwardSkip within a step (Options.Stages):
// the point it was evaluated at, the acceleration it gave, and the contacts
// and constraint rows it had.
type Stage struct {
	Time         float64   `json:"time"`
	QPos         []float64 `json:"qpos"`
	QVel         []float64 `json:"qvel"`
	QAcc         []float64 `json:"qacc"`
	ContactGeoms []int     `json:"contact_geoms"` // geom1, geom2 of each contact
	ContactDist  []float64 `json:"contact_dist"`
	EfcType      []int     `json:"efc_type"` // mjtConstraint of each row (3 joint limit, 4 tendon limit, …)
	EfcID        []int     `json:"efc_id"`   // the row's joint, tendon, equality or contact
	EfcPos       []float64 `json:"efc_pos"`  // the row's constraint distance
	EfcMargin    []float64 `json:"efc_margin"`
}

// Exec runs the tool at exe on the model file and decodes its output. The
// error names the file and quotes the tool's message.
func Exec(exe, file string, o Options) (*Run, error) {
	cmd := exec.Command(exe, o.Args(file)...)
	if o.QPos != nil || o.QVel != nil {
		var in strings.Builder
		for _, x := range append(append([]float64{}, o.QPos...), o.QVel...) {
			in.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
			in.WriteByte(' ')
		}
		cmd.Stdin = strings.NewReader(in.String())
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mjref %s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	r := new(Run)
	if err := json.Unmarshal(stdout.Bytes(), r); err != nil {
		return nil, fmt.Errorf("mjref %s: decode output: %w", file, err)
	}
	if len(r.QPos0) != r.NQ || len(r.VInit) != r.NV || len(r.M) != r.NV*r.NV {
		return nil, fmt.Errorf("mjref %s: output sizes disagree with nq = %d, nv = %d", file, r.NQ, r.NV)
	}
	r.KeepWarm = o.KeepWarm
	return r, nil
}

// Timing is the C tool's output in its timing mode: the wall time of the
// fastest of Repeats runs of Steps mj_step calls with zero control from the
// initial state, one thread.
type Timing struct {
	File     string  `json:"file"`
	Timestep float64 `json:"timestep"` // δt, s
	Steps    int     `json:"steps"`
	Repeats  int     `json:"repeats"`
	Seconds  float64 `json:"seconds"` // the fastest run's wall time
	// CPUSeconds is the fastest run's process CPU time, which waiting for
	// a core on a shared machine does not inflate.
	CPUSeconds float64 `json:"cpu_seconds"`
}

// PerStep returns the wall time of one step, s.
func (t *Timing) PerStep() float64 { return t.Seconds / float64(t.Steps) }

// CPUPerStep returns the CPU time of one step, s.
func (t *Timing) CPUPerStep() float64 { return t.CPUSeconds / float64(t.Steps) }

// Time runs the tool at exe in its timing mode on the model file (o.Steps
// steps, o.Repeats ≥ 1 times; o.QPos and o.QVel are not supported) and
// decodes its output.
func Time(exe, file string, o Options) (*Timing, error) {
	if o.Steps < 1 || o.Repeats < 1 {
		return nil, fmt.Errorf("mjref %s: timing needs steps and repeats ≥ 1, got %d and %d", file, o.Steps, o.Repeats)
	}
	if o.QPos != nil || o.QVel != nil {
		return nil, fmt.Errorf("mjref %s: timing starts from the model's initial state (no QPos, QVel)", file)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(exe, o.Args(file)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mjref %s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	t := new(Timing)
	if err := json.Unmarshal(stdout.Bytes(), t); err != nil {
		return nil, fmt.Errorf("mjref %s: decode timing: %w", file, err)
	}
	if t.Steps != o.Steps || !(t.Seconds >= 0) || !(t.CPUSeconds >= 0) {
		return nil, fmt.Errorf("mjref %s: timing output %+v disagrees with %d steps", file, *t, o.Steps)
	}
	return t, nil
}

// Actuator is one of MuJoCo's compiled actuators.
type Actuator struct {
	Name        string     `json:"name"`
	DynType     string     `json:"dyntype"`  // none, integrator, filter, muscle, user
	GainType    string     `json:"gaintype"` // fixed, affine, muscle, user
	BiasType    string     `json:"biastype"` // none, affine, muscle, user
	TrnType     int        `json:"trntype"`  // mjtTrn
	TrnID       int        `json:"trnid"`
	CtrlLimited int        `json:"ctrllimited"`
	CtrlRange   [2]float64 `json:"ctrlrange"`
	Gear        [6]float64 `json:"gear"`
	DynPrm      [3]float64 `json:"dynprm"`  // the first 3 of mjNDYN
	GainPrm     [9]float64 `json:"gainprm"` // the first 9 of mjNGAIN
	BiasPrm     [9]float64 `json:"biasprm"`
	LengthRange [2]float64 `json:"lengthrange"`
	Acc0        float64    `json:"acc0"`
	Length0     float64    `json:"length0"`
}

// Curves is the C tool's -curves output: MuJoCo's muscle functions on
// grids, per muscle actuator.
type Curves struct {
	File   string `json:"file"`
	Curves []struct {
		Actuator int       `json:"actuator"`
		Len      []float64 `json:"len"`  // lengths of the gain and bias grids
		Vel      []float64 `json:"vel"`  // velocities of the gain grid
		Gain     []float64 `json:"gain"` // mju_muscleGain(len[a], vel[b]) at a·n + b
		Bias     []float64 `json:"bias"` // mju_muscleBias(len[a])
		X        []float64 `json:"x"`    // controls and activations of the dynamics grid
		Dyn      []float64 `json:"dyn"`  // mju_muscleDynamics(x[a], x[b]) at a·n + b
	} `json:"curves"`
}

// ExecCurves runs the tool's -curves mode with an n×n grid on file.
func ExecCurves(exe, file string, n int) (*Curves, error) {
	out, err := exec.Command(exe, "-curves", strconv.Itoa(n), file).Output()
	if err != nil {
		return nil, fmt.Errorf("mjref -curves %s: %w", file, err)
	}
	c := &Curves{}
	if err := json.Unmarshal(out, c); err != nil {
		return nil, fmt.Errorf("mjref -curves %s: %w", file, err)
	}
	return c, nil
}

// Mesh is one mesh of a model as MuJoCo compiled it: its name, vertex
// count, triangles (mesh_face, indices of the mesh's vertices) and
// vertex graph (mesh_graph: numvert, numface, vert_edgeadr,
// vert_globalid, edge_localid, face_globalid; nil when MuJoCo made none).
type Mesh struct {
	Name  string     `json:"name"`
	NVert int        `json:"nvert"`
	Faces [][3]int32 `json:"faces"`
	Graph []int32    `json:"graph"`
}

// MeshFaces runs the tool at exe in its mesh mode on the model file and
// returns the model's meshes.
func MeshFaces(exe, file string) ([]Mesh, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(exe, "-meshfaces", file)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mjref %s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	var out struct {
		Meshes []Mesh `json:"meshes"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("mjref %s: decode meshes: %w", file, err)
	}
	return out.Meshes, nil
}

// Collision is the tool's -collide output: MuJoCo's collision inputs
// (geoms as posed, meshes as compiled) and its contacts at one state.
type Collision struct {
	MPRTolerance  float64 `json:"mpr_tolerance"`
	MPRIterations int     `json:"mpr_iterations"`
	MultiCCD      int     `json:"multiccd"`
	Geoms         []struct {
		Type   int       `json:"type"`
		Mesh   int       `json:"mesh"`
		Size   []float64 `json:"size"`
		XPos   []float64 `json:"xpos"`
		XMat   []float64 `json:"xmat"`
		RBound float64   `json:"rbound"`
		// Quat and Pos are geom_quat and geom_pos (in the body frame),
		// SameFrame geom_sameframe, and XQuat, BodyXPos and IQuat the
		// geom's body's xquat, xpos and body_iquat.
		Quat      []float64 `json:"quat"`
		Pos       []float64 `json:"pos"`
		SameFrame int       `json:"sameframe"`
		XQuat     []float64 `json:"xquat"`
		BodyXPos  []float64 `json:"bodyxpos"`
		IQuat     []float64 `json:"iquat"`
	} `json:"geoms"`
	Meshes []struct {
		Vert  []float64 `json:"vert"`
		Graph []int32   `json:"graph"`
	} `json:"meshes"`
	Contacts []CollisionContact `json:"contacts"`
}

// CollisionContact is one of MuJoCo's contacts in a Collision: its geom
// pair, distance, point and frame (the normal first).
type CollisionContact struct {
	Geom  [2]int    `json:"geom"`
	Dist  float64   `json:"dist"`
	Pos   []float64 `json:"pos"`
	Frame []float64 `json:"frame"`
}

// Collide runs the tool at exe in its collision mode on the model file
// after steps steps from the initial state (or from qpos, qvel when
// given, in MuJoCo's layout).
func Collide(exe, file string, steps int, qpos, qvel []float64) (*Collision, error) {
	args := []string{"-collide", "-n", strconv.Itoa(steps)}
	var stdin bytes.Buffer
	if qpos != nil {
		args = append(args, "-state")
		for _, x := range append(append([]float64(nil), qpos...), qvel...) {
			fmt.Fprintf(&stdin, "%.17g\n", x)
		}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(exe, append(args, file)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &stdin, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mjref -collide %s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	var c Collision
	if err := json.Unmarshal(stdout.Bytes(), &c); err != nil {
		return nil, fmt.Errorf("mjref -collide %s: decode: %w", file, err)
	}
	return &c, nil
}
