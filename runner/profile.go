package runner

import (
	"fmt"
	"io"
	"time"

	"github.com/stiction-sim/stiction/sim"
)

// Profile is the per-stage time of a run's steps (sim.StepTimes summed),
// with the stepping and recording wall times measured by the runner:
// what `stiction run --profile` prints. Options.Profile turns it on.
type Profile struct {
	Steps       int
	Stage       [sim.NumStages]time.Duration // summed over the steps
	Resolves    int                          // the refiner's re-solves
	ResolveTime time.Duration                // their time, part of the solve stage
	Stepping    time.Duration                // wall time around Simulator.Step
	Recording   time.Duration                // the runner's bookkeeping and writing after each step
}

// add adds one step's times, stepping wall time wall.
func (p *Profile) add(st *sim.StepStats, wall time.Duration) {
	p.Steps++
	for s, d := range st.Times.Stage {
		p.Stage[s] += d
	}
	p.Resolves += st.Resolves
	p.ResolveTime += st.ResolveTime
	p.Stepping += wall
}

// Write prints the profile as a markdown table: per stage its total time
// (s), its mean per step (µs) and its share of the stepping time (%); then
// the refiner's re-solves (within the solve stage), the stepping time no
// stage took (the step's own clock readings and its call), and the
// runner's recording time (share of the stepping time too).
func (p *Profile) Write(w io.Writer) error {
	n := max(p.Steps, 1)
	row := func(name string, d time.Duration) string {
		pct := 0.0
		if p.Stepping > 0 {
			pct = 100 * d.Seconds() / p.Stepping.Seconds()
		}
		return fmt.Sprintf("| %s | %.6f | %.3f | %.1f |\n", name, d.Seconds(), d.Seconds()*1e6/float64(n), pct)
	}
	out := fmt.Sprintf("profile of %d steps (stepping %.6f s)\n\n| stage | total s | mean µs/step | %% of stepping |\n| --- | ---: | ---: | ---: |\n", p.Steps, p.Stepping.Seconds())
	var staged time.Duration
	for s, d := range p.Stage {
		out += row(sim.Stage(s).String(), d)
		staged += d
	}
	out += row(fmt.Sprintf("solve: %d re-solves", p.Resolves), p.ResolveTime)
	out += row("outside the stages", p.Stepping-staged)
	out += row("stepping", p.Stepping)
	out += row("recording (runner)", p.Recording)
	_, err := io.WriteString(w, out)
	return err
}
