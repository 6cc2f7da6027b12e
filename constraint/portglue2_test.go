package constraint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// portglue2Compliances are the regimes the lazy Delassus estimate must
// give the same rows in: near-rigid and compliant SAP rows (which read
// it), MuJoCo's soft rows without a weight (which read it) and with one
// (which do not).
var portglue2Compliances = []Compliance{
	{},
	{Stiffness: 4e3, Dissipation: 0.01},
	{SolRef: DefaultSolRef, SolImp: DefaultSolImp},
	{SolRef: DefaultSolRef, SolImp: DefaultSolImp, Weight: 0.7},
	{SolRef: [2]float64{-900, -12}, SolImp: [5]float64{0.8, 0.97, 0.01, 0.4, 3}, Weight: 2.5},
}

// portglue2Set is fullSet with compliance cp on every item that takes one,
// the explicit actuators and a general one added (General: an R of its
// own; explicit motor: R from the estimate), and a fixed tendon's limit.
func portglue2Set(tm *testModel, s0 *multibody.State, cp Compliance) *Set {
	set := tm.fullSet(s0)
	for i := range set.Limits {
		set.Limits[i].Compliance = cp
	}
	set.Cones[0].Compliance = cp
	set.Balls[0].Compliance = cp
	set.Welds[1].Compliance = cp
	set.Distances[0].Compliance = cp
	set.Couplers[0].Compliance = cp
	set.Frictions[0].Compliance = cp
	set.Actuators = append(set.Actuators,
		Actuator{Name: "gen", Type: General, Body: tm.pole, Gain: 2, Bias: [3]float64{0.1, -3, -0.5}},
		Actuator{Name: "expl", Type: Position, Body: tm.cart, Kp: 30, Explicit: true, Effort: 4})
	set.TendonLimits = []TendonLimit{{Name: "t", Terms: []TendonTerm{{Body: tm.link1, Coef: 1}, {Body: tm.pole, Coef: -0.5}},
		Lower: -0.2, Upper: 0.2, Compliance: cp}}
	return set
}

// TestLazyDelassusSameRows: the assembly with the Delassus estimates
// computed when first read gives every block's J, R, v̂ and bounds to the
// bit of the assembly that computes them in emit (eagerW), for every
// constraint kind in five compliance regimes, with and without MuJoCo's
// limits, SAP's recovery speed cap and the θ-method, over 60 random states
// (violated limits among them), and computes fewer estimates when MuJoCo's
// soft rows have a weight. It fails if a read takes the estimate of
// another block, or if softWeight skips one that R reads.
func TestLazyDelassusSameRows(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(23, 49))
	prms := []Params{
		{Beta: 1},
		{Beta: 1, MuJoCoLimits: true},
		{Beta: 0.5, MaxRecoverySpeed: 0.3},
	}
	rows := 0
	portglue2Sets(t, tm, rng, 60, func(trial int, s *multibody.State, kin *multibody.Workspace, set *Set, ctl []Control) {
		for pi, prm := range prms {
			in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
			if pi == 2 {
				in.ThetaQ, in.ThetaVQ, in.KinTheta, in.QTheta, in.VLin = 1, 1, kin, s.Q, s.V
			}
			var pe, pl *solver.Problem
			for _, eager := range []bool{true, false} {
				p, f := problem(t, tm.m, kin)
				copy(p.VStar, s.V)
				a := Assembler{eagerW: eager}
				if err := a.Assemble(tm.m, set, kin, &in, prm, f, p); err != nil {
					t.Fatal(err)
				}
				if eager {
					pe = p
				} else {
					pl = p
				}
			}
			rows += pe.NR
			portglue2SameProblem(t, trial, pe, pl)
		}
	})
	if rows == 0 {
		t.Fatal("no rows assembled")
	}
}

// portglue2Sets calls f for trials random states of tm (violated limits
// among them) with their kinematics, once for each compliance regime of
// portglue2Compliances, with the regime's validated set and random
// controls of its actuators.
func portglue2Sets(t *testing.T, tm *testModel, rng *rand.Rand, trials int, f func(trial int, s *multibody.State, kin *multibody.Workspace, set *Set, ctl []Control)) {
	t.Helper()
	for trial := range trials {
		s := tm.randomState(rng, 0.9)
		kin := multibody.NewWorkspace(tm.m)
		kin.Update(s.Q, s.V)
		for _, cp := range portglue2Compliances {
			set := portglue2Set(tm, s, cp)
			if err := set.Validate(tm.m); err != nil {
				t.Fatal(err)
			}
			ctl := make([]Control, len(set.Actuators))
			for i := range ctl {
				ctl[i] = Control{U: rng.NormFloat64(), Rate: rng.NormFloat64()}
			}
			f(trial, s, kin, set, ctl)
		}
	}
}

// portglue2SameProblem fails unless a and b hold the same blocks, bit for
// bit.
func portglue2SameProblem(t *testing.T, trial int, a, b *solver.Problem) {
	t.Helper()
	same := func(name string, x, y []float64) {
		if len(x) != len(y) {
			t.Fatalf("trial %d: %s: %d and %d entries", trial, name, len(x), len(y))
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Fatalf("trial %d: %s[%d]: eager %v, lazy %v", trial, name, i, x[i], y[i])
			}
		}
	}
	if len(a.Constraints) != len(b.Constraints) || a.NR != b.NR {
		t.Fatalf("trial %d: %d/%d blocks and rows, lazy %d/%d", trial, len(a.Constraints), a.NR, len(b.Constraints), b.NR)
	}
	same("R", a.R[:a.NR], b.R[:b.NR])
	same("VHat", a.VHat[:a.NR], b.VHat[:b.NR])
	same("Params", a.Params, b.Params)
	same("JData", a.JData, b.JData)
}

// TestLazyDelassusSkipsWeightedSoftRows: with MuJoCo's limits past their
// bounds and a weight, no block reads its estimate: the assembly computes
// none (the per-velocity (A⁻¹)_ii of single stay unset), while the same
// rows without a weight compute them.
func TestLazyDelassusSkipsWeightedSoftRows(t *testing.T) {
	tm := newTestModel(t)
	qi, vi, err := scalarDOF(tm.m, tm.cart, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		weight float64
		reads  bool
	}{{0.7, false}, {0, true}} {
		cp := Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp, Weight: c.weight}
		set := &Set{Limits: []Limit{{Body: tm.cart, Lower: -1, Upper: 1, Compliance: cp}}}
		s := tm.m.NewState()
		s.Q[qi], s.V[vi] = 1.2, 3 // past the upper bound: one soft row
		kin := multibody.NewWorkspace(tm.m)
		kin.Update(s.Q, s.V)
		p, f := problem(t, tm.m, kin)
		var a Assembler
		if err := a.Assemble(tm.m, set, kin, &Input{Q0: s.Q, V0: s.V, DT: testDT}, Params{Beta: 1, MuJoCoLimits: true}, f, p); err != nil {
			t.Fatal(err)
		}
		if p.NR != 1 {
			t.Fatalf("weight %g: %d rows, want 1", c.weight, p.NR)
		}
		if read := a.idiagGen[vi] == a.gen; read != c.reads {
			t.Errorf("weight %g: estimate computed %v, want %v", c.weight, read, c.reads)
		}
	}
}
