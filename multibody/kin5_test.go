package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// kin5SameBits reports whether two matrices have the same bits, zeros'
// signs included.
func kin5SameBits(a, b *spatial.Mat3) bool {
	for i := range 3 {
		for j := range 3 {
			if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
				return false
			}
		}
	}
	return true
}

// TestKin5RotFReuse: frames' R_WF, reused from the parent's kept matrix or
// made, has the bits of xf.R.RotMat() for every moving body of random
// forests of every root type with identity, partly identity and general
// joint frames, after Update; the reuse is taken for most bodies whose
// ParentFrame has no rotation, and a workspace that has not run Update
// (no kept matrices) makes every matrix.
func TestKin5RotFReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(105, 2))
	reused, checked := 0, 0
	for k := range 3 {
		for _, root := range allRoots {
			m, s := randomForest(r, root)
			plainFrames(m, k)
			ws, fresh := NewWorkspace(m), NewWorkspace(m)
			ws.Update(s.Q, s.V)
			for b := range m.Bodies {
				p := m.Bodies[b].Joint.Parent
				if m.Bodies[b].Tree < 0 || p < 0 {
					continue
				}
				var xf, xm, xb spatial.Pose
				got := ws.frames(s.Q, b, &ws.x[p], &xf, &xm, &xb, true)
				want := xf.R.RotMat()
				if !kin5SameBits(got, &want) {
					t.Fatalf("root %v, body %d: frames %v, RotMat %v", root, b, *got, want)
				}
				if got == &ws.rot[p].R {
					reused++
				}
				if got := fresh.frames(s.Q, b, &ws.x[p], &xf, &xm, &xb, true); got == &fresh.rot[p].R || !kin5SameBits(got, &want) {
					t.Fatalf("root %v, body %d, no Update: frames %v (kept: %v), RotMat %v", root, b, *got, got == &fresh.rot[p].R, want)
				}
				checked++
			}
		}
	}
	if checked < 200 || reused < checked/4 {
		t.Fatalf("%d bodies checked, %d reused the parent's matrix", checked, reused)
	}
	t.Logf("%d bodies, %d reused", checked, reused)
}
