package drumwright

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/opt/socp"
)

// Params are the solver's parameters.
type Params struct {
	// Zeta is ζ, the weight of the normal (and unilateral) impulses in the
	// objective of D. eq. 99/124 relative to the friction impulses and
	// their deviations β. D. §6.1 uses 1/h; DefaultParams does the same. It
	// matters only for rows in D.'s inequality form (see solveStages) and
	// in the interior-point fallback of the normal stage.
	Zeta float64
	// MaxOuter bounds the joint solves of one step (solveStages, one per
	// change of the active set); Tolerance·(1 + max γ_u) is the impulse by
	// which an inactive row's spring may push before it joins the active
	// set.
	MaxOuter  int
	Tolerance float64
	// Cone holds the interior-point settings of the QCQP (opt/socp).
	Cone socp.Settings
}

// DefaultParams returns ζ = 1/h (D. §6.1) for the time step h, at most
// 100 joint solves, an active-set tolerance of 1e-8 and the settings of
// opt/socp with a relative duality gap of 1e-8.
func DefaultParams(h float64) Params {
	cone := socp.DefaultSettings()
	// A relative duality gap of 1e-8 rather than 1e-9: the joint stage of
	// the incline (Fig. 9) stalled at a gap of 1.1e-9 with primal and dual
	// residuals of 1e-16 (its friction objective spans R_t⁻² ≈ 1e12).
	cone.TolGapRel = 1e-8
	return Params{Zeta: 1 / h, MaxOuter: 100, Tolerance: 1e-8, Cone: cone}
}

// Validate reports an error naming the bad field.
func (p Params) Validate() error {
	if !(p.Zeta > 0) || math.IsInf(p.Zeta, 0) {
		return fmt.Errorf("drumwright: ζ = %v must be positive and finite", p.Zeta)
	}
	if p.MaxOuter < 1 || !(p.Tolerance > 0) || math.IsInf(p.Tolerance, 0) {
		return fmt.Errorf("drumwright: MaxOuter = %d must be ≥ 1 and Tolerance = %v positive and finite", p.MaxOuter, p.Tolerance)
	}
	return nil
}
