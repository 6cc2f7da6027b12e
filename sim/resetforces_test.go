package sim_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// TestResetForcesKeepsJacobiansZero: the elements' K and D, written by a
// pass with Jacobians (a hinge's spring–damper), are zero again after a
// pass without them (resetForces clears them then, and skips them only
// while they are known to be zero), and a later pass with Jacobians gives
// the first pass's K and D to the bit, nothing accumulated. It fails when
// K, D and N are never cleared, or cleared only while Jacobians is set.
func TestResetForcesKeepsJacobiansZero(t *testing.T) {
	m := &multibody.Model{}
	b := mustAdd(t, m, "arm", pointMass(1, spatial.Vec3{0, 0, -1}), revolute(-1, at(0, 0, 0), spatial.Vec3{0, 1, 0}))
	st := m.NewState()
	st.Q[0], st.V[0] = 0.3, -0.2
	cfg := sim.Config{DT: 1e-3, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams())}
	cfg.Forces = []forces.Element{&forces.JointSpringDamper{Body: b, Stiffness: 5, Damping: 0.5}}
	s, err := sim.New(m, st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	k, d, _ := sim.ForcesPass(s, true)
	k1, d1 := slices.Clone(k), slices.Clone(d)
	if k1[0] == 0 || d1[0] == 0 {
		t.Fatalf("K %v, D %v: the spring–damper wrote nothing", k1, d1)
	}
	for pass := range 2 {
		k, d, n := sim.ForcesPass(s, false)
		for _, x := range slices.Concat(k, d, n) {
			if x != 0 {
				t.Fatalf("pass %d without Jacobians: K %v, D %v, N %v, want zeros", pass, k, d, n)
			}
		}
	}
	k, d, _ = sim.ForcesPass(s, true)
	for i := range k1 {
		if math.Float64bits(k[i]) != math.Float64bits(k1[i]) || math.Float64bits(d[i]) != math.Float64bits(d1[i]) {
			t.Fatalf("K %v, D %v after the passes, want %v, %v", k, d, k1, d1)
		}
	}
}
