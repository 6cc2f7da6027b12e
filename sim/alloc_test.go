package sim_test

import "testing"

// TestStepAllocatesNothing: once warmed up, a step allocates nothing, on the
// clutter and stack scenes.
func TestStepAllocatesNothing(t *testing.T) {
	for _, c := range []struct {
		scene  string
		warmup int
	}{{"clutter", 300}, {"stack", 100}} {
		s, _ := load(t, c.scene)
		runSteps(t, s, c.warmup)
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %v allocations per step after %d warm-up steps", c.scene, allocs, c.warmup)
		if allocs != 0 {
			t.Errorf("%s: %v allocations per step, want 0", c.scene, allocs)
		}
	}
}
