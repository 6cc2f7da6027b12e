package multibody

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// kin11Forest is a forest whose trees crbaColumns walks in ways
// randomForest does not: welds (no velocity) between moving bodies, so
// that a column's walk passes a body of no velocities and shifts its
// momentum twice in a row; bodies of zero mass (combine's early return);
// single-body trees of one to three velocities (every entry written by
// the columns alone); branches; and a random armature on every joint.
func kin11Forest(r *rand.Rand) (*Model, *State) {
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	add := func(t JointType, parent int) int {
		j := Joint{Type: t, Parent: parent, ParentFrame: rpose(r), ChildFrame: rpose(r), Axis: rv(r)}
		switch t {
		case JointCompound:
			j.Parts = randomParts(r)
			for k := range j.Parts {
				j.Parts[k].Armature = float64(r.IntN(3)) * r.Float64()
			}
		case JointWeld:
		default:
			j.Armature = float64(r.IntN(3)) * r.Float64()
		}
		b, err := m.AddBody(fmt.Sprintf("b%d", len(m.Bodies)), rinertia(r), j)
		if err != nil {
			panic(err)
		}
		if r.IntN(5) == 0 { // massless (as a loader may leave a body), past AddBody's check
			m.Bodies[b].Inertia = spatial.SpatialInertia{}
		}
		return b
	}
	kinds := []JointType{JointRevolute, JointPrismatic, JointBall, JointPlanar, JointUniversal, JointCompound, JointWeld}
	pick := func() JointType { return kinds[r.IntN(len(kinds))] }
	for range 3 { // chains with welds and branches
		root := add(JointRevolute, -1)
		p := root
		for range 6 {
			p = add(pick(), p)
			if r.IntN(3) == 0 {
				p = add(JointWeld, p)
			}
		}
		add(pick(), root)
	}
	for _, t := range []JointType{JointRevolute, JointUniversal, JointPlanar, JointBall} {
		add(t, -1) // single-body trees
	}
	s := m.NewState()
	randomize(r, m, s)
	return m, s
}

// TestKin11CRBAMatchesVectorForm: crbaColumns, which makes each column in
// its own loop (the body's cc, mass and inertia read once a body) and
// MassMatrix, which takes the mass from the kinematics, give the bits of
// the Vec3 form (crbaColumnVec, the Body's mass) on kin11Forest's trees,
// at random states and at states with a NaN, an infinity or a huge
// velocity.
func TestKin11CRBAMatchesVectorForm(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(11, seed))
		m, s := kin11Forest(r)
		switch seed % 4 {
		case 1:
			s.Q[r.IntN(len(s.Q))] = math.NaN()
		case 2:
			s.Q[r.IntN(len(s.Q))] = math.Inf(1 - 2*r.IntN(2))
		case 3:
			s.V[r.IntN(len(s.V))] = math.MaxFloat64
		}
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		checkMassMatrixVec(t, m, ws, fmt.Sprintf("seed %d", seed))
	}
}
