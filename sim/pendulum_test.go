package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// energies runs a scene with a scheme and step and returns KE + PE after
// every step, starting with the initial energy.
func energies(t *testing.T, name, scheme string, dt float64, sets ...string) []float64 {
	s, b := load(t, name, append([]string{"scheme=" + scheme, fmt.Sprintf("dt=%g", dt)}, sets...)...)
	e := []float64{s.Model.KineticEnergy(s.State) + initialPE(t, name, scheme, dt, sets)}
	for _, st := range runSteps(t, s, int(math.Round(b.Duration/dt))) {
		if !st.NewtonConverged || st.Status != solver.Converged {
			t.Fatalf("%s %s: step %d did not converge (Newton %v, contact %v)", name, scheme, st.Step, st.NewtonConverged, st.Status)
		}
		e = append(e, st.KineticEnergy+st.PotentialEnergy)
	}
	return e
}

// initialPE is the potential energy of the initial state: one step's stats
// report the end of the step, so it is read with a zero-duration probe.
func initialPE(t *testing.T, name, scheme string, dt float64, sets []string) float64 {
	s, _ := load(t, name, append([]string{"scheme=" + scheme, fmt.Sprintf("dt=%g", dt)}, sets...)...)
	return s.PotentialEnergy()
}

// band returns max |E − E0| / E0 over the run.
func band(e []float64) float64 {
	w := 0.0
	for _, x := range e {
		w = math.Max(w, math.Abs(x-e[0]))
	}
	return w / math.Abs(e[0])
}

// pendulumEnergyScale is the pendulum's mechanical energy relative to the
// bottom of its swing, m g L (1 − cos 60°), used to normalise errors (the
// potential energy's zero is the world origin).
const pendulumEnergyScale = 1 * g * 1 * 0.5

// TestPendulumEnergy: the 60° pendulum over 10 s. Midpoint: the energy error
// is bounded and second order (halving δt divides it by ≥ 3.5) with no drift;
// symplectic Euler: bounded, first order (halving δt divides it by 1.7–2.3),
// the last second's band no wider than 1.2× the first's; implicit Euler: the
// energy never increases and loses more than half of the swing's energy.
func TestPendulumEnergy(t *testing.T) {
	rel := func(e []float64) float64 { return band(e) * math.Abs(e[0]) / pendulumEnergyScale }
	m1, m2 := rel(energies(t, "pendulum", "midpoint", 0.01)), rel(energies(t, "pendulum", "midpoint", 0.005))
	s1 := energies(t, "pendulum", "symplectic-euler", 0.01)
	s2 := energies(t, "pendulum", "symplectic-euler", 0.005)
	first, last := rel(s1[:101]), rel(append([]float64{s1[0]}, s1[len(s1)-100:]...))
	imp := energies(t, "pendulum", "implicit-euler", 0.01)
	rise := 0.0
	for i := 1; i < len(imp); i++ {
		rise = math.Max(rise, imp[i]-imp[i-1])
	}
	lost := (imp[0] - imp[len(imp)-1]) / pendulumEnergyScale
	t.Logf("midpoint: max |ΔE|/E_swing %.3g (δt = 0.01), %.3g (0.005), ratio %.2f; symplectic Euler: %.3g, %.3g, ratio %.2f, first-second band %.3g, last-second %.3g; implicit Euler: lost %.1f%% of the swing energy in 10 s, largest rise %.2g J",
		m1, m2, m1/m2, rel(s1), rel(s2), rel(s1)/rel(s2), first, last, 100*lost, rise)
	if m1/m2 < 3.5 || m1 > 1e-3 {
		t.Errorf("midpoint energy error %g (ratio %g): not bounded second order", m1, m1/m2)
	}
	if r := rel(s1) / rel(s2); r < 1.7 || r > 2.3 || last > 1.2*first {
		t.Errorf("symplectic Euler energy error ratio %g, bands %g then %g: not bounded first order", r, first, last)
	}
	if rise > 1e-12 || lost < 0.5 {
		t.Errorf("implicit Euler: energy rose by %g J in a step, lost %g of the swing energy", rise, lost)
	}
}

// TestDoublePendulumEnergy: the chaotic double pendulum (10 s): the energy
// error, relative to the swing energy, is second order for the midpoint
// rule (halving δt from 5 ms divides it by ≥ 3) and first order for
// symplectic Euler (by 1.5–2.5), although the trajectories themselves
// diverge.
func TestDoublePendulumEnergy(t *testing.T) {
	scale := 2 * g * 0.5 * 2 // the bobs' drop from horizontal to hanging
	var errs [2][2]float64
	for i, scheme := range []string{"midpoint", "symplectic-euler"} {
		for j, dt := range []float64{0.005, 0.0025} {
			e := energies(t, "double-pendulum", scheme, dt)
			errs[i][j] = band(e) * math.Abs(e[0]) / scale
		}
	}
	rm, rs := errs[0][0]/errs[0][1], errs[1][0]/errs[1][1]
	t.Logf("double pendulum max |ΔE|/E_swing: midpoint %.3g (5 ms), %.3g (2.5 ms), ratio %.2f; symplectic Euler %.3g, %.3g, ratio %.2f",
		errs[0][0], errs[0][1], rm, errs[1][0], errs[1][1], rs)
	if rm < 3 || errs[0][0] > 1e-2 {
		t.Errorf("midpoint energy error ratio %g (error %g): not second order", rm, errs[0][0])
	}
	if rs < 1.5 || rs > 2.5 {
		t.Errorf("symplectic Euler energy error ratio %g: not first order", rs)
	}
}
