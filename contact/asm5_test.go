package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// asm5Tree returns a branched tree (a planar root of three joints, two
// legs of hinges and a slider, and a ball) and a workspace at a random
// configuration of it.
func asm5Tree(t *testing.T, r *rand.Rand) (*multibody.Model, *multibody.Workspace) {
	t.Helper()
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0.01, 0, 0}, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.03})}
	add := func(typ multibody.JointType, parent int, axis spatial.Vec3) int {
		j := multibody.Joint{Type: typ, Parent: parent, ParentFrame: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0.1, 0.05, -0.2}},
			ChildFrame: spatial.PoseIdentity(), Axis: axis}
		b, err := m.AddBody("b", in, j)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	x, z, y := spatial.Vec3{1, 0, 0}, spatial.Vec3{0, 0, 1}, spatial.Vec3{0, 1, 0}
	root := add(multibody.JointRevolute, add(multibody.JointPrismatic, add(multibody.JointPrismatic, -1, x), z), y)
	add(multibody.JointRevolute, add(multibody.JointRevolute, root, y), x)
	add(multibody.JointBall, add(multibody.JointPrismatic, root, z), spatial.Vec3{})
	s := m.NewState()
	for i := range s.Q {
		s.Q[i] = r.NormFloat64()
	}
	for i := range s.V {
		s.V[i] = r.NormFloat64()
	}
	ws := multibody.NewWorkspace(m)
	ws.Update(s.Q, s.V)
	return m, ws
}

// asm5Draw returns a normal number, or now and then an exact zero of
// either sign.
func asm5Draw(r *rand.Rand) float64 {
	switch r.IntN(6) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	}
	return r.NormFloat64()
}

// TestAsm5AllRows: addAllRows over every column of a block gives, to the
// bit, what addChainRows gives over the body's chain alone, for each body
// of a branched tree (whose other columns PointJacobian and
// AngularJacobian set to 0), on a new block (+0) and a merged one (entries
// never −0), with both signs and finite directions holding zeros of both
// signs; and directions with an Inf or a NaN do differ off the chain
// (which is why addBodyRows keeps addChainRows for them).
func TestAsm5AllRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	for trial := range 400 {
		m, kin := asm5Tree(t, r)
		n := m.Trees[0].NV
		jac := make([]float64, 3*n)
		for b := range m.Bodies {
			var dirs [3]spatial.Vec3
			for d := range dirs {
				for c := range 3 {
					dirs[d][c] = asm5Draw(r)
				}
			}
			if trial%2 == 0 {
				kin.PointJacobian(b, spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, jac)
			} else {
				kin.AngularJacobian(b, jac)
			}
			sign := float64(1 - 2*(trial/2%2))
			want := make([]float64, 3*n)
			if trial%3 == 0 {
				for i := range want {
					want[i] = r.NormFloat64()
				}
			}
			got := append([]float64(nil), want...)
			addChainRows(m, b, m.Trees[0].VOffset, want, jac, &dirs, sign)
			addAllRows(got, jac, &dirs, sign)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d body %d: entry %d = %v, the chain's %v", trial, b, i, got[i], want[i])
				}
			}
		}
	}
}

// TestAsm5AllRowsNonFinite: with an infinite direction, the chain's sum
// and the full one differ off the chain (Inf·0 is NaN), so the full loop
// is for finite directions only (finiteDirs).
func TestAsm5AllRowsNonFinite(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 18))
	m, kin := asm5Tree(t, r)
	n := m.Trees[0].NV
	jac := make([]float64, 3*n)
	b := len(m.Bodies) - 1 // the ball's leg: the other leg's columns are off its chain
	kin.PointJacobian(b, spatial.Vec3{0.3, -0.2, 0.1}, jac)
	dirs := [3]spatial.Vec3{{math.Inf(1), 0, 0}, {0, 1, 0}, {0, 0, 1}}
	want, got := make([]float64, 3*n), make([]float64, 3*n)
	addChainRows(m, b, m.Trees[0].VOffset, want, jac, &dirs, 1)
	addAllRows(got, jac, &dirs, 1)
	same := true
	for i := range want {
		same = same && math.Float64bits(got[i]) == math.Float64bits(want[i])
	}
	if same || finiteDirs(&dirs) {
		t.Fatalf("an infinite direction: full and chain sums agree (%v) or finiteDirs is true", same)
	}
}
