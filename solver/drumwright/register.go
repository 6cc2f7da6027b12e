package drumwright

import "github.com/stiction-sim/stiction/solver"

// Name is the name Drumwright's solver is registered under (solver.New,
// scenes' solver.type, --solver).
const Name = "drumwright"

// RegistryParams returns the parameters of a solver built by name: ζ =
// 1/h at the scene's time step dt (10 ms when dt is 0; ζ acts only on rows
// in D.'s inequality form and in the interior-point fallback of the normal
// stage, see solveStages), and the registry's iteration limit bounds the
// interior-point iterations of each cone solve.
func RegistryParams(dt float64, maxIterations int) Params {
	if !(dt > 0) {
		dt = 0.01
	}
	p := DefaultParams(dt)
	if maxIterations > 0 {
		p.Cone.MaxIter = maxIterations
	}
	return p
}

func init() {
	solver.Register(Name, func(p solver.Params) solver.Solver { return New(RegistryParams(p.DT, p.MaxIterations)) })
}
