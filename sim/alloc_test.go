package sim_test

import "testing"

// TestStepAllocatesNothing: once warmed up, a step allocates nothing, on the
// clutter and stack scenes, and on the articulated chain (in contact with
// the ground, with symplectic Euler and with the midpoint rule's Newton
// iteration) and the spring-cylinder (force elements).
func TestStepAllocatesNothing(t *testing.T) {
	for _, c := range []struct {
		scene  string
		warmup int
		sets   []string
	}{{"clutter", 300, nil}, {"stack", 100, nil}, {"chain", 700, nil}, {"chain", 700, []string{"scheme=midpoint"}},
		{"spring-cylinder", 50, nil}} {
		s, _ := load(t, c.scene, c.sets...)
		runSteps(t, s, c.warmup)
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s %v: %v allocations per step after %d warm-up steps (%d contacts)", c.scene, c.sets, allocs, c.warmup, len(s.Contacts()))
		if allocs != 0 {
			t.Errorf("%s %v: %v allocations per step, want 0", c.scene, c.sets, allocs)
		}
	}
}
