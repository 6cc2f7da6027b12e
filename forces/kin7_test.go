package forces

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestKin7PartsWalkMatchesDOFs: applyParts, which walks the parts, gives
// applyDOFs' bits on compound joints of one to six parts of random types
// in random order (balls first, last, side by side), with and without
// Jacobians.
func TestKin7PartsWalkMatchesDOFs(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 73))
	types := []multibody.JointType{multibody.JointRevolute, multibody.JointPrismatic, multibody.JointBall}
	for trial := range 300 {
		pick := func() float64 { return []float64{0, 0.5 + r.Float64(), 3}[r.IntN(3)] }
		var parts []multibody.JointPart
		for nv, nq := 0, 0; nv < multibody.MaxCompoundDOF && len(parts) < 1+trial%6; {
			p := multibody.JointPart{Type: types[r.IntN(3)], Axis: rv(r), Damping: pick()}
			if p.Type == multibody.JointBall {
				if nv+3 > multibody.MaxCompoundDOF || nq+4 > 7 {
					break
				}
				nv, nq = nv+3, nq+4
			} else {
				p.Stiffness, p.SpringRef = pick(), r.NormFloat64()
				nv, nq = nv+1, nq+1
			}
			parts = append(parts, p)
		}
		m := &multibody.Model{}
		in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
		b, err := m.AddBody("c", in, multibody.Joint{Type: multibody.JointCompound, Parent: -1, Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		partsMatchDOFs(t, r, m, b, trial, fmt.Sprintf("trial %d parts %v", trial, parts))
	}
}
