package mjref

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/sim"
)

// TestStackerBoxBoxMargin: dm_control's stacker under mujoco-euler, run
// from MuJoCo's initial state to step 321, where box0 hangs 2 mm over
// box1 (both turned about the world y axis, their y faces parallel):
// Stiction's contacts for the next step (the solver's input) equal MuJoCo
// 2.2.2's at that state, contact by contact (count, order, distance,
// point, normal, to 1e-9; measured equal to the bit): the eight corners
// of box2 and box3 on the floor, and nothing between box0 and box1. There
// mjc_BoxBox finds nothing with margin 0 (as MuJoCo collides them) but,
// called with the speculative margin (0.0052) as the box–box fallback
// does when nothing touches, it returned two contacts of dist −0.047,
// which entered the solver as a penetration and parted the run from
// MuJoCo by 0.50 over the next 17 steps (TestEllipticSuiteMuJoCo's stacker
// case; the fallback now keeps only gaps, sim's gapsOnly).
func TestStackerBoxBoxMargin(t *testing.T) {
	exe := tool(t)
	path := filepath.Join("testdata", "dm_control/suite/stacker.xml")
	const at = 321
	mj := run(t, path, Options{Steps: at, Every: 1, Integrator: mujocoIntegrator(sim.MuJoCoEuler)})
	b, mp := mappedModel(t, path, mj)
	b.Config.Scheme = sim.MuJoCoEuler
	s := startedSim(t, b, mp, mj)
	for k := 1; k <= at; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
	}
	q, v := make([]float64, mj.NQ), make([]float64, mj.NV)
	mp.QToMuJoCo(s.State.Q, q)
	mp.VToMuJoCo(q, s.State.V, v)
	worst := 0.0
	for i := range q {
		worst = math.Max(worst, math.Abs(q[i]-mj.Steps[at].QPos[i]))
	}
	if worst > 1e-9 {
		t.Fatalf("step %d: qpos differs from MuJoCo's by %.3g before the compared step", at, worst)
	}
	c, err := Collide(exe, path, 0, q, v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Step(); err != nil { // its contacts are those of the state at step `at`
		t.Fatal(err)
	}
	got := s.Contacts()
	if len(got) != len(c.Contacts) {
		for _, p := range got {
			t.Logf("Stiction: %s–%s φ %.6g at %.6f", b.Model.Geometries[p.GeomA].Name, b.Model.Geometries[p.GeomB].Name, p.Phi, p.Point)
		}
		t.Fatalf("step %d: %d contacts, MuJoCo %d", at, len(got), len(c.Contacts))
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
	t.Logf("step %d: %d contacts, largest difference from MuJoCo's %.3g", at, len(got), diff)
	if diff > 1e-9 {
		t.Errorf("step %d: contacts differ from MuJoCo's by %.3g", at, diff)
	}
	// The pair itself, as MuJoCo poses it at this state: no contact with
	// margin 0, as in MuJoCo.
	gs := mjccdGeoms(c)
	box0, box1 := -1, -1
	for i, g := range gs {
		if g.Type == mjccd.Box && box0 < 0 {
			box0 = i
		} else if g.Type == mjccd.Box && box1 < 0 {
			box1 = i
		}
	}
	if n := len(mjccd.BoxBox(&gs[box0], &gs[box1], 0, nil)); n != 0 {
		t.Errorf("box0–box1 with margin 0: %d contacts, want none", n)
	}
}
