package sap

import "github.com/stiction-sim/stiction/solver"

// Name is the name SAP is registered under (solver.New, scenes'
// solver.type, --solver).
const Name = "sap"

func init() { solver.Register(Name, func(p solver.Params) solver.Solver { return New(FromParams(p)) }) }

// FromParams returns DefaultParams with the tolerances, the iteration
// limit and the line search ("exact", "backtracking"; anything else keeps
// the default) of p.
func FromParams(p solver.Params) Params {
	sp := DefaultParams()
	sp.RelTolerance, sp.AbsTolerance, sp.MaxIterations = p.Tolerance, p.AbsTolerance, p.MaxIterations
	switch p.LineSearch {
	case "exact":
		sp.LineSearch = ExactLineSearch
	case "backtracking":
		sp.LineSearch = BacktrackingLineSearch
	}
	return sp
}
