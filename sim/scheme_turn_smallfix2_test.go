package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestSmallfix2TurnsMatchModel: angularTurns' local and world have the
// bits of multibody.Model.LocalVelocity and WorldVelocity, into another
// slice and in place, on a tree of a free body, a ball joint, a compound
// joint with a ball part between a hinge and a slide, and a hinge, at
// random rotations and velocities; after a ball joint is added to the
// model (its sizes change) the kept blocks are found again and still
// match; a model without quaternions is copied.
func TestSmallfix2TurnsMatchModel(t *testing.T) {
	m := &multibody.Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	id := spatial.PoseIdentity()
	add := func(m *multibody.Model, j multibody.Joint) int {
		j.ParentFrame, j.ChildFrame = id, id
		b, err := m.AddBody(fmt.Sprint("b", len(m.Bodies)), in, j)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	root := add(m, multibody.Joint{Type: multibody.JointFree, Parent: -1})
	ball := add(m, multibody.Joint{Type: multibody.JointBall, Parent: root})
	add(m, multibody.Joint{Type: multibody.JointCompound, Parent: ball, Parts: []multibody.JointPart{
		{Type: multibody.JointRevolute, Axis: spatial.Vec3{0, 0, 1}},
		{Type: multibody.JointBall},
		{Type: multibody.JointPrismatic, Axis: spatial.Vec3{1, 0, 0}},
	}})
	add(m, multibody.Joint{Type: multibody.JointRevolute, Parent: root, Axis: spatial.Vec3{0, 1, 0}})
	lin := &multibody.Model{}
	add(lin, multibody.Joint{Type: multibody.JointRevolute, Parent: -1, Axis: spatial.Vec3{0, 1, 0}})
	rng := rand.New(rand.NewPCG(23, 76))
	var turns angularTurns
	compare := func(what string, m *multibody.Model, q []float64) {
		t.Helper()
		v := make([]float64, m.NV)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		for _, local := range []bool{true, false} {
			want, got, inPlace := make([]float64, m.NV), make([]float64, m.NV), append([]float64(nil), v...)
			if local {
				m.LocalVelocity(q, v, want)
				turns.local(m, q, v, got)
				turns.local(m, q, inPlace, inPlace)
			} else {
				m.WorldVelocity(q, v, want)
				turns.world(m, q, v, got)
				turns.world(m, q, inPlace, inPlace)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(inPlace[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s (local %v): velocity %d: %v and in place %v, multibody's %v", what, local, i, got[i], inPlace[i], want[i])
				}
			}
		}
	}
	for trial := range 100 {
		compare(fmt.Sprint("trial ", trial), m, randomRotations(m, rng, trial == 0))
	}
	add(m, multibody.Joint{Type: multibody.JointBall, Parent: root})
	for trial := range 20 {
		compare(fmt.Sprint("grown model, trial ", trial), m, randomRotations(m, rng, false))
	}
	compare("hinge only", lin, []float64{0.3})
}
