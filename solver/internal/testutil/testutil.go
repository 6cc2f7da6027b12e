// Package testutil holds helpers shared by the tests of package solver and
// its solver subpackages: random samples of the regions of SAP's
// projection onto the friction cone and small vector helpers.
package testutil

import (
	"math"
	"math/rand/v2"

	"github.com/stiction-sim/stiction/solver"
)

// Uniform returns a uniform sample of [lo, hi).
func Uniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

// Diff3 returns ‖a − b‖.
func Diff3(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// Norm3 returns ‖a‖.
func Norm3(a [3]float64) float64 { return Diff3(a, [3]float64{}) }

// SampleY returns a random y strictly inside region reg (for contact
// parameters μ, Rt, Rn), at a relative distance of at least ~10% from the
// region's boundaries, with a random tangent direction. It does not use
// solver.Project: the regions are built from their definitions (SAP §V-A).
func SampleY(rng *rand.Rand, reg solver.Region, mu, Rt, Rn float64) [3]float64 {
	muHat := mu * Rt / Rn
	th := Uniform(rng, 0, 2*math.Pi)
	var yr, yn float64
	switch reg {
	case solver.Stiction: // 0 < y_r < 0.8 μ y_n
		yn = Uniform(rng, 0.5, 2)
		yr = Uniform(rng, 0.1, 0.8) * mu * yn
	case solver.Sliding: // −μ̂ y_r < y_n < y_r/μ
		yr = Uniform(rng, 0.5, 2)
		lo, hi := -muHat*yr, 2.0
		if mu > 0 {
			hi = yr / mu
		} else {
			lo = 0
		}
		yn = lo + (hi-lo)*Uniform(rng, 0.15, 0.85)
	case solver.NoContact: // y_n < −μ̂ y_r
		yr = Uniform(rng, 0, 2)
		yn = -muHat*yr - Uniform(rng, 0.2, 1)
	}
	return [3]float64{yr * math.Cos(th), yr * math.Sin(th), yn}
}

// InCone reports whether γ ∈ F = {‖γ_t‖ ≤ μ γ_n} up to tol·|γ|.
func InCone(g [3]float64, mu, tol float64) bool {
	scale := math.Sqrt(g[0]*g[0]+g[1]*g[1]+g[2]*g[2]) + 1e-300
	return g[2] >= -tol*scale && math.Hypot(g[0], g[1]) <= mu*g[2]+tol*scale
}
