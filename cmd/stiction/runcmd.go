package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// runOptions are the flags of "stiction run".
type runOptions struct {
	dt, duration    float64
	scheme          string
	solverName      string // --solver: scene solver.type
	sets            multiFlag
	out             string
	format          string
	quiet           bool
	profile         bool            // --profile
	prof            *runner.Profile // what --profile prints, shared by the copies of the options
	workers         int
	checkpointEvery float64
	energyGrowth    float64
	src             *runner.Source // the scene's source, for checkpoints
	resume          *runner.Checkpoint
	viewFlags       // --view, --port, --addr (view.go)
	liveFlags       // --live, --rate, --paused, --record-dir (livesession.go)
	modelFlags      // --ground, --floating, --keyframe, --package-path, --model-path, --warnings (modelflags.go)
}

// interrupts returns the context that Ctrl-C (SIGINT) and SIGTERM cancel;
// tests replace it.
var interrupts = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// registerRunFlags declares the flags that "run" and "resume" share.
func registerRunFlags(fs *flag.FlagSet, o *runOptions) {
	fs.StringVar(&o.out, "out", "", "directory for summary.json, scene.json and the steps, trajectory and contacts files")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.BoolVar(&o.profile, "profile", false, "time the stages of every step and print the breakdown at the end (docs/OUTPUT.md)")
	o.prof = new(runner.Profile)
	fs.Float64Var(&o.checkpointEvery, "checkpoint-every", 0, "write a checkpoint to OUT/checkpoints every S simulated seconds (needs --out, CSV)")
	fs.Float64Var(&o.energyGrowth, "max-energy-growth", record.DefaultEnergyGrowth, "stop as diverged when the kinetic energy exceeds this many times the initial energy scale (0: no energy check, nor the energy rule of invalid steps, docs/OUTPUT.md)")
	fs.Float64Var(&o.duration, "duration", 0, "simulated time in s (overrides the scene's duration)")
}

// cmdRun loads, builds and runs a scene.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runOptions
	fs.Float64Var(&o.dt, "dt", 0, "time step in s (overrides the scene's dt)")
	fs.StringVar(&o.scheme, "scheme", "", "integrator: "+strings.Join(sim.SchemeNames(), ", ")+" (overrides the scene's scheme; docs/SCENES.md)")
	fs.Var(&o.sets, "set", "override a scene field: path=value (repeatable)")
	fs.StringVar(&o.solverName, "solver", "", "contact solver: "+strings.Join(solver.Names(), ", ")+" (overrides the scene's solver.type)")
	fs.StringVar(&o.format, "format", "csv", "per-step file format: csv or parquet")
	fs.IntVar(&o.workers, "workers", 0, "solve the islands of the contact graph separately on N workers (0: the default, one worker in the calling goroutine)")
	registerRunFlags(fs, &o)
	o.viewFlags.register(fs, true)
	o.liveFlags.register(fs)
	o.modelFlags.register(fs)
	o.modelFlags.stderr = stderr
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "stiction run: want one scene name or file, got %d arguments\n%s", len(pos), usage)
		return 2
	}
	if err := checkRunFlags(fs, o); err != nil {
		fmt.Fprintf(stderr, "stiction run: %v\n", err)
		return 2
	}
	if o.session {
		if !o.view || o.out != "" {
			fmt.Fprintf(stderr, "stiction run: --live needs --view and no --out (record from the page instead)\n")
			return 2
		}
		return cmdViewLive(pos[0], o, stderr)
	}
	src, err := newSource(pos[0], o)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	b, err := src.Build()
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	o.src = &src
	if _, err := runnerOptions(o, b); err != nil {
		fmt.Fprintf(stderr, "stiction run: %v\n", err)
		return 2
	}
	for _, w := range stepWarnings(b) {
		fmt.Fprintf(stderr, "stiction: warning: %s\n", w)
	}
	if o.live, err = startLive(o.viewFlags, b, stderr); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	sum, err := simulate(b, o, stderr)
	return finishRun(sum, err, o, stdout, stderr)
}

// checkRunFlags rejects flag values that are set but unusable: a zero,
// negative or non-finite --dt or --duration would otherwise be taken for
// "not given", and a bad --scheme would be reported as a --set.
func checkRunFlags(fs *flag.FlagSet, o runOptions) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		var x float64
		switch f.Name {
		case "dt":
			x = o.dt
		case "duration":
			x = o.duration
		case "checkpoint-every", "max-energy-growth":
			x = o.checkpointEvery
			if f.Name == "max-energy-growth" {
				x = o.energyGrowth
			}
			if !(x >= 0) || math.IsInf(x, 0) {
				err = errors.Join(err, fmt.Errorf("--%s %v: want a finite number ≥ 0", f.Name, f.Value))
			}
			return
		case "solver":
			if !solver.Registered(o.solverName) {
				err = errors.Join(err, fmt.Errorf("--solver %q: want one of %s", o.solverName, strings.Join(solver.Names(), ", ")))
			}
			return
		case "scheme":
			if _, serr := sim.ParseScheme(o.scheme); serr != nil || o.scheme == "" {
				err = errors.Join(err, fmt.Errorf("--scheme %q: want one of %v", o.scheme, sim.SchemeNames()))
			}
			return
		default:
			return
		}
		if !(x > 0) || math.IsInf(x, 0) {
			err = errors.Join(err, fmt.Errorf("--%s %v: want a positive, finite number of seconds", f.Name, f.Value))
		}
	})
	if _, ferr := record.ParseFormat(o.format); ferr != nil {
		err = errors.Join(err, fmt.Errorf("--format %q: want csv or parquet", o.format))
	}
	if o.workers < 0 {
		err = errors.Join(err, fmt.Errorf("--workers %d: want 0 (the default) or more", o.workers))
	}
	return err
}

// runSets returns the --set overrides with --dt, --duration and --scheme
// appended as overrides, so that they are validated like any other field.
func runSets(o runOptions) []string {
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
	if o.solverName != "" {
		sets = append(sets, "solver.type="+o.solverName)
	}
	return sets
}

// load reads and builds the scene with the flags' overrides.
func load(name string, o runOptions) (*scene.Built, error) {
	src, err := newSource(name, o)
	if err != nil {
		return nil, err
	}
	return src.Build()
}

// newSource is the run's source: the scene or model with the flags'
// overrides, model options and keyframe; import warnings go to the model
// flags' stderr (a count, or all with --warnings).
func newSource(name string, o runOptions) (runner.Source, error) {
	src, err := runner.NewSource(name, runSets(o), o.workers)
	if err != nil {
		return src, err
	}
	src.Model, src.Keyframe = o.modelFlags.options(), o.modelFlags.keyframe
	f := o.modelFlags
	src.OnImport = func(im *model.Import) { f.reportWarnings(name, im) }
	return src, nil
}

// runnerOptions turns the flags into runner options for b.
func runnerOptions(o runOptions, b *scene.Built) (runner.Options, error) {
	format, err := record.ParseFormat(o.format)
	if err != nil {
		return runner.Options{}, err
	}
	ro := runner.Options{Out: o.out, Format: format, Source: o.src, EnergyGrowth: o.energyGrowth}
	if o.profile {
		ro.Profile = o.prof
	}
	if o.checkpointEvery > 0 {
		if o.out == "" || format != record.CSV || o.src == nil {
			return ro, errors.New("--checkpoint-every needs --out and CSV output")
		}
		ro.CheckpointEvery = max(1, int(math.Round(o.checkpointEvery/b.Config.DT)))
	}
	return ro, nil
}

// simulate runs b (from o.resume if set) with the progress bar and the
// live view, and returns the summary.
func simulate(b *scene.Built, o runOptions, stderr io.Writer) (record.Summary, error) {
	ro, err := runnerOptions(o, b)
	if err != nil {
		return record.Summary{}, err
	}
	bar := newProgress(stderr, b.Steps, !o.quiet && isTerminal(stderr))
	ro.OnStep = func(s *sim.Simulator, st sim.StepStats) {
		o.live.step(b, s, st.Step, st)
		bar.update(st.Step, st)
	}
	ctx, stop := interrupts()
	defer stop()
	var sum record.Summary
	if o.resume != nil {
		sum, err = runner.Resume(ctx, b, o.resume, ro)
	} else {
		sum, err = runner.Simulate(ctx, b, ro)
	}
	bar.done()
	return sum, err
}

// finishRun prints the summary and the reason a run stopped, and returns
// the exit status: 0 when every step converged, 1 otherwise.
func finishRun(sum record.Summary, err error, o runOptions, stdout, stderr io.Writer) int {
	var stop *runner.StopError
	if err != nil && !errors.As(err, &stop) {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	printSummary(stdout, sum)
	if o.profile {
		fmt.Fprintln(stdout)
		if err := o.prof.Write(stdout); err != nil {
			fmt.Fprintf(stderr, "stiction: %v\n", err)
			return 1
		}
	}
	if stop != nil {
		kept := ""
		if o.out != "" {
			kept = fmt.Sprintf("; the records up to step %d are in %s (summary.json status %q)", sum.Steps, o.out, sum.Status)
		}
		fmt.Fprintf(stderr, "stiction: run %v%s\n", stop, kept)
		return 1
	}
	o.live.wait(stderr)
	if sum.FailedSteps > 0 {
		fmt.Fprintf(stderr, "stiction: %d steps did not converge\n", sum.FailedSteps)
		return 1
	}
	return 0
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
