package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/sim"
)

// progress draws a one-line progress bar on a terminal.
type progress struct {
	w       io.Writer
	total   int
	on      bool
	lastPct int
}

func newProgress(w io.Writer, total int, on bool) *progress {
	return &progress{w: w, total: total, on: on, lastPct: -1}
}

func (p *progress) update(i int, st sim.StepStats) {
	if !p.on || p.total == 0 {
		return
	}
	pct := 100 * i / p.total
	if pct == p.lastPct {
		return
	}
	p.lastPct = pct
	const width = 30
	n := width * i / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %3d%%  t=%.3fs  iters=%d  contacts=%d", strings.Repeat("#", n), strings.Repeat(".", width-n), pct, st.T, st.Iterations, st.Contacts)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprintln(p.w)
	}
}

// printSummary prints the run summary as a table.
func printSummary(w io.Writer, s record.Summary) {
	rows := [][2]string{
		{"scene", s.Scene},
		{"status", s.Status},
		{"solver", fmt.Sprintf("%s, %s contact, %s", s.Solver, s.Approximation, s.Scheme)},
		{"steps", fmt.Sprint(s.Steps)},
		{"simulated time", fmt.Sprintf("%.4g s", s.SimTime)},
		{"wall time (stepping)", fmt.Sprintf("%.4g s", s.WallTimeS)},
		{"writing time", fmt.Sprintf("%.4g s (on its own goroutine)", s.WriteTimeS)},
		{"real-time factor", fmt.Sprintf("%.3g", s.RealTimeFactor)},
		{"solver iterations", fmt.Sprintf("mean %.2f, max %d", s.IterationsMean, s.IterationsMax)},
		{"max momentum error e_m", fmt.Sprintf("%.3g", s.MomentumErrorMax)},
		{"max penetration", fmt.Sprintf("%.3g m", s.PenetrationMax)},
		{"contacts", fmt.Sprintf("mean %.1f, max %d", s.ContactsMean, s.ContactsMax)},
		{"final max speed", fmt.Sprintf("%.3g m/s", s.FinalMaxSpeed)},
		{"failed steps", fmt.Sprint(s.FailedSteps)},
	}
	if len(s.Constraints) > 0 {
		rows = append(rows, [2]string{"constraints", fmt.Sprintf("%d, max error %.3g, saturated in %d steps", len(s.Constraints), s.ConstraintViolationMax, s.SaturatedSteps)})
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%-24s %s\n", r[0], r[1])
	}
}
