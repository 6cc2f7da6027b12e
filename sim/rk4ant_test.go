package sim_test

import (
	"math"
	"testing"

	mjload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestRK4StagesLeaveMomentumErrorOut: Gymnasium's ant (rk4, contacts,
// MuJoCo's Newton port on the pyramid) no longer computes e_m for its
// stages' solves, whose velocities alone are read (solveStage,
// pgsWork.stats): once it stands on the ground, the last stage's port
// statistics report e_m as NaN (not computed), while every step still
// reports its own solve's e_m, finite and not negative, positive for some
// step in contact, and the port's stage flag is never left set.
func TestRK4StagesLeaveMomentumErrorOut(t *testing.T) {
	s, _, err := mjload.Scene("../internal/mjref/testdata/gymnasium/ant.xml", nil, mjload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Config.Contact.Newton || b.Config.Contact.PGSIterations <= 0 {
		t.Fatalf("ant is not solved by MuJoCo's Newton port: %+v", b.Config.Contact)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	inContact, positive, stageNaN := 0, 0, 0
	for k := range 150 {
		st, err := sm.Step()
		if err != nil {
			t.Fatalf("step %d: %v", k+1, err)
		}
		if em := st.MomentumError; math.IsNaN(em) || math.IsInf(em, 0) || em < 0 {
			t.Fatalf("step %d reports e_m = %v", k+1, em)
		}
		stage, flag := sim.StagePortStats(sm)
		if flag {
			t.Fatalf("step %d left the port's stage flag set", k+1)
		}
		if st.Contacts > 0 {
			inContact++
			if st.MomentumError > 0 {
				positive++
			}
			if math.IsNaN(stage.MomentumError) {
				stageNaN++
			}
		}
	}
	t.Logf("%d of 150 steps in contact, %d with e_m > 0, %d whose last stage left e_m out", inContact, positive, stageNaN)
	if inContact < 50 || positive == 0 || stageNaN < inContact/2 {
		t.Errorf("%d steps in contact (want ≥ 50), %d with e_m > 0 (want > 0), %d stages without e_m (want ≥ %d)", inContact, positive, stageNaN, inContact/2)
	}
}
