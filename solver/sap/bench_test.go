package sap_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// capture is a solver.Solver that solves with SAP and keeps a deep copy of
// the last problem and warm start.
type capture struct {
	inner *sap.Solver
	p     solver.Problem
	v0    []float64
}

func (c *capture) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	c.p = *p.Clone()
	c.v0 = slices.Clone(v0)
	return c.inner.Solve(p, v0, res)
}

// captureWhole rebuilds bl's solver stack around c without islands (the
// benchmarks time SAP on whole problems).
func captureWhole(b testing.TB, bl *scene.Built, c *capture) {
	bl.Stack.Solver = func() solver.Solver { return c }
	bl.Stack.Workers = 0
	sv, err := bl.Stack.Build()
	if err != nil {
		b.Fatal(err)
	}
	bl.Config.Solver = sv
}

// clutterProblem returns the contact problem of step 150 of
// scene.ClutterN(n, walls) (objects landing on the pile) and its warm start.
func clutterProblem(b *testing.B, n int, walls bool) (*solver.Problem, []float64) {
	sc, err := scene.LoadClutterN(n, walls, []string{"duration=10"})
	if err != nil {
		b.Fatal(err)
	}
	bl, err := scene.Build(sc)
	if err != nil {
		b.Fatal(err)
	}
	prm := bl.Stack.Solver().(*sap.Solver).Params() // the scenes' default
	prm.Linear = sap.SparseLinear
	c := &capture{inner: sap.New(prm)}
	captureWhole(b, bl, c) // the last problem captured is the step's last (re-)solve
	s, err := sim.New(bl.Model, bl.State, bl.Config)
	if err != nil {
		b.Fatal(err)
	}
	for range 150 {
		if _, err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
	return &c.p, c.v0
}

// BenchmarkSolveClutter times one SAP solve of a clutter contact problem
// (step 150, walls) with the dense and the sparse Newton system, for 40, 160
// and 640 bodies (dense up to 160).
func BenchmarkSolveClutter(b *testing.B) {
	for _, n := range []int{40, 160, 640} {
		p, v0 := clutterProblem(b, n, true)
		for _, lin := range []sap.Linear{sap.DenseLinear, sap.SparseLinear} {
			if lin == sap.DenseLinear && n > 160 {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%v", n, lin), func(b *testing.B) {
				prm := sap.DefaultParams()
				prm.Linear = lin
				s := sap.New(prm)
				var res solver.Result
				if err := s.Solve(p, v0, &res); err != nil { // warm-up: buffers and the symbolic analysis
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := s.Solve(p, v0, &res); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Stats.Iterations), "iterations")
				b.ReportMetric(float64(p.NumConstraints()), "contacts")
			})
		}
	}
}

// BenchmarkSolveClutterKernels times the sparse SAP solve of the clutter
// problems of BenchmarkSolveClutter with each choice of dense kernels.
func BenchmarkSolveClutterKernels(b *testing.B) {
	for _, n := range []int{40, 160, 640} {
		p, v0 := clutterProblem(b, n, true)
		for _, k := range []linalg.Kernels{linalg.AutoKernels, linalg.Loops, linalg.BLAS} {
			b.Run(fmt.Sprintf("n=%d/%v", n, k), func(b *testing.B) {
				prm := sap.DefaultParams()
				prm.Linear, prm.Kernels = sap.SparseLinear, k
				s := sap.New(prm)
				var res solver.Result
				for b.Loop() {
					if err := s.Solve(p, v0, &res); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
