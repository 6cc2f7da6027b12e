package fclib

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/stiction-sim/stiction/solver"
)

// ErrNotConverged is wrapped by the error of ReportWith for every problem
// whose solve did not converge (its row is written all the same).
var ErrNotConverged = errors.New("not converged")

// Report reads every FCLIB file, solves it with SAP at regularization eps
// and relative tolerance tol (zero values take DefaultEps and DefaultTol),
// and writes a table with one row per problem: name, n (velocities; "-" for
// a local problem), contacts, ε, SAP status, Newton iterations, wall time of
// the solve, the three residuals of Residuals (relaxed, regularised,
// Coulomb) and the number of contacts sticking, sliding and separating.
// Notes on how a matrix was stored follow the table.
//
// A file that cannot be read or mapped gets an error row; Report goes on
// with the others and returns all such errors joined, together with one
// wrapping ErrNotConverged for each solve that stalled or ran out of
// iterations (its row is written as usual). This is the library
// side of `stiction fclib FILE... [--eps E] [--tol T]`.
func Report(w io.Writer, files []string, eps, tol float64) error {
	return ReportWith(w, files, Options{Eps: eps, Tol: tol})
}

// ReportWith is Report with all of Solve's options (the solver, proximal
// refinement); the table counts the solves ("passes") and the solver's
// iterations (Newton iterations, PGS sweeps or interior-point iterations).
func ReportWith(w io.Writer, files []string, opt Options) error {
	opt = opt.withDefaults()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "problem\tn\tcontacts\teps\tstatus\tpasses\titers\ttime\trelaxed\tregularized\tcoulomb\tstick\tslide\tseparate")
	var errs []error
	var notes []string
	for _, file := range files {
		s, err := solveFile(file, opt)
		if err != nil {
			errs = append(errs, err)
			fmt.Fprintf(tw, "%s\terror: %v\n", filepath.Base(file), err)
			continue
		}
		writeRow(tw, filepath.Base(file), s)
		if s.Stats.Status != solver.Converged {
			errs = append(errs, fmt.Errorf("%s: %w: the %s solve ended %s", filepath.Base(file), ErrNotConverged, s.Solver, s.Stats.Status))
		}
		if sym := s.Mapping.Symmetry; sym != Symmetric {
			notes = append(notes, fmt.Sprintf("%s: matrix stored as its %s, read as symmetric", filepath.Base(file), sym))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, "note:", n)
	}
	return errors.Join(errs...)
}

// solveFile reads and solves one file.
func solveFile(file string, opt Options) (*Solution, error) {
	p, err := ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Solve(p, opt)
}

// writeRow writes the table row of one solution.
func writeRow(w io.Writer, name string, s *Solution) {
	n := "-"
	if s.V != nil {
		n = fmt.Sprint(len(s.V))
	}
	r := s.Residuals
	fmt.Fprintf(w, "%s\t%s\t%d\t%.1e\t%s\t%d\t%d\t%s\t%.2e\t%.2e\t%.2e\t%d\t%d\t%d\n",
		name, n, len(s.Mapping.SAP.Params), s.Mapping.Eps, s.Stats.Status, s.Passes, s.Iterations,
		s.Wall.Round(time.Microsecond), r.Relaxed(), r.Regularized(), r.Coulomb(), s.Stick, s.Slide, s.Separate)
}
