package multibody

import (
	"math/rand/v2"
	"testing"
)

// TestKin6ArmaturesKept checks the armatures a workspace reads once
// (dofArmatures) against Joint.DOFArmature for every velocity, compound
// parts included, and that Update keeps v (keepV) exactly when some joint
// has an armature (Joint.HasArmature), the one case KineticEnergy reads it.
func TestKin6ArmaturesKept(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	forEachSystem(t, 66, 4, func(m *Model, s *State, _ *Workspace) {
		for b := range m.Bodies {
			j := &m.Bodies[b].Joint
			if r.IntN(3) == 0 {
				continue // no armature
			}
			j.Armature = r.Float64()
			for i := range j.Parts {
				j.Parts[i].Armature = r.Float64()
			}
		}
		ws := NewWorkspace(m)
		for b := range m.Bodies {
			body := &m.Bodies[b]
			for k := range body.Joint.NV() {
				if got, want := ws.arm[body.VOff+k], body.Joint.DOFArmature(k); body.Tree >= 0 && got != want {
					t.Fatalf("body %d velocity %d: kept armature %v, DOFArmature %v", b, k, got, want)
				}
			}
		}
		has := false
		for b := range m.Bodies {
			has = has || (m.Bodies[b].Tree >= 0 && m.Bodies[b].Joint.HasArmature())
		}
		if ws.keepV != has {
			t.Fatalf("keepV %v, some joint has an armature: %v", ws.keepV, has)
		}
		ws.Update(s.Q, s.V)
		if (ws.v != nil) != has {
			t.Fatalf("Update kept v: %v, armature: %v", ws.v != nil, has)
		}
	})
}
