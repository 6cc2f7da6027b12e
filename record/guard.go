package record

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// DefaultEnergyGrowth is the default blow-up factor of a Guard: a run is
// stopped when its kinetic energy exceeds this many times the energy scale
// of its initial state.
const DefaultEnergyGrowth = 1e6

// Guard detects divergence after each step: a non-finite state or
// statistic, or kinetic energy above MaxKineticEnergy.
type Guard struct {
	Model *multibody.Model
	// MaxKineticEnergy is the blow-up limit in J; +Inf turns the energy
	// check off.
	MaxKineticEnergy float64
}

// NewGuard returns a Guard whose energy limit is growth times the energy
// scale E = max(KE₀ + |PE₀|, Σ mᵢ‖g‖·(1 m), 1 J) of the initial state s
// with potential energy pe0; growth ≤ 0 or +Inf turns the energy check off.
func NewGuard(m *multibody.Model, s *multibody.State, pe0, growth float64) Guard {
	g := Guard{Model: m, MaxKineticEnergy: math.Inf(1)}
	if !(growth > 0) || math.IsInf(growth, 1) {
		return g
	}
	g.MaxKineticEnergy = growth * energyScale(m, s, pe0)
	return g
}

// DivergedError says at which step and why a run diverged; its message
// gives the time and the reason.
type DivergedError struct {
	Step   int
	T      float64
	Reason string
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("t = %.6g s: %s", e.T, e.Reason)
}

// Check returns a *DivergedError if the step that produced st and left s
// diverged, and nil otherwise. It does not allocate unless it fails.
func (g Guard) Check(st sim.StepStats, s *multibody.State) error {
	fail := func(format string, a ...any) error {
		return &DivergedError{Step: st.Step, T: st.T, Reason: fmt.Sprintf(format, a...)}
	}
	if err := g.Model.CheckFinite(s); err != nil {
		return fail("the state is not finite: %v", err)
	}
	switch {
	case !finite(st.KineticEnergy):
		return fail("kinetic energy %v", st.KineticEnergy)
	case !finite(st.PotentialEnergy):
		return fail("potential energy %v", st.PotentialEnergy)
	case !finite(st.MomentumError):
		return fail("momentum error e_m = %v", st.MomentumError)
	case st.KineticEnergy > g.MaxKineticEnergy:
		return fail("kinetic energy %.3g J exceeds the blow-up limit %.3g J (--max-energy-growth)", st.KineticEnergy, g.MaxKineticEnergy)
	}
	return nil
}
