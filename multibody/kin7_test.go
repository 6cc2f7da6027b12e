package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// kin7SamePose reports whether two poses have the same bits, zeros' signs
// included.
func kin7SamePose(a, b *spatial.Pose) bool {
	x := [7]float64{a.R.W, a.R.X, a.R.Y, a.R.Z, a.P[0], a.P[1], a.P[2]}
	y := [7]float64{b.R.W, b.R.X, b.R.Y, b.R.Z, b.P[0], b.P[1], b.P[2]}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}

// TestKin7FramesWithoutRot: frames with rot false (a weld's call) writes
// the poses frames with rot true writes, bit for bit, and returns nil for
// every body with a parent, on random forests of every root type with
// identity, partly identity and general joint frames.
func TestKin7FramesWithoutRot(t *testing.T) {
	r := rand.New(rand.NewPCG(107, 3))
	checked := 0
	for k := range 3 {
		for _, root := range allRoots {
			m, s := randomForest(r, root)
			plainFrames(m, k)
			ws := NewWorkspace(m)
			ws.Update(s.Q, s.V)
			for b := range m.Bodies {
				p := m.Bodies[b].Joint.Parent
				if m.Bodies[b].Tree < 0 || p < 0 || m.Bodies[b].Joint.Type == JointFree {
					continue
				}
				var f1, m1, b1, f2, m2, b2 spatial.Pose
				ws.frames(s.Q, b, &ws.x[p], &f1, &m1, &b1, true)
				if R := ws.frames(s.Q, b, &ws.x[p], &f2, &m2, &b2, false); R != nil {
					t.Fatalf("root %v, body %d: rot false returned %v", root, b, *R)
				}
				if !kin7SamePose(&f1, &f2) || !kin7SamePose(&m1, &m2) || !kin7SamePose(&b1, &b2) {
					t.Fatalf("root %v, body %d: poses %v %v %v, without rot %v %v %v", root, b, f1, m1, b1, f2, m2, b2)
				}
				checked++
			}
		}
	}
	if checked < 200 {
		t.Fatalf("%d bodies checked", checked)
	}
}
