package sim_test

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/drumwright"
	"github.com/stiction-sim/stiction/solver/sap"
)

// BenchmarkDrumwrightVsSAP times Drumwright's solver against SAP on the
// same scenes and the same contact model (Drumwright's: β = 1e-6):
// one op is a whole run (the incline, 100 steps at μ = 0.25; the sphere
// stacks, 500 steps; the cube on 100 foundation elements with the 50 N
// load, 100 steps).
//
//	go test ./sim -run '^$' -bench DrumwrightVsSAP -benchtime 3x
func BenchmarkDrumwrightVsSAP(b *testing.B) {
	solvers := map[string]func(dt float64) solver.Solver{
		"drumwright": func(dt float64) solver.Solver { return drumwright.New(drumwright.DefaultParams(dt)) },
		"sap":        func(float64) solver.Solver { return sap.New(sap.DefaultParams()) },
	}
	for _, name := range []string{"drumwright", "sap"} {
		mk := solvers[name]
		b.Run("incline/"+name, func(b *testing.B) {
			for b.Loop() {
				s, _ := drumwrightSceneWith(b, mk(0.01), "incline", "materials.default.friction=0.25",
					"materials.default.stiffness=1e10", "materials.default.dissipation=1e-10", "contact.sigma=1e-6")
				stepsConverged(b, s, 100)
			}
		})
		for _, n := range []int{10, 30} {
			b.Run(fmt.Sprintf("stack%d/%s", n, name), func(b *testing.B) {
				for b.Loop() {
					s := drumwrightStack(b, n, mk(0.01))
					stepsConverged(b, s, 500)
				}
			})
		}
		b.Run("foundation100/"+name, func(b *testing.B) {
			for b.Loop() {
				foundationRun(b, experiment.FoundationCase{Load: 50, E: 1e7, N: 10}, 0.01, mk(0.01))
			}
		})
	}
}
