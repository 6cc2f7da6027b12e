package sim_test

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver/sap"
)

// TestClutterCopiesIndependent: in scene.ClutterCopies(2) the copies never
// interact, so the weak-scaling control of BENCHMARKS.md does k times the
// 40-body work. Structurally: over 150 steps (1.5 s: the columns fall and
// topple) no contact joins bodies of different copies. Numerically: every
// body of the second copy follows its counterpart in the 40-body
// clutter-nowalls scene, moved by the copies' offset, within 1e-6 m over
// the first 10 steps. The bodies differ only by the round-off of
// coordinates 50 m from the origin; later, discrete decisions at round-off
// level (a speculative contact included or not, a contact sticking or not)
// and the toppling columns amplify that round-off, so the trajectories are
// not compared after that. Each copy is solved island by island.
func TestClutterCopiesIndependent(t *testing.T) {
	mk := islands(sap.AutoLinear, 1)
	one, _ := withSolver(t, loadScene(t, "clutter-nowalls"), mk)
	sc, err := scene.LoadClutterCopies(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := withSolver(t, sc, mk)
	copyOf := func(body int) string {
		name := two.Model.Bodies[body].Name
		if i := strings.Index(name, "_"); i > 0 && strings.HasPrefix(name, "k") {
			return name[:i]
		}
		return "" // the shared ground
	}
	for step := 1; step <= 150; step++ {
		runSteps(t, one, 1)
		runSteps(t, two, 1)
		for _, pr := range two.Contacts() {
			a, b := copyOf(pr.BodyA), copyOf(pr.BodyB)
			if a != "" && b != "" && a != b {
				t.Fatalf("step %d: contact between %s and %s joins two copies", step, two.Model.Bodies[pr.BodyA].Name, two.Model.Bodies[pr.BodyB].Name)
			}
		}
		if step > 10 {
			continue
		}
		worst, name := 0.0, ""
		for i := range one.Model.Bodies {
			n := one.Model.Bodies[i].Name
			if one.Model.Bodies[i].Tree < 0 {
				continue
			}
			p := position(t, one, n)
			q := position(t, two, "k1_"+n)
			q[0] -= scene.ClutterCopySpacing
			if d := p.Sub(q).Norm(); d > worst {
				worst, name = d, n
			}
		}
		if !(worst < 1e-6) {
			t.Fatalf("step %d: copy 1 departs from the 40-body scene by %.3g m (%s): the copies interact", step, worst, name)
		}
	}
}
