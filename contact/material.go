package contact

import (
	"fmt"
	"math"
)

// Material is the contact material of one geometry.
type Material struct {
	Stiffness   float64 // k, N/m, > 0
	Dissipation float64 // τd, s, ≥ 0 (Hunt–Crossley-free linear dissipation time scale of SAP eq. 2)
	Friction    float64 // μ, ≥ 0
}

// Validate reports an error naming the bad field and value.
func (m Material) Validate() error {
	switch {
	case !(m.Stiffness > 0) || math.IsInf(m.Stiffness, 0):
		return fmt.Errorf("stiffness %v must be positive and finite", m.Stiffness)
	case !(m.Dissipation >= 0) || math.IsInf(m.Dissipation, 0):
		return fmt.Errorf("dissipation %v must be non-negative and finite", m.Dissipation)
	case !(m.Friction >= 0) || math.IsInf(m.Friction, 0):
		return fmt.Errorf("friction %v must be non-negative and finite", m.Friction)
	}
	return nil
}

// Combine returns the parameters of the contact between two materials.
//
//   - Stiffness: springs in series, k = k_A k_B / (k_A + k_B) (as Drake).
//   - Dissipation: the compliance-weighted mean
//     τd = (τ_A/k_A + τ_B/k_B) / (1/k_A + 1/k_B). Two Kelvin–Voigt elements
//     k(x + τ ẋ) in series have the total compliance (c_A + c_B) − iω(c_A τ_A +
//     c_B τ_B) to first order in ωτ, c = 1/k, which is one element with this
//     τd. Equal materials keep their τd, and a rigid side (k → ∞) leaves the
//     soft side's. (Drake sums the two τd instead; we prefer a rule under
//     which a scene's τd = δt means the pair's τd = δt.)
//   - Friction: μ = 2 μ_A μ_B / (μ_A + μ_B), and 0 when both are 0 (as Drake).
func Combine(a, b Material) Material {
	ca, cb := 1/a.Stiffness, 1/b.Stiffness
	mu := 0.0
	if s := a.Friction + b.Friction; s > 0 {
		mu = 2 * a.Friction * b.Friction / s
	}
	return Material{
		Stiffness:   1 / (ca + cb),
		Dissipation: (ca*a.Dissipation + cb*b.Dissipation) / (ca + cb),
		Friction:    mu,
	}
}
