package stack

import (
	"errors"
	"fmt"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/island"
)

// The engine's defaults for the refinement of Lagged contacts.
const (
	// DefaultLagResolves is how many times a step may re-solve with its
	// Lagged normal impulses updated (scene contact.lag_iterations).
	DefaultLagResolves = 2
	// DefaultLagTolerance is the relative change of a Lagged contact's
	// normal impulse that makes the solver solve the step again with it.
	DefaultLagTolerance = 0.01
	// DefaultLagSlideTolerance is DefaultLagTolerance for a sliding
	// contact, whose friction is μ times its lagged normal impulse.
	DefaultLagSlideTolerance = 1e-4
	// DefaultWorkers is the island-solver workers of a scene's stack: its
	// problems are split into islands, solved in the caller's goroutine (a
	// one-island problem is solved whole, with the refined solver's bits).
	DefaultWorkers = 1
)

// Lag is the refinement of Lagged contacts (solver.LaggedRefiner).
type Lag struct {
	Resolves       int     // re-solves per solve (0: none)
	Tolerance      float64 // relative change of n0 that triggers a re-solve
	SlideTolerance float64 // the same for a sliding contact
}

// DefaultLag returns the engine's refinement: DefaultLagResolves re-solves
// at DefaultLagTolerance, DefaultLagSlideTolerance when sliding.
func DefaultLag() Lag {
	return Lag{Resolves: DefaultLagResolves, Tolerance: DefaultLagTolerance, SlideTolerance: DefaultLagSlideTolerance}
}

// Spec describes a solver stack.
type Spec struct {
	// Solver makes the chosen contact solver, a new one per call (the
	// island solver makes one per worker).
	Solver func() solver.Solver
	Lag    Lag // the refiner around each chosen solver (Lag.Resolves = 0: it only passes through)
	// Workers > 0 splits each problem into its islands (solver/island),
	// solved on that many workers; 0 solves it whole.
	Workers int
	// AbsTolerance and RelTolerance are εa and εr of SAP eq. 26, by which
	// the island solver judges the merged solution.
	AbsTolerance, RelTolerance float64
}

// Check reports an error naming the bad field.
func (s *Spec) Check() error {
	switch {
	case s.Solver == nil:
		return errors.New("stack: no solver")
	case s.Lag.Resolves < 0:
		return fmt.Errorf("stack: %d Lagged re-solves: want ≥ 0", s.Lag.Resolves)
	case s.Workers < 0:
		return fmt.Errorf("stack: %d workers: want 0 (one solve) or more", s.Workers)
	}
	return nil
}

// Refined returns a maker of the chosen solver wrapped in the refiner:
// what solves one island, or the whole problem without islands.
func (s *Spec) Refined() func() solver.Solver {
	mk, lag := s.Solver, s.Lag
	return func() solver.Solver {
		return &solver.LaggedRefiner{Inner: mk(), Tolerance: lag.Tolerance, SlideTolerance: lag.SlideTolerance, MaxResolves: lag.Resolves}
	}
}

// Build returns the stack: the refined solver, inside an island solver
// when Workers > 0. The caller closes an island solver (island.Solver.Close)
// when done with it.
func (s *Spec) Build() (solver.Solver, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	mk := s.Refined()
	if s.Workers == 0 {
		return mk(), nil
	}
	is := island.New(mk, s.Workers)
	is.SetTolerance(s.AbsTolerance, s.RelTolerance)
	return is, nil
}
