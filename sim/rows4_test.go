package sim_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// TestRows4MaterialEditSeen: a contact material edited in place between
// two steps (Config.Materials shares the caller's slice) reaches the next
// step's rows although the combined materials are kept across steps
// (sim/pairmats.go): of two simulators of the pyramid scene (a sphere and a
// capsule lying on a plane, condim 3, MuJoCo's pyramidal cone), stepped
// alike for 40 steps, the one whose friction is then changed in place
// leaves the other's states at the next step, and the one whose material is
// rewritten in place with the same values (the same bytes) does not. It
// fails if the cache returns the stale combination of an edited material.
func TestRows4MaterialEditSeen(t *testing.T) {
	xml := fmt.Sprintf(pyramidSpheres, 3)
	ref, same, edited := mjcfSim(t, xml), mjcfSim(t, xml), mjcfSim(t, xml)
	step := func(s *sim.Simulator) {
		t.Helper()
		if err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	for range 40 {
		step(ref)
		step(same)
		step(edited)
	}
	if !sameState(ref, edited) || !sameState(ref, same) {
		t.Fatal("three simulators of one scene parted before any edit")
	}
	mats := edited.Config().Materials
	if len(mats) == 0 || mats[0].Friction == 0 {
		t.Fatalf("materials %+v: want the scene's frictional materials", mats)
	}
	for i := range mats {
		mats[i].Friction *= 0.5 // in place: the simulator's own slice
	}
	smats := same.Config().Materials
	for i := range smats {
		m := smats[i]
		smats[i] = m // the same values written back in place
	}
	step(ref)
	step(same)
	step(edited)
	if sameState(ref, edited) {
		t.Error("friction halved in place before the step: the step used the material as it was")
	}
	if !sameState(ref, same) {
		t.Error("a material rewritten with its own values changed the step")
	}
}

// TestRows4PyramidBranchedBits: on dm_control's walker and humanoid
// (Euler, MuJoCo's pyramidal cone), branched trees whose feet's chains to
// the root cover part of their tree's velocities (the other columns of a
// contact's rows +0), every pyramid contact's edges (R, v̂, bounds, J
// blocks) have the bits of the edges' reference build
// (PyramidRowsCheck), at every step with contacts of 400.
func TestRows4PyramidBranchedBits(t *testing.T) {
	for _, name := range []string{"walker", "humanoid"} {
		path := filepath.Join("..", "internal", "mjref", "testdata", "dm_control", "suite", name+".xml")
		sc, _, err := modelload.Scene(path, nil, modelload.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, _ := newSim(t, sc)
		checked := 0
		for k := range 400 {
			q0, v0 := slices.Clone(s.State.Q), slices.Clone(s.State.V)
			st, err := s.Step()
			if err != nil {
				t.Fatalf("%s, step %d: %v", name, k+1, err)
			}
			if st.Contacts == 0 {
				continue // no pyramid this step: the last one's is stale
			}
			n, err := sim.PyramidRowsCheck(s, q0, v0)
			if err != nil {
				t.Fatalf("%s, step %d: %v", name, k+1, err)
			}
			checked += n
		}
		t.Logf("%s: %d pyramid contacts checked", name, checked)
		if checked < 200 {
			t.Errorf("%s: %d pyramid contacts checked (want ≥ 200)", name, checked)
		}
	}
}
