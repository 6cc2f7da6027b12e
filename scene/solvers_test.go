package scene_test

import (
	"testing"
	"time"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestSolverTypes: the stack scene runs with every solver.type of this
// module; once warmed up, a step with PGS (Lagged contact, the default)
// and with the interior-point solver (SAP's contact model, the kinds it
// supports) allocates nothing, every step's solve converges, and the top
// sphere ends where SAP puts it to 1e-6 m.
func TestSolverTypes(t *testing.T) {
	const warmup = 60
	top := map[string]float64{}
	for _, c := range []struct {
		typ, approx string
	}{{"sap", "lagged"}, {"pgs", "lagged"}, {"sap", "sap"}, {"ipm", "sap"}, {"pgs", "sap"}} {
		sc, err := scene.Load("stack", []string{"solver.type=" + c.typ, "contact.approximation=" + c.approx})
		if err != nil {
			t.Fatal(err)
		}
		b, err := scene.Build(sc)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		iters := 0
		for range warmup {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			if !st.OK() {
				t.Fatalf("%s/%s: step %d: %v, e_m %.2e", c.typ, c.approx, st.Step, st.Status, st.MomentumError)
			}
			iters += st.Iterations
		}
		wall := time.Since(start)
		allocs := testing.AllocsPerRun(10, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		z := s.State.Q[len(s.State.Q)-1] // the last body's last coordinate
		t.Logf("%s (%s contact): %d steps in %v, %.1f iterations per step, %v allocations per step, top sphere z = %.7f m",
			c.typ, c.approx, warmup, wall, float64(iters)/warmup, allocs, z)
		if allocs != 0 {
			t.Errorf("%s (%s contact): %v allocations per warmed-up step, want 0", c.typ, c.approx, allocs)
		}
		if ref, ok := top[c.approx]; ok && (z-ref > 1e-6 || ref-z > 1e-6) {
			t.Errorf("%s (%s contact): top sphere at z = %.9f m, SAP's at %.9f m", c.typ, c.approx, z, ref)
		} else if !ok {
			top[c.approx] = z
		}
	}
}
