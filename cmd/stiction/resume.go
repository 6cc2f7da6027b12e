package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/stiction-sim/stiction/runner"
)

// cmdResume continues a run from one of its checkpoints.
func cmdResume(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runOptions
	registerRunFlags(fs, &o)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "stiction resume: want one checkpoint file, got %d arguments\n%s", len(pos), usage)
		return 2
	}
	if err := checkRunFlags(fs, o); err != nil {
		fmt.Fprintf(stderr, "stiction resume: %v\n", err)
		return 2
	}
	c, err := runner.ReadCheckpoint(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	src := c.Source
	if o.duration != 0 {
		src.Sets = append(src.Sets, "duration="+strconv.FormatFloat(o.duration, 'g', -1, 64))
	}
	b, err := src.Build()
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	from := runner.RunDir(pos[0])
	if o.out == "" {
		o.out = from
	} else if !sameDir(o.out, from) {
		if err := runner.CopyRun(from, o.out, c.Offsets); err != nil {
			fmt.Fprintf(stderr, "stiction: %v\n", err)
			return 2
		}
	}
	o.src, o.resume = &src, c
	sum, err := simulate(b, o, stderr)
	return finishRun(sum, err, o, stdout, stderr)
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
