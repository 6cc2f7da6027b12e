package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pendulumMJCF = `<mujoco model="pendulum"><compiler angle="radian"/>
  <worldbody><body name="bob"><joint name="hinge" axis="0 1 0" armature="0.1"/>
    <inertial pos="0 0 -0.5" mass="2" diaginertia="0.03 0.03 0.01"/></body></worldbody>
  <keyframe><key name="tilted" qpos="0.5"/></keyframe></mujoco>`

// TestInspect: for a pendulum of mass m with its centre of mass at l below
// the hinge, M = I_c + m l² + armature and the bias force is the gravity
// torque −m g l sin θ, at the keyframe's θ.
func TestInspect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pendulum.xml")
	if err := os.WriteFile(path, []byte(pendulumMJCF), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("inspect", path, "--keyframe", "tilted")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got inspectJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	const m, l, Ic, arm, th = 2, 0.5, 0.03, 0.1, 0.5
	if got.NQ != 1 || got.NV != 1 || len(got.Joints) != 1 || got.Joints[0].Name != "hinge" || got.Mass != m {
		t.Fatalf("nq %d nv %d joints %+v mass %v", got.NQ, got.NV, got.Joints, got.Mass)
	}
	if M := got.M[0][0]; math.Abs(M-(Ic+m*l*l+arm)) > 1e-14 {
		t.Errorf("M = %v, want %v", M, Ic+m*l*l+arm)
	}
	if b := got.Bias[0]; math.Abs(b-(-m*9.81*l*math.Sin(th))) > 1e-13 {
		t.Errorf("bias %v, want %v", b, -m*9.81*l*math.Sin(th))
	}
	if body := got.Bodies[0]; body.COM != [3]float64{0, 0, -0.5} || body.Inertia[0][0] != 0.03 || got.Import == nil || got.Import.Format != "mjcf" {
		t.Errorf("body %+v import %+v", body, got.Import)
	}
}

// TestRunModelFile runs an MJCF model directly with --ground and checks
// joints.csv: one row per joint per recorded step, the keyframe's angle at
// t = 0, the documented columns.
func TestRunModelFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pendulum.xml")
	if err := os.WriteFile(path, []byte(pendulumMJCF), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	code, _, errs := runCLI("run", path, "--ground", "--keyframe", "tilted", "--duration", "0.02", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := os.Open(filepath.Join(out, "joints.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0][:5], ",") != "t,joint,type,q0,q1" || len(rows[0]) != 3+7+6+6+6 {
		t.Errorf("header %v", rows[0])
	}
	if len(rows) != 1+11 || rows[1][0] != "0" || rows[1][1] != "hinge" || rows[1][2] != "revolute" || rows[1][3] != "0.5" || rows[1][4] != "" {
		t.Errorf("%d rows, first %v", len(rows), rows[1])
	}
	var sc struct {
		Bodies []struct{ Name string } `json:"bodies"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "scene.json"))
	if err := json.Unmarshal(data, &sc); err != nil || len(sc.Bodies) != 2 || sc.Bodies[0].Name != "ground" {
		t.Errorf("scene.json bodies %+v (%v)", sc.Bodies, err)
	}
}

// TestRunEmbeddedModel: stiction run takes a model shipped in the binary
// by its embedded:// name, and the grasp scene's first steps.
func TestRunEmbeddedModel(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, args := range [][]string{
		{"run", "embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_collision.urdf", "--ground", "--duration", "0.01", "--quiet"},
		{"run", "grasp", "--duration", "0.01", "--quiet"},
	} {
		if code, _, errs := runCLI(args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	if code, _, errs := runCLI("run", "embedded://drake_models/nope.urdf", "--quiet"); code == 0 || !strings.Contains(errs, "no such embedded file") {
		t.Errorf("unknown embedded model: exit %d, %q", code, errs)
	}
}

// TestInspectCompound: a body with several MJCF joints shows each joint
// as a part of its body's compound joint, with its own q and v offsets
// (MuJoCo's qpos and qvel addresses) and its ref in radians.
func TestInspectCompound(t *testing.T) {
	code, out, errs := runCLI("inspect", filepath.Join("..", "..", "model", "mjcf", "testdata", "compound.xml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got inspectJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// MuJoCo's jnt_qposadr and jnt_dofadr for the file's 8 joints.
	want := []struct {
		name, typ  string
		qoff, voff int
	}{{"rootx", "prismatic", 0, 0}, {"rootz", "prismatic", 1, 1}, {"rooty", "revolute", 2, 2}, {"hip1", "revolute", 3, 3},
		{"hip2", "revolute", 4, 4}, {"hipz", "prismatic", 5, 5}, {"kslide", "prismatic", 6, 6}, {"kball", "ball", 7, 7}}
	if got.NQ != 11 || got.NV != 10 || len(got.Joints) != len(want) {
		t.Fatalf("nq %d nv %d joints %+v", got.NQ, got.NV, got.Joints)
	}
	for i, w := range want {
		j := got.Joints[i]
		if j.Name != w.name || j.Type != w.typ || j.QOff != w.qoff || j.VOff != w.voff || j.Compound == "" {
			t.Errorf("joint %d: %+v, want %+v", i, j, w)
		}
	}
	if r := got.Joints[2].Ref; math.Abs(r-20*math.Pi/180) > 1e-15 {
		t.Errorf("rooty ref %v rad, want 20°", r)
	}
}
