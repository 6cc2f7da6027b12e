package fclib

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"gonum.org/v1/gonum/floats"
)

// globalFiles are the FCLIB global problems of testdata.
var globalFiles = []string{
	"Box_Stacks-i0122-82-5.hdf5", "CubeH8.hdf5", "LMGC_GFC3D-i00001-1-00000.hdf5", "LMGC_GlobalFrictionContactProblem00046.hdf5",
}

// relInf returns ‖a − b‖∞ / ‖b‖∞.
func relInf(a, b []float64) float64 {
	return floats.Distance(a, b, math.Inf(1)) / floats.Norm(b, math.Inf(1))
}

// TestSolversAgreeOnGlobalProblems: on every FCLIB global problem of
// testdata, with the same regularization (ε = 1e-2: R = ε w_i), SAP
// (εr = 1e-10), the interior-point solver and PGS (εr = 1e-8 of SAP's
// criterion eq. 26 at their velocities) converge and reach the same
// velocities to 1e-6 relative (‖Δv‖∞/‖v‖∞). The iterations and times are
// logged (BENCHMARKS.md, "Same problem, several solvers").
func TestSolversAgreeOnGlobalProblems(t *testing.T) {
	for _, name := range globalFiles {
		p := readProblem(t, name)
		sols := map[string]*Solution{}
		for _, o := range []Options{
			{Solver: "sap", Eps: 1e-2, Tol: 1e-10},
			{Solver: "ipm", Eps: 1e-2, Tol: 1e-8},
			{Solver: "pgs", Eps: 1e-2, Tol: 1e-8, MaxIterations: 20000},
		} {
			s, err := Solve(p, o)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, o.Solver, err)
			}
			t.Logf("%s: %s %v after %d iterations in %v, e_m %.1e", name, o.Solver, s.Stats.Status, s.Iterations, s.Wall, s.Stats.MomentumError)
			if s.Stats.Status != solver.Converged {
				t.Errorf("%s, %s: %v after %d iterations", name, o.Solver, s.Stats.Status, s.Iterations)
			}
			sols[o.Solver] = s
		}
		ref := sols["sap"].V
		for _, other := range []string{"ipm", "pgs"} {
			if d := relInf(sols[other].V, ref); d > 1e-6 {
				t.Errorf("%s: %s's velocities differ from SAP's by %.1e relative", name, other, d)
			}
		}
	}
}
