package record_test

import (
	"encoding/json"
	"os"
	"path/filepath"
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
