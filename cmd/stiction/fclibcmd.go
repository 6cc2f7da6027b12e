package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stiction-sim/stiction/fclib"
	"github.com/stiction-sim/stiction/solver"
)

// cmdFclib solves FCLIB problem files with a registered solver (SAP by
// default) and prints the residual table.
func cmdFclib(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fclib", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt fclib.Options
	fs.StringVar(&opt.Solver, "solver", fclib.DefaultSolver, "solver: "+strings.Join(solver.Names(), ", "))
	fs.Float64Var(&opt.Eps, "eps", fclib.DefaultEps, "regularization R = eps·w_i (Delassus diagonal estimate)")
	fs.Float64Var(&opt.Tol, "tol", fclib.DefaultTol, "relative tolerance εr of SAP's criterion (eq. 26), for any solver")
	fs.IntVar(&opt.Refine, "refine", 0, "maximum proximal refinement passes (0: a single SAP solve)")
	fs.Float64Var(&opt.RefineTol, "refine-tol", 1e-10, "stop refining once the convex-relaxation residual is below this")
	fs.IntVar(&opt.MaxIterations, "max-iter", 0, fmt.Sprintf("iteration limit per solve (0: %d, or %d PGS sweeps)", fclib.DefaultMaxIterations, fclib.DefaultPGSIterations))
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "stiction fclib: want at least one FCLIB .hdf5 file\n%s", usage)
		return 2
	}
	if !solver.Registered(opt.Solver) {
		fmt.Fprintf(stderr, "stiction fclib: --solver %q: want one of %s\n", opt.Solver, strings.Join(solver.Names(), ", "))
		return 2
	}
	if !(opt.Eps > 0) || !(opt.Tol > 0 && opt.Tol < 1) || opt.Refine < 0 || opt.MaxIterations < 0 {
		fmt.Fprintf(stderr, "stiction fclib: need --eps > 0, 0 < --tol < 1, --refine ≥ 0 (got %g, %g, %d)\n", opt.Eps, opt.Tol, opt.Refine)
		return 2
	}
	if err := fclib.ReportWith(stdout, files, opt); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	return 0
}
