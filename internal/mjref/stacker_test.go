package mjref

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/sim"
)

// TestStackerBoxBoxMuJoCo: dm_control's stacker under mujoco-euler, run
// in Stiction from MuJoCo's initial state. At two states of that run,
// Stiction's contacts for the next step (the solver's input) equal those
// of MuJoCo 2.2.2 at the same qpos and qvel, contact by contact (count,
// order, distance, point, normal, to 1e-9; measured 0 and 5.6e-17):
//
//   - step 321: box0 hangs 2 mm over box1 (both turned about the world y
//     axis, their y faces parallel); eight corners of box2 and box3 on the
//     floor and nothing between box0 and box1. mjc_BoxBox finds nothing
//     there with margin 0, as MuJoCo collides them, but called with the
//     speculative margin (0.0052), as the box–box fallback did when nothing
//     touches, it returned two contacts of dist −0.047, which entered the
//     solver as a penetration and parted the run from MuJoCo by 0.50 over
//     the next 17 steps (TestEllipticSuiteMuJoCo's stacker case). The
//     fallback now keeps only gaps (sim's gapsOnly).
//   - step 339: box0 lands on box1, edge on face. MuJoCo, at Stiction's
//     state (qpos within 5.8e-15 of MuJoCo's own), gives three box0–box1
//     contacts (the corner at y = −0.022 twice), Stiction the same three;
//     at its own state MuJoCo gives two (checked: this count is what parts
//     the runs at step 340, by 4.2e-5, a property of mjc_BoxBox's branches
//     in the last bits of the pose, not a difference of the port).
func TestStackerBoxBoxMuJoCo(t *testing.T) {
	exe := tool(t)
	path := filepath.Join("testdata", "dm_control/suite/stacker.xml")
	const last = 339
	mj := run(t, path, Options{Steps: last, Every: 1, Integrator: mujocoIntegrator(sim.MuJoCoEuler)})
	b, mp := mappedModel(t, path, mj)
	b.Config.Scheme = sim.MuJoCoEuler
	s := startedSim(t, b, mp, mj)
	for k := 0; k <= last; k++ { // each pass steps s from step k to k+1
		if k == 321 || k == last {
			stackerCompareAt(t, exe, path, s, mp, mj, k)
			continue
		}
		if _, err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", k+1, err)
		}
	}
}

// stackerCompareAt steps s from step k of run mj and compares the
// step's contacts (those of the state at step k) with MuJoCo's at that
// state (TestStackerBoxBoxMuJoCo).
func stackerCompareAt(t *testing.T, exe, path string, s *sim.Simulator, mp *Map, mj *Run, k int) {
	t.Helper()
	q, v := make([]float64, mj.NQ), make([]float64, mj.NV)
	mp.QToMuJoCo(s.State.Q, q)
	mp.VToMuJoCo(q, s.State.V, v)
	worst := 0.0
	for i := range q {
		worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
	}
	if worst > 1e-9 {
		t.Fatalf("step %d: qpos differs from MuJoCo's by %.3g before the compared step", k, worst)
	}
	c, err := Collide(exe, path, 0, q, v)
	if err != nil {
		t.Fatal(err)
	}
	own, err := Collide(exe, path, 0, mj.Steps[k].QPos, mj.Steps[k].QVel)
	if err != nil {
		t.Fatal(err)
	}
	n0, n1 := boxPairCount(c), boxPairCount(own)
	if _, err := s.Step(); err != nil { // its contacts are those of the state at step k
		t.Fatal(err)
	}
	diff, err := stackerContactsDiff(s, c)
	if err != nil {
		t.Fatalf("step %d: %v", k, err)
	}
	t.Logf("step %d (qpos %.2g from MuJoCo's): %d contacts (%d box0–box1; MuJoCo at its own state %d), largest difference from MuJoCo's %.3g", k, worst, len(c.Contacts), n0, n1, diff)
	if diff > 1e-9 {
		t.Errorf("step %d: contacts differ from MuJoCo's by %.3g", k, diff)
	}
	gs := mjccdGeoms(c) // the pair as MuJoCo poses it: mjc_BoxBox with margin 0 gives MuJoCo's count
	if h := mjccd.BoxBox(&gs[19], &gs[20], 0, nil); len(h) != n0 {
		t.Errorf("step %d: box0–box1 with margin 0: %d contacts, MuJoCo %d", k, len(h), n0)
	}
}

// boxPairCount is the number of c's contacts between stacker's box0 and
// box1 (MuJoCo's geoms 19 and 20).
func boxPairCount(c *Collision) int {
	n := 0
	for _, h := range c.Contacts {
		if h.Geom == [2]int{19, 20} {
			n++
		}
	}
	return n
}

// stackerContactsDiff returns the largest difference of a distance, point
// or normal component between s's contacts of its last step and c's, in
// order; a different count is an error naming Stiction's contacts.
func stackerContactsDiff(s *sim.Simulator, c *Collision) (float64, error) {
	got := s.Contacts()
	if len(got) != len(c.Contacts) {
		msg := ""
		for _, p := range got {
			msg += fmt.Sprintf("; %s–%s φ %.3g", s.Model.Geometries[p.GeomA].Name, s.Model.Geometries[p.GeomB].Name, p.Phi)
		}
		return 0, fmt.Errorf("%d contacts, MuJoCo %d%s", len(got), len(c.Contacts), msg)
	}
	diff := 0.0
	for k, w := range c.Contacts {
		p := got[k]
		diff = math.Max(diff, math.Abs(p.Phi-w.Dist))
		for d := range 3 {
			diff = math.Max(diff, math.Abs(p.Point[d]-w.Pos[d]))
			diff = math.Max(diff, math.Abs(p.Normal[d]-w.Frame[d]))
		}
	}
	return diff, nil
}
