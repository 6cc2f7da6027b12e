package sim_test

import (
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// col3Scene is a plane with a contact margin (a standoff) under a free box
// thrown sideways and a free sphere, both with margins of their own: every
// geometry has a standoff, which the broad phase's inflated boxes add.
const col3Scene = `<mujoco><option timestep="0.002"/><worldbody>
  <geom type="plane" size="5 5 0.1" margin="0.02"/>
  <body pos="0 0 0.3"><freejoint/><geom type="box" size="0.1 0.15 0.05" mass="1" margin="0.01"/></body>
  <body pos="0.5 0 0.4" euler="10 20 30"><freejoint/><geom type="sphere" size="0.1" mass="1" margin="0.005"/></body>
</worldbody></mujoco>`

// TestCol3FilteredBoxesKeptOverCalls: filteredBroadPhase, with its fixed
// geometries' inflated boxes and its moving geometries' margins set once
// at its collider's first call (filterSetup), gives at every later call
// the boxes and speculative margins that geometryBoxes forms from scratch
// (margin + standoff + speculative margin), to the bit, with and without
// speculative margins, and the candidate pairs of a fresh collider. It
// fails when filterSetup leaves out a standoff or the contact margin, or
// keeps a moving geometry's box.
func TestCol3FilteredBoxesKeptOverCalls(t *testing.T) {
	s := mjcfSim(t, col3Scene)
	if direct, _, _ := sim.FilteredCandidates(s); !direct {
		t.Fatal("the scene does not take the filtered broad phase")
	}
	var step, stage sim.FilterProbe
	compared, touching := 0, 0
	for k := range 300 {
		for _, st := range []bool{false, true} {
			p := &step
			if st {
				p = &stage
			}
			n, differ, cand := p.FilteredBoxes(s, st)
			if len(differ) > 0 {
				t.Fatalf("step %d (stage %v): the boxes of geometries %v differ from geometryBoxes'", k, st, differ)
			}
			compared += n
			if !st {
				if _, fresh, _ := sim.FilteredCandidates(s); !slices.Equal(cand, fresh) {
					t.Fatalf("step %d: candidates %v, a fresh collider's %v", k, cand, fresh)
				}
				touching += len(cand)
			}
		}
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if compared < 600 || touching < 300 {
		t.Errorf("%d boxes compared, %d candidate pairs: the scene does not test the boxes", compared, touching)
	}
}
