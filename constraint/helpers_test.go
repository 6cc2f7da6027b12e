package constraint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// rod returns the inertia of a 1 kg body with its centre of mass at com.
func rod(m float64, com spatial.Vec3) spatial.SpatialInertia {
	return spatial.SpatialInertia{Mass: m, Com: com, Icom: spatial.Diag3(spatial.Vec3{0.02, 0.03, 0.01}).Scale(m)}
}

// testModel is three trees: a chain link1 (revolute y) → link2 (revolute x)
// → link3 (ball); a cart (prismatic x) carrying a pole (revolute y); a free
// box.
type testModel struct {
	m                                    *multibody.Model
	link1, link2, link3, cart, pole, box int
}

func newTestModel(t *testing.T) *testModel {
	t.Helper()
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	id := spatial.PoseIdentity()
	at := func(x, y, z float64) spatial.Pose {
		return spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{x, y, z}}
	}
	add := func(name string, in spatial.SpatialInertia, j multibody.Joint) int {
		b, err := m.AddBody(name, in, j)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tm := &testModel{m: m}
	tm.link1 = add("link1", rod(1, spatial.Vec3{0, 0, -0.2}), multibody.Joint{Type: multibody.JointRevolute, Parent: -1, ParentFrame: at(0, 0, 1), ChildFrame: id, Axis: spatial.Vec3{0, 1, 0}})
	tm.link2 = add("link2", rod(0.8, spatial.Vec3{0, 0, -0.2}), multibody.Joint{Type: multibody.JointRevolute, Parent: tm.link1, ParentFrame: at(0, 0, -0.4), ChildFrame: id, Axis: spatial.Vec3{1, 0, 0}})
	tm.link3 = add("link3", rod(0.5, spatial.Vec3{0, 0, -0.1}), multibody.Joint{Type: multibody.JointBall, Parent: tm.link2, ParentFrame: at(0, 0, -0.4), ChildFrame: id})
	tm.cart = add("cart", rod(2, spatial.Vec3{}), multibody.Joint{Type: multibody.JointPrismatic, Parent: -1, ParentFrame: at(1, 0, 0.5), ChildFrame: id, Axis: spatial.Vec3{1, 0, 0}})
	tm.pole = add("pole", rod(0.3, spatial.Vec3{0, 0, 0.25}), multibody.Joint{Type: multibody.JointRevolute, Parent: tm.cart, ParentFrame: id, ChildFrame: id, Axis: spatial.Vec3{0, 1, 0}})
	box, err := m.AddFreeBody("box", rod(0.4, spatial.Vec3{}))
	if err != nil {
		t.Fatal(err)
	}
	tm.box = box
	return tm
}

// randomState returns a state with random joint coordinates and velocities.
func (tm *testModel) randomState(rng *rand.Rand, scale float64) *multibody.State {
	s := tm.m.NewState()
	v := make([]float64, tm.m.NV)
	for i := range v {
		v[i] = scale * rng.NormFloat64()
	}
	tm.m.IntegrateQ(s.Q, s.Q, v, 1, s.Q)
	for i := range s.V {
		s.V[i] = rng.NormFloat64()
	}
	return s
}

// fullSet returns a Set with every regularized item on tm, near-rigid and
// without dissipation (so that g0 = −δt v̂), welds and balls built to hold
// in state s0.
func (tm *testModel) fullSet(s0 *multibody.State) *Set {
	kin := multibody.NewWorkspace(tm.m)
	kin.Update(s0.Q, s0.V)
	xb, x2, x3 := kin.Pose(tm.box), kin.Pose(tm.link2), kin.Pose(tm.link3)
	pt := spatial.Vec3{0.05, 0.02, -0.3}
	return &Set{
		Limits: []Limit{{Name: "l1", Body: tm.link1, Lower: -0.5, Upper: 0.5}, {Body: tm.link2, Lower: math.Inf(-1), Upper: 0.3}, {Body: tm.cart, Lower: -1, Upper: 1}},
		Cones:  []ConeLimit{{Name: "c3", Body: tm.link3, Angle: 0.4}},
		Welds:  []Weld{{Name: "w", BodyA: tm.link2, BodyB: tm.box, FrameA: x2.Inverse().Compose(xb), FrameB: spatial.PoseIdentity()}, {BodyA: -1, BodyB: tm.pole, FrameA: kin.Pose(tm.pole), FrameB: spatial.PoseIdentity()}},
		Balls: []Ball{{Name: "b", BodyA: tm.link3, PointA: pt, BodyB: tm.box, PointB: xb.ApplyInv(x3.Apply(pt))},
			{BodyA: -1, PointA: spatial.Vec3{1, 0, 1}, BodyB: tm.pole, PointB: spatial.Vec3{0, 0, 0.5}}},
		Distances: []Distance{{Name: "d", BodyA: tm.cart, BodyB: tm.box, PointB: spatial.Vec3{0.1, 0, 0}, Length: 0.7}},
		Couplers:  []Coupler{{Name: "cp", BodyI: tm.link2, BodyJ: tm.pole, Ratio: -0.5, Offset: 0.1}},
		Actuators: []Actuator{{Name: "pd", Type: PD, Body: tm.link1, Kp: 100, Kd: 10, Effort: 3},
			{Name: "pos", Type: Position, Body: tm.pole, Gear: 2, Kp: 50, Kd: 1},
			{Name: "vel", Type: Velocity, Body: tm.cart, Kd: 20},
			{Name: "mot", Type: Motor, Body: tm.link2, Effort: 1, CtrlMin: -5, CtrlMax: 5}},
		Frictions: []JointFriction{{Name: "f1", Body: tm.link1, Force: 0.5}, {Body: tm.link3, DOF: 1, Force: 0.2}},
	}
}

// problem returns the dynamics part of a problem at state s (one clique
// per tree, A = M) and the factors of its cliques.
func problem(t *testing.T, m *multibody.Model, kin *multibody.Workspace) (*solver.Problem, *solver.CliqueFactor) {
	t.Helper()
	p := &solver.Problem{}
	p.Reset(m.NV)
	for ti, tr := range m.Trees {
		off := len(p.A)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: tr.VOffset, Size: tr.NV, AOff: off})
		p.A = append(p.A, make([]float64, tr.NV*tr.NV)...)
		kin.MassMatrix(ti, p.A[off:])
		for i := range tr.NV {
			p.MDiag[tr.VOffset+i] = p.A[off+i*tr.NV+i]
		}
	}
	f := &solver.CliqueFactor{}
	if err := f.Factor(p); err != nil {
		t.Fatal(err)
	}
	return p, f
}
