package multibody

import (
	"math/rand/v2"
	"testing"
)

// TestKin3UpdateKeepsNoState: Update's choices fixed at NewWorkspace (the
// body kinds and a free root's constant columns and κ, which freeRoot no
// longer writes) leave nothing of an earlier Update behind. A workspace
// moved through other states, at rest and in motion, then to (q, v) or to
// (q, rest) has the bits of a fresh workspace's single Update there
// (poses, every bodyKin field, columns, world inertias), and its bias
// forces and mass matrix too (it fails when freeRoot leaves ω and v of
// an earlier Update at rest).
func TestKin3UpdateKeepsNoState(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	forEachSystem(t, 31, 8, func(m *Model, s *State, ws *Workspace) {
		q, v := append([]float64(nil), s.Q...), append([]float64(nil), s.V...)
		for _, fv := range [][]float64{v, nil} {
			for range 2 {
				randomize(r, m, s)
				ws.Update(s.Q, s.V)
				ws.Update(s.Q, nil)
				ws.Update(s.Q, s.V)
			}
			ws.Update(q, fv)
			fresh := NewWorkspace(m)
			fresh.Update(q, fv)
			got := []any{ws.x, ws.kin, ws.col, ws.ic}
			if want := []any{fresh.x, fresh.kin, fresh.col, fresh.ic}; !posstageSameBits(got, want) {
				t.Fatalf("after other states (v %v): %v, fresh %v", fv != nil, got, want)
			}
			f, g := make([]float64, m.NV), make([]float64, m.NV)
			ws.BiasForces(f)
			fresh.BiasForces(g)
			if !posstageSameBits(f, g) {
				t.Fatalf("bias forces %v, fresh %v", f, g)
			}
			if M, N := dense(m, ws), dense(m, fresh); !posstageSameBits(M, N) {
				t.Fatalf("mass matrix %v, fresh %v", M, N)
			}
		}
	})
}
