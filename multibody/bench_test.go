package multibody

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"

	"github.com/stiction-sim/stiction/spatial"
)

// pendulumModel is a 1-dof revolute pendulum (the joint frame at the body
// origin, as MJCF files give it) with q = 0.3, v = 1.
func pendulumModel() (*Model, *State) {
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	j := Joint{Type: JointRevolute, Parent: -1, ParentFrame: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, 2}}, ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 1, 0}}
	in := spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0, 0, -0.5}, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.01, 0.001})}
	if _, err := m.AddBody("pole", in, j); err != nil {
		panic(err)
	}
	s := m.NewState()
	s.Q[0], s.V[0] = 0.3, 1
	return m, s
}

// BenchmarkUpdate times one kinematics pass (Workspace.Update) of the
// pendulum and of the random forest of every joint type (cpu-ns/op: the
// process CPU time, which waiting for a core does not inflate):
//
//	go test ./multibody -run XXX -bench Update -count 6
func BenchmarkUpdate(b *testing.B) {
	forest, fs := randomForest(rand.New(rand.NewPCG(3, 4)), JointRevolute)
	pend, ps := pendulumModel()
	for _, c := range []struct {
		name string
		m    *Model
		s    *State
	}{{"pendulum", pend, ps}, {"forest", forest, fs}} {
		b.Run(c.name, func(b *testing.B) {
			ws := NewWorkspace(c.m)
			b.ReportAllocs()
			cpu := -cputime.Process()
			for b.Loop() {
				ws.Update(c.s.Q, c.s.V)
			}
			cpu += cputime.Process()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestWorkspaceFramesMatchModel: the workspace's frames, which skip the
// products with identity rotations and zero translations, equal
// Model.frames exactly (==, so up to the sign of a zero) on the random
// forests of every joint type, some of whose frames are made identities or
// pure translations or rotations, and on the pendulum; so do the rotated
// inertias, half of them diagonal, and spatial.RotateInertia.
func TestWorkspaceFramesMatchModel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	models := []*Model{}
	states := []*State{}
	for _, root := range allRoots {
		m, s := randomForest(r, root)
		for b := range m.Bodies {
			j := &m.Bodies[b].Joint
			if b%2 == 0 {
				d := m.Bodies[b].Inertia.Icom
				m.Bodies[b].Inertia.Icom = spatial.Diag3(spatial.Vec3{d[0][0], d[1][1], d[2][2]})
			}
			switch b % 4 {
			case 1:
				j.ParentFrame, j.ChildFrame = spatial.PoseIdentity(), spatial.Pose{R: spatial.QuatIdentity(), P: j.ChildFrame.P}
			case 2:
				j.ParentFrame.R, j.ChildFrame.P = spatial.QuatIdentity(), spatial.Vec3{}
			case 3:
				j.ParentFrame.P, j.ChildFrame = spatial.Vec3{}, spatial.PoseIdentity()
			}
		}
		models, states = append(models, m), append(states, s)
	}
	pm, ps := pendulumModel()
	models, states = append(models, pm), append(states, ps)
	for i, m := range models {
		ws := NewWorkspace(m)
		ws.Update(states[i].Q, states[i].V)
		for b := range m.Bodies {
			if m.Bodies[b].Tree < 0 {
				continue
			}
			xp := spatial.PoseIdentity()
			if p := m.Bodies[b].Joint.Parent; p >= 0 {
				xp = ws.Pose(p)
			}
			var f1, m1, b1 spatial.Pose
			ws.frames(states[i].Q, b, &xp, &f1, &m1, &b1, true)
			f2, m2, b2 := m.frames(states[i].Q, b, xp)
			if f1 != f2 || m1 != m2 || b1 != b2 {
				t.Errorf("model %d body %d (%v): workspace frames %v %v %v, model %v %v %v", i, b, m.Bodies[b].Joint.Type, f1, m1, b1, f2, m2, b2)
			}
			if x, _, _ := m.kin(states[i].Q, nil, b); x != ws.Pose(b) {
				t.Errorf("model %d body %d: Update pose %v, Model.kin %v", i, b, ws.Pose(b), x)
			}
			if ic := spatial.RotateInertia(ws.Pose(b).R.RotMat(), m.Bodies[b].Inertia.Icom); ic != ws.ic[b] {
				t.Errorf("model %d body %d: Update's R I Rᵀ %v, RotateInertia %v", i, b, ws.ic[b], ic)
			}
		}
	}
}

// TestParallelAxisEntries: parallelAxis equals the matrix expression it
// writes out, m (d·d) I − m d dᵀ through spatial's Mat3 operations, exactly.
func TestParallelAxisEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 1000 {
		m, d := r.Float64()*3, rv(r)
		want := spatial.Identity3().Scale(m * d.Dot(d)).Sub(spatial.Outer(d, d).Scale(m))
		if got := parallelAxis(m, d); got != want {
			t.Fatalf("m=%v d=%v: %v, want %v", m, d, got, want)
		}
	}
}

// BenchmarkMassMatrix times the mass matrix (Workspace.MassMatrix, after
// one Update) of a lone free body, as every body of the peer scenes is, and
// of the pendulum (cpu-ns/op as in BenchmarkUpdate):
//
//	go test ./multibody -run XXX -bench MassMatrix -count 6
func BenchmarkMassMatrix(b *testing.B) {
	free := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0.01, 0, 0}, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.03})}
	if _, err := free.AddBody("cube", in, Joint{Type: JointFree, Parent: -1}); err != nil {
		b.Fatal(err)
	}
	fs := free.NewState()
	randomize(rand.New(rand.NewPCG(7, 8)), free, fs)
	pend, ps := pendulumModel()
	for _, c := range []struct {
		name string
		m    *Model
		s    *State
	}{{"free", free, fs}, {"pendulum", pend, ps}} {
		b.Run(c.name, func(b *testing.B) {
			ws := NewWorkspace(c.m)
			ws.Update(c.s.Q, c.s.V)
			n := c.m.Trees[0].NV
			out := make([]float64, n*n)
			b.ReportAllocs()
			cpu := -cputime.Process()
			for b.Loop() {
				ws.MassMatrix(0, out)
			}
			cpu += cputime.Process()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkPointJacobian times the point Jacobian of a lone free body, one
// per contact point in the peer scenes (cpu-ns/op as in BenchmarkUpdate):
//
//	go test ./multibody -run XXX -bench PointJacobian -count 6
func BenchmarkPointJacobian(b *testing.B) {
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.03})}
	if _, err := m.AddBody("cube", in, Joint{Type: JointFree, Parent: -1}); err != nil {
		b.Fatal(err)
	}
	s := m.NewState()
	randomize(rand.New(rand.NewPCG(7, 9)), m, s)
	ws := NewWorkspace(m)
	ws.Update(s.Q, s.V)
	out, p := make([]float64, 18), spatial.Vec3{0.05, -0.05, 0}
	b.ReportAllocs()
	cpu := -cputime.Process()
	for b.Loop() {
		ws.PointJacobian(0, p, out)
	}
	cpu += cputime.Process()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkStepKernel times what a MuJoCo-Euler step asks of the
// workspace: one Update, every tree's mass matrix and the bias forces, on
// the pendulum and on the random forest of BenchmarkUpdate (cpu-ns/op as
// there):
//
//	go test ./multibody -run XXX -bench StepKernel -count 6
func BenchmarkStepKernel(b *testing.B) {
	forest, fs := randomForest(rand.New(rand.NewPCG(3, 4)), JointRevolute)
	pend, ps := pendulumModel()
	for _, c := range []struct {
		name string
		m    *Model
		s    *State
	}{{"pendulum", pend, ps}, {"forest", forest, fs}} {
		b.Run(c.name, func(b *testing.B) {
			ws := NewWorkspace(c.m)
			n := 0
			for _, t := range c.m.Trees {
				n = max(n, t.NV)
			}
			mass, f := make([]float64, n*n), make([]float64, c.m.NV)
			b.ReportAllocs()
			cpu := -cputime.Process()
			for b.Loop() {
				ws.Update(c.s.Q, c.s.V)
				for t := range c.m.Trees {
					ws.MassMatrix(t, mass)
				}
				ws.BiasForces(f)
			}
			cpu += cputime.Process()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
