package constraint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestAsm8JointIndicesFollowEdits: an Assembler kept across assemblies,
// which keeps its limits' and joint actuators' coordinate and velocity
// indices (LimitCoords.kept, find), builds the same problem, entries and
// forced terms, to the bit, as a new Assembler (dofAt's indices) for each
// assembly: at its first use, when its keys hit, and after a limit's and
// two actuators' joints are edited in place; with the explicit actuators
// as rows and as forces (Params.ActuatorForces). It fails when a kept
// index outlives its item's edit. (The model check of the same kept and
// find is TestRows4LimitCoordsFollowEdits', through NeedsSolveCached.)
func TestAsm8JointIndicesFollowEdits(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(8, 170))
	s := tm.randomState(rng, 0.3)
	set := &Set{
		Limits: []Limit{{Body: tm.link1, Lower: -0.05, Upper: 0.05}, {Body: tm.cart, Lower: -1, Upper: 1}, {Body: tm.pole, Lower: -0.02, Upper: 0.02}},
		Actuators: []Actuator{{Name: "mot", Type: Motor, Body: tm.link2, Gear: 2, Effort: 1},
			{Name: "pos", Type: Position, Body: tm.pole, Kp: 50, Kd: 1},
			{Name: "gen", Type: General, Body: tm.cart, Gain: 2, Bias: [3]float64{0.1, -3, -0.5}, Explicit: true}},
	}
	ctl := []Control{{U: 0.3}, {U: -0.7}, {U: 0.4}}
	var kept Assembler
	check := func(what string, m *multibody.Model) {
		t.Helper()
		if err := set.Validate(m); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		kin := multibody.NewWorkspace(m)
		kin.Update(s.Q, s.V)
		in := &Input{Q0: s.Q, V0: s.V, DT: 0.01, Controls: ctl}
		for _, forces := range []bool{false, true} {
			prm := Params{Beta: 0.5, ActuatorForces: forces}
			var fresh Assembler
			pw, fw := problem(t, m, kin)
			pg, fg := problem(t, m, kin)
			if err := fresh.Assemble(m, set, kin, in, prm, fw, pw); err != nil {
				t.Fatal(err)
			}
			if err := kept.Assemble(m, set, kin, in, prm, fg, pg); err != nil {
				t.Fatal(err)
			}
			if len(pw.Constraints) < 3 || forces && len(fresh.forced) == 0 {
				t.Fatalf("%s: %d blocks, %d forced terms: want rows and forced actuators", what, len(pw.Constraints), len(fresh.forced))
			}
			if !sameRows(pw, pg) || !slices.Equal(fresh.entries, kept.entries) || !slices.Equal(fresh.forced, kept.forced) {
				t.Errorf("%s (forces %v): the kept Assembler's problem or entries differ from a new one's", what, forces)
			}
		}
	}
	check("first use", tm.m)
	check("kept", tm.m)
	set.Limits[0].Body = tm.link2
	check("limit's joint edited", tm.m)
	set.Actuators[0].Body, set.Actuators[1].Body = tm.cart, tm.link1
	check("actuators' joints edited", tm.m)
}

// sameRows reports whether p and q hold the same blocks, J blocks and
// rows, bit for bit.
func sameRows(p, q *solver.Problem) bool {
	bits := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	return slices.Equal(p.Constraints, q.Constraints) && slices.Equal(p.JBlock, q.JBlock) &&
		bits(p.JData, q.JData) && bits(p.R, q.R) && bits(p.VHat, q.VHat) && bits(p.Params, q.Params)
}
