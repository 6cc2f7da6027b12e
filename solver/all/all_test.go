package all

import (
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestRegistered: the solvers of this module are registered under their
// names and can be made with the default parameters.
func TestRegistered(t *testing.T) {
	for _, name := range []string{"drumwright", "ipm", "pgs", "sap"} {
		if !slices.Contains(solver.Names(), name) {
			t.Errorf("%s not registered (registered: %v)", name, solver.Names())
			continue
		}
		if s, err := solver.New(name, solver.DefaultParams()); err != nil || s == nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
