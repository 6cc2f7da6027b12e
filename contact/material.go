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
	// Rolling is the rolling-resistance length μ_r in m (≥ 0, default 0:
	// off): the rolling friction torque is bounded by μ_r times the normal
	// force (MuJoCo's condim 6 rolling coefficients, as one isotropic value).
	Rolling float64
	// Spin is the torsional (spin) friction length μ_s in m (≥ 0, default 0:
	// off): the friction torque about the normal is bounded by μ_s times the
	// normal force (MuJoCo's condim 4 torsional coefficient).
	Spin float64
	// Anchors turns friction with memory on for this material (default
	// true through the scene format): a sticking contact keeps an anchor and
	// feeds its stick displacement back, so static friction does not creep.
	// A pair has anchors only when both materials do.
	Anchors bool
	// SlipTime, when positive, makes the friction soft as MuJoCo's: the
	// tangential regularization is R_t = SlipTime (1 − d)/d · W_t / δt
	// instead of SAP's σ W_t, d the impedance SlipImp at the contact's
	// depth, so a sticking contact under a tangential force f slips at
	// SlipTime (1 − d)/d · W_t f, as a MuJoCo contact slips at R f / B
	// (mj_makeImpedance: R = (1 − d)/d · diagApprox, B from solref). Its
	// value is MuJoCo's 1/B, times 1 + μ² for the pyramidal cone (s, ≥ 0;
	// 0: SAP's σ).
	SlipTime float64
	// SlipImp is MuJoCo's solimp (dmin, dmax, width, midpoint, power) of
	// the soft friction: d(r) at the depth r (constraint.Impedance).
	SlipImp [5]float64
	// SlipStiffness, when positive, is MuJoCo's K of the soft friction's
	// solref (1/s²): d is then taken at the depth where MuJoCo's contact
	// would rest under the contact's load (the last step's normal impulse),
	// not at the contact's own depth (softFrictionR).
	SlipStiffness float64
	// SlipRef, when not zero, is MuJoCo's solref of the material's geom:
	// (T, ζ) in the standard form (T > 0), (−k, −b) in the direct form. A
	// pair mixes its two sides' as MuJoCo does (MixSolRef), and MuJoCo's
	// contact rows (package sim) take the pair's K and B from it with the
	// pair's dmax (constraint.SolRefKB), as mj_makeImpedance does with the
	// mixed solref and solimp; zero: K = SlipStiffness, B = (1 + μ²)/SlipTime
	// (their means over the two sides, which differ from MuJoCo's when the
	// two geoms' solref or solimp differ).
	SlipRef [2]float64
	// SlipWeight, when positive, stands for W_t in the soft friction's R_t:
	// MuJoCo's translational body_invweight0 of the material's body (its
	// diagApprox); a pair sums its two sides'.
	SlipWeight float64
	// WeightSet marks a SlipWeight that was given, 0 included (the MJCF
	// importer gives every material its body's body_invweight0, which is 0
	// for a body whose centre of mass cannot move at qpos0, and for the
	// world); a pair has it when both sides do. A pair of such materials
	// whose weights sum to 0 is still MuJoCo's soft contact (MuJoCoSoft),
	// whose rows take MuJoCo's R = max(mjMINVAL, (1 − d)/d · w).
	WeightSet bool
	// MaxFriction selects MuJoCo's combination of friction coefficients
	// (mj_contactParam of MuJoCo 2.2.2 for two geoms of equal priority):
	// a pair of two such materials takes the larger sliding, spin and
	// rolling coefficient of the two instead of their harmonic means, and
	// its soft friction's slip time is computed with that coefficient
	// (Combine). The MJCF importer sets it; a pair with one material
	// without it combines harmonically.
	MaxFriction bool
	// Condim, when positive, is MuJoCo's condim of the material's geom
	// (1, 3, 4 or 6). A pair of two MaxFriction materials takes the larger
	// of their condims and drops the coefficients that condim does not use
	// (mj_contactParam, MuJoCo 2.2.2): sliding below 3, spin below 4,
	// rolling below 6. A geom's own coefficients may come from its other
	// pairs (a condim-1 limb touching the condim-3 floor has sliding
	// friction), which a pair of two condim-1 geoms thus does not get.
	// 0: every coefficient is kept.
	Condim int
	// Priority is MuJoCo's geom priority (MaxFriction materials only): a
	// pair of two MaxFriction materials of different priorities takes the
	// higher one's condim, friction coefficients, solref and solimp
	// (SlipRef, SlipImp, SlipTime, SlipStiffness) as they are, instead of
	// combining them (mj_contactParam, MuJoCo 2.2.2). Default 0.
	Priority int
	// Foundation, when not nil, makes a half-space of this material an
	// elastic foundation for boxes (foundation.go); nil: point contact.
	Foundation *Foundation
}

// MuJoCoSoft reports whether m is MuJoCo's soft contact (the MJCF
// importer's materials: SlipTime, SlipStiffness and SlipWeight set, the
// weight positive or given as 0: WeightSet), which MuJoCo's integrators in
// package sim solve with MuJoCo's own rows.
func (m Material) MuJoCoSoft() bool {
	return m.SlipTime > 0 && m.SlipStiffness > 0 && (m.SlipWeight > 0 || m.WeightSet)
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
	case !(m.Rolling >= 0) || math.IsInf(m.Rolling, 0):
		return fmt.Errorf("rolling friction %v must be non-negative and finite", m.Rolling)
	case !(m.Spin >= 0) || math.IsInf(m.Spin, 0):
		return fmt.Errorf("spin friction %v must be non-negative and finite", m.Spin)
	case !(m.SlipTime >= 0) || math.IsInf(m.SlipTime, 0):
		return fmt.Errorf("slip time %v must be non-negative and finite", m.SlipTime)
	case !(m.SlipStiffness >= 0) || math.IsInf(m.SlipStiffness, 0):
		return fmt.Errorf("slip stiffness %v must be non-negative and finite", m.SlipStiffness)
	case !(m.SlipWeight >= 0) || math.IsInf(m.SlipWeight, 0):
		return fmt.Errorf("slip weight %v must be non-negative and finite", m.SlipWeight)
	case m.SlipTime > 0 && !validImp(m.SlipImp):
		return fmt.Errorf("slip solimp %v: want 0 < dmin, dmax < 1, width ≥ 0, 0 < midpoint < 1, power ≥ 1", m.SlipImp)
	case m.Foundation != nil:
		return m.Foundation.Validate()
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
//   - SlipTime, SlipStiffness and SlipImp: the means of the two (MuJoCo
//     mixes two geoms' solref and solimp by solmix, by default in equal
//     parts), SlipRef MuJoCo's mix of the two (MixSolRef; zero unless both
//     are set); a material without soft friction (SlipTime 0) leaves the
//     other's.
//   - Friction: μ = 2 μ_A μ_B / (μ_A + μ_B), and 0 when both are 0 (as Drake).
//     Rolling and spin friction combine by the same rule, so that either
//     side at 0 turns them off.
//   - With MaxFriction on both sides (MuJoCo's rule, engine_collision_driver.c
//     of MuJoCo 2.2.2: friction[i] = max(geom1's, geom2's) for geoms of equal
//     priority): μ = max(μ_A, μ_B), and so for spin and rolling; the slip
//     time, (1 + μ²)/B per side (MuJoCo's pyramidal R, package mjcf), becomes
//     (1 + μ²) times the mean of the two sides' 1/B = SlipTime/(1 + μ_side²).
//     Two such materials of different Priority: the higher one's condim,
//     coefficients and soft parameters (combinePriority).
func Combine(a, b Material) Material {
	var c Material
	combineTo(&c, &a, &b)
	return c
}

// combineTo sets *c to Combine(*a, *b), reading a and b in place and
// writing c in place: the assembler's per-step Combine (Assembler.recall)
// copied both materials and the result, 160 bytes each. c must not be a
// or b. Every field of c is stored once, in place: a composite literal
// was built aside (160 bytes zeroed) and copied into c, and the slip
// fields' parallel assignment went through a temporary too (nine
// instruction-cache lines of the step).
func combineTo(c, a, b *Material) {
	if a.MaxFriction && b.MaxFriction {
		combineMaxTo(c, a, b)
		return
	}
	combineSpring(c, a, b)
	c.Friction = harmonic(a.Friction, b.Friction)
	c.Rolling = harmonic(a.Rolling, b.Rolling)
	c.Spin = harmonic(a.Spin, b.Spin)
	c.MaxFriction, c.Condim, c.Priority = false, 0, 0
}

// combineSpring sets the fields of *c that both of Combine's rules
// combine alike: the spring (stiffness and dissipation), anchors, slip
// weight and the means of the soft friction's parameters (SlipTime as the
// harmonic rule's, which combineMaxTo then scales), with no foundation.
// Every other field is the caller's to store.
func combineSpring(c, a, b *Material) {
	ca, cb := 1/a.Stiffness, 1/b.Stiffness
	c.Stiffness = 1 / (ca + cb)
	c.Dissipation = (ca*a.Dissipation + cb*b.Dissipation) / (ca + cb)
	c.Anchors = a.Anchors && b.Anchors
	c.SlipWeight = a.SlipWeight + b.SlipWeight
	c.WeightSet = a.WeightSet && b.WeightSet
	c.Foundation = nil
	soft := a
	switch {
	case a.SlipTime == 0:
		soft = b
	case b.SlipTime > 0:
		c.SlipTime = 0.5 * (a.SlipTime + b.SlipTime)
		c.SlipStiffness = 0.5 * (a.SlipStiffness + b.SlipStiffness)
		for i := range c.SlipImp {
			c.SlipImp[i] = 0.5 * (a.SlipImp[i] + b.SlipImp[i])
		}
		c.SlipRef = [2]float64{}
		if a.SlipRef != [2]float64{} && b.SlipRef != [2]float64{} {
			c.SlipRef = MixSolRef(a.SlipRef, b.SlipRef)
		}
		return
	}
	c.SlipTime = soft.SlipTime
	c.SlipImp = soft.SlipImp
	c.SlipStiffness = soft.SlipStiffness
	c.SlipRef = soft.SlipRef
}

// combineMaxTo is combineTo for two materials with MaxFriction (MuJoCo's
// rule): the harmonic rule's spring and soft parameters (combineSpring),
// the larger sliding, spin and rolling coefficients, cut to the larger
// condim when both sides give one, and the slip time recomputed with the
// pair's μ. It reads a and b and writes c in place: it was a function of
// two Materials by value that called Combine on the copies and returned
// a third, its 160-byte copies 23 + 14 instruction-cache lines a step on
// dm stacker (BENCHMARKS.md, the hundred-and-sixty-fifth pass).
func combineMaxTo(c, a, b *Material) {
	if a.Priority != b.Priority {
		combinePriorityTo(c, a, b)
		return
	}
	combineSpring(c, a, b)
	c.MaxFriction, c.Priority, c.Condim = true, a.Priority, 0
	c.Friction = max(a.Friction, b.Friction)
	c.Spin = max(a.Spin, b.Spin)
	c.Rolling = max(a.Rolling, b.Rolling)
	if a.Condim > 0 && b.Condim > 0 {
		c.Condim = max(a.Condim, b.Condim)
		c.Friction, c.Spin, c.Rolling = condimCoef(c.Condim, 3, c.Friction), condimCoef(c.Condim, 4, c.Spin), condimCoef(c.Condim, 6, c.Rolling)
	}
	switch {
	case a.SlipTime > 0 && b.SlipTime > 0:
		c.SlipTime = 0.5 * (invB(a) + invB(b))
	case a.SlipTime > 0:
		c.SlipTime = invB(a)
	case b.SlipTime > 0:
		c.SlipTime = invB(b)
	}
	c.SlipTime *= 1 + c.Friction*c.Friction
}

// invB is a MaxFriction material's MuJoCo 1/B: its slip time over 1 + μ²
// of its own μ (combineMaxTo).
func invB(m *Material) float64 { return m.SlipTime / (1 + m.Friction*m.Friction) }

// combinePriorityTo stores combinePriority(*a, *b) in *c. It is out of
// line: robots' geoms share one priority, and the copies sat between
// combineMaxTo's hot blocks.
//
//go:noinline
func combinePriorityTo(c, a, b *Material) {
	*c = combinePriority(*a, *b)
}

// combinePriority is combineMaxTo for two materials of different
// priorities (MuJoCo 2.2.2, engine_collision_driver.c, mj_contactParam:
// condim, friction, solref and solimp of the geom of higher priority):
// the harmonic rule's stiffness and dissipation (SAP's spring), the two
// sides' SlipWeight summed (a property of the bodies, not of the
// parameters), anchors only when both have them, and everything else the
// higher-priority side's, its coefficients cut to its condim.
func combinePriority(a, b Material) Material {
	hi := a
	if b.Priority > a.Priority {
		hi = b
	}
	a.MaxFriction, b.MaxFriction = false, false
	c := Combine(a, b)
	c.MaxFriction, c.Priority, c.Condim = true, hi.Priority, hi.Condim
	c.Friction, c.Spin, c.Rolling = hi.Friction, hi.Spin, hi.Rolling
	if hi.Condim > 0 {
		c.Friction, c.Spin, c.Rolling = condimCoef(hi.Condim, 3, c.Friction), condimCoef(hi.Condim, 4, c.Spin), condimCoef(hi.Condim, 6, c.Rolling)
	}
	c.SlipTime, c.SlipImp, c.SlipStiffness, c.SlipRef = hi.SlipTime, hi.SlipImp, hi.SlipStiffness, hi.SlipRef
	if hi.SlipTime > 0 && c.Friction != hi.Friction { // SlipTime = (1 + μ²)/B with the pair's μ
		c.SlipTime *= (1 + c.Friction*c.Friction) / (1 + hi.Friction*hi.Friction)
	}
	return c
}

// condimCoef returns the coefficient x of a pair of condim cd, which uses
// it from condim need on (combineMaxTo), and 0 below.
func condimCoef(cd, need int, x float64) float64 {
	if cd < need {
		return 0
	}
	return x
}

// harmonic returns 2xy/(x + y), and 0 when x + y = 0.
func harmonic(x, y float64) float64 {
	if s := x + y; s > 0 {
		return 2 * x * y / s
	}
	return 0
}

// validImp reports whether imp is a usable solimp: impedances and midpoint
// in (0, 1), width ≥ 0, power ≥ 1 (MuJoCo's clamps, applied by importers).
func validImp(imp [5]float64) bool {
	in01 := func(x float64) bool { return x > 0 && x < 1 }
	return in01(imp[0]) && in01(imp[1]) && imp[2] >= 0 && !math.IsInf(imp[2], 0) && in01(imp[3]) && imp[4] >= 1 && !math.IsInf(imp[4], 0)
}

// MixSolRef returns the solref of a contact between two geoms of solref a
// and b, as MuJoCo 2.2.2 mixes them (engine_collision_driver.c,
// mj_contactParam, with equal solmix): the mean when both are in the
// standard form (time constant > 0), else the smaller of each value.
func MixSolRef(a, b [2]float64) [2]float64 {
	if a[0] > 0 && b[0] > 0 {
		return [2]float64{0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])}
	}
	return [2]float64{min(a[0], b[0]), min(a[1], b[1])}
}
