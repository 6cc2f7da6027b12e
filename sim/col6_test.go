package sim_test

import (
	"path/filepath"
	"testing"

	mjcfload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// col6Scene drops a sphere and a capsule on a box on a plane, every
// geometry with a margin of its own (a standoff): the box and the sphere
// are a pair given against their kinds' order.
const col6Scene = `<mujoco><option timestep="0.002"/><worldbody>
  <geom type="plane" size="5 5 0.1" margin="0.02"/>
  <body pos="0 0 0.2"><freejoint/><geom type="box" size="0.2 0.2 0.05" mass="1" margin="0.01"/></body>
  <body pos="0.05 0 0.45"><freejoint/><geom type="sphere" size="0.1" mass="1" margin="0.005"/></body>
  <body pos="-0.05 0.02 0.7" euler="80 10 0"><freejoint/><geom type="capsule" size="0.05 0.1" mass="1" margin="0.003"/></body>
</worldbody></mujoco>`

// TestListedNarrowPhaseMatchesTree: the narrow phase of filteredBroadPhase's
// candidates (a listed pair's standoff and collider set once, a Pair of two
// kinds collided in the order PairFor found) gives the contacts of the
// tree's candidates (treePair: standoff and slack from the geometries,
// collideAny), to the bit, on a scene of standoffs (col6Scene) and robots
// whose pairs are a plane and capsules and capsules of one kind (ordered
// by pose), with speculative margins: the states and contacts of two simulators, one
// made to build the tree (sim.SlowPaths), agree after every step. It fails
// when narrowPhase reads no standoff of a listed pair (checked; the swap
// of a Pair is checked in geometry, TestPairMatchesCollide).
func TestListedNarrowPhaseMatchesTree(t *testing.T) {
	td := filepath.Join("..", "internal", "mjref", "testdata")
	for _, f := range []string{"", filepath.Join(td, "dm_control", "suite", "hopper.xml"), filepath.Join(td, "gymnasium", "half_cheetah.xml")} {
		mk := func() *sim.Simulator {
			if f == "" {
				return mjcfSim(t, col6Scene)
			}
			sc, _, err := mjcfload.Scene(f, nil, mjcfload.Options{})
			if err != nil {
				t.Skipf("%s: %v", f, err)
			}
			s, _ := newSim(t, sc)
			return s
		}
		a, b := mk(), mk()
		sim.SlowPaths(b)
		touched := 0
		for i := range 300 {
			for _, s := range []*sim.Simulator{a, b} {
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			ca, cb := a.Contacts(), b.Contacts()
			if !sameState(a, b) || len(ca) != len(cb) {
				t.Fatalf("%s step %d: the listed and the tree's narrow phases part (%d and %d contacts)", f, i, len(ca), len(cb))
			}
			for k := range ca {
				if ca[k] != cb[k] {
					t.Fatalf("%s step %d: contact %d %+v, the tree's %+v", f, i, k, ca[k], cb[k])
				}
			}
			touched += len(ca)
		}
		if touched < 100 {
			t.Errorf("%s: %d contacts in 300 steps: the test does not reach the narrow phase", f, touched)
		}
	}
}
