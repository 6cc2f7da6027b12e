package record_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// TestGuardEnergyLimit: the blow-up limit is growth times the energy scale
// max(KE₀ + |PE₀|, Σ m‖g‖·1 m, 1 J) of the initial state; a step whose
// kinetic energy exceeds it, or whose state or statistics are not finite,
// diverges with the step and time named, and one at the limit does not.
// growth ≤ 0 or +Inf turns the energy check off.
func TestGuardEnergyLimit(t *testing.T) {
	cases := []struct {
		name string
		term int // which of the three terms of the scale is the largest
		sets []string
	}{
		{"at rest: the weight term", 1, nil},
		{"fast: the kinetic term", 0, []string{"bodies.ball.velocity.linear=[30, 0, 0]"}},
		{"light: the 1 J floor", 2, []string{"bodies.ball.density=1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := build(t, "drop", c.sets...)
			sm, err := sim.New(b.Model, b.State, b.Config)
			if err != nil {
				t.Fatal(err)
			}
			pe0 := sm.PotentialEnergy()
			weight := 0.0
			for _, bd := range b.Model.Bodies {
				if bd.Tree >= 0 {
					weight += bd.Inertia.Mass * b.Model.Gravity.Norm()
				}
			}
			terms := []float64{b.Model.KineticEnergy(b.State) + math.Abs(pe0), weight, 1}
			scale := max(terms[0], terms[1], terms[2])
			if terms[c.term] != scale {
				t.Fatalf("terms %v: the case does not exercise term %d", terms, c.term)
			}
			const growth = 50.0
			g := record.NewGuard(b.Model, b.State, pe0, growth)
			if g.MaxKineticEnergy != growth*scale {
				t.Fatalf("limit %g J, want %g × %g J", g.MaxKineticEnergy, growth, scale)
			}
			st := sim.StepStats{Step: 7, T: 0.007}
			st.Status = solver.Converged
			st.KineticEnergy = g.MaxKineticEnergy
			if err := g.Check(st, b.State); err != nil {
				t.Errorf("at the limit: %v", err)
			}
			st.KineticEnergy = math.Nextafter(g.MaxKineticEnergy, math.Inf(1))
			var de *record.DivergedError
			if err := g.Check(st, b.State); !errors.As(err, &de) || de.Step != 7 || de.T != 0.007 || !strings.Contains(err.Error(), "blow-up limit") {
				t.Errorf("above the limit: %v", err)
			}
			for _, off := range []float64{0, -1, math.Inf(1)} {
				g := record.NewGuard(b.Model, b.State, pe0, off)
				if err := g.Check(st, b.State); err != nil || !math.IsInf(g.MaxKineticEnergy, 1) {
					t.Errorf("growth %g: limit %g, %v", off, g.MaxKineticEnergy, err)
				}
			}
		})
	}
}

// TestGuardNonFinite: a state or a statistic that is not finite diverges,
// whatever the energy limit; a passing check allocates nothing.
func TestGuardNonFinite(t *testing.T) {
	b := build(t, "drop")
	g := record.NewGuard(b.Model, b.State, 0, math.Inf(1))
	ok := sim.StepStats{Step: 1, T: 0.001}
	if n := testing.AllocsPerRun(100, func() { _ = g.Check(ok, b.State) }); n != 0 {
		t.Errorf("a passing check allocates %v times", n)
	}
	for name, st := range map[string]sim.StepStats{
		"kinetic energy":   {KineticEnergy: math.Inf(1)},
		"potential energy": {PotentialEnergy: math.NaN()},
		"momentum error":   {Stats: solver.Stats{MomentumError: math.NaN()}},
	} {
		if err := g.Check(st, b.State); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s not finite: %v", name, err)
		}
	}
	b.State.V[0] = math.NaN()
	if err := g.Check(ok, b.State); err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Errorf("NaN velocity: %v", err)
	}
}
