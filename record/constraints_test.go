package record_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/record"
)

// TestConstraintsRoundTrip runs the arm scene with the shoulder's effort
// limit below its load for 20 steps, writes constraints.csv and the
// summary, and reads them back: every report's name, type, state, impulse
// and force (‖γ‖/δt) survive bit for bit, and the summary counts the
// saturated steps.
func TestConstraintsRoundTrip(t *testing.T) {
	dir, last, _ := writeRun(t, "arm", "duration=0.02", "actuators.shoulder.effort=10")
	const dt = 0.001
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
			got.Impulse != rep.Impulse || got.Force != record.ConstraintForce(&rep, dt) || got.Violation != rep.Violation {
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

// TestConstraintsActivationRoundTrip: a muscle's activation (the arm's
// elbow servo replaced by a muscle driven at full control) is written to
// constraints.csv's activation column and read back bit for bit; it rises
// from 0 as the activation dynamics say.
func TestConstraintsActivationRoundTrip(t *testing.T) {
	dir, last, _ := writeRun(t, "arm", "duration=0.02",
		"actuators.elbow={name: elbow, type: muscle, joint: elbow, gear: 0.05, ctrl_range: [0, 1], muscle: {length_range: [-0.125, 0.125], force: 100}, target: {constant: 1}}")
	r, err := record.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := r.Frames[len(r.Frames)-1].Constraints
	found := false
	for i, rep := range last {
		if rep.Name != "elbow" {
			continue
		}
		found = true
		if rows[i].Activation != rep.Activation || !(rep.Activation > 0.5) {
			t.Errorf("elbow muscle: activation %v read back, reported %v (want > 0.5 after 19 steps at full control)", rows[i].Activation, rep.Activation)
		}
		if rows[i].Input != 1 {
			t.Errorf("input %v, want 1", rows[i].Input)
		}
	}
	if !found {
		t.Fatal("no elbow report")
	}
	// A file written before the activation column reads, with activation 0.
	path := filepath.Join(dir, "constraints.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		lines[i] = l[:strings.LastIndexByte(l, ',')]
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := record.ReadRun(dir)
	if err != nil {
		t.Fatalf("a constraints.csv without the activation column: %v", err)
	}
	if got := old.Frames[len(old.Frames)-1].Constraints; len(got) != len(rows) || got[0].Input != rows[0].Input || got[0].Activation != 0 {
		t.Errorf("old file read back as %d rows, first %+v", len(got), got[0])
	}
}
