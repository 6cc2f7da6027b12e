package multibody

import (
	"math"
	"testing"
)

// TestKin8MassFollowsUpdate: rnea reads each body's mass from the
// kinematics Update writes (bodyKin.m), not from the Body: after an edit of
// the masses and an Update, BiasForces gives the bits of a new workspace's,
// and the old masses are not used.
func TestKin8MassFollowsUpdate(t *testing.T) {
	forEachSystem(t, 81, 3, func(m *Model, s *State, ws *Workspace) {
		for b := range m.Bodies {
			if m.Bodies[b].Tree >= 0 && ws.kin[b].m != m.Bodies[b].Inertia.Mass {
				t.Fatalf("body %d: kin mass %v, body mass %v", b, ws.kin[b].m, m.Bodies[b].Inertia.Mass)
			}
		}
		for b := range m.Bodies {
			m.Bodies[b].Inertia.Mass *= 1.5
		}
		ws.Update(s.Q, s.V)
		got, want := make([]float64, m.NV), make([]float64, m.NV)
		ws.BiasForces(got)
		fresh := NewWorkspace(m)
		fresh.Update(s.Q, s.V)
		fresh.BiasForces(want)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("f[%d] = %v, a new workspace's %v", i, got[i], want[i])
			}
		}
	})
}
