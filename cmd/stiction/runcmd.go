package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/term"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// runOptions are the flags of "stiction run".
type runOptions struct {
	dt, duration float64
	scheme       string
	sets         multiFlag
	out          string
	quiet        bool
	workers      int
	viewFlags    // --view, --port, --addr (view.go)
	modelFlags   // --ground, --floating, --keyframe, --package-path, --model-path, --warnings (modelflags.go)
}

// cmdRun loads, builds and runs a scene.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runOptions
	fs.Float64Var(&o.dt, "dt", 0, "time step in s (overrides the scene's dt)")
	fs.Float64Var(&o.duration, "duration", 0, "simulated time in s (overrides the scene's duration)")
	fs.StringVar(&o.scheme, "scheme", "", "integrator: explicit-euler, symplectic-euler, implicit-euler or midpoint (overrides the scene's scheme)")
	fs.Var(&o.sets, "set", "override a scene field: path=value (repeatable)")
	fs.StringVar(&o.out, "out", "", "directory for summary.json, scene.json, steps.csv, trajectory.csv and contacts.csv")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.IntVar(&o.workers, "workers", 0, "solve the islands of the contact graph separately, on N workers (0: one SAP solve)")
	o.viewFlags.register(fs, true)
	o.modelFlags.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "stiction run: want one scene name or file, got %d arguments\n%s", len(pos), usage)
		return 2
	}
	o.modelFlags.stderr = stderr
	b, err := load(pos[0], o)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	if o.workers > 0 {
		wrapIslands(b, o.workers)
	}
	if o.live, err = startLive(o.viewFlags, b, stderr); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	sum, err := simulate(b, o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	printSummary(stdout, sum)
	o.live.wait(stderr)
	if sum.FailedSteps > 0 {
		fmt.Fprintf(stderr, "stiction: %d steps did not converge\n", sum.FailedSteps)
		return 1
	}
	return 0
}

// load reads the scene, applying --dt, --duration and --scheme as --set overrides so
// that they are validated like any other field.
func load(name string, o runOptions) (*scene.Built, error) {
	sets := append([]string(nil), o.sets...)
	if o.dt != 0 {
		sets = append(sets, "dt="+strconv.FormatFloat(o.dt, 'g', -1, 64))
	}
	if o.duration != 0 {
		sets = append(sets, "duration="+strconv.FormatFloat(o.duration, 'g', -1, 64))
	}
	if o.scheme != "" {
		sets = append(sets, "scheme="+o.scheme)
	}
	sc, err := o.modelFlags.loadScene(name, sets)
	if err != nil {
		return nil, err
	}
	return scene.Build(sc)
}

// simulate runs every step, recording to --out if given, and returns the
// summary.
func simulate(b *scene.Built, o runOptions, stderr io.Writer) (record.Summary, error) {
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return record.Summary{}, err
	}
	var w *record.Writer
	if o.out != "" {
		if w, err = record.Create(o.out); err != nil {
			return record.Summary{}, err
		}
		w.Trajectory(b.Model, b.State)
		w.Joints(b.Model, b.State, nil)
		if err := w.Scene(record.DescribeScene(b.Name, b.Config.DT, b.RecordEvery, b.Model, b.State)); err != nil {
			return record.Summary{}, err
		}
	}
	bar := newProgress(stderr, b.Steps, !o.quiet && isTerminal(stderr))
	var acc record.Accumulator
	start := time.Now()
	for i := 1; i <= b.Steps; i++ {
		st, err := s.Step()
		if err != nil {
			return record.Summary{}, err
		}
		acc.Add(st)
		if w != nil {
			w.Step(st)
			if i%b.RecordEvery == 0 || i == b.Steps {
				w.Trajectory(b.Model, b.State)
				w.Joints(b.Model, b.State, nil) // actuator and constraint forces arrive with issue 13
				w.Contacts(st.T, b.Config.DT, b.Model, s.Contacts(), s.Impulses())
			}
		}
		o.live.step(b, s, i, st)
		bar.update(i, st)
	}
	bar.done()
	sum := acc.Summary(b.Name, b.Config.DT, time.Since(start).Seconds(), b.Model, b.State)
	if w != nil {
		if err := w.Close(sum); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
