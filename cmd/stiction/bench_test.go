package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// TestBenchWritesOutputs runs a tiny scaling study and checks bench.csv
// (one row per configuration), bench.png and bench.svg.
func TestBenchWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI("bench", "--n", "8,12", "--steps", "5", "--linear", "sparse,dense", "--dense-max", "8", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	t.Log(out)
	f, err := os.Open(filepath.Join(dir, "bench.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 2 wall settings × (n = 8: sparse, dense; n = 12: sparse) + header.
	if len(recs) != 7 {
		t.Fatalf("bench.csv has %d records, want 7:\n%v", len(recs), recs)
	}
	for _, name := range []string{"bench.png", "bench.svg"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() < 1000 {
			t.Errorf("%s missing or tiny: %v", name, err)
		}
	}
	if code, _, _ := runCLI("bench", "--n", "x"); code != 2 {
		t.Errorf("bad --n: exit %d, want 2", code)
	}
	if code, _, _ := runCLI("bench", "--linear", "cg"); code != 2 {
		t.Errorf("bad --linear: exit %d, want 2", code)
	}
	for _, bad := range [][]string{{"--layout", "ring"}, {"--layout", "copies", "--n", "50", "--walls", "nowalls"}, {"--layout", "copies", "--n", "40"}} {
		if code, _, _ := runCLI(append([]string{"bench"}, bad...)...); code != 2 {
			t.Errorf("bench %v: exit %d, want 2", bad, code)
		}
	}
	dir = t.TempDir()
	code, _, errs = runCLI("bench", "--layout", "copies", "--walls", "nowalls", "--n", "40,80", "--steps", "3", "--linear", "islands", "--out", dir)
	if code != 0 {
		t.Fatalf("--layout copies: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "bench.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll(); err != nil || len(recs) != 3 || recs[1][0] != "copies" || recs[2][2] != "80" {
		t.Errorf("--layout copies: bench.csv = %q (%v)", data, err)
	}
}

// TestRunWorkersBitIdentical: "stiction run clutter-nowalls --workers 1"
// and "--workers 4" write byte-identical trajectory.csv files (1.5 s).
func TestRunWorkersBitIdentical(t *testing.T) {
	var traj [2][]byte
	for k, w := range []string{"1", "4"} {
		dir := t.TempDir()
		code, _, errs := runCLI("run", "clutter-nowalls", "--duration", "1.5", "--workers", w, "--quiet", "--out", dir)
		if code != 0 {
			t.Fatalf("--workers %s: exit %d: %s", w, code, errs)
		}
		var err error
		if traj[k], err = os.ReadFile(filepath.Join(dir, "trajectory.csv")); err != nil {
			t.Fatal(err)
		}
	}
	if len(traj[0]) < 1000 || !bytes.Equal(traj[0], traj[1]) {
		t.Fatalf("trajectories differ or are empty (%d and %d bytes)", len(traj[0]), len(traj[1]))
	}
}
