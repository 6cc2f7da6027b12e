package sim_test

import (
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestCol10FilteredMatchesPlainTest: filteredBroadPhase, with its bounds
// (ballBox), retry counts, culls on the bound (boundCull) and sweep
// (pairSweep, clutter-40), gives at every step and rk4-style stage call
// of dm_control's stacker and manipulator, Gymnasium's half_cheetah, dm
// hopper and the clutter-40 peer scene the candidates, listed indices and
// culled count of the plain test of every listed pair on every
// geometry's exact box, in listed order. It fails when a pair is culled
// on a bound that does not clear the plane, or when a pair whose bounds
// met is decided without its exact boxes.
func TestCol10FilteredMatchesPlainTest(t *testing.T) {
	for _, tc := range broadPhaseCases(true) {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.load(t)
			if direct, _, _ := sim.FilteredCandidates(s); !direct {
				t.Fatal("the model does not take the filtered broad phase")
			}
			var p sim.PlainProbe
			cands, culled := 0, 0
			for k := range tc.steps {
				for _, st := range []bool{false, true} {
					n, cull, differ := p.Check(s, st)
					if differ != "" {
						t.Fatalf("step %d (stage %v): %s", k, st, differ)
					}
					cands, culled = cands+n, culled+cull
				}
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			if cands == 0 {
				t.Errorf("no candidate pair in %d steps: nothing compared", tc.steps)
			}
			t.Logf("%d candidates, %d culled", cands, culled)
		})
	}
}

// broadPhaseCase is a model the filtered broad phase's tests step: its
// name, the steps to take and how to load it.
type broadPhaseCase struct {
	name  string
	steps int
	load  func(t *testing.T) *sim.Simulator
}

// broadPhaseCases lists the models that the broad phase's tests
// (TestCol9SweepMatchesPlainLoop, TestCol10FilteredMatchesPlainTest) step:
// dm_control's stacker and manipulator, Gymnasium's half_cheetah, dm
// hopper when withHopper, and the clutter-40 peer scene.
func broadPhaseCases(withHopper bool) []broadPhaseCase {
	suite := filepath.Join("..", "internal", "mjref", "testdata")
	cs := []broadPhaseCase{
		{"stacker", 300, fileSim(filepath.Join(suite, "dm_control", "suite", "stacker.xml"))},
		{"manipulator", 300, fileSim(filepath.Join(suite, "dm_control", "suite", "manipulator.xml"))},
		{"half_cheetah", 300, fileSim(filepath.Join(suite, "gymnasium", "half_cheetah.xml"))},
	}
	if withHopper {
		cs = append(cs, broadPhaseCase{"hopper", 300, fileSim(filepath.Join(suite, "dm_control", "suite", "hopper.xml"))})
	}
	return append(cs, broadPhaseCase{"clutter-40", 120, func(t *testing.T) *sim.Simulator { s, _ := loadPeer(t, "clutter-40"); return s }})
}
