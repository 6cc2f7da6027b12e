package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// checkStiffPendulum runs Drumwright's Fig. 4 pendulum for 1 s with
// symplectic Euler at each h (experiment.StiffPendulum, its configuration
// adjusted by configure) and checks that it stays stable (deviation ‖g‖
// of the bob's pivot point from the world pivot < 0.1 L, energy rise
// < 0.1 m g L) and that the deviation is O(h²) (fitted slope ≥ 1.8).
func checkStiffPendulum(t *testing.T, hs []float64, configure func(*sim.Config)) {
	t.Helper()
	var devs []float64
	for _, h := range hs {
		r, err := experiment.StiffPendulum(sim.SymplecticEuler, h, 1, configure)
		if err != nil {
			t.Fatal(err)
		}
		dev, emax := r.Deviation, r.EnergyGain
		t.Logf("h = %-6g max deviation %.4g m, max energy gain %.3g J", h, dev, emax)
		devs = append(devs, dev)
		if emax > 0.1*g || !(dev < 0.1) {
			t.Errorf("h = %g: energy rose by %g J, deviation %g m: unstable", h, emax, dev)
		}
	}
	slope := logSlope(hs, devs)
	t.Logf("fitted slope of log deviation against log h: %.3f", slope)
	if slope < 1.8 {
		t.Errorf("deviation slope %.3f < 1.8: not O(h²)", slope)
	}
}

// TestDrumwrightFig4StiffPendulum: the deviation of the stiff point-coupled
// pendulum is O(h²) (fitted slope ≥ 1.8 over h = 0.001 … 0.1) and the
// simulation stays stable up to h = 0.1 s: the deviation stays below
// 0.1 L and the energy error of symplectic Euler (bounded, O(h)) below
// 0.1 m g L.
func TestDrumwrightFig4StiffPendulum(t *testing.T) {
	hs := []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 1e-4}
	if long() {
		hs = append(hs, 1e-5)
	}
	checkStiffPendulum(t, hs, nil)
}

var _ = fmt.Sprint

// limitPendulum is a pendulum (1 kg point mass at L = 1 m below a revolute
// joint about y, θ = 0 hanging) with a limit θ ≥ lower of stiffness k and
// dissipation τd, released at rest from θ0.
func limitPendulum(t *testing.T, h, theta0, lower float64, cp constraint.Compliance, sc sim.Scheme) *sim.Simulator {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	b := mustAdd(t, m, "arm", pointMass(1, spatial.Vec3{0, 0, -1}), revolute(-1, at(0, 0, 2), spatial.Vec3{0, 1, 0}))
	s := m.NewState()
	s.Q[0] = theta0
	set := &constraint.Set{Limits: []constraint.Limit{{Name: "limit", Body: b, Lower: lower, Upper: math.Inf(1), Compliance: cp}}}
	return newConstrained(t, m, s, set, h, sc)
}

// TestDrumwrightFig6RangeOfMotionLimit: Drumwright's Fig. 6 pendulum with a
// soft range-of-motion limit θ ≥ 0 (k = 1e12, b = 0), released at rest from
// θ = π/2, is stable for every h tried from 1e-4 to 0.1 s (2 s simulated):
// the energy never rises above its initial value by more than symplectic
// Euler's O(h) error, the limit is never passed by more than one step's
// travel at the impact speed, and the impact is dead (near-rigid limits
// take the energy of the approach, as in Drumwright's h ≥ 1e-5 runs).
func TestDrumwrightFig6RangeOfMotionLimit(t *testing.T) {
	hs := []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.001, 1e-4}
	if long() {
		hs = append(hs, 1e-5)
	}
	for _, h := range hs {
		sm := limitPendulum(t, h, math.Pi/2, 0, constraint.Compliance{Stiffness: 1e12}, sim.SymplecticEuler)
		e0 := sm.Model.KineticEnergy(sm.State) + sm.PotentialEnergy()
		var rise, pen, speed float64
		for range int(math.Round(2 / h)) {
			st := step(t, sm)
			rise = math.Max(rise, st.KineticEnergy+st.PotentialEnergy-e0)
			pen = math.Max(pen, -sm.State.Q[0])
			speed = math.Max(speed, math.Abs(sm.State.V[0]))
		}
		swing := (sm.Model.KineticEnergy(sm.State) + sm.PotentialEnergy() - (e0 - g)) / g // (E − E_bottom)/(m g L)
		t.Logf("h = %-6g energy rise %.3g J, max penetration %.3g rad (bound ω_max h = %.3g), swing energy left %.3g m g L, final θ %.3g",
			h, rise, pen, speed*h, swing, sm.State.Q[0])
		if math.IsNaN(sm.State.Q[0]) || rise > 0.1*g*(1+10*h) || pen > speed*h || swing > 0.05 {
			t.Errorf("h = %g: unstable or not dead: rise %g, penetration %g, swing energy %g", h, rise, pen, swing)
		}
	}
}
