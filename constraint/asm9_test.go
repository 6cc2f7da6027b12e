package constraint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestFixedRFilledSameRows: an assembly with Params.FixedRUnread, its
// explicit actuators' R then filled (FillFixedR), gives every block's J,
// R, v̂ and bounds to the bit of the assembly without it, for every
// constraint kind in five compliance regimes, over 40 random states, with
// one Assembler kept across the assemblies (pend reset by each). Before the
// fill some R differs (the estimate 1), so a solve that read R without the
// fill would see other bits; the test fails if FillFixedR takes another
// factor entry, gear or β than single and setW.
func TestFixedRFilledSameRows(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(9, 172))
	var kept Assembler
	differed, pending := false, 0
	portglue2Sets(t, tm, rng, 40, func(trial int, s *multibody.State, kin *multibody.Workspace, set *Set, ctl []Control) {
		for _, beta := range []float64{1, 0.5} {
			in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
			pf, f := problem(t, tm.m, kin)
			var full Assembler
			if err := full.Assemble(tm.m, set, kin, &in, Params{Beta: beta}, f, pf); err != nil {
				t.Fatal(err)
			}
			pu, fu := problem(t, tm.m, kin)
			if err := kept.Assemble(tm.m, set, kin, &in, Params{Beta: beta, FixedRUnread: true}, fu, pu); err != nil {
				t.Fatal(err)
			}
			if kept.FixedRPending() {
				pending++
			}
			for i := range pf.NR {
				differed = differed || math.Float64bits(pf.R[i]) != math.Float64bits(pu.R[i])
			}
			kept.FillFixedR(fu, pu)
			if kept.FixedRPending() {
				t.Fatal("rows still pending after FillFixedR")
			}
			portglue2SameProblem(t, trial, pf, pu)
		}
	})
	if pending == 0 || !differed {
		t.Fatalf("no explicit actuator row left for FillFixedR (%d assemblies with pending rows, R differed %v)", pending, differed)
	}
}

// TestFixedRUnreadWithNoSolve: with NoSolve as well, the rows take
// NoSolve's estimate 1 and none waits for FillFixedR.
func TestFixedRUnreadWithNoSolve(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(3, 5))
	portglue2Sets(t, tm, rng, 3, func(trial int, s *multibody.State, kin *multibody.Workspace, set *Set, ctl []Control) {
		in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
		var pe, pl *solver.Problem
		for _, unread := range []bool{false, true} {
			p, f := problem(t, tm.m, kin)
			var a Assembler
			if err := a.Assemble(tm.m, set, kin, &in, Params{Beta: 1, NoSolve: true, FixedRUnread: unread}, f, p); err != nil {
				t.Fatal(err)
			}
			if a.FixedRPending() {
				t.Fatal("a NoSolve assembly left rows for FillFixedR")
			}
			pe, pl = pl, p
		}
		portglue2SameProblem(t, trial, pe, pl)
	})
}
