package sim

import (
	"math"
	"testing"
)

// TestLinWeightsFollowTimeStep: linearize's weights, kept between steps
// (linWeights), are those of Scheme.jacobianWeights and θq δt for the
// current time step, to the bit, for every scheme family, over a sequence
// of time steps that repeats, changes (as substeps do), comes back, is
// zero (of either sign) and NaN; it fails when a kept weight outlives its
// time step.
func TestLinWeightsFollowTimeStep(t *testing.T) {
	schemes := []Scheme{
		{Method: ThetaMethod, ThetaQ: 0.5, ThetaV: 1, ThetaVQ: 0.75},
		{Method: TrapezoidalRule, ThetaQ: 0.5, ThetaV: 0.5, ThetaVQ: 0.5},
		{Method: BridsonMarinoRule, ThetaQ: 0.25},
		{Method: MuJoCoEulerRule},
		{Method: MuJoCoImplicitRule, ThetaQ: 1},
	}
	dts := []float64{0.01, 0.01, 0.005, 0.0025, 0.01, 0, math.Copysign(0, -1), math.NaN(), 0.003, 0.003}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for _, sc := range schemes {
		sim := &Simulator{scheme: sc}
		for i, dt := range dts {
			sim.cfg.DT = dt
			lw := sim.linWeights()
			cK, cD := sc.jacobianWeights(dt)
			if !same(lw.cK, cK) || !same(lw.cD, cD) || !same(lw.tq, sc.ThetaQ*dt) {
				t.Errorf("method %d, δt #%d = %v: weights %v %v %v, want %v %v %v",
					sc.Method, i, dt, lw.cK, lw.cD, lw.tq, cK, cD, sc.ThetaQ*dt)
			}
		}
	}
}
