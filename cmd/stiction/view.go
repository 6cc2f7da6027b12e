package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/viewer"
)

// viewFlags are the flags that start the viewer: --port and --addr for
// "stiction view", and also --view for "stiction run".
type viewFlags struct {
	view bool
	port int
	addr string
	live *liveView // set by startLive when --view is given
}

// register adds --port and --addr to fs, and --view when live is true.
func (v *viewFlags) register(fs *flag.FlagSet, live bool) {
	fs.IntVar(&v.port, "port", viewer.DefaultPort, "viewer TCP port (0 picks a free one)")
	fs.StringVar(&v.addr, "addr", viewer.DefaultAddr, "viewer listening address; the default listens on loopback only")
	if live {
		fs.BoolVar(&v.view, "view", false, "serve the viewer and stream the run to it while it goes")
	}
}

// cmdView serves the viewer for a run directory until interrupted, or
// with --live an interactive session of a model or scene.
func cmdView(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runOptions
	o.viewFlags.register(fs, false)
	o.liveFlags.register(fs)
	fs.Var(&o.sets, "set", "with --live: override a scene field: path=value (repeatable)")
	o.modelFlags.register(fs)
	o.modelFlags.stderr = stderr
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		what := "run directory"
		if o.session {
			what = "model or scene"
		}
		fmt.Fprintf(stderr, "stiction view: want one %s, got %d arguments\n%s", what, len(pos), usage)
		return 2
	}
	if o.session {
		return cmdViewLive(pos[0], o, stderr)
	}
	v := o.viewFlags
	run, err := readRun(pos[0], stderr)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	ln, err := viewer.Listen(v.addr, v.port)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "stiction: viewing %s at %s (Ctrl-C to stop)\n", pos[0], viewer.URL(ln))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := viewer.Serve(ctx, ln, viewer.FeedFromRun(run)); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	return 0
}

// liveView streams a running simulation to the viewer.
type liveView struct {
	feed   *viewer.Feed
	ln     net.Listener
	cancel context.CancelFunc
	served chan error
}

// startLive starts the viewer for a live run of b when --view was given; it
// returns nil otherwise.
func startLive(v viewFlags, b *scene.Built, stderr io.Writer) (*liveView, error) {
	if !v.view {
		return nil, nil
	}
	ln, err := viewer.Listen(v.addr, v.port)
	if err != nil {
		return nil, err
	}
	l := &liveView{ln: ln, served: make(chan error, 1)}
	l.feed = viewer.NewFeed(record.DescribeScene(b.Name, b.Config.DT, b.RecordEvery, b.Model, b.State))
	l.feed.AddFrame(viewer.FrameFromState(b.Model, b.State, nil, nil, b.Config.DT))
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	l.cancel = cancel
	go func() { l.served <- viewer.Serve(ctx, ln, l.feed) }()
	fmt.Fprintf(stderr, "stiction: live view at %s\n", viewer.URL(ln))
	return l, nil
}

// step publishes step i (of b.Steps) of simulator s; a nil l does nothing.
func (l *liveView) step(b *scene.Built, s *sim.Simulator, i int, st sim.StepStats) {
	if l == nil {
		return
	}
	l.feed.AddStep(record.StepValues(st))
	if i%b.RecordEvery == 0 || i == b.Steps {
		fr := viewer.FrameFromState(s.Model, s.State, s.Contacts(), s.Impulses(), b.Config.DT)
		viewer.AddConstraints(&fr, s.ConstraintReports(), b.Config.DT)
		l.feed.AddFrame(fr)
	}
}

// wait marks the run finished and serves until interrupted; a nil l
// returns at once.
func (l *liveView) wait(stderr io.Writer) {
	if l == nil {
		return
	}
	l.feed.Finish()
	fmt.Fprintf(stderr, "stiction: run finished; still serving %s (Ctrl-C to stop)\n", viewer.URL(l.ln))
	if err := <-l.served; err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
	}
	l.cancel()
}
