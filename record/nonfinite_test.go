package record_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// TestNonFiniteOutput: non-finite statistics are written as nan/inf in CSV
// (and read back) and null in summary.json, and a step with a non-finite
// e_m counts as failed even if the solver said converged.
func TestNonFiniteOutput(t *testing.T) {
	b := build(t, "drop")
	dir := t.TempDir()
	w, err := record.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Scene(record.DescribeScene(b.Name, b.Config.DT, b.RecordEvery, b.Model, b.State)); err != nil {
		t.Fatal(err)
	}
	st := sim.StepStats{Step: 1, T: 0.001, KineticEnergy: math.Inf(1), PotentialEnergy: math.Inf(-1), MaxSlip: math.NaN(), NewtonConverged: true}
	st.MomentumError = math.NaN()
	st.Status = solver.Converged
	var acc record.Accumulator
	acc.Add(st)
	w.Step(st)
	sum := acc.Summary(b.Name, b.Config.DT, 1, b.Model, b.State)
	if sum.FailedSteps != 1 || sum.Status != record.StatusFailedSteps {
		t.Errorf("a step with e_m = NaN: %d failed steps, status %q", sum.FailedSteps, sum.Status)
	}
	if err := w.Close(sum); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "steps.csv"))
	if row := strings.Split(string(data), "\n")[1]; row != "0.001,0,0,nan,0,0,0,inf,-inf,converged,nan" {
		t.Errorf("steps.csv row %q", row)
	}
	r, err := record.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if row := r.Steps[0]; !math.IsNaN(row[3]) || !math.IsInf(row[7], 1) || !math.IsInf(row[8], -1) {
		t.Errorf("read back %v", row)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("summary.json does not parse: %v\n%s", err, raw)
	}
	if v, ok := m["momentum_error_max"]; !ok || v != nil {
		t.Errorf("momentum_error_max = %v (present %v), want null", v, ok)
	}
	if m["status"] != "failed" || m["scene"] != "drop" {
		t.Errorf("summary %v", m)
	}
}

// TestSummaryJSONMatchesEncodingJSON: for finite values the null-writing
// encoder gives the same document as encoding/json would.
func TestSummaryJSONMatchesEncodingJSON(t *testing.T) {
	b := build(t, "drop")
	var acc record.Accumulator
	st := sim.StepStats{Step: 1, T: 0.001, NewtonConverged: true, KineticEnergy: 0.5}
	st.Status, st.MomentumError = solver.Converged, 1e-9
	acc.Add(st)
	sum := acc.Summary("drop", 0.001, 0.25, b.Model, b.State)
	sum.Message = "a \"quoted\" <message>"
	got, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	type plain record.Summary // no MarshalJSON method
	want, err := json.Marshal(plain(sum))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var back record.Summary
	if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back, sum) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, back, sum)
	}
}

// TestParquetMatchesCSV records the same run in both formats and reads
// both back: the runs must be equal.
func TestParquetMatchesCSV(t *testing.T) {
	var runs [2]*record.Run
	for i, f := range []record.Format{record.CSV, record.Parquet} {
		dir := recordRun(t, "clutter", f, 30)
		r, err := record.ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = r
	}
	a, b := runs[0], runs[1]
	if len(a.Steps) != 30 || len(a.Frames) != 31 || len(a.Frames[30].Contacts) == 0 {
		t.Fatalf("csv run: %d steps, %d frames", len(a.Steps), len(a.Frames))
	}
	// Times are written with 15 digits in CSV and exactly in Parquet.
	for i := range a.Steps {
		if math.Abs(a.Steps[i][0]-b.Steps[i][0]) > 1e-12 {
			t.Fatalf("step %d: t %v vs %v", i, a.Steps[i][0], b.Steps[i][0])
		}
		a.Steps[i][0] = b.Steps[i][0]
	}
	for i := range a.Frames {
		a.Frames[i].T = b.Frames[i].T
	}
	if !reflect.DeepEqual(nanFree(a.Steps), nanFree(b.Steps)) || !reflect.DeepEqual(a.Frames, b.Frames) {
		t.Error("parquet run differs from csv run")
	}
}

// nanFree replaces NaN (the status column) with 0 for comparison.
func nanFree(rows [][]float64) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = append([]float64(nil), r...)
		for j, x := range out[i] {
			if math.IsNaN(x) {
				out[i][j] = 0
			}
		}
	}
	return out
}

// TestRecordingDoesNotAllocate: once its batches have grown, recording a
// step (row, trajectory, contacts) does not allocate on the stepping
// goroutine or the writer's.
func TestRecordingDoesNotAllocate(t *testing.T) {
	b := build(t, "clutter")
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	w, err := record.Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(record.Summary{})
	var sts []sim.StepStats
	for range 40 {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		sts = append(sts, st)
	}
	rec := func() {
		for _, st := range sts {
			w.Step(st)
			w.Trajectory(b.Model, b.State)
			w.Contacts(st.T, b.Config.DT, b.Model, s.Contacts(), s.Impulses())
		}
	}
	for range 40 {
		rec() // grow the batches
	}
	if n := testing.AllocsPerRun(5, rec); n != 0 {
		t.Errorf("recording 40 steps allocates %v times", n)
	}
}

func build(t *testing.T, name string, sets ...string) *scene.Built {
	t.Helper()
	sc, err := scene.Load(name, sets)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordRun records n steps of a scene, every step, in format f.
func recordRun(t *testing.T, name string, f record.Format, n int) string {
	t.Helper()
	b := build(t, name)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := record.CreateWith(dir, record.Options{Format: f})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Scene(record.DescribeScene(b.Name, b.Config.DT, 1, b.Model, b.State)); err != nil {
		t.Fatal(err)
	}
	w.Trajectory(b.Model, b.State)
	var acc record.Accumulator
	for range n {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		acc.Add(st)
		w.Step(st)
		w.Trajectory(b.Model, b.State)
		w.Contacts(st.T, b.Config.DT, b.Model, s.Contacts(), s.Impulses())
	}
	if err := w.Close(acc.Summary(b.Name, b.Config.DT, 1, b.Model, b.State)); err != nil {
		t.Fatal(err)
	}
	return dir
}
