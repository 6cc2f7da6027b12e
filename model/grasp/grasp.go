package grasp

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// The robots, embedded in the binary (package model/embedded).
const (
	ArmFile  = "embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_collision.urdf"
	HandFile = "embedded://drake_models/allegro_hand_description/sdf/allegro_hand_description_right.sdf"
)

// The plan: a 3.5 × 5 × 6 cm box of 50 g on a table whose top is at
// z = 0.25 m; at the grasp the box's centre sits at GraspPoint in the
// hand frame (in front of the palm, between the opposed thumb and the
// index and middle fingers). The hand comes down from Approach above the
// grasp pose and lifts the box by Lift.
var (
	BoxCenter  = spatial.Vec3{0.6, 0, 0.28}
	BoxSize    = spatial.Vec3{0.035, 0.05, 0.06}
	GraspPoint = spatial.Vec3{0.095, 0.02, 0.115}
)

const (
	BoxMass  = 0.05 // kg
	Approach = 0.10 // m above the grasp pose
	Lift     = 0.15 // m
)

// HandOrientation is the hand's orientation throughout: a quarter turn
// about world y, so that the palm (hand +x) faces down and the fingers
// (hand +z) point along world +x.
var HandOrientation = spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0}, math.Pi/2)

// Arm and finger joints (scene body names after the includes' prefixes).
var (
	ArmJoints = []string{"iiwa_iiwa_link_1", "iiwa_iiwa_link_2", "iiwa_iiwa_link_3", "iiwa_iiwa_link_4", "iiwa_iiwa_link_5", "iiwa_iiwa_link_6", "iiwa_iiwa_link_7"}
	armKp     = []float64{4000, 4000, 2000, 2000, 1000, 500, 200} // N·m/rad; kd = kp/10
	// The thumb (links 12–15), index (1–3) and middle (5–7) fingers are
	// driven; the ring finger stays straight.
	fingerJoints = []string{"hand_link_1", "hand_link_2", "hand_link_3", "hand_link_5", "hand_link_6", "hand_link_7",
		"hand_link_12", "hand_link_13", "hand_link_14", "hand_link_15"}
)

const fingerKp, fingerKd = 2.0, 0.02 // N·m/rad, N·m·s/rad; the joints' effort limit is 0.7 N·m

// fingers returns finger targets: index and middle flexed by flex at the
// proximal joint (0.9 and 0.8 of it further out), the thumb turned to
// oppose them (joint 12 at its upper limit 1.396, joint 13 at 0.3) and
// curled by thumb at joints 14 and 15.
func fingers(flex, thumb float64) map[string]float64 {
	f := map[string]float64{"hand_link_12": 1.396, "hand_link_13": 0.3, "hand_link_14": thumb, "hand_link_15": thumb}
	for _, base := range []int{0, 4} {
		f[fmt.Sprintf("hand_link_%d", base+1)] = flex
		f[fmt.Sprintf("hand_link_%d", base+2)] = 0.9 * flex
		f[fmt.Sprintf("hand_link_%d", base+3)] = 0.8 * flex
	}
	return f
}

// phase is a waypoint of the script: at time t the arm is at the
// configuration of the named hand pose and the fingers at their targets.
type phase struct {
	t      float64
	pose   string // pre, grasp, lift
	finger map[string]float64
	note   string
}

var script = []phase{
	{0, "pre", fingers(0.1, 0.5), "start: hand 10 cm above the grasp pose, fingers open, thumb opposed"},
	{1.5, "grasp", fingers(0.1, 0.5), "descend to the grasp pose"},
	{2.5, "grasp", fingers(1.1, 1.1), "close index, middle and thumb on the box"},
	{3.0, "grasp", fingers(1.1, 1.1), "hold"},
	{4.5, "lift", fingers(1.1, 1.1), "lift 15 cm"},
	{6.0, "lift", fingers(1.1, 1.1), "hold"},
}

// Duration is the scene's duration: the script's end.
var Duration = script[len(script)-1].t

// HandPose returns the world pose of the hand frame (hand_hand_root) for
// the script's named pose.
func HandPose(name string) spatial.Pose {
	x := spatial.Pose{R: HandOrientation, P: BoxCenter.Sub(HandOrientation.Rotate(GraspPoint))}
	switch name {
	case "pre":
		x.P[2] += Approach
	case "lift":
		x.P[2] += Lift
	}
	return x
}

// staticPart returns the scene text without actuators; armQ0 and fingerQ0
// (nil: none) set the initial joint values through the includes' set
// overrides.
func staticPart(armQ0 []float64, fingerQ0 map[string]float64) string {
	var b strings.Builder
	s2 := math.Sqrt(0.5)
	fmt.Fprintf(&b, `name: grasp
description: The KUKA iiwa with the Allegro hand picks a box up from a table (PD control along a scripted trajectory)
dt: 0.002
duration: %g
scheme: implicit-euler   # implicit joint damping: the Allegro's light links with damping 0.015
materials:
  table: {stiffness: 1e6, dissipation: 0.01, friction: 0.8}
  box: {stiffness: 1e6, dissipation: 0.01, friction: 0.8}
include:
  - file: %s
    prefix: iiwa_
`, Duration, ArmFile)
	if armQ0 != nil {
		b.WriteString("    set:\n")
		for k, q := range armQ0 {
			fmt.Fprintf(&b, "      - bodies.%s.joint.q0=[%.6f]\n", strings.TrimPrefix(ArmJoints[k], "iiwa_"), q)
		}
	}
	// The hand's frame on link 7: fingers along link 7's −x, palm facing
	// along its +z (the flange's normal), the palm centred on the flange
	// axis 8 cm out (rotation −90° about link 7's y).
	fmt.Fprintf(&b, `  - file: %s
    prefix: hand_
    parent: iiwa_iiwa_link_7
    pose: {position: [0.0475, 0, 0.08], quaternion: [%.17g, 0, %.17g, 0]}
`, HandFile, s2, -s2)
	if fingerQ0 != nil {
		b.WriteString("    set:\n")
		for _, n := range sortedKeys(fingerQ0) {
			fmt.Fprintf(&b, "      - bodies.%s.joint.q0=[%.4f]\n", strings.TrimPrefix(n, "hand_"), fingerQ0[n])
		}
	}
	fmt.Fprintf(&b, `bodies:
  - {name: floor, fixed: true, shape: {type: halfspace}, material: table}
  - {name: table, fixed: true, shape: {type: box, size: [0.3, 0.4, 0.25]}, pose: {position: [0.6, 0, 0.125]}, material: table}
  - {name: box, shape: {type: box, size: [%g, %g, %g]}, mass: %g, pose: {position: [%g, %g, %g]}, material: box}
exclude:   # the palm sits on the flange: it may graze links 5 and 6
  - [iiwa_iiwa_link_5, hand_hand_root]
  - [iiwa_iiwa_link_6, hand_hand_root]
`, BoxSize[0], BoxSize[1], BoxSize[2], BoxMass, BoxCenter[0], BoxCenter[1], BoxCenter[2])
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Generate returns the text of the embedded scene grasp.yaml.
func Generate() ([]byte, error) {
	s, err := load.SceneData("grasp.yaml", []byte(staticPart(nil, nil)), nil, load.Options{})
	if err != nil {
		return nil, fmt.Errorf("grasp: %w", err)
	}
	m, st, err := scene.BuildModel(s)
	if err != nil {
		return nil, fmt.Errorf("grasp: %w", err)
	}
	arm := make([]int, len(ArmJoints))
	for k, n := range ArmJoints {
		arm[k] = m.BodyByName(n)
	}
	hand := m.BodyByName("hand_hand_root")
	configs := map[string][]float64{}
	seed := []float64{0, 0.6, 0, -1.6, 0, 0.9, 0} // elbow up, flange down
	for _, name := range []string{"grasp", "pre", "lift"} {
		q, err := ik(m, st, hand, arm, HandPose(name), seed)
		if err != nil {
			return nil, fmt.Errorf("grasp: %s pose: %w", name, err)
		}
		configs[name] = q
		seed = configs["grasp"] // pre and lift start from the grasp
	}
	var out bytes.Buffer
	out.WriteString(header)
	out.WriteString(staticPart(configs["pre"], script[0].finger))
	out.WriteString("actuators:\n")
	holds := gravityOffsets(m, st, arm, configs)
	for k, n := range ArmJoints {
		var rows []string
		for _, p := range script {
			rows = append(rows, fmt.Sprintf("[%g, %.6f]", p.t, configs[p.pose][k]+holds[p.pose][k]/armKp[k]))
		}
		fmt.Fprintf(&out, "  - {name: arm%d, type: pd, joint: %s, kp: %g, kd: %g, target: {table: [%s]}}\n", k+1, n, armKp[k], armKp[k]/10, strings.Join(rows, ", "))
	}
	for _, n := range fingerJoints {
		var rows []string
		for _, p := range script {
			rows = append(rows, fmt.Sprintf("[%g, %.4f]", p.t, p.finger[n]))
		}
		fmt.Fprintf(&out, "  - {name: finger_%s, type: pd, joint: %s, kp: %g, kd: %g, target: {table: [%s]}}\n", strings.Replace(strings.TrimPrefix(n, "hand_"), "link", "joint", 1), n, fingerKp, fingerKd, strings.Join(rows, ", "))
	}
	return out.Bytes(), nil
}

// gravityOffsets returns, per hand pose, the arm joint torques that hold
// the robot still there against gravity (inverse dynamics at rest, the
// fingers closed): the PD targets are offset by τ/kp so that the arm
// rests at the planned configuration instead of drooping by τ/kp.
func gravityOffsets(m *multibody.Model, st *multibody.State, arm []int, configs map[string][]float64) map[string][]float64 {
	ws := multibody.NewWorkspace(m)
	v := make([]float64, m.NV)
	tau := make([]float64, m.NV)
	out := map[string][]float64{}
	for name, q := range configs {
		for k, b := range arm {
			st.Q[m.Bodies[b].QOff] = q[k]
		}
		for n, f := range script[len(script)-1].finger {
			st.Q[m.Bodies[m.BodyByName(n)].QOff] = f
		}
		ws.Update(st.Q, v)
		ws.InverseDynamics(nil, tau)
		h := make([]float64, len(arm))
		for k, b := range arm {
			h[k] = tau[m.Bodies[b].VOff]
		}
		out[name] = h
	}
	return out
}

const header = `# The grasp demo (generated by package model/grasp: go generate ./model/grasp).
#
# Drake's KUKA iiwa 14 (sphere collision model) with Drake's Allegro hand
# (right, SDFormat) on its flange picks a 50 g box up from a table. Both
# robots come from the models embedded in the binary (embedded://...),
# with their glTF meshes for the viewer. Script (PD targets, tables in
# time): 0–1.5 s the hand comes down 10 cm to the grasp pose, palm down;
# 1.5–2.5 s the thumb and the index and middle fingers close on the box;
# 3–4.5 s the arm lifts it 15 cm; then it holds. The arm's targets are the
# inverse-kinematics configurations of those hand poses plus the gravity
# torque over kp (so that the PD servos rest where planned); the robots'
# own zero-input motors (URDF transmissions, SDFormat joints) stay idle.
`
