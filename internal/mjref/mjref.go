package mjref

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
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
	// QPos and QVel, when both are set, are the initial state (MuJoCo's
	// layout), applied after the keyframe.
	QPos, QVel []float64
	// Repeats > 0 selects the timing mode (Time): Steps steps from the
	// initial state, Repeats times.
	Repeats int
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
	if o.Repeats > 0 {
		a = append(a, "-time", strconv.Itoa(o.Repeats))
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
	DisableFlags int        `json:"disableflags"`
	Root         int        `json:"root"` // body whose position Steps record: the first free body, else body 1
	Bodies       []Body     `json:"bodies"`
	Joints       []Joint    `json:"joints"`
	QPos0        []float64  `json:"qpos0"` // the model's reference configuration
	QInit        []float64  `json:"qinit"` // the initial state (after keyframe and -state)
	VInit        []float64  `json:"vinit"`
	M            []float64  `json:"M"` // joint-space mass matrix at QInit, nv×nv row-major
	Sensors      []Sensor   `json:"sensors"`
	Steps        []Step     `json:"steps"`
	// FirstContact is the time of the first state with a contact, −1 if
	// none.
	FirstContact    float64 `json:"first_contact"`
	PeakPenetration float64 `json:"peak_penetration"` // max over all steps of −min dist, m
	PeakStep        int     `json:"peak_step"`
	MaxContacts     int     `json:"max_contacts"`
	// Warnings counts MuJoCo's warnings by kind ("badqacc", "inertia", …).
	Warnings map[string]int `json:"warnings"`
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
	NLimit      int        `json:"nlimit"` // active joint- and tendon-limit rows (efc rows of type limit)
	Penetration float64    `json:"penetration"`
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

// Mesh is one mesh of a model as MuJoCo compiled it: its name, vertex
// count and triangles (mesh_face, indices of the mesh's vertices).
type Mesh struct {
	Name  string     `json:"name"`
	NVert int        `json:"nvert"`
	Faces [][3]int32 `json:"faces"`
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
