package contact

import (
	"math"

	"github.com/stiction-sim/stiction/constraint"
)

// softFrictionR returns R_t of MuJoCo's soft friction (Material.SlipTime)
// for a contact whose Delassus diagonals are wt (tangential) and wnn
// (normal), at gap phi, carrying the normal force fn (N).
//
// MuJoCo's friction rows take R = (1 − d)/d · diagApprox with d = d(r) the
// impedance at the contact's depth r. With SlipStiffness (MuJoCo's K) set,
// d is taken at the depth where MuJoCo's contact would rest under fn,
// rather than at this contact's own depth, which follows our spring's
// stiffness and not MuJoCo's curve (without it, at the depth −phi). At
// rest each of the four pyramid edges carries fn/4 with its reference
// acceleration K d r = Rpy fn/4, Rpy = 2μ²(1 − d)/d (1 + μ²) w
// (mj_makeImpedance, mj_referenceConstraint): K d r = (1 − d)/d · a0 with
// a0 = μ²(1 + μ²)/2 · w fn, w MuJoCo's diagApprox (SlipWeight; else wnn).
func softFrictionR(mat Material, wt, wnn, phi, fn, dt float64) float64 {
	var d float64
	if mat.SlipStiffness > 0 {
		a0 := wnn * fn
		if mat.SlipWeight > 0 {
			mu2 := mat.Friction * mat.Friction
			a0 = 0.5 * mu2 * (1 + mu2) * mat.SlipWeight * fn
		}
		d = restImpedance(mat.SlipImp, mat.SlipStiffness, a0)
	} else {
		d = constraint.Impedance(mat.SlipImp, math.Min(phi, 0)) // d(|r|); dmin when apart
	}
	if mat.SlipWeight > 0 {
		wt = mat.SlipWeight // MuJoCo's diagApprox
	}
	return mat.SlipTime * (1 - d) / d * wt / dt
}

// restImpedance returns d(r) at the depth r ≥ 0 that solves
// r K d(r)²/(1 − d(r)) = a0 (bisection; the left side increases with r),
// and d(0) = dmin for a0 ≤ 0.
func restImpedance(imp [5]float64, k, a0 float64) float64 {
	if !(a0 > 0) {
		return constraint.Impedance(imp, 0)
	}
	rate := func(r float64) float64 {
		d := constraint.Impedance(imp, r)
		return k * d * d / (1 - d)
	}
	lo, hi := 0.0, a0/math.Min(rate(0), rate(math.Inf(1)))
	for range 60 {
		mid := 0.5 * (lo + hi)
		if mid*rate(mid) < a0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return constraint.Impedance(imp, 0.5*(lo+hi))
}
