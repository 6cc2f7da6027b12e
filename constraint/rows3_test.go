package constraint

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestRowsOnlySameBlocks: an assembly with Params.RowsOnly gives every
// block (kinds, rows, J blocks and data, R, v̂, bounds) to the bit of the
// same assembly without it, for every constraint kind in five compliance
// regimes, with the explicit actuators applied as forces and as rows,
// MuJoCo's limits on and off, over 40 random states (violated limits among
// them); it keeps no entry, and the next assembly without it on the same
// Assembler keeps them all again. It fails when RowsOnly skips an
// actuator or a limit that has a block.
func TestRowsOnlySameBlocks(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(57, 23))
	prms := []Params{
		{Beta: 1, MuJoCoLimits: true, ActuatorForces: true},
		{Beta: 1, ActuatorForces: true},
		{Beta: 1, MuJoCoLimits: true},
	}
	rows, skipped := 0, 0
	portglue2Sets(t, tm, rng, 40, func(trial int, s *multibody.State, kin *multibody.Workspace, set *Set, ctl []Control) {
		in := Input{Q0: s.Q, V0: s.V, DT: testDT, Controls: ctl}
		for _, prm := range prms {
			var a Assembler
			full, _ := rows3Assemble(t, &a, tm.m, set, kin, in, prm, s.V)
			entries := len(a.entries)
			only := prm
			only.RowsOnly = true
			p, _ := rows3Assemble(t, &a, tm.m, set, kin, in, only, s.V)
			if len(a.entries) != 0 || len(a.forced) != 0 {
				t.Fatalf("trial %d: RowsOnly kept %d entries and %d forced terms", trial, len(a.entries), len(a.forced))
			}
			rows3SameBlocks(t, trial, full, p)
			rows3Assemble(t, &a, tm.m, set, kin, in, prm, s.V)
			if len(a.entries) != entries || entries != len(set.Limits)+len(set.Cones)+len(set.TendonLimits)+
				len(set.Welds)+len(set.Balls)+len(set.Distances)+len(set.Couplers)+len(set.Actuators)+len(set.Frictions) {
				t.Fatalf("trial %d: %d entries after a RowsOnly assembly, %d before, want one per item", trial, len(a.entries), entries)
			}
			rows += p.NR
			if prm.ActuatorForces {
				skipped++
			}
		}
	})
	if rows == 0 || skipped == 0 {
		t.Fatalf("%d rows assembled, %d assemblies with forced actuators", rows, skipped)
	}
}

// rows3Assemble assembles set into a fresh problem at kin (v* = vs) with a
// and returns it.
func rows3Assemble(t *testing.T, a *Assembler, m *multibody.Model, set *Set, kin *multibody.Workspace, in Input, prm Params, vs []float64) (*solver.Problem, *solver.CliqueFactor) {
	t.Helper()
	p, f := problem(t, m, kin)
	copy(p.VStar, vs)
	if err := a.Assemble(m, set, kin, &in, prm, f, p); err != nil {
		t.Fatal(err)
	}
	return p, f
}

// rows3SameBlocks fails unless a and b hold the same blocks and J blocks,
// bit for bit (their rows' numbers: portglue2SameProblem).
func rows3SameBlocks(t *testing.T, trial int, a, b *solver.Problem) {
	t.Helper()
	portglue2SameProblem(t, trial, a, b)
	if len(a.JBlock) != len(b.JBlock) {
		t.Fatalf("trial %d: %d J blocks, RowsOnly %d", trial, len(a.JBlock), len(b.JBlock))
	}
	for i := range a.Constraints {
		if a.Constraints[i] != b.Constraints[i] {
			t.Fatalf("trial %d: block %d: %+v, RowsOnly %+v", trial, i, a.Constraints[i], b.Constraints[i])
		}
	}
	for i := range a.JBlock {
		if a.JBlock[i] != b.JBlock[i] {
			t.Fatalf("trial %d: J block %d: %+v, RowsOnly %+v", trial, i, a.JBlock[i], b.JBlock[i])
		}
	}
}
