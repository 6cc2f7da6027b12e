package pgs

import "github.com/stiction-sim/stiction/solver"

// Name is the name Global is registered under (solver.New, scenes'
// solver.type, --solver).
const Name = "pgs"

func init() {
	solver.Register(Name, func(p solver.Params) solver.Solver {
		g := NewGlobal()
		g.Settings.RelTolerance, g.Settings.AbsTolerance, g.Settings.MaxIterations = p.Tolerance, p.AbsTolerance, p.MaxIterations
		if p.Omega != 0 {
			g.Settings.Omega = p.Omega
		}
		return g
	})
}
