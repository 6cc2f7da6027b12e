package sim_test

import (
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// TestCol9SweepMatchesPlainLoop: filteredBroadPhase sweeping along each
// world axis (pairSweep) gives, at every step and rk4-style stage call of
// dm_control's stacker and manipulator, Gymnasium's half_cheetah and the
// clutter-40 peer scene, the candidate pairs, their listed indices and
// the culled count of the loop that tests every listed pair, to the
// element. It fails when the sweep misses a pair, when its marks are read
// out of listed order, or when a pair whose bound met is kept without its
// exact boxes being tested again.
func TestCol9SweepMatchesPlainLoop(t *testing.T) {
	for _, tc := range broadPhaseCases(false) {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.load(t)
			if direct, _, _ := sim.FilteredCandidates(s); !direct {
				t.Fatal("the model does not take the filtered broad phase")
			}
			var step, stage sim.SweepProbe
			cands, culled := 0, 0
			for k := range tc.steps {
				for _, st := range []bool{false, true} {
					p := &step
					if st {
						p = &stage
					}
					cand, cull, differ := p.Compare(s, st)
					if len(differ) > 0 {
						t.Fatalf("step %d (stage %v): the sweeps along axes %v differ from the plain loop (%v)", k, st, differ, cand)
					}
					if !st {
						cands, culled = cands+len(cand), cull
					}
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

// fileSim returns a loader of the simulator of the model file path, loaded
// as the command line loads it.
func fileSim(path string) func(t *testing.T) *sim.Simulator {
	return func(t *testing.T) *sim.Simulator {
		sc, _, err := modelload.Scene(path, nil, modelload.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := newSim(t, sc)
		return s
	}
}
