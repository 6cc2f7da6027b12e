package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/sim"
)

// orderSteps are the time steps of the order fits (SAP Fig. 7's range).
var orderSteps = []float64{1e-3, 2e-3, 5e-3, 1e-2, 2e-2}

// TestTrapezoidalOrder: notes §0.9.3 on the frictionless spring-cylinder (a
// linear oscillator, ω² = ks/m): the L2 error of x over 5 s against
// x0 cos ωt fits a slope ≥ 1.8 in δt.
func TestTrapezoidalOrder(t *testing.T) {
	errs, slope, err := experiment.Order("spring-cylinder-frictionless", "trapezoidal", orderSteps, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("trapezoidal: L2 errors %.3g m for δt %v: slope %.3f", errs, orderSteps, slope)
	if slope < 1.8 {
		t.Errorf("trapezoidal slope %.3f < 1.8", slope)
	}
}

// TestTrapezoidalEnergyBand: on the rolling spring-cylinder (μ = 1,
// δt = 0.02 s, 5 s) every energy of the trapezoidal rule lies within the
// band [min, max] of the midpoint rule's energies (to 1e-9 E0).
func TestTrapezoidalEnergyBand(t *testing.T) {
	mid, err := experiment.RunCylinder("spring-cylinder", "midpoint", 0.02, 250)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := experiment.RunCylinder("spring-cylinder", "trapezoidal", 0.02, 250)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := experiment.MinMax(mid.Energy)
	tlo, thi := experiment.MinMax(tr.Energy)
	t.Logf("midpoint band [%.7f, %.7f] J (%.3g%% p-p), trapezoidal [%.7f, %.7f] J (%.3g%% p-p)",
		lo, hi, 100*experiment.PeakToPeak(mid.Energy), tlo, thi, 100*experiment.PeakToPeak(tr.Energy))
	tol := 1e-9 * mid.Energy[0]
	if tlo < lo-tol || thi > hi+tol {
		t.Errorf("trapezoidal energy [%g, %g] leaves the midpoint band [%g, %g]", tlo, thi, lo, hi)
	}
}

// TestBridsonMarinoFreeFlightOrder: notes §0.9.4 on a tumbling free body
// under gravity (gyroscopic torque and a configuration-dependent M): the
// final state after 1 s against the midpoint rule at δt = 1e-4 fits a
// slope ≥ 1.8.
func TestBridsonMarinoFreeFlightOrder(t *testing.T) {
	errs, slope, err := experiment.FlightOrder(sim.BridsonMarino, orderSteps, 1, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Bridson–Marino free flight: errors %.3g for δt %v: slope %.3f", errs, orderSteps, slope)
	if slope < 1.8 {
		t.Errorf("Bridson–Marino free-flight slope %.3f < 1.8", slope)
	}
}

// TestBridsonMarinoEnergyBand: on the frictionless spring-cylinder the
// scheme is the Störmer–Verlet method, whose energy oscillates with
// relative peak-to-peak (ωδt)²/4 on a harmonic oscillator (its modified
// energy ½(v² + ω²x²(1 − ω²δt²/4)) is conserved); measured over 50 s at
// δt = 0.02 within 5%.
func TestBridsonMarinoEnergyBand(t *testing.T) {
	r, err := experiment.RunCylinder("spring-cylinder-frictionless", "bridson-marino", 0.02, 2500)
	if err != nil {
		t.Fatal(err)
	}
	w := experiment.CylinderOmega(false)
	want := w * w * 0.02 * 0.02 / 4
	got := experiment.PeakToPeak(r.Energy)
	t.Logf("Bridson–Marino energy peak to peak %.5g, (ωδt)²/4 = %.5g", got, want)
	if math.Abs(got-want) > 0.05*want {
		t.Errorf("energy peak to peak %g, want (ωδt)²/4 = %g ± 5%%", got, want)
	}
}

// TestBridsonMarinoContact: with contact the scheme is stable. A sphere
// resting on the ground keeps the symplectic Euler's resting penetration
// (to 1e-12 m), and its end-of-step velocity is the second half kick's
// −g δt/2 (the contact acts on the half-step velocity only); clutter runs
// 3 s with every solve converged and its late kinetic energy below 1 J.
func TestBridsonMarinoContact(t *testing.T) {
	r, err := experiment.BridsonResting()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("drop: penetration %.6g m (symplectic Euler %.6g m), v_z %.6g m/s, −g δt/2 = %.6g m/s", r.Penetration, r.PenetrationRef, r.VZ, -r.HalfKick)
	if math.Abs(r.Penetration-r.PenetrationRef) > 1e-12 {
		t.Errorf("resting penetration %g, symplectic Euler's %g", r.Penetration, r.PenetrationRef)
	}
	if math.Abs(r.VZ+r.HalfKick) > 1e-9 {
		t.Errorf("resting v_z = %g, want −g δt/2 = %g", r.VZ, -r.HalfKick)
	}
	c, err := experiment.Settle("clutter", "bridson-marino", 300)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("clutter, Bridson–Marino: %d steps converged, max kinetic energy over 2–3 s %.3g J", c.Steps, c.LateKE)
	if !(c.LateKE < 1) {
		t.Errorf("clutter kinetic energy %g J over 2–3 s: not settling", c.LateKE)
	}
}

// TestNotesSchemesAllocateNothing: a warmed-up step of either notes
// integrator allocates nothing.
func TestNotesSchemesAllocateNothing(t *testing.T) {
	for _, sets := range [][]string{{"scheme=trapezoidal"}, {"scheme=bridson-marino"}} {
		for _, name := range []string{"spring-cylinder", "chain"} {
			s, _ := load(t, name, sets...)
			runSteps(t, s, 100)
			allocs := testing.AllocsPerRun(20, func() {
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s %v: %v allocations per step", name, sets, allocs)
			}
		}
	}
}

// TestParseNotesSchemes: the names parse and a changed θ is rejected.
func TestParseNotesSchemes(t *testing.T) {
	for _, n := range []string{"trapezoidal", "bridson-marino"} {
		s, err := sim.ParseScheme(n)
		if err != nil || s.Name != n || s.Validate() != nil {
			t.Errorf("%s: %+v, %v", n, s, err)
		}
	}
	bad := sim.Trapezoidal
	bad.ThetaQ = 1
	if bad.Validate() == nil {
		t.Error("trapezoidal with θq = 1 accepted")
	}
}

// TestNotesSchemesResumeBitIdentical: a run of either notes integrator
// checkpointed after 0.5 s and resumed in a fresh simulator follows the
// straight run bit for bit (the schemes keep no state beyond q, v and the
// contact memory), and a checkpoint of one scheme is refused by the other.
func TestNotesSchemesResumeBitIdentical(t *testing.T) {
	for _, scheme := range []string{"trapezoidal", "bridson-marino"} {
		sets := []string{"scheme=" + scheme}
		straight, _ := load(t, "clutter", sets...)
		want := trajectoryBits(t, straight, 100, nil)
		first, _ := load(t, "clutter", sets...)
		got := trajectoryBits(t, first, 50, nil)
		c := first.Checkpoint()
		second, _ := load(t, "clutter", sets...)
		if err := second.Restore(c); err != nil {
			t.Fatal(err)
		}
		got = trajectoryBits(t, second, 50, got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: word %d differs after resuming", scheme, i)
			}
		}
		other, _ := load(t, "clutter", "scheme=midpoint")
		if err := other.Restore(c); err == nil {
			t.Errorf("%s checkpoint restored into a midpoint simulator", scheme)
		}
	}
}
