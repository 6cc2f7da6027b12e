package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/runner"
)

// Statistics are the summary statistics a table can keep (Spec.Outputs),
// named as in summary.json.
var Statistics = []string{"steps", "sim_time", "iterations_mean", "iterations_max", "line_search_iterations_mean",
	"momentum_error_max", "complementarity_error_max", "penetration_max", "contacts_mean", "contacts_max",
	"final_kinetic_energy", "final_max_speed", "failed_steps"}

// StatusLost is the status of a job that reached its maximum number of
// deliveries without a result (its workers died or hung on it).
const StatusLost = "lost"

// Result is the outcome of one job, as a worker reports it.
type Result struct {
	Sweep    string
	Index    int
	Repeat   int
	Params   []string
	Status   string // a record.Status* value, or StatusLost
	Step     int    // the step at which the run stopped early
	Message  string // why the job failed or stopped early
	Stats    map[string]float64
	WallS    float64 // stepping time, s
	Worker   string  // host and process of the worker
	Delivery int     // which delivery of the job this is
}

// statValue returns the named statistic of s.
func statValue(s *record.Summary, name string) float64 {
	switch name {
	case "steps":
		return float64(s.Steps)
	case "sim_time":
		return s.SimTime
	case "iterations_mean":
		return s.IterationsMean
	case "iterations_max":
		return float64(s.IterationsMax)
	case "line_search_iterations_mean":
		return s.LineSearchIterationsMean
	case "momentum_error_max":
		return s.MomentumErrorMax
	case "complementarity_error_max":
		return s.ComplementarityErrorMax
	case "penetration_max":
		return s.PenetrationMax
	case "contacts_mean":
		return s.ContactsMean
	case "contacts_max":
		return float64(s.ContactsMax)
	case "final_kinetic_energy":
		return s.FinalKineticEnergy
	case "final_max_speed":
		return s.FinalMaxSpeed
	case "failed_steps":
		return float64(s.FailedSteps)
	}
	return 0
}

// MaxMessage bounds the message of a result, in bytes; a longer one is
// cut there.
const MaxMessage = 64 << 10

// RunJob runs a job in this process and returns its result: a job that
// cannot be built, diverges or fails gets its status and message. out,
// if not empty and the job keeps its run, is the directory under which
// runs/<sweep>/<job> is written. RunJob returns an error only if ctx was
// cancelled (the job then has no result and must be run again).
//
// The job reads no file but those it carries (Job.Bundle, written to a
// temporary directory) and the embedded models: any other path it names
// is refused with an error naming the field (runner.Source.Model's
// Access). Messages name the files as on the sweep's machine.
func RunJob(ctx context.Context, j Job, out string) (Result, error) {
	r := Result{Sweep: j.Sweep, Index: j.Index, Repeat: j.Repeat, Params: j.Params, Stats: map[string]float64{}}
	sb, err := newSandbox(j)
	if err != nil {
		r.Status, r.Message = record.StatusError, err.Error()
		return r, nil
	}
	defer sb.remove()
	r, err = runJob(ctx, j, sb.source(j), out, r)
	r.Message = cut(sb.unroot(r.Message), MaxMessage)
	return r, err
}

// cut returns s cut to at most n bytes (on a rune boundary).
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// runJob builds and runs src, the source of j, filling r.
func runJob(ctx context.Context, j Job, src runner.Source, out string, r Result) (Result, error) {
	b, err := src.Build()
	if err != nil {
		r.Status, r.Message = record.StatusError, err.Error()
		return r, nil
	}
	o := runner.Options{EnergyGrowth: record.DefaultEnergyGrowth}
	if j.KeepRuns && out != "" {
		o.Out = filepath.Join(out, "runs", j.Sweep, fmt.Sprintf("job-%06d", j.Index))
	}
	sum, err := runner.Simulate(ctx, b, o)
	var stop *runner.StopError
	if errors.As(err, &stop) && stop.Status == record.StatusInterrupted || ctx.Err() != nil {
		return r, context.Cause(ctx)
	}
	if err != nil && stop == nil {
		r.Status, r.Message = record.StatusError, err.Error()
		return r, nil
	}
	r.Status, r.Step, r.Message, r.WallS = sum.Status, sum.StatusStep, sum.Message, sum.WallTimeS
	for _, name := range Statistics {
		r.Stats[name] = statValue(&sum, name)
	}
	return r, nil
}

// Columns returns the table's column names: job, repeat, the swept paths,
// status, status_step, message, the kept statistics, and wall_time_s.
func (p *Plan) Columns() []string {
	cols := []string{"job", "repeat"}
	cols = append(cols, p.Paths...)
	cols = append(cols, "status", "status_step", "message")
	cols = append(cols, p.Outputs...)
	return append(cols, "wall_time_s")
}

// Row returns the table row of r, as strings in the order of Columns;
// numbers are written as record.AppendNumber does (nan and inf for
// non-finite ones). Every cell but wall_time_s depends only on the job.
func (p *Plan) Row(r *Result) []string {
	row := []string{strconv.Itoa(r.Index), strconv.Itoa(r.Repeat)}
	params := slices.Clone(r.Params)
	for len(params) < len(p.Paths) {
		params = append(params, "")
	}
	row = append(row, params[:len(p.Paths)]...)
	row = append(row, r.Status, strconv.Itoa(r.Step), r.Message)
	for _, name := range p.Outputs {
		x, ok := r.Stats[name]
		if !ok {
			row = append(row, "")
			continue
		}
		row = append(row, string(record.AppendNumber(nil, x)))
	}
	return append(row, string(record.AppendNumber(nil, r.WallS)))
}

// lostResult is the result of a job that ran out of deliveries.
func lostResult(j Job, deliveries int) Result {
	return Result{Sweep: j.Sweep, Index: j.Index, Repeat: j.Repeat, Params: j.Params, Status: StatusLost, Stats: map[string]float64{},
		Message: fmt.Sprintf("no result after %d deliveries: its workers stopped or hung", deliveries)}
}
