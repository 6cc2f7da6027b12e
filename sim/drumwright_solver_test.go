package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/drumwright"
)

// drumwrightScene builds an embedded scene with overrides and Drumwright's
// solver in place of SAP, with the paper's purely compliant constraint
// model: contact β = 1e-6, so that SAP eq. 29's near-rigid bound
// β²w/(4π²) lies far below every compliant R = 1/(h(hk + b)) and R is the
// spring–damper's own.
func drumwrightScene(t testing.TB, name string, sets ...string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	sc, err := scene.Load(name, append([]string{"contact.beta=1e-6"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	b.Config.Solver = drumwright.New(drumwright.DefaultParams(b.Config.DT))
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// stepsConverged runs n steps and fails on an error or a solve that did not
// converge.
func stepsConverged(t testing.TB, s *sim.Simulator, n int) []sim.StepStats {
	t.Helper()
	stats := runSteps(t, s, n)
	for i, st := range stats {
		if st.Status != solver.Converged {
			t.Fatalf("step %d: %v", i+1, st.Status)
		}
	}
	return stats
}

// TestDrumwrightFig9Incline: Drumwright's Fig. 9, the box (1 kg, 0.2 × 0.1
// × 0.05 m) on a 15° incline for 1 s at h = 0.01 s, with the paper's
// contact parameters — normal stiffness 1e10 N/m (D. eq. 122: E*√r with
// E* = 1e11 Pa, r = 0.01 m), damping 1 N·s/m, friction damping
// B_r ≈ 1e6/h (R_t = σ w_t with σ = 1e-6) — slides ½ g (sin 15° − μ cos 15°)
// t² within 2% for μ = 0, 0.125, 0.25 and sticks (< 0.1 mm) for
// μ = 0.375 > tan 15°.
func TestDrumwrightFig9Incline(t *testing.T) {
	th := 15 * math.Pi / 180
	for _, mu := range []float64{0, 0.125, 0.25, 0.375} {
		t.Run(fmt.Sprintf("mu=%g", mu), func(t *testing.T) {
			s, _ := drumwrightScene(t, "incline", fmt.Sprintf("materials.default.friction=%g", mu),
				"materials.default.stiffness=1e10", "materials.default.dissipation=1e-10", "contact.sigma=1e-6")
			x0 := position(t, s, "box")
			stats := stepsConverged(t, s, 100)
			it := 0
			for _, st := range stats {
				it += st.Iterations
			}
			d := position(t, s, "box").Sub(x0).Norm()
			a := g * (math.Sin(th) - mu*math.Cos(th))
			if a < 0 {
				t.Logf("μ = %g: moved %.3g m (sticks), %d interior-point iterations", mu, d, it)
				if d > 1e-4 {
					t.Errorf("moved %g m, want < 1e-4 m", d)
				}
				return
			}
			want := 0.5 * a
			t.Logf("μ = %g: slid %.6f m, closed form %.6f m (rel. error %.3g), %d interior-point iterations", mu, d, want, (d-want)/want, it)
			if math.Abs(d-want) > 0.02*want {
				t.Errorf("slid %g m, want %g ± 2%%", d, want)
			}
		})
	}
}
