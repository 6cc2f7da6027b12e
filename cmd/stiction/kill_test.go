package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/record"
)

// TestKilledRunReadable: a run (this test binary as the stiction command,
// clutter recording every step, checkpoints every 0.2 s) is killed with
// SIGKILL as soon as a random number of its 100 steps (1 to 80) reached
// steps.csv, 20 times (a run killed before its first step has nothing
// for plot to draw, which it says). The kill follows the run's progress,
// not the clock: on a fast machine the whole second takes 0.3 s, so a
// kill at a random time up to 400 ms missed most runs. Each time
// every reader takes its directory: plot, export, view's reader, and
// resume from its last checkpoint when it wrote one.
func TestKilledRunReadable(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 22))
	t.Logf("seed %d", seed)
	const runs = 20
	readable, truncated, resumed, finished := 0, 0, 0, 0
	for i := 0; i < runs && finished < runs; {
		dir := filepath.Join(t.TempDir(), "run")
		cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "run", "clutter", "--duration", "1", "--set", "record_every=1",
			"--checkpoint-every", "0.2", "--out", dir, "--quiet")
		cmd.Env = append(os.Environ(), helperEnv+"=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		at := 1 + rng.IntN(80)
		waitFor(func() bool { return stepRows(filepath.Join(dir, "steps.csv")) >= at }, 30*time.Second)
		cmd.Process.Kill()
		cmd.Wait()
		if ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() {
			finished++ // the run ended before the kill: not a killed run
			continue
		}
		ok, warned := readAll(t, i, dir)
		if ok {
			readable++
		}
		if warned {
			truncated++
		}
		if resumeLast(t, i, dir) {
			resumed++
		}
		i++
	}
	if finished >= runs {
		t.Fatalf("%d runs ended before their kill: the kill never landed", finished)
	}
	t.Logf("%d of %d killed runs readable by every reader (%d with an incomplete last row dropped), %d resumed from a checkpoint; %d runs ended before their kill, not counted", readable, runs, truncated, resumed, finished)
	if readable != runs {
		t.Errorf("%d of %d killed runs readable", readable, runs)
	}
}

// waitFor waits until cond holds, or d has passed.
func waitFor(cond func() bool, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end) && !cond(); time.Sleep(2 * time.Millisecond) {
	}
}

// stepRows returns the number of complete rows after the header of the
// steps file at path (0 when it does not exist yet).
func stepRows(path string) int {
	data, _ := os.ReadFile(path)
	return max(0, strings.Count(string(data), "\n")-1)
}

// readAll reads run directory dir with plot, export and view's reader; it
// reports whether all succeeded, and whether any warned of an incomplete
// row.
func readAll(t *testing.T, i int, dir string) (ok, warned bool) {
	t.Helper()
	ok = true
	out := t.TempDir()
	for _, args := range [][]string{
		{"plot", dir, "--y", "kinetic_energy", "--out", filepath.Join(out, "e.svg")},
		{"export", dir, "--gltf", filepath.Join(out, "run.glb")},
	} {
		code, _, errs := runCLI(args...)
		if code != 0 {
			t.Errorf("run %d: %s: exit %d: %s", i, args[0], code, errs)
			ok = false
		}
		warned = warned || strings.Contains(errs, "incomplete")
	}
	run, err := record.ReadRun(dir) // what view serves
	if err != nil {
		t.Errorf("run %d: view's reader: %v", i, err)
		return false, warned
	}
	if len(run.Frames) == 0 {
		t.Errorf("run %d: no frame, not even the initial one", i)
		ok = false
	}
	return ok, warned
}

// resumeLast resumes the killed run in dir from its last checkpoint, if it
// wrote one, into another directory, and reports whether it did.
func resumeLast(t *testing.T, i int, dir string) bool {
	t.Helper()
	ckpts, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.ckpt"))
	if len(ckpts) == 0 {
		return false
	}
	slices.Sort(ckpts)
	out := filepath.Join(t.TempDir(), "resumed")
	code, _, errs := runCLI("resume", ckpts[len(ckpts)-1], "--duration", "1.05", "--out", out, "--quiet")
	if code != 0 {
		t.Errorf("run %d: resume %s: exit %d: %s", i, filepath.Base(ckpts[len(ckpts)-1]), code, errs)
		return false
	}
	if _, err := record.ReadRun(out); err != nil {
		t.Errorf("run %d: resumed run: %v", i, err)
	}
	return true
}

// TestTruncatedRowDropped: a file that ends in the middle of a row (a
// write cut short by SIGKILL) is read up to its last complete row, with a
// warning naming the file, by plot and export.
func TestTruncatedRowDropped(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := runCLI("run", "drop", "--duration", "0.05", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	for _, f := range []string{"steps.csv", "trajectory.csv", "contacts.csv"} {
		fh, err := os.OpenFile(filepath.Join(dir, f), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString("0.051,ba")
		fh.Close()
	}
	out := t.TempDir()
	for _, args := range [][]string{
		{"plot", dir, "--y", "kinetic_energy", "--out", filepath.Join(out, "e.svg")},
		{"export", dir, "--gltf", filepath.Join(out, "run.glb")},
	} {
		code, _, errs := runCLI(args...)
		if code != 0 || strings.Count(errs, "the last row is incomplete") != 3 || !strings.Contains(errs, "steps.csv") {
			t.Errorf("%s: exit %d, stderr %q", args[0], code, errs)
		}
	}
	run, err := record.ReadRun(dir)
	if err != nil || len(run.Steps) != 50 || len(run.Warnings) != 3 {
		t.Errorf("ReadRun: %v, %d steps, warnings %q", err, len(run.Steps), run.Warnings)
	}
}
