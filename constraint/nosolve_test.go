package constraint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestNoSolveKeepsBoundsAndReports: an assembly with Params.NoSolve (a
// step that takes v = v*) gives the same constraints, J blocks, impulse
// bounds and reports as the full assembly, with a positive R, and computes
// no Delassus estimate: it runs without the factor of A, which the
// estimate needs.
func TestNoSolveKeepsBoundsAndReports(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(5, 6))
	s := tm.randomState(rng, 0.1)
	mj := Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp}
	set := &Set{
		Limits: []Limit{{Name: "l1", Body: tm.link1, Lower: -2, Upper: 2, Compliance: mj},
			{Name: "l2", Body: tm.link2, Lower: math.Inf(-1), Upper: 3, Compliance: mj}},
		Actuators: []Actuator{{Name: "mot", Type: Motor, Body: tm.link2, Effort: 1},
			{Name: "gen", Type: General, Body: tm.link1, Gain: 2, Bias: [3]float64{0.1, -3, -0.5}, Explicit: true},
			{Name: "pos", Type: Position, Body: tm.pole, Kp: 50, Kd: 1, Explicit: true}},
	}
	if set.NeedsSolve(tm.m, s.Q) {
		t.Fatal("the test's set acts at the state: pick one where NeedsSolve is false")
	}
	kin := multibody.NewWorkspace(tm.m)
	kin.Update(s.Q, s.V)
	ctl := []Control{{U: 3}, {U: 0.4}, {U: -0.2}}
	in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
	_, f := problem(t, tm.m, kin)
	full, fa := assembleChecked(t, tm.m, set, kin, in, Params{Beta: 1, MuJoCoLimits: true}, f)
	lazy, la := assembleChecked(t, tm.m, set, kin, in, Params{Beta: 1, MuJoCoLimits: true, NoSolve: true}, nil)
	if !sameFloats(full.JData, lazy.JData) || !sameFloats(full.Params, lazy.Params) || len(full.Constraints) != len(lazy.Constraints) || len(full.JBlock) != len(lazy.JBlock) {
		t.Fatalf("rows differ: J %v / %v, params %v / %v", full.JData, lazy.JData, full.Params, lazy.Params)
	}
	for i := range full.Constraints {
		if full.Constraints[i] != lazy.Constraints[i] {
			t.Errorf("constraint %d: %+v / %+v", i, full.Constraints[i], lazy.Constraints[i])
		}
	}
	gamma := fixedImpulses(full)
	rf, rl := fa.Reports(set, full, gamma, nil), la.Reports(set, lazy, gamma, nil)
	if len(rf) != 5 || len(rf) != len(rl) {
		t.Fatalf("%d and %d reports, want 5", len(rf), len(rl))
	}
	for i := range rf {
		if rf[i] != rl[i] {
			t.Errorf("report %d: %+v / %+v", i, rf[i], rl[i])
		}
	}
	if rf[2].Impulse[0] == 0 || rf[3].Impulse[0] == 0 {
		t.Errorf("the explicit actuators report no impulse: %+v", rf)
	}
}

// sameFloats reports whether a and b hold the same values.
func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// assembleChecked assembles set into a new problem of m with the
// kinematics kin, in, prm and the factor f (nil when prm needs none), and
// validates it.
func assembleChecked(t *testing.T, m *multibody.Model, set *Set, kin *multibody.Workspace, in Input, prm Params, f *solver.CliqueFactor) (*solver.Problem, *Assembler) {
	t.Helper()
	p, _ := problem(t, m, kin)
	a := &Assembler{}
	if err := a.Assemble(m, set, kin, &in, prm, f, p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return p, a
}

// fixedImpulses returns the impulses sim's directSolution gives p's rows:
// lo for an Interval with lo = hi, 0 for the others.
func fixedImpulses(p *solver.Problem) []float64 {
	g := make([]float64, p.NR)
	for i, c := range p.Constraints {
		if lo, hi := p.IntervalBounds(i); c.Kind == solver.Interval && lo == hi {
			g[c.Row] = lo
		}
	}
	return g
}
