package sap_test

import (
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// robotProblems returns the contact problems (MuJoCo's pyramid rows) and
// warm starts of steps 10, 20, … 400 of the dm_control suite model name
// (its own δt, zero control).
func robotProblems(b *testing.B, name string) ([]*solver.Problem, [][]float64) {
	path := filepath.Join("..", "..", "internal", "mjref", "testdata", "dm_control", "suite", name+".xml")
	sc, _, err := load.Scene(path, nil, load.Options{})
	if err != nil {
		b.Fatal(err)
	}
	bl, err := scene.Build(sc)
	if err != nil {
		b.Fatal(err)
	}
	c := &capture{inner: bl.Stack.Solver().(*sap.Solver)}
	captureWhole(b, bl, c)
	s, err := sim.New(bl.Model, bl.State, bl.Config)
	if err != nil {
		b.Fatal(err)
	}
	var ps []*solver.Problem
	var v0s [][]float64
	for k := 1; k <= 400; k++ {
		if err := s.Advance(); err != nil {
			b.Fatal(err)
		}
		if k%10 == 0 && c.p.NR > 0 {
			ps = append(ps, c.p.Clone())
			v0s = append(v0s, c.v0)
		}
	}
	return ps, v0s
}

// BenchmarkSolveRobot times SAP's solves of the contact problems of the
// dm_control walker, hopper and humanoid (robotProblems; ns/op is the
// solve of all of them, with the solver's parameters of the model;
// cpu-ns/solve the process CPU time of one, which waiting for a core on
// a shared machine does not inflate):
//
//	go test ./solver/sap -run XXX -bench SolveRobot -benchtime 2000x -count 5
func BenchmarkSolveRobot(b *testing.B) {
	for _, name := range []string{"walker", "hopper", "humanoid"} {
		b.Run(name, func(b *testing.B) {
			ps, v0s := robotProblems(b, name)
			if len(ps) == 0 {
				b.Skip("no contact problem")
			}
			path := filepath.Join("..", "..", "internal", "mjref", "testdata", "dm_control", "suite", name+".xml")
			sc, _, _ := load.Scene(path, nil, load.Options{})
			bl, _ := scene.Build(sc)
			s := sap.New(bl.Stack.Solver().(*sap.Solver).Params())
			var res solver.Result
			iters := 0
			for i, p := range ps { // warm-up
				if err := s.Solve(p, v0s[i], &res); err != nil {
					b.Fatal(err)
				}
				iters += res.Stats.Iterations
			}
			b.ReportAllocs()
			cpu := -cputime.Process()
			for b.Loop() {
				for i, p := range ps {
					if err := s.Solve(p, v0s[i], &res); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu += cputime.Process()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(ps)), "cpu-ns/solve")
			b.ReportMetric(float64(len(ps)), "problems")
			b.ReportMetric(float64(iters)/float64(len(ps)), "iterations")
		})
	}
}
