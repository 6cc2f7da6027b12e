package record

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/constraint"
)

// ConstraintsHeader is the header of constraints.csv.
var ConstraintsHeader = []string{"t", "name", "type", "state", "violation", "force", "rows",
	"impulse_0", "impulse_1", "impulse_2", "impulse_3", "impulse_4", "impulse_5", "input", "activation"}

// Constraints records one row of constraints.csv (or .parquet) per
// constraint report of the step that ended at time t
// (sim.Simulator.ConstraintReports): its state, its error at the start of
// the step, the magnitude of its force ‖γ‖/δt, and its impulse rows
// (unused rows 0).
func (w *Writer) Constraints(t, dt float64, reports []constraint.Report) {
	for i := range reports {
		r := &reports[i]
		w.cur.cons = append(w.cur.cons, consRow{t: t, name: r.Name, typ: r.Type.String(), state: r.State.String(),
			violation: r.Violation, force: ConstraintForce(r, dt), rows: int32(r.Rows), impulse: r.Impulse, input: r.Input,
			activation: r.Activation})
	}
}

// ConstraintForce returns the magnitude ‖γ‖/δt of a constraint's force (N,
// N·m, or mixed for a weld and a free body's attachment).
func ConstraintForce(r *constraint.Report, dt float64) float64 {
	s := 0.0
	for _, x := range r.Impulse[:r.Rows] {
		s += x * x
	}
	return math.Sqrt(s) / dt
}

// ConstraintSummary is one constraint's statistics over a run.
type ConstraintSummary struct {
	Name           string  `json:"name"`
	Type           string  `json:"type"`
	ActiveSteps    int     `json:"active_steps"`
	SaturatedSteps int     `json:"saturated_steps"`
	ForceMax       float64 `json:"force_max"`     // largest ‖γ‖/δt
	ViolationMax   float64 `json:"violation_max"` // largest error at the start of a step
}

// AddConstraints accounts for the constraint reports of one step (time
// step dt); the first call fixes the list of constraints.
func (a *Accumulator) AddConstraints(reports []constraint.Report, dt float64) {
	s := &a.Sum
	if s.Constraints == nil {
		s.Constraints = make([]ConstraintSummary, len(reports))
		for i := range reports {
			s.Constraints[i] = ConstraintSummary{Name: reports[i].Name, Type: reports[i].Type.String()}
		}
	}
	sat := false
	for i := range reports {
		r, c := &reports[i], &s.Constraints[i]
		switch r.State {
		case constraint.Active:
			c.ActiveSteps++
		case constraint.Saturated:
			c.SaturatedSteps++
			sat = true
		}
		c.ForceMax = math.Max(c.ForceMax, ConstraintForce(r, dt))
		c.ViolationMax = math.Max(c.ViolationMax, r.Violation)
		s.ConstraintViolationMax = math.Max(s.ConstraintViolationMax, r.Violation)
	}
	if sat {
		s.SaturatedSteps++
	}
}

// ConstraintRow is one row of constraints.csv read back.
type ConstraintRow struct {
	Name, Type, State string
	Violation, Force  float64
	Rows              int
	Impulse           [constraint.MaxRows]float64
	Input             float64
	Activation        float64 // the activation of a muscle or of a general actuator with dynamics (0 in files written before the column)
}

// readConstraints attaches each row of constraints.csv to the frame of the
// same time; a run directory without the file (written before constraints
// existed) has none.
func readConstraints(path string, frames []Frame, warns *[]string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	k := 0
	var v [11]float64
	head := ConstraintsHeader
	if csvColumns(path) == len(head)-1 {
		head = head[:len(head)-1] // written before the activation column
	}
	_, err := readCSV(path, head, warns, func(_ int, rec []string) error {
		if err := parseFloats(ConstraintsHeader, rec, 0, v[:1]); err != nil {
			return err
		}
		t := v[0]
		if err := parseFloats(ConstraintsHeader, rec, 4, v[:2]); err != nil {
			return err
		}
		rows, err := strconv.Atoi(rec[6])
		if err != nil || rows < 0 || rows > constraint.MaxRows {
			return fmt.Errorf("column rows: %q is not a row count (0 to %d)", rec[6], constraint.MaxRows)
		}
		row := ConstraintRow{Name: rec[1], Type: rec[2], State: rec[3], Violation: v[0], Force: v[1], Rows: rows}
		if err := parseFloats(ConstraintsHeader, rec, 7, v[:7]); err != nil {
			return err
		}
		copy(row.Impulse[:], v[:6])
		row.Input = v[6]
		if len(head) == len(ConstraintsHeader) {
			if err := parseFloats(ConstraintsHeader, rec, 14, v[:1]); err != nil {
				return err
			}
			row.Activation = v[0]
		}
		for k < len(frames) && frames[k].T < t {
			k++
		}
		if k == len(frames) || frames[k].T != t {
			return fmt.Errorf("column t: %v is not a time of trajectory.csv", t)
		}
		frames[k].Constraints = append(frames[k].Constraints, row)
		return nil
	})
	return err
}

// csvColumns returns the number of columns of a CSV file's header line (0
// when it cannot be read).
func csvColumns(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return 0
	}
	return strings.Count(line, ",") + 1
}
