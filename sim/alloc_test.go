package sim_test

import "testing"

// TestStepAllocatesNothing: once warmed up, a step allocates nothing, on the
// clutter and stack scenes, and on the articulated chain (in contact with
// the ground, with symplectic Euler and with the midpoint rule's Newton
// iteration) and the spring-cylinder (force elements); with MuJoCo's
// Euler on the chain (damped joints, contact) and RK4 on the double
// pendulum (contact-free: its four stages); and with sleeping islands on
// the stack (asleep) and the clutter (some islands asleep, others waking).
func TestStepAllocatesNothing(t *testing.T) {
	for _, c := range []struct {
		scene  string
		warmup int
		sets   []string
	}{{"clutter", 300, nil}, {"stack", 100, nil}, {"chain", 700, nil}, {"chain", 700, []string{"scheme=midpoint"}},
		{"spring-cylinder", 50, nil}, {"chain", 700, []string{"scheme=mujoco-euler"}}, {"double-pendulum", 50, []string{"scheme=rk4"}},
		{"stack", 100, []string{"contact.sleep=true", "contact.sleep_steps=20"}}, {"clutter", 300, []string{"contact.sleep=true", "contact.sleep_steps=20"}}} {
		s, _ := load(t, c.scene, c.sets...)
		runSteps(t, s, c.warmup)
		fallback := false
		allocs := testing.AllocsPerRun(50, func() {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			fallback = fallback || st.RK4Fallback
		})
		t.Logf("%s %v: %v allocations per step after %d warm-up steps (%d contacts, RK4 fallback %v)", c.scene, c.sets, allocs, c.warmup, len(s.Contacts()), fallback)
		if allocs != 0 {
			t.Errorf("%s %v: %v allocations per step, want 0", c.scene, c.sets, allocs)
		}
	}
}
