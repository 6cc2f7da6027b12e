package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/stiction-sim/stiction/fclib"
)

// cmdFclib solves FCLIB problem files with SAP and prints the residual table.
func cmdFclib(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fclib", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt fclib.Options
	fs.Float64Var(&opt.Eps, "eps", fclib.DefaultEps, "regularization R = eps·w_i (Delassus diagonal estimate)")
	fs.Float64Var(&opt.Tol, "tol", fclib.DefaultTol, "SAP relative tolerance εr")
	fs.IntVar(&opt.Refine, "refine", 0, "maximum proximal refinement passes (0: a single SAP solve)")
	fs.Float64Var(&opt.RefineTol, "refine-tol", 1e-10, "stop refining once the convex-relaxation residual is below this")
	fs.IntVar(&opt.MaxIterations, "max-iter", fclib.DefaultMaxIterations, "SAP Newton iteration limit per solve")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "stiction fclib: want at least one FCLIB .hdf5 file\n%s", usage)
		return 2
	}
	if !(opt.Eps > 0) || !(opt.Tol > 0 && opt.Tol < 1) || opt.Refine < 0 {
		fmt.Fprintf(stderr, "stiction fclib: need --eps > 0, 0 < --tol < 1, --refine ≥ 0 (got %g, %g, %d)\n", opt.Eps, opt.Tol, opt.Refine)
		return 2
	}
	if err := fclib.ReportWith(stdout, files, opt); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	return 0
}
