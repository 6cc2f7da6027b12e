package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/solver"
)

// Config is what a Simulator needs besides the model and the state.
type Config struct {
	DT        float64            // time step δt in s
	Contact   contact.Params     // contact-model parameters
	Materials []contact.Material // indexed by multibody.Geometry.Material
	Solver    solver.Solver      // contact solver, e.g. sap.New(sap.DefaultParams())
	Scheme    Scheme             // θ-method; the zero Scheme is symplectic Euler
	// Forces are force elements besides gravity and the joints'
	// spring–dampers, which the simulator always applies (from the model).
	Forces []forces.Element
	// NewtonTolerance is the relative tolerance on the Newton update of the
	// free-motion velocities of implicit schemes, ‖Δv‖ ≤ tol (1 + ‖v‖) in the
	// max norm; 0 means 1e-12.
	NewtonTolerance float64
	// MaxNewtonIterations bounds that iteration; 0 means 50.
	MaxNewtonIterations int
	// Constraints are the joint limits, couplers, welds, actuators, joint
	// friction, attachments and prescribed motions (package constraint);
	// nil for none. New validates them against the model and moves the
	// initial state's prescribed joints onto their motion at its time and
	// its attached bodies onto their masters' velocity.
	Constraints *constraint.Set
	// Relinearizations bounds how often an implicit scheme's step is
	// linearized again at its solution and solved again, so that forces,
	// masses and equality constraints are evaluated at the solution's
	// mid-step rather than the free motion's (Newton's method on the
	// constrained momentum balance; needed for the midpoint rule to keep a
	// closed loop's energy). 0: SAP's single linearization (Algorithm 1).
	Relinearizations int
	// Profile turns on the per-stage timers (StepStats.Times, and the
	// refiner's solver.Stats.ResolveTime). Off by default: a clock reading
	// costs about 170 ns on the virtual machines measured (BENCHMARKS.md),
	// 13 per step, a large part of a small robot's step.
	Profile bool
}

// Validate reports an error naming the bad field.
func (c *Config) Validate(nmat int) error {
	if !(c.DT > 0) || math.IsInf(c.DT, 0) {
		return fmt.Errorf("sim: time step %v must be positive and finite", c.DT)
	}
	if err := c.Contact.Validate(); err != nil {
		return err
	}
	if err := c.Scheme.resolved().Validate(); err != nil {
		return err
	}
	if c.NewtonTolerance < 0 || c.MaxNewtonIterations < 0 || math.IsNaN(c.NewtonTolerance) || c.Relinearizations < 0 {
		return fmt.Errorf("sim: Newton tolerance %v and iteration limit %d must be ≥ 0", c.NewtonTolerance, c.MaxNewtonIterations)
	}
	if c.Contact.Sleep.On() && c.Scheme.resolved().Method != ThetaMethod {
		return fmt.Errorf("sim: sleeping (contact sleep steps %d) needs a θ-method scheme, not %v", c.Contact.Sleep.Steps, c.Scheme.resolved().Method)
	}
	if c.Solver == nil {
		return errors.New("sim: no contact solver configured")
	}
	if len(c.Materials) < nmat {
		return fmt.Errorf("sim: geometries use material %d but only %d materials are given", nmat-1, len(c.Materials))
	}
	for i, m := range c.Materials {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("sim: material %d: %w", i, err)
		}
	}
	return nil
}
