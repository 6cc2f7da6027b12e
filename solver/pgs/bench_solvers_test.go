package pgs_test

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/fclib"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
	"github.com/stiction-sim/stiction/solver/ipm"
	"github.com/stiction-sim/stiction/solver/pgs"
	"github.com/stiction-sim/stiction/solver/sap"
)

// sameProblems returns the problems of BenchmarkSameProblem: the captured
// clutter steps and the FCLIB global problems at ε = 1e-2.
func sameProblems(b *testing.B) (names []string, probs []*solver.Problem, warm [][]float64) {
	for _, step := range []int{20, 35, 60} {
		c, err := problems.Load(fmt.Sprintf("../internal/problems/testdata/clutter_step_%d.gob", step))
		if err != nil {
			b.Fatal(err)
		}
		names, probs, warm = append(names, fmt.Sprintf("clutter-%d", step)), append(probs, c.P), append(warm, c.V0)
	}
	for _, f := range []string{"Box_Stacks-i0122-82-5", "LMGC_GlobalFrictionContactProblem00046"} {
		p, err := fclib.ReadFile("../../fclib/testdata/" + f + ".hdf5")
		if err != nil {
			b.Fatal(err)
		}
		m, err := fclib.NewMapping(p, 1e-2)
		if err != nil {
			b.Fatal(err)
		}
		names, probs, warm = append(names, f), append(probs, m.SAP), append(warm, nil)
	}
	return names, probs, warm
}

// BenchmarkSameProblem solves the same problems with SAP (εr = 1e-8), the
// interior-point solver (gap 1e-12) and PGS (εr = 1e-8, same R), from the
// simulator's warm start (clutter) or v* (FCLIB), and reports each
// solver's iterations (Newton iterations, interior-point iterations,
// sweeps) per solve. BENCHMARKS.md, "Same problem, several solvers".
func BenchmarkSameProblem(b *testing.B) {
	names, probs, warm := sameProblems(b)
	mk := map[string]func() solver.Solver{
		"sap": func() solver.Solver {
			prm := sap.DefaultParams()
			prm.RelTolerance = 1e-8
			return sap.New(prm)
		},
		"ipm": func() solver.Solver { return ipm.New() },
		"pgs": func() solver.Solver {
			g := pgs.NewGlobal()
			g.Settings.RelTolerance, g.Settings.MaxIterations = 1e-8, 100000
			return g
		},
	}
	for i, name := range names {
		for _, sv := range []string{"sap", "ipm", "pgs"} {
			b.Run(name+"/"+sv, func(b *testing.B) {
				s := mk[sv]()
				var res solver.Result
				for b.Loop() {
					if err := s.Solve(probs[i], warm[i], &res); err != nil {
						b.Fatal(err)
					}
				}
				if res.Stats.Status != solver.Converged {
					b.Errorf("%v", res.Stats.Status)
				}
				b.ReportMetric(float64(res.Stats.Iterations), "iterations")
				b.ReportMetric(float64(len(probs[i].Constraints)), "contacts")
			})
		}
	}
}
