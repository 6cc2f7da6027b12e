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
func softFrictionR(mat *Material, wt, wnn, phi, fn, dt float64) float64 {
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
// f(r) = r K d(r)²/(1 − d(r)) − a0 = 0 (f increases with r), and
// d(0) = dmin for a0 ≤ 0. Past solimp's width d is dmax, so a root beyond
// it needs no search; inside it the root is bracketed in [0, width] and
// found by regula falsi with the Illinois modification (superlinear, about
// ten evaluations where a bisection took sixty, each with two powers).
func restImpedance(imp [5]float64, k, a0 float64) float64 {
	if !(a0 > 0) || imp[0] == imp[1] || imp[2] <= 1e-15 {
		return constraint.Impedance(imp, 0) // d(0), or the constant d
	}
	f := func(r float64) float64 {
		d := constraint.Impedance(imp, r)
		return r*k*d*d/(1-d) - a0
	}
	lo, hi := 0.0, imp[2]
	flo, fhi := -a0, f(hi)
	if fhi <= 0 {
		return imp[1] // the contact rests past the width: d = dmax
	}
	side := 0
	for range 100 {
		r := (lo*fhi - hi*flo) / (fhi - flo) // the secant's root, inside (lo, hi)
		if !(r > lo && r < hi) {
			r = 0.5 * (lo + hi)
		}
		fr := f(r)
		if math.Abs(fr) <= 1e-13*a0 || hi-lo <= 1e-15*hi {
			return constraint.Impedance(imp, r)
		}
		if fr < 0 {
			lo, flo = r, fr
			if side < 0 {
				fhi *= 0.5 // Illinois: the same end twice, halve the other's value
			}
			side = -1
		} else {
			hi, fhi = r, fr
			if side > 0 {
				flo *= 0.5
			}
			side = 1
		}
	}
	return constraint.Impedance(imp, 0.5*(lo+hi))
}
