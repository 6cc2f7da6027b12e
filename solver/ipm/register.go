package ipm

import "github.com/stiction-sim/stiction/solver"

// Name is the name the interior-point solver is registered under.
const Name = "ipm"

func init() {
	solver.Register(Name, func(p solver.Params) solver.Solver {
		s := New()
		s.Settings.MaxIter = p.MaxIterations
		s.RelTolerance, s.AbsTolerance = p.Tolerance, p.AbsTolerance
		return s
	})
}
