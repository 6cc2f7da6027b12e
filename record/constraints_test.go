package record_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestConstraintsRoundTrip runs the arm scene with the shoulder's effort
// limit below its load for 20 steps, writes constraints.csv and the
// summary, and reads them back: every report's name, type, state, impulse
// and force (‖γ‖/δt) survive bit for bit, and the summary counts the
// saturated steps.
func TestConstraintsRoundTrip(t *testing.T) {
	sc, err := scene.Load("arm", []string{"duration=0.02", "actuators.shoulder.effort=10"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := record.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Scene(record.DescribeScene(b.Name, b.Config.DT, b.RecordEvery, b.Model, b.State)); err != nil {
		t.Fatal(err)
	}
	w.Trajectory(b.Model, b.State)
	var acc record.Accumulator
	var last []constraint.Report
	for range b.Steps {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		acc.Add(st)
		acc.AddConstraints(s.ConstraintReports(), b.Config.DT)
		w.Step(st)
		w.Trajectory(b.Model, b.State)
		w.Contacts(st.T, b.Config.DT, b.Model, s.Contacts(), s.Impulses())
		w.Constraints(st.T, b.Config.DT, s.ConstraintReports())
		last = append(last[:0], s.ConstraintReports()...)
	}
	sum := acc.Summary(b.Name, b.Config.DT, 1, b.Model, b.State)
	if err := w.Close(sum); err != nil {
		t.Fatal(err)
	}
	r, err := record.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := r.Frames[len(r.Frames)-1].Constraints
	if len(rows) != len(last) || len(last) != 14 {
		t.Fatalf("%d rows read back, %d reports", len(rows), len(last))
	}
	for i, rep := range last {
		got := rows[i]
		if got.Name != rep.Name || got.Type != rep.Type.String() || got.State != rep.State.String() || got.Rows != rep.Rows ||
			got.Impulse != rep.Impulse || got.Force != record.ConstraintForce(&rep, b.Config.DT) || got.Violation != rep.Violation {
			t.Errorf("row %d: %+v, report %+v", i, got, rep)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back record.Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	var shoulder record.ConstraintSummary
	for _, c := range back.Constraints {
		if c.Name == "shoulder" {
			shoulder = c
		}
	}
	if back.SaturatedSteps != 20 || shoulder.SaturatedSteps != 20 || shoulder.Type != "actuator" || shoulder.ForceMax > 10*(1+1e-9) || len(back.Constraints) != 14 {
		t.Errorf("summary: %d saturated steps, shoulder %+v, %d constraints", back.SaturatedSteps, shoulder, len(back.Constraints))
	}
}
