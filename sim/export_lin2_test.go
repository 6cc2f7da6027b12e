package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// MetricVStarCheck compares, after a step of s, the v*_M of a metric step
// (mujocoMetricVStar) and M's factor that it left in the workspace with
// their plain forms: a fresh FactorTreeMass of M and the solve of every
// clique, v0 + h M⁻¹ k. The factors are compared by solving rhs (length
// NV) with both. It returns whether the step was a metric one, how many
// cliques were undamped (the skipped ones) and the first mismatch ("" for
// none).
func MetricVStarCheck(s *Simulator, rhs []float64) (metric bool, undamped int, bad string) {
	w, mw := &s.ws, &s.ws.mj
	if !mw.metric {
		return false, 0, ""
	}
	for _, u := range mw.undamped {
		if u {
			undamped++
		}
	}
	p := &solver.Problem{NV: s.Model.NV, Cliques: w.cliques, A: append([]float64(nil), w.mass...)}
	var f solver.CliqueFactor
	if err := f.FactorTreeMass(p); err != nil {
		return true, undamped, err.Error()
	}
	for c, q := range w.cliques {
		acc := append([]float64(nil), mw.k[q.Offset:q.Offset+q.Size]...)
		f.Solve(q, acc, 1)
		for i, a := range acc {
			if want := w.v0[q.Offset+i] + s.cfg.DT*a; math.Float64bits(mw.vM[q.Offset+i]) != math.Float64bits(want) {
				return true, undamped, fmt.Sprintf("clique %d: v*_M[%d] = %v, want %v", c, i, mw.vM[q.Offset+i], want)
			}
		}
		got, want := append([]float64(nil), rhs[q.Offset:q.Offset+q.Size]...), append([]float64(nil), rhs[q.Offset:q.Offset+q.Size]...)
		w.factor.Solve(q, got, 1)
		f.Solve(q, want, 1)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				return true, undamped, fmt.Sprintf("clique %d: M⁻¹ rhs [%d] = %v by the step's factor, want %v", c, i, got[i], want[i])
			}
		}
	}
	return true, undamped, ""
}
