package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/viewer"
)

// liveFlags are the flags of an interactive session (view --live, run
// --view --live).
type liveFlags struct {
	session   bool
	rate      float64
	paused    bool
	recordDir string
}

func (l *liveFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&l.session, "live", false, "interactive session: simulate in this process and let the page pause, step, reset, perturb and drive it (docs/VIEWER.md)")
	fs.Float64Var(&l.rate, "rate", 1, "with --live: real-time factor (0: as fast as possible)")
	fs.BoolVar(&l.paused, "paused", false, "with --live: start paused")
	fs.StringVar(&l.recordDir, "record-dir", ".", "with --live: folder for the run directories the page's record button writes")
}

// cmdViewLive serves an interactive session of model or scene name until
// interrupted.
func cmdViewLive(name string, o runOptions, stderr io.Writer) int {
	if !(o.liveFlags.rate >= 0) || o.liveFlags.rate > viewer.MaxRate || math.IsInf(o.liveFlags.rate, 0) {
		fmt.Fprintf(stderr, "stiction: --rate %v: want 0 (as fast as possible) to %v\n", o.liveFlags.rate, viewer.MaxRate)
		return 2
	}
	opt := viewer.SessionOptions{Rate: o.liveFlags.rate, Paused: o.liveFlags.paused, RecordDir: o.liveFlags.recordDir, Models: modelList(name)}
	s, err := viewer.NewSession(sessionLoader(o), name, opt)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	ln, err := viewer.Listen(o.addr, o.port)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	token, url := "", viewer.URL(ln)
	if viewer.NeedsToken(ln) {
		token = viewer.NewToken()
		url += "?token=" + token
		fmt.Fprintf(stderr, "stiction: listening beyond loopback: pages control the session only with the token in this URL\n")
	}
	fmt.Fprintf(stderr, "stiction: live session of %s at %s (Ctrl-C to stop)\n", name, url)
	ctx, stop := interrupts()
	defer stop()
	go s.Run(ctx)
	if err := viewer.ServeHandler(ctx, ln, viewer.LiveHandler(s, token)); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	return 0
}

// sessionLoader builds models and scenes with the flags' overrides and
// model options, at a keyframe ("" for the flags' --keyframe).
func sessionLoader(o runOptions) viewer.Loader {
	return func(name, key string) (*scene.Built, []string, error) {
		src, err := newSource(name, o)
		if err != nil {
			return nil, nil, err
		}
		if key != "" {
			src.Keyframe = key
		}
		sc, im, err := src.Load() // once: the keyframe names and the build share it
		if err != nil {
			return nil, nil, err
		}
		names := sc.KeyframeNames()
		b, err := src.BuildLoaded(sc, im)
		if err != nil {
			return nil, nil, err
		}
		return b, names, nil
	}
}

// modelList is the page's model list: the embedded scenes, the embedded
// robot models and the session's first model.
func modelList(first string) []string {
	out := scene.Names()
	for _, m := range embedded.Models() {
		out = append(out, m.URI)
	}
	for _, n := range out {
		if n == first {
			return out
		}
	}
	return append([]string{first}, out...)
}
