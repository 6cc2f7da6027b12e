package contact

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// cubeassemblyFreeBody returns a model of one free body and a workspace at
// a random pose of it.
func cubeassemblyFreeBody(t *testing.T, r *rand.Rand) (*multibody.Model, *multibody.Workspace) {
	t.Helper()
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0.01, 0, 0}, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.03})}
	if _, err := m.AddBody("cube", in, multibody.Joint{Type: multibody.JointFree, Parent: -1}); err != nil {
		t.Fatal(err)
	}
	s := m.NewState()
	q := spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	copy(s.Q, []float64{q.W, q.X, q.Y, q.Z, r.NormFloat64(), r.NormFloat64(), r.NormFloat64()})
	ws := multibody.NewWorkspace(m)
	ws.Update(s.Q, s.V)
	return m, ws
}

// TestCubeassemblyFreePointRows: addBodyRows' free-body point rows
// (addFreePointRows, no Jacobian formed) are, to the bit, what
// PointJacobian's Jacobian and addAllRows give, on a new block (+0,
// whose storage addBodyRows does not clear first: it holds other
// numbers, zeros of both signs among them) and on a block already holding
// numbers (a merged block, whose entries are never −0), with both signs, directions and offsets holding exact zeros
// of both signs, and an offset of ±0 along an axis (the point level with
// the body's origin). Directions with an Inf or a NaN take the general
// path (finiteDirs) and give its bits too.
func TestCubeassemblyFreePointRows(t *testing.T) {
	r := rand.New(rand.NewPCG(96, 30))
	m, kin := cubeassemblyFreeBody(t, r)
	org := kin.Pose(0).P
	odd := []float64{math.Inf(1), math.Inf(-1), math.NaN()}
	fast := 0
	for trial := range 4000 {
		var dirs [3]spatial.Vec3
		for d := range dirs {
			for c := range 3 {
				dirs[d][c] = cubeslide2Draw(r)
			}
		}
		if trial%10 == 9 {
			dirs[r.IntN(3)][r.IntN(3)] = odd[r.IntN(len(odd))]
		}
		var pt spatial.Vec3
		for c := range 3 {
			pt[c] = org[c] + r.NormFloat64()
			if r.IntN(4) == 0 {
				pt[c] = org[c] // r_c = +0
			}
		}
		sign := 1.0
		if trial%2 == 1 {
			sign = -1
		}
		merged := trial%3 == 0
		var before [18]float64
		if merged {
			for i := range before {
				if r.IntN(3) > 0 {
					before[i] = r.NormFloat64()
				}
			}
		}
		want := before
		jac := make([]float64, 18)
		kin.PointJacobian(0, pt, jac)
		addAllRows(want[:], jac, &dirs, sign)

		var a Assembler
		if merged {
			a.nb, a.tree[0], a.rows[0] = 1, 0, before[:]
		} else { // a new block's storage holds the last pair's numbers: every entry must be set
			a.rows[0] = make([]float64, 18)
			for i := range a.rows[0] {
				a.rows[0][i] = cubeslide2Draw(r)
			}
		}
		a.addBodyRows(m, kin, 0, &pt, &dirs, sign, false)
		if a.nb != 1 || a.tree[0] != 0 {
			t.Fatalf("trial %d: %d blocks, tree %d", trial, a.nb, a.tree[0])
		}
		for i := range want {
			if math.Float64bits(a.rows[0][i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (merged %v, sign %v): entry %d = %v, PointJacobian and addAllRows give %v", trial, merged, sign, i, a.rows[0][i], want[i])
			}
		}
		if finiteDirs(&dirs) {
			fast++
		}
	}
	if fast < 3000 {
		t.Fatalf("only %d of 4000 trials took the free-body path", fast)
	}
}

// TestCubeassemblyFiniteDirs: finiteDirs is false whenever one of the
// nine numbers is an Inf or a NaN, true for ordinary finite ones.
func TestCubeassemblyFiniteDirs(t *testing.T) {
	d := [3]spatial.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	if !finiteDirs(&d) {
		t.Fatal("the unit frame is not finite")
	}
	for k := range 9 {
		for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
			e := d
			e[k/3][k%3] = x
			if finiteDirs(&e) {
				t.Fatalf("entry %d = %v counted finite", k, x)
			}
		}
	}
}

// TestCubeassemblyCombinedOncePerMaterials: recall's material for pairs
// of geometries of several materials, in an order that meets the same
// pair of materials again after others, the reverse pair (Combine is not
// symmetric in every field) and a new Assemble (start) after the
// materials changed, is Combine of the pair's two materials every time.
func TestCubeassemblyCombinedOncePerMaterials(t *testing.T) {
	mats := []Material{
		{Stiffness: 1e5, Dissipation: 0.01, Friction: 0.5, Anchors: true},
		{Stiffness: 3e6, Dissipation: 0.02, Friction: 1.1, Rolling: 0.01, SlipTime: 0.02},
		{Stiffness: 7e4, Friction: 0.2, Spin: 0.03, SlipTime: 0.01, SlipWeight: 2},
	}
	m := &multibody.Model{Geometries: []multibody.Geometry{{Material: 0}, {Material: 1}, {Material: 2}, {Material: 0}, {Material: 1}}}
	geoms := [][2]int{{0, 1}, {3, 1}, {0, 4}, {1, 0}, {0, 2}, {3, 4}, {2, 2}, {4, 3}, {0, 1}}
	var a Assembler
	for round := range 2 {
		if round == 1 { // the caller changes a material between two Assembles
			mats[1].Friction, mats[0].Stiffness = 0.7, 2e5
		}
		a.start(m, 0, 0.01, DefaultParams().AnchorRadius)
		for i, g := range geoms {
			pr := Pair{GeomA: g[0], GeomB: g[1]}
			a.recall(m, nil, i, &pr, mats)
			want := Combine(mats[m.Geometries[g[0]].Material], mats[m.Geometries[g[1]].Material])
			if !reflect.DeepEqual(*a.last.mat, want) {
				t.Fatalf("round %d, pair %d (geometries %v): material %+v, Combine gives %+v", round, i, g, *a.last.mat, want)
			}
		}
	}
}
