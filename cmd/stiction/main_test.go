package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestList(t *testing.T) {
	code, out, _ := runCLI("list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range []string{"clutter", "clutter-nowalls", "drop", "incline", "stack"} {
		if !strings.Contains(out, name) {
			t.Errorf("list does not show %s:\n%s", name, out)
		}
	}
}

// TestRunWritesOutputs runs the drop scene with flags after the scene name
// and checks the three output files.
func TestRunWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI("run", "drop", "--duration", "0.05", "--set", "dt=0.01", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"steps", "real-time factor", "solver iterations", "solver", "max momentum error", "max penetration", "contacts", "final max speed", "failed steps"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	var sum map[string]any
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"scene", "steps", "sim_time", "wall_time_s", "iterations_mean", "iterations_max", "momentum_error_max", "penetration_max", "contacts_mean", "failed_steps", "final"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary.json lacks %q", k)
		}
	}
	if sum["steps"].(float64) != 5 || sum["scene"] != "drop" {
		t.Errorf("summary: steps %v scene %v", sum["steps"], sum["scene"])
	}
	final := sum["final"].([]any)[0].(map[string]any)
	for _, k := range []string{"body", "position", "quaternion", "linear_velocity", "angular_velocity"} {
		if _, ok := final[k]; !ok {
			t.Errorf("final entry lacks %q", k)
		}
	}
	steps := readCSV(t, filepath.Join(dir, "steps.csv"))
	if len(steps) != 6 || !slices.Equal(steps[0][:9], []string{"t", "iterations", "line_search_iterations", "momentum_error", "complementarity_error", "contacts", "max_penetration", "kinetic_energy", "potential_energy"}) {
		t.Errorf("steps.csv: %d rows, header %v", len(steps), steps[0])
	}
	traj := readCSV(t, filepath.Join(dir, "trajectory.csv"))
	if len(traj) != 7 || strings.Join(traj[0], ",") != "t,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz" {
		t.Errorf("trajectory.csv: %d rows, header %v", len(traj), traj[0])
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\ndt: 0.01\nduration: 1\nmaterials: {m: {stiffness: 1e6, dissipation: 0, friction: 1}}\nbodies:\n  - {name: b, material: m, density: 1000, shape: {type: sphere, radius: 0}}\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "nosuchscene"}, `unknown scene "nosuchscene"`},
		{[]string{"run", bad}, "bodies[0].shape.radius"},
		{[]string{"run", "drop", "--set", "dt=-1"}, "dt"},
		{[]string{"run", "drop", "--dt", "nan"}, "dt"},
		{[]string{"run"}, "want one scene"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", c.args, code, errs, c.want)
		}
	}
}

func TestFclib(t *testing.T) {
	code, out, errs := runCLI("fclib", "../../fclib/testdata/LMGC_GFC3D-i00001-1-00000.hdf5", "--eps", "1e-4", "--refine", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"problem", "relaxed", "regularized", "coulomb", "LMGC_GFC3D", "stick"} {
		if !strings.Contains(out, want) {
			t.Errorf("fclib table lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := runCLI("fclib", "no-such-file.hdf5"); code != 1 {
		t.Errorf("missing file: exit %d, want 1", code)
	}
	if code, _, _ := runCLI("fclib"); code != 2 {
		t.Errorf("no files: exit %d, want 2", code)
	}
}

// TestFailedStepExitStatus: a run whose contact solves cannot converge (one
// Newton iteration allowed on clutter's impacts) exits with status 1 and says
// how many steps failed.
func TestFailedStepExitStatus(t *testing.T) {
	code, out, errs := runCLI("run", "clutter", "--quiet", "--duration", "1", "--set", "solver.max_iterations=1")
	if code != 1 || !strings.Contains(errs, "steps did not converge") {
		t.Fatalf("exit %d, stderr %q; want exit 1 naming the failed steps", code, errs)
	}
	if !strings.Contains(out, "failed steps") {
		t.Errorf("summary missing:\n%s", out)
	}
}

// TestHelpListsReadmeFlags: every flag that the README's command list
// shows is in "stiction help", and every command of the usage dispatches.
func TestHelpListsReadmeFlags(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "## Commands")
	end := strings.Index(text[start:], "\n```\n")
	block := text[start : start+end]
	_, help, _ := runCLI("help")
	flags := regexp.MustCompile(`--[a-z][a-z-]*`).FindAllString(block, -1)
	if len(flags) < 15 {
		t.Fatalf("found only %d flags in the README's command list", len(flags))
	}
	for _, f := range flags {
		if !strings.Contains(help, f) {
			t.Errorf("README lists %s, stiction help does not", f)
		}
	}
	for _, cmd := range regexp.MustCompile(`go run ./cmd/stiction ([a-z]+)`).FindAllStringSubmatch(block, -1) {
		if !strings.Contains(help, "stiction "+cmd[1]) {
			t.Errorf("README shows command %s, stiction help does not", cmd[1])
		}
	}
}
