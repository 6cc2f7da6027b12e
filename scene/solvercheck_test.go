package scene_test

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// TestSolverApproximationPairs: every registered solver × contact
// approximation either builds and takes the first 12 steps of clutter
// (the first contacts, new and sliding, from step 10 on) without a step
// error, or is refused by scene.Build, before any step, with the fix in
// the message. The interior-point solver with the Lagged and the Similar
// approximations are the refused pairs (they failed at step 10 with "not a
// cone program" before the check).
func TestSolverApproximationPairs(t *testing.T) {
	refused := map[string]bool{}
	for _, typ := range solver.Names() {
		for _, approx := range []string{"sap", "lagged", "similar"} {
			pair := typ + "×" + approx
			sc, err := scene.Load("clutter", []string{"solver.type=" + typ, "contact.approximation=" + approx, "duration=0.12"})
			if err != nil {
				t.Fatal(err)
			}
			b, err := scene.Build(sc)
			if err != nil {
				if !strings.Contains(err.Error(), "cannot solve contact.approximation "+approx) || !strings.Contains(err.Error(), "--set contact.approximation=") {
					t.Errorf("%s: refused without the fix: %v", pair, err)
				}
				t.Logf("%s refused: %v", pair, err)
				refused[pair] = true
				continue
			}
			s, err := sim.New(b.Model, b.State, b.Config)
			if err != nil {
				t.Fatalf("%s: %v", pair, err)
			}
			for i := 1; i <= b.Steps; i++ {
				if _, err := s.Step(); err != nil {
					t.Errorf("%s: built, but step %d fails: %v", pair, i, err)
					break
				}
			}
		}
	}
	for _, pair := range []string{"ipm×lagged", "ipm×similar"} {
		if !refused[pair] {
			t.Errorf("%s was not refused", pair)
		}
	}
	if len(refused) != 2 {
		t.Errorf("refused %v, want ipm×lagged and ipm×similar only", refused)
	}
}
