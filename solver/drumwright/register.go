package drumwright

// Name is the name Drumwright's solver is registered under (solver.New,
// scenes' solver.type, --solver).
const Name = "drumwright"

// RegistryParams returns the parameters of a solver built by name: the
// registry passes no time step, so ζ = 1/h is taken at h = 10 ms (ζ = 100;
// it acts only on rows in D.'s inequality form and in the interior-point
// fallback of the normal stage, see solveStages), and the registry's
// iteration limit bounds the interior-point iterations of each cone solve.
func RegistryParams(maxIterations int) Params {
	p := DefaultParams(0.01)
	if maxIterations > 0 {
		p.Cone.MaxIter = maxIterations
	}
	return p
}

// The registration, for when this branch has solver.Register (it is on
// main; this branch was cut before it, so the call would not compile here).
// After the merge, add "github.com/stiction-sim/stiction/solver" to the
// imports and uncomment:
//
// func init() {
// 	solver.Register(Name, func(p solver.Params) solver.Solver { return New(RegistryParams(p.MaxIterations)) })
// }
