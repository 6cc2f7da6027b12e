package socp

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// fillStats fills the statistics of the current iterate, unscaled by τ.
func (sv *Solver) fillStats(mu float64) {
	st, p := &sv.result.Stats, sv.prob
	tau := sv.tau
	st.Mu, st.Tau, st.Kappa = mu, tau, sv.kappa
	xpx := sv.xpx / (tau * tau)
	qx := floats.Dot(p.Q, sv.x) / tau
	bz := floats.Dot(p.B, sv.z) / tau
	st.PrimalCost = 0.5*xpx + qx
	st.DualCost = -0.5*xpx - bz
	sz := floats.Dot(sv.s[sv.cones.Zero:], sv.z[sv.cones.Zero:]) / (tau * tau)
	st.Gap = max(sz, math.Abs(st.PrimalCost-st.DualCost))
	st.PrimalResidual = infNorm(sv.rz) / tau / max(1, sv.bnorm, infNorm(sv.ax)/tau, infNorm(sv.s)/tau)
	st.DualResidual = infNorm(sv.rx) / tau / max(1, sv.qnorm, infNorm(sv.px)/tau, infNorm(sv.atz)/tau)
}

// solved reports whether the statistics meet the tolerances.
func (sv *Solver) solved() bool {
	set, st := sv.Settings, &sv.result.Stats
	gapOK := st.Gap <= set.TolGapAbs || st.Gap <= set.TolGapRel*min(math.Abs(st.PrimalCost), math.Abs(st.DualCost))
	return st.PrimalResidual <= set.TolFeas && st.DualResidual <= set.TolFeas && gapOK
}

// converged fills the statistics of the current iterate and decides
// whether to stop: Solved when the residuals and the gap of (x, s, z)/τ
// meet the tolerances, PrimalInfeasible or DualInfeasible when τ < κ and
// the normalized certificate meets TolInfeas (see Status), Inaccurate when
// the statistics are not finite.
func (sv *Solver) converged(mu float64) (Status, bool) {
	set, st, p := sv.Settings, &sv.result.Stats, sv.prob
	sv.fillStats(mu)
	if sum := st.PrimalResidual + st.DualResidual + st.Gap; math.IsNaN(sum) || math.IsInf(sum, 0) {
		return Inaccurate, true
	}
	if sv.solved() {
		return Solved, true
	}
	if sv.tau >= sv.kappa {
		return 0, false
	}
	if btz := floats.Dot(p.B, sv.z); btz < 0 && infNorm(sv.atz) <= set.TolInfeas*-btz {
		return PrimalInfeasible, true
	}
	if qtx := floats.Dot(p.Q, sv.x); qtx < 0 {
		r := 0.0
		for i := range sv.m {
			r = max(r, math.Abs(sv.ax[i]+sv.s[i]))
		}
		if infNorm(sv.px) <= set.TolInfeas*-qtx && r <= set.TolInfeas*-qtx {
			return DualInfeasible, true
		}
	}
	return 0, false
}

// evaluatePoint makes (x, s, z) the iterate with τ = 1, κ = 0, fills its
// statistics and returns its merit.
func (sv *Solver) evaluatePoint(x, s, z []float64) float64 {
	copy(sv.x, x)
	copy(sv.s, s)
	copy(sv.z, z)
	sv.tau, sv.kappa = 1, 0
	sv.fillStats(sv.residuals())
	return merit(&sv.result.Stats)
}

// finish writes the result for status st: the solution (x, s, z)/τ, or the
// normalized certificate.
func (sv *Solver) finish(status Status) {
	r := &sv.result
	r.Status = status
	scaleTo := func(dst, src []float64, f float64) {
		for i, v := range src {
			dst[i] = v * f
		}
	}
	switch status {
	case PrimalInfeasible:
		clear(r.X)
		clear(r.S)
		scaleTo(r.Z, sv.z, -1/floats.Dot(sv.prob.B, sv.z))
	case DualInfeasible:
		f := -1 / floats.Dot(sv.prob.Q, sv.x)
		scaleTo(r.X, sv.x, f)
		scaleTo(r.S, sv.s, f)
		clear(r.Z)
	default:
		f := 1 / sv.tau
		scaleTo(r.X, sv.x, f)
		scaleTo(r.S, sv.s, f)
		scaleTo(r.Z, sv.z, f)
	}
}
