package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/runner"
)

// readSummary reads dir/summary.json into a map.
func readSummary(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatalf("summary.json: %v\n%s", err, data)
	}
	return sum
}

// TestDivergingRun: explicit Euler on the frictionless spring-cylinder (a
// harmonic oscillator, ω = 11.5 rad/s) at δt = 0.05 s is unstable: each
// step multiplies the energy by 1 + ω²δt² = 1.33. The system is passive,
// so the run stops, invalid, at the step where its energy exceeds the
// initial energy by record.EnergyMargin of its scale, exits 1 saying so,
// and keeps its records: a summary with status invalid and the step, and
// steps.csv up to that step. Without the energy checks the run goes on to a
// non-finite state: diverged. (The
// chain at δt = 0.05 s, which blew up to 1e187 J before speculative contact
// and the recovery-speed cap, now runs to its end; it still gets the δt
// warning naming a link.)
func TestDivergingRun(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI("run", "spring-cylinder-frictionless", "--scheme", "explicit-euler", "--dt", "0.05", "--out", dir, "--quiet")
	if code != 1 || !strings.Contains(errs, "invalid at step") || !strings.Contains(errs, "energy") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "invalid") {
		t.Errorf("printed summary lacks the status:\n%s", out)
	}
	sum := readSummary(t, dir)
	step := sum["status_step"].(float64)
	if sum["status"] != "invalid" || step < 2 || sum["steps"].(float64) != step {
		t.Errorf("summary status %v at step %v, %v steps", sum["status"], sum["status_step"], sum["steps"])
	}
	steps := readCSV(t, filepath.Join(dir, "steps.csv"))
	if len(steps) != int(step)+1 {
		t.Errorf("steps.csv has %d rows, want %v and the header", len(steps)-1, step)
	}
	dir2 := t.TempDir()
	code, _, errs = runCLI("run", "spring-cylinder-frictionless", "--scheme", "explicit-euler", "--dt", "0.05", "--out", dir2, "--quiet", "--max-energy-growth", "0", "--duration", "200")
	sum = readSummary(t, dir2)
	if code != 1 || sum["status"] != "invalid" || sum["status_step"].(float64) <= step || !strings.Contains(errs, "overlap") {
		t.Errorf("no energy check: exit %d, status %v at step %v, stderr %q", code, sum["status"], sum["status_step"], errs)
	}
	t.Logf("without the energy check: %v at step %v: %v", sum["status"], sum["status_step"], sum["message"])
	// The contact-free double pendulum, with nothing to penetrate, goes on
	// to a non-finite state at δt = 0.3 s without the energy checks.
	dir3 := t.TempDir()
	code, _, errs = runCLI("run", "double-pendulum", "--scheme", "explicit-euler", "--dt", "0.3", "--out", dir3, "--quiet", "--max-energy-growth", "0", "--duration", "1000")
	sum = readSummary(t, dir3)
	if code != 1 || sum["status"] != "diverged" {
		t.Errorf("double pendulum without the energy check: exit %d, status %v, stderr %q", code, sum["status"], errs)
	}
	t.Logf("double pendulum without the energy check: %v at step %v: %v", sum["status"], sum["status_step"], sum["message"])
	code, _, errs = runCLI("run", "chain", "--dt", "0.05", "--duration", "1", "--quiet")
	if !strings.Contains(errs, `warning: dt = 0.05 s is too large for body "link`) {
		t.Errorf("chain at δt = 0.05 s: exit %d, no δt warning naming a link: %q", code, errs)
	}
}

// TestRunFlagErrors: unusable flag values are rejected with a message
// naming the flag (not --set), and view explains what a run directory is.
func TestRunFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "drop", "--dt", "0"}, "--dt 0: want a positive"},
		{[]string{"run", "drop", "--duration", "0"}, "--duration 0: want a positive"},
		{[]string{"run", "drop", "--duration", "-1"}, "--duration -1"},
		{[]string{"run", "drop", "--scheme", "leapfrog"}, `--scheme "leapfrog": want one of`},
		{[]string{"run", "drop", "--format", "xml"}, `--format "xml"`},
		{[]string{"run", "drop", "--checkpoint-every", "0.01"}, "--checkpoint-every needs --out"},
		{[]string{"run", "drop", "--checkpoint-every", "-1"}, "--checkpoint-every -1"},
		{[]string{"run", "drop", "--workers", "-2"}, "--workers -2"},
		{[]string{"resume", "no-such.ckpt"}, "no-such.ckpt"},
		{[]string{"view", "."}, `is not a run directory (it has no scene.json); make one with "stiction run SCENE --out`},
	} {
		code, _, errs := runCLI(c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Contains(errs, "--set") {
			t.Errorf("%v: exit %d, stderr %q; want an error mentioning %q and not --set", c.args, code, errs, c.want)
		}
	}
}

// TestTimeColumn: t is written without round-off noise (0.3, not
// 0.30000000000000004).
func TestTimeColumn(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := runCLI("run", "drop", "--dt", "0.1", "--duration", "0.5", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errs)
	}
	var ts []string
	for _, row := range readCSV(t, filepath.Join(dir, "steps.csv"))[1:] {
		ts = append(ts, row[0])
	}
	if got := strings.Join(ts, " "); got != "0.1 0.2 0.3 0.4 0.5" {
		t.Errorf("t column %q", got)
	}
}

// TestResumeByteIdentical runs 2 s straight, and 1 s with a checkpoint
// then 1 s resumed from it (in place, and into another directory): the
// per-step files must be byte-identical.
func TestResumeByteIdentical(t *testing.T) {
	for _, name := range []string{"clutter", "chain", "spring-cylinder"} {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			straight, half, other := filepath.Join(base, "straight"), filepath.Join(base, "half"), filepath.Join(base, "other")
			common := []string{"--scheme", "midpoint", "--quiet"}
			if code, _, errs := runCLI(append([]string{"run", name, "--duration", "2", "--out", straight}, common...)...); code != 0 {
				t.Fatal(errs)
			}
			if code, _, errs := runCLI(append([]string{"run", name, "--duration", "1", "--checkpoint-every", "1", "--out", half}, common...)...); code != 0 {
				t.Fatal(errs)
			}
			ckpts, _ := filepath.Glob(filepath.Join(half, runner.CheckpointDir, "*.ckpt"))
			if len(ckpts) != 1 {
				t.Fatalf("checkpoints %v", ckpts)
			}
			if code, _, errs := runCLI("resume", ckpts[0], "--duration", "2", "--out", other, "--quiet"); code != 0 {
				t.Fatal(errs)
			}
			if code, _, errs := runCLI("resume", ckpts[0], "--duration", "2", "--quiet"); code != 0 {
				t.Fatal(errs)
			}
			for _, f := range []string{"steps.csv", "trajectory.csv", "contacts.csv"} {
				want, _ := os.ReadFile(filepath.Join(straight, f))
				for _, dir := range []string{half, other} {
					got, _ := os.ReadFile(filepath.Join(dir, f))
					if len(want) < 100 || !bytes.Equal(got, want) {
						t.Errorf("%s/%s: %d bytes, straight run %d, not identical", filepath.Base(dir), f, len(got), len(want))
					}
				}
			}
			if s := readSummary(t, half); s["steps"] != readSummary(t, straight)["steps"] || s["status"] != "ok" {
				t.Errorf("resumed summary: %v steps, status %v", s["steps"], s["status"])
			}
		})
	}
}

// TestInterrupt: Ctrl-C during "run --out" stops the run at a step
// boundary, flushes and closes the files (every line complete), writes the
// summary with status interrupted and a checkpoint that resumes the run.
func TestInterrupt(t *testing.T) {
	old := interrupts
	defer func() { interrupts = old }()
	interrupts = func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 300*time.Millisecond)
	}
	dir := t.TempDir()
	code, _, errs := runCLI("run", "clutter", "--duration", "1000", "--out", dir, "--quiet", "--checkpoint-every", "1000")
	if code != 1 || !strings.Contains(errs, "interrupted at step") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	sum := readSummary(t, dir)
	n := int(sum["steps"].(float64))
	if sum["status"] != "interrupted" || n < 1 || int(sum["status_step"].(float64)) != n {
		t.Fatalf("summary: %v at %v after %d steps", sum["status"], sum["status_step"], n)
	}
	steps := readCSV(t, filepath.Join(dir, "steps.csv")) // fails on a truncated line
	if len(steps) != n+1 {
		t.Errorf("steps.csv has %d rows for %d steps", len(steps)-1, n)
	}
	traj := readCSV(t, filepath.Join(dir, "trajectory.csv"))
	if last := traj[len(traj)-1][0]; last != steps[n][0] {
		t.Errorf("last trajectory time %s, last step %s", last, steps[n][0])
	}
	if _, err := os.Stat(runner.CheckpointPath(dir, n)); err != nil {
		t.Errorf("no checkpoint at the interruption: %v", err)
	}
}

// TestFclibNotConvergedExitStatus: a problem whose solve does not converge
// (here: cut off at 3 Newton iterations) makes fclib exit 1, naming it and
// the status; with the default limit the same problem converges (exit 0).
func TestFclibNotConvergedExitStatus(t *testing.T) {
	const file = "../../fclib/testdata/fclib_local_problem_test.hdf5"
	if code, out, errs := runCLI("fclib", file); code != 0 || !strings.Contains(out, "converged") {
		t.Errorf("default limit: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs := runCLI("fclib", "-max-iter", "3", file)
	if code != 1 || !strings.Contains(errs, "fclib_local_problem_test.hdf5: not converged: the sap solve ended max-iterations") || !strings.Contains(out, "max-iterations") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestSolverFlag: --solver picks a registered solver for run, fclib and
// bench (under islands too),
// and an unknown name is a usage error (exit 2) naming the registered ones.
func TestSolverFlag(t *testing.T) {
	for _, name := range []string{"pgs", "ipm"} {
		var out, errb bytes.Buffer
		code := run([]string{"run", "drop", "--solver", name, "--set", "contact.approximation=sap", "--duration", "0.01", "--quiet"}, &out, &errb)
		if code != 0 {
			t.Errorf("run --solver %s: exit %d, stderr %q", name, code, errb.String())
		}
		out.Reset()
		errb.Reset()
		code = run([]string{"fclib", "--solver", name, "--eps", "1e-2", "--tol", "1e-8", "../../fclib/testdata/LMGC_GFC3D-i00001-1-00000.hdf5"}, &out, &errb)
		if code != 0 || !strings.Contains(out.String(), "converged") {
			t.Errorf("fclib --solver %s: exit %d, stdout %q, stderr %q", name, code, out.String(), errb.String())
		}
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"bench", "--solver", "ipm", "--approximation", "sap", "--n", "10", "--walls", "nowalls", "--linear", "sparse,islands", "--steps", "3", "--quiet", "--out", dir}, &out, &errb)
	csv, err := os.ReadFile(filepath.Join(dir, "bench.csv"))
	if code != 0 || err != nil || !strings.Contains(string(csv), ",ipm,") || !strings.Contains(string(csv), ",ipm-islands,") {
		t.Errorf("bench --solver ipm: exit %d, %v, stderr %q, bench.csv %q", code, err, errb.String(), csv)
	}
	for _, cmd := range []string{"run", "fclib", "bench"} {
		var out, errb bytes.Buffer
		args := []string{cmd, "--solver", "gurobi", "../../fclib/testdata/CubeH8.hdf5"}
		if cmd == "bench" {
			args = args[:3]
		}
		code := run(args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "want one of") || !strings.Contains(errb.String(), "pgs") {
			t.Errorf("%s --solver gurobi: exit %d, stderr %q", cmd, code, errb.String())
		}
	}
}

// TestInvalidRun: clutter at δt = 1 s sinks every body through the floor
// in its first step, and at δt = 0.3 s sinks spheres 0.84 m into it (their
// size is 0.1 m): each run stops with status invalid at the first invalid
// step, exits 1 saying why, keeps its records up to that step, and still
// prints the δt warning.
func TestInvalidRun(t *testing.T) {
	for _, dt := range []string{"1", "0.3"} {
		dir := t.TempDir()
		code, _, errs := runCLI("run", "clutter", "--dt", dt, "--out", dir, "--quiet")
		sum := readSummary(t, dir)
		t.Logf("dt %s: exit %d, %v at step %v: %v", dt, code, sum["status"], sum["status_step"], sum["message"])
		if code != 1 || sum["status"] != "invalid" || !strings.Contains(errs, "invalid at step") || !strings.Contains(errs, "warning: dt = "+dt+" s is too large") {
			t.Errorf("dt %s: exit %d, status %v, stderr %q", dt, code, sum["status"], errs)
		}
		step := sum["status_step"].(float64)
		if steps := readCSV(t, filepath.Join(dir, "steps.csv")); len(steps) != int(step)+1 || sum["steps"].(float64) != step {
			t.Errorf("dt %s: steps.csv has %d rows, summary %v steps, want %v", dt, len(steps)-1, sum["steps"], step)
		}
	}
}

// TestSolverRefusedUpFront: --solver ipm on the default (Lagged) contact
// approximation, alone or under --workers, is refused before step 0: exit
// 2, no run directory, and the fix in the message; with the fix it runs.
func TestSolverRefusedUpFront(t *testing.T) {
	for _, workers := range []string{"0", "2"} {
		dir := filepath.Join(t.TempDir(), "run")
		code, _, errs := runCLI("run", "clutter", "--solver", "ipm", "--workers", workers, "--out", dir, "--quiet")
		if _, err := os.Stat(dir); code != 2 || err == nil || !strings.Contains(errs, "--set contact.approximation=sap") {
			t.Errorf("--workers %s: exit %d, run directory %v, stderr %q", workers, code, err, errs)
		}
	}
	if code, _, errs := runCLI("run", "clutter", "--solver", "ipm", "--set", "contact.approximation=sap", "--duration", "0.12", "--quiet"); code != 0 {
		t.Errorf("with the fix: exit %d, stderr %q", code, errs)
	}
}
