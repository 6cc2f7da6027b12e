package sap

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// fingerRestProblem is the problem of step 210 of dm_control's finger
// under mujoco-euler (internal/mjref's TestEllipticSuiteMuJoCo: controls
// (1, 0.5), the proximal joint started at −0.3 rad turning at 1 rad/s),
// printed to the last bit: the finger at rest, its motors (gear 30 and 15,
// impulses fixed at 0.01 and 0.005: Interval [c, c]) pressing its two
// hinges on their limits (Interval [0, ∞), γ = 0.3 and 0.075), two idle
// rows ([0, 0]) and the spinner's friction loss (±0.001) on a second
// clique, with the warm start the step had.
func fingerRestProblem() (*solver.Problem, []float64) {
	p := &solver.Problem{NV: 3}
	p.Cliques = []solver.Clique{{Offset: 0, Size: 2, AOff: 0}, {Offset: 2, Size: 1, AOff: 4}}
	p.A = []float64{0.02798677078293939, 0.004075510422576892, 0.004075510422576892, 0.009184324175358288, 0.012704265587900741}
	p.MDiag = []float64{0.02798677078293939, 0.009184324175358288, 0.012704265587900741}
	p.VStar = []float64{7.362493293118382e-09, -3.7384055092347886e-08, -3.851493532535415e-91}
	rows := []struct {
		lo, hi, r, vhat float64
		q               int
		j               []float64
	}{
		{0, 0, 8.773894374808824, 0, 0, []float64{1, 0}},
		{0, math.Inf(1), 4.156055230172607, 1.2468165715755868, 0, []float64{-1, 0}},
		{0, 0, 59.9146199213754, 0, 0, []float64{0, 1}},
		{0, math.Inf(1), 28.38060943644101, 2.1285456884499507, 0, []float64{0, -1}},
		{0.01, 0.01, 870.8466781100539, 0, 0, []float64{30, 0}},
		{0.005, 0.005, 663.4180670783951, 0, 0, []float64{0, 15}},
		{-0.001, 0.001, 8.745968851354212, 3.342672977657811e-92, 1, []float64{1}},
	}
	for _, rw := range rows {
		i := p.AddConstraint(solver.Interval, 1, rw.lo, rw.hi)
		p.R[i], p.VHat[i] = rw.r, rw.vhat
		copy(p.AddJBlock(i, rw.q), rw.j)
	}
	return p, []float64{-6.700802810919012e-09, 1.8085358746360412e-08, -6.351078657549824e-91}
}

// TestRoundOffFloor: on the finger at rest (fingerRestProblem) the
// impulses that hold it cancel (0.3 − 30·0.01 on the proximal hinge), so
// eq. (26)'s right side, 1e-16 + 1e-8·max(‖D p‖, ‖D Jᵀγ‖), is 1.4e-16 while
// ‖D ∇ℓp‖ cannot fall below the round-off of its cancelling terms: after
// one Newton step it sits at 1.5e-16..2e-16 for the remaining 99, under
// its floor ε·‖D (|A||v − v*| + |J|ᵀ|γ|)‖ ≈ 8.7e-16. The solve is reported
// solver.RoundOff (not OK) with e_m under Stats.MomentumFloor; the
// iterate it returns is the one MaxIterations returned before. With the
// iteration limit at 0 (the warm start's gradient, 8.2e-9, is far above
// the floor) the status stays MaxIterations.
func TestRoundOffFloor(t *testing.T) {
	p, v0 := fingerRestProblem()
	prm := DefaultParams()
	prm.RelTolerance = 1e-8 // MJCF's tolerance
	tr := &Trace{}
	prm.Trace = tr
	var res solver.Result
	if err := New(prm).Solve(p, v0, &res); err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	last := tr.Entries[len(tr.Entries)-1]
	t.Logf("%v after %d iterations: ‖D∇ℓp‖ %.3g, eq. (26) tolerance %.3g, e_m %.3g, floor %.3g; γ %v", st.Status, st.Iterations, last.GradNorm, last.Tolerance, st.MomentumError, st.MomentumFloor, res.Gamma)
	if st.Status != solver.RoundOff || st.OK() {
		t.Fatalf("status %v, want %v (and not OK)", st.Status, solver.RoundOff)
	}
	if !(st.MomentumError > prm.RelTolerance) || !(st.MomentumError <= st.MomentumFloor) {
		t.Errorf("e_m %.3g, floor %.3g: want εr = %g < e_m ≤ floor", st.MomentumError, st.MomentumFloor, prm.RelTolerance)
	}
	// The physics: the limits hold the motors' impulses, γ = 30·0.01 and
	// 15·0.005, to the tolerance the net momentum allows.
	if math.Abs(res.Gamma[1]-0.3) > 1e-9 || math.Abs(res.Gamma[3]-0.075) > 1e-9 {
		t.Errorf("limit impulses %v, %v: want 0.3 and 0.075", res.Gamma[1], res.Gamma[3])
	}

	prm.Trace, prm.MaxIterations = nil, 0
	if err := New(prm).Solve(p, v0, &res); err != nil {
		t.Fatal(err)
	}
	if res.Stats.Status != solver.MaxIterations || res.Stats.MomentumFloor != 0 {
		t.Errorf("at the warm start: %v (floor %g), want %v (floor 0)", res.Stats.Status, res.Stats.MomentumFloor, solver.MaxIterations)
	}
}
