package sim_test

import (
	"path/filepath"
	"testing"

	mjcfload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// TestCol7ClosingMatchesRef: closing, each body's motion read once
// (motionAt), keeps and chains the points its closure form kept and
// chained, on random points between the bodies of dm hopper and
// half_cheetah at the start-of-step kinematics of 200 steps; both
// verdicts occur (it fails when motionAt drops the spin term, checked).
func TestCol7ClosingMatchesRef(t *testing.T) {
	td := filepath.Join("..", "internal", "mjref", "testdata")
	for _, f := range []string{filepath.Join(td, "dm_control", "suite", "hopper.xml"), filepath.Join(td, "gymnasium", "half_cheetah.xml")} {
		sc, _, err := mjcfload.Scene(f, nil, mjcfload.Options{})
		if err != nil {
			t.Skipf("%s: %v", f, err)
		}
		s, _ := newSim(t, sc)
		kept, chained, total := 0, 0, 0
		for i := range 200 {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			k, c, err := sim.ClosingMatchesRef(s, uint64(i), 50)
			if err != nil {
				t.Fatalf("%s step %d: %v", f, i, err)
			}
			kept, chained, total = kept+k, chained+c, total+50
		}
		if kept == 0 || kept == total || chained == 0 {
			t.Fatalf("%s: %d of %d points kept, %d chained", f, kept, total, chained)
		}
	}
}
