package solver

import "github.com/stiction-sim/stiction/internal/fmath"

// Region is the region of R³ in which y = −R⁻¹(v_c − v̂) lies for one
// contact (SAP App. C, Fig. 22). It selects the branch of the projection
// P_F (SAP §V-A) and of its derivative G (SAP App. D, eq. 37).
type Region int

const (
	// Stiction is region R_I, the closed friction cone F:
	// y_n ≥ 0 and y_r ≤ μ y_n. There γ = y.
	Stiction Region = iota
	// Sliding is region R_II, everything outside F and outside the interior
	// of the polar cone, including the polar cone's boundary
	// y_n = −μ̂ y_r (where γ = 0 but G takes the sliding formula, App. D).
	// There γ lies on the boundary of F.
	Sliding
	// NoContact is region R_III, the interior of the polar cone:
	// y_n < −μ̂ y_r. There γ = 0.
	NoContact
)

// String returns the region name.
func (r Region) String() string {
	switch r {
	case Stiction:
		return "stiction"
	case Sliding:
		return "sliding"
	case NoContact:
		return "no-contact"
	}
	return "unknown"
}

// Project returns γ = P_F(y), the projection of y = (y_t1, y_t2, y_n) onto
// the friction cone F = {γ : ‖γ_t‖ ≤ μ γ_n} in the norm of
// R = diag(Rt, Rt, Rn) (SAP eq. 23; closed form in SAP §V-A, derived in
// App. C), and the region of y. It requires Rt, Rn > 0 and μ ≥ 0; μ = 0 and y_r = 0 are
// handled without division by zero.
func Project(y [3]float64, mu, Rt, Rn float64) (gamma [3]float64, region Region) {
	yr := fmath.Hypot(y[0], y[1])
	yn := y[2]
	muHat := mu * Rt / Rn // μ̂ = μ Rt/Rn, SAP §V-A
	switch {
	case yn >= 0 && yr <= mu*yn: // SAP §V-A, stiction
		return y, Stiction
	case yn < -muHat*yr: // SAP §V-A, no contact (interior of the polar cone)
		return [3]float64{}, NoContact
	}
	// Sliding, SAP §V-A. Here y_r > 0: y_r = 0 is stiction when y_n ≥ 0
	// and no contact when y_n < 0.
	gn := (yn + muHat*yr) / (1 + mu*muHat) // μ̃² = μ μ̂
	s := mu * gn / yr
	return [3]float64{s * y[0], s * y[1], gn}, Sliding
}

// ProjectG returns γ = P_F(y) and its region as Project does, and the 3×3
// block G = −∂γ/∂v_c = R⁻¹ ∇²_y ℓ_R R⁻¹ (SAP App. D, eq. 37 and §D-B),
// g[i][j] being row i, column j. On the boundary of F it uses the stiction formula G = R⁻¹ and
// on the boundary of the polar cone the sliding formula (SAP App. D). G is
// symmetric positive semi-definite.
func ProjectG(y [3]float64, mu, Rt, Rn float64) (gamma [3]float64, g [3][3]float64, region Region) {
	gamma, region = Project(y, mu, Rt, Rn)
	switch region {
	case Stiction: // SAP eq. (37): ∇²_y ℓ_R = R, so G = R⁻¹.
		g[0][0], g[1][1], g[2][2] = 1/Rt, 1/Rt, 1/Rn
	case Sliding:
		g = slidingG(y, gamma[2], mu, Rt, Rn)
	}
	return gamma, g, region
}

// G returns the block G = −∂γ/∂v_c of ProjectG (SAP App. D, eq. 37).
func G(y [3]float64, mu, Rt, Rn float64) [3][3]float64 {
	_, g, _ := ProjectG(y, mu, Rt, Rn)
	return g
}

// slidingG is G = R⁻¹ ∇²_y ℓ_R R⁻¹ with the sliding branch of SAP eq. (37),
//
//	∇²_y ℓ_R = Rn/(1+μ̃²) [ μ̂(μ̂ P(t̂) + ŝ P⊥(t̂)/y_r)   μ̂ t̂ ]
//	                      [ μ̂ t̂ᵀ                        1   ],
//
// ŝ = y_n + μ̂ y_r. Multiplying out with R⁻¹ = diag(1/Rt, 1/Rt, 1/Rn) and
// using γ_n = ŝ/(1+μ̃²) gives
//
//	G_tt = μ²/((1+μ̃²)Rn) P(t̂) + μ γ_n/(Rt y_r) P⊥(t̂),
//	G_tn = μ/((1+μ̃²)Rn) t̂,   G_nn = 1/((1+μ̃²)Rn),
//
// where 0 ≤ μ γ_n/y_r ≤ 1 in the sliding region, so nothing overflows.
func slidingG(y [3]float64, gn, mu, Rt, Rn float64) [3][3]float64 {
	yr := fmath.Hypot(y[0], y[1])
	t0, t1 := y[0]/yr, y[1]/yr
	mu2 := mu * mu * Rt / Rn // μ̃²
	gnn := 1 / ((1 + mu2) * Rn)
	gtn := mu * gnn
	par := mu * gtn           // coefficient of P(t̂) = t̂t̂ᵀ
	perp := mu * gn / yr / Rt // coefficient of P⊥(t̂) = I − t̂t̂ᵀ
	d := par - perp           // P⊥ = I − P
	g01 := d * t0 * t1        // computed once so that G is exactly symmetric
	return [3][3]float64{
		{perp + d*t0*t0, g01, gtn * t0},
		{g01, perp + d*t1*t1, gtn * t1},
		{gtn * t0, gtn * t1, gnn},
	}
}

// regularizerCost returns ℓ_R = ½ γᵀ R γ for one contact (SAP App. D,
// eq. 35).
func regularizerCost(gamma [3]float64, Rt, Rn float64) float64 {
	return 0.5 * (Rt*(gamma[0]*gamma[0]+gamma[1]*gamma[1]) + Rn*gamma[2]*gamma[2])
}

// evalCone is Problem.Eval for a ContactCone block: y = −R⁻¹(v_c − v̂)
// (SAP §III-B), γ = P_F(y) (eq. 23, §V-A), ℓ = ½γᵀRγ (eq. 35) and
// G = R⁻¹∇²_y ℓ R⁻¹ (App. D, eq. 37).
func evalCone(mu float64, r, vhat, vc, gamma, g []float64) float64 {
	Rt, Rn := r[0], r[2]
	y := coneY(r, vhat, vc)
	if g == nil {
		gm, _ := Project(y, mu, Rt, Rn)
		copy(gamma, gm[:])
		return regularizerCost(gm, Rt, Rn)
	}
	gm, gg, _ := ProjectG(y, mu, Rt, Rn)
	copy(gamma, gm[:])
	for i := range 3 {
		copy(g[3*i:3*i+3], gg[i][:])
	}
	return regularizerCost(gm, Rt, Rn)
}

// ConeCostDiff returns ℓ(γ1) − ℓ(γ0) = ½(γ1 − γ0)ᵀR(γ1 + γ0) for a
// ContactCone block with regularization r, formed without subtracting two
// costs (for line searches close to the optimum).
func ConeCostDiff(r, gamma1, gamma0 []float64) float64 {
	d := 0.0
	for k := range 3 {
		d += 0.5 * r[k] * (gamma1[k] - gamma0[k]) * (gamma1[k] + gamma0[k])
	}
	return d
}

// coneY returns a ContactCone block's unprojected impulse y = −R⁻¹(v_c −
// v̂) (SAP §III-B; rows t1, t2, n, R = diag(R_t, R_t, R_n)).
func coneY(r, vhat, vc []float64) [3]float64 {
	r, vhat, vc = r[:3], vhat[:3], vc[:3]
	return [3]float64{-(vc[0] - vhat[0]) / r[0], -(vc[1] - vhat[1]) / r[0], -(vc[2] - vhat[2]) / r[2]}
}

// ConeImpulse returns the impulse γ = P_F(y) of a ContactCone block
// (friction mu, regularization r, v̂ vhat) at J v = vc: Eval's γ without
// its cost, for callers that read the impulse alone.
func ConeImpulse(mu float64, r, vhat, vc []float64) [3]float64 {
	gm, _ := Project(coneY(r, vhat, vc), mu, r[0], r[2])
	return gm
}
