package sim_test

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/internal/experiment"
)

// TestDrumwrightStepAllocations: warmed-up steps under Drumwright's solver
// do not allocate, on the incline sticking (exact fast path) and sliding
// (interior-point joint stage), on a standing stack of 10 spheres, and on
// the cube on an elastic foundation of 100 and 900 elements.
func TestDrumwrightStepAllocations(t *testing.T) {
	for _, mu := range []float64{0.375, 0.25} {
		s, _ := drumwrightScene(t, "incline", fmt.Sprintf("materials.default.friction=%g", mu),
			"materials.default.stiffness=1e10", "materials.default.dissipation=1e-10", "contact.sigma=1e-6")
		stepsConverged(t, s, 30)
		if n := testing.AllocsPerRun(10, func() { _, _ = s.Step() }); n != 0 {
			t.Errorf("incline μ = %g: %v allocations per step", mu, n)
		}
	}
	s := drumwrightStack(t, 10, nil)
	stepsConverged(t, s, 300)
	if n := testing.AllocsPerRun(10, func() { _, _ = s.Step() }); n != 0 {
		t.Errorf("stack of 10: %v allocations per step", n)
	}
	for _, n := range []int{10, 30} { // 100 and 900 foundation elements
		fs, _, err := experiment.FoundationSim(experiment.FoundationCase{Load: 50, E: 1e7, N: n}, 0.01, nil)
		if err != nil {
			t.Fatal(err)
		}
		stepsConverged(t, fs, 5)
		if a := testing.AllocsPerRun(3, func() { _, _ = fs.Step() }); a != 0 {
			t.Errorf("foundation of %d elements: %v allocations per step", n*n, a)
		}
	}
}
