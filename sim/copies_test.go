package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
)

// TestClutterCopiesIndependent: in scene.ClutterCopies(2) every body of the
// second copy follows its counterpart in the 40-body clutter-nowalls scene,
// moved by the copies' offset (the copies never interact, so the weak-scaling
// control of BENCHMARKS.md does k times the 40-body work). The bodies differ
// only by the round-off of coordinates 50 m from the origin.
func TestClutterCopiesIndependent(t *testing.T) {
	const steps = 150 // 1.5 s: the columns fall and topple
	one, _ := load(t, "clutter-nowalls")
	sc, err := scene.LoadClutterCopies(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := newSim(t, sc)
	runSteps(t, one, steps)
	runSteps(t, two, steps)
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
	t.Logf("largest distance between a body of copy 1 and its 40-body counterpart after %d steps: %.3g m (%s)", steps, worst, name)
	if !(worst < 1e-6) {
		t.Fatalf("copy 1 departs from the 40-body scene by %.3g m (%s): the copies interact", worst, name)
	}
}
