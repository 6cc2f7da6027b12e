package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/viewer"
)

// cmdExport writes a run directory as a glTF binary.
func cmdExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("gltf", "", "output glTF binary file (.glb)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *out == "" {
		fmt.Fprintf(stderr, "stiction export: want one run directory and --gltf OUT.glb\n%s", usage)
		return 2
	}
	run, err := readRun(pos[0], stderr)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	if err := writeGLB(*out, run); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %d bodies, %d frames\n", *out, len(run.Scene.Bodies), len(run.Frames))
	return 0
}

func writeGLB(path string, run *record.Run) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = viewer.WriteGLB(f, run)
	if cerr := f.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("%s: %w", path, cerr))
	}
	return err
}
