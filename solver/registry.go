package solver

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// Params are the settings a solver is built with by name (New). Each
// solver reads the fields it understands and ignores the others.
type Params struct {
	// Tolerance is the relative tolerance εr of the optimality criterion
	// (SAP eq. 26: ‖D∇ℓp‖ ≤ εa + εr max(‖D A v‖, ‖D Jᵀγ‖)), in (0, 1).
	Tolerance float64
	// AbsTolerance is εa of the same criterion, ≥ 0.
	AbsTolerance float64
	// MaxIterations bounds the solver's iterations (Newton iterations for
	// SAP, sweeps for PGS, interior-point iterations for the IPM), ≥ 1.
	MaxIterations int
	// Omega is PGS's over-relaxation factor ω, in (0, 2); 1 is plain
	// Gauss–Seidel. Zero means 1.
	Omega float64
	// LineSearch is SAP's line search, "exact" or "backtracking"; empty
	// means the solver's default.
	LineSearch string
	// DT is the time step of the problems the solver will see, s; solvers
	// whose constraint model depends on it (Drumwright's ζ = 1/h) use it.
	// Zero means unknown (such a solver then assumes 10 ms).
	DT float64
}

// DefaultParams returns εr = 1e-6, εa = 1e-16, 100 iterations and ω = 1.
func DefaultParams() Params {
	return Params{Tolerance: 1e-6, AbsTolerance: 1e-16, MaxIterations: 100, Omega: 1}
}

// Check validates the parameters common to every solver.
func (p Params) Check() error {
	switch {
	case !(p.Tolerance > 0 && p.Tolerance < 1):
		return fmt.Errorf("solver: tolerance %v must be in (0, 1)", p.Tolerance)
	case !(p.AbsTolerance >= 0) || math.IsInf(p.AbsTolerance, 0):
		return fmt.Errorf("solver: absolute tolerance %v must be finite and ≥ 0", p.AbsTolerance)
	case p.MaxIterations < 1:
		return fmt.Errorf("solver: max iterations %d must be ≥ 1", p.MaxIterations)
	case p.Omega != 0 && !(p.Omega > 0 && p.Omega < 2):
		return fmt.Errorf("solver: over-relaxation ω = %v must be in (0, 2)", p.Omega)
	}
	return nil
}

// Constructor makes a new solver from validated parameters. A solver
// package registers one from its init function (Register).
type Constructor func(Params) Solver

var registry = struct {
	sync.RWMutex
	m map[string]Constructor
}{m: map[string]Constructor{}}

// Register makes a solver available by name to New, scenes
// (solver.type) and the command line (--solver). It panics if the name is
// empty or already registered, or the constructor is nil: registration is
// a program's static wiring, done from init functions.
func Register(name string, c Constructor) {
	registry.Lock()
	defer registry.Unlock()
	if name == "" || c == nil {
		panic("solver: Register with an empty name or a nil constructor")
	}
	if _, dup := registry.m[name]; dup {
		panic("solver: Register called twice for " + name)
	}
	registry.m[name] = c
}

// Names returns the registered solver names, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Registered reports whether a solver of that name is registered.
func Registered(name string) bool {
	registry.RLock()
	defer registry.RUnlock()
	_, ok := registry.m[name]
	return ok
}

// New returns a new solver of the registered name, built with p. It
// returns an error naming the registered solvers when name is unknown, and
// an error when p is invalid.
func New(name string, p Params) (Solver, error) {
	registry.RLock()
	c, ok := registry.m[name]
	registry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("solver: unknown solver %q (registered: %v)", name, Names())
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("solver %s: %w", name, err)
	}
	return c(p), nil
}

// Maker returns a function that makes new solvers of the registered name
// with p (for island solvers, which need one per worker), after checking
// the name and p once.
func Maker(name string, p Params) (func() Solver, error) {
	if _, err := New(name, p); err != nil {
		return nil, err
	}
	registry.RLock()
	c := registry.m[name]
	registry.RUnlock()
	return func() Solver { return c(p) }, nil
}
