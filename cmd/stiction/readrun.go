package main

import (
	"fmt"
	"io"

	"github.com/stiction-sim/stiction/record"
)

// readRun reads a run directory for plot, export and view, and prints
// what was dropped while reading (a killed run's incomplete last rows) as
// warnings.
func readRun(dir string, stderr io.Writer) (*record.Run, error) {
	run, err := record.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	for _, w := range run.Warnings {
		fmt.Fprintf(stderr, "stiction: warning: %s: %s\n", dir, w)
	}
	return run, nil
}
