package multibody

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestJoint1MatchesJoint: Update's written-out revolute and prismatic
// joints (hinge, slide) give the general joint's pose, velocity, subspace
// columns and κ, compared with == (so up to the sign of a zero), on random
// forests of every root type (moving parents, identity and general joint
// frames) and the pendulum, with and without velocities.
func TestJoint1MatchesJoint(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 1))
	var models []*Model
	var states []*State
	for k := range 3 {
		for _, root := range allRoots {
			m, s := randomForest(r, root)
			plainFrames(m, k)
			models, states = append(models, m), append(states, s)
		}
	}
	pm, ps := pendulumModel()
	models, states = append(models, pm), append(states, ps)
	checked := 0
	for i, m := range models {
		for _, v := range [][]float64{states[i].V, nil} {
			ws, gen := NewWorkspace(m), NewWorkspace(m)
			ws.Update(states[i].Q, v)
			for b := range m.Bodies {
				body := &m.Bodies[b]
				if body.Tree < 0 || (body.Joint.Type != JointRevolute && body.Joint.Type != JointPrismatic) {
					continue
				}
				if p := body.Joint.Parent; p >= 0 { // the parent's pose and velocities, which joint reads
					gen.x[p], gen.kin[p] = ws.x[p], ws.kin[p]
				}
				gen.joint(states[i].Q, v, b)
				c := body.VOff
				if ws.x[b] != gen.x[b] || ws.kin[b].w != gen.kin[b].w || ws.kin[b].vel != gen.kin[b].vel ||
					ws.col[c].w != gen.col[c].w || ws.col[c].l != gen.col[c].l || ws.kin[b].kw != gen.kin[b].kw || ws.kin[b].kl != gen.kin[b].kl {
					t.Errorf("model %d body %d (%v, v nil %v): hinge/slide x %v w %v v %v S (%v, %v) κ (%v, %v); joint x %v w %v v %v S (%v, %v) κ (%v, %v)",
						i, b, body.Joint.Type, v == nil, ws.x[b], ws.kin[b].w, ws.kin[b].vel, ws.col[c].w, ws.col[c].l, ws.kin[b].kw, ws.kin[b].kl,
						gen.x[b], gen.kin[b].w, gen.kin[b].vel, gen.col[c].w, gen.col[c].l, gen.kin[b].kw, gen.kin[b].kl)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d joints checked", checked)
	}
}

// TestCRBAFreeBodyMatchesColumns: the mass matrix of a lone free body
// written out (crbaFreeBody) equals the general composite-rigid-body
// columns' (crbaColumns) entry for entry (==, so up to the sign of a zero),
// for random inertias (full and diagonal, off-centre centres of mass) and
// orientations.
func TestCRBAFreeBodyMatchesColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	for trial := range 500 {
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		in := rinertia(r)
		if trial%2 == 0 {
			in.Icom = spatial.Diag3(spatial.Vec3{in.Icom[0][0], in.Icom[1][1], in.Icom[2][2]})
		}
		if _, err := m.AddBody("b", in, Joint{Type: JointFree, Parent: -1}); err != nil {
			t.Fatal(err)
		}
		s := m.NewState()
		randomize(r, m, s)
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		got := make([]float64, 36)
		ws.MassMatrix(0, got)
		if len(m.Trees) != 1 || len(m.Trees[0].Bodies) != 1 {
			t.Fatalf("trees %v", m.Trees)
		}
		want := make([]float64, 36)
		ws.MassMatrix(0, want) // sets the composite inertias crbaColumns reads
		for i := range want {
			want[i] = 0
		}
		ws.crbaColumns(&m.Trees[0], want)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("trial %d: M[%d][%d] = %v, crbaColumns %v", trial, i/6, i%6, got[i], want[i])
			}
		}
	}
}

// TestFreePointJacobianMatches: the point Jacobian of a lone free body
// written out (freePointJacobian) equals the general walk's L + W × r (ws.col)
// entry for entry (==, up to the sign of a zero) at random poses and points.
func TestFreePointJacobianMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 3))
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	if _, err := m.AddBody("b", rinertia(r), Joint{Type: JointFree, Parent: -1}); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(m)
	got, want := make([]float64, 18), make([]float64, 18)
	for trial := range 500 {
		s := m.NewState()
		randomize(r, m, s)
		ws.Update(s.Q, s.V)
		p := rv(r).Scale(float64(trial%7) - 3)
		if ws.PointJacobian(0, p, got) != 0 {
			t.Fatal("tree index")
		}
		rr := p.Sub(ws.Pose(0).P)
		for i := range 6 {
			col := ws.col[i].l.Add(ws.col[i].w.Cross(rr))
			want[i], want[6+i], want[12+i] = col[0], col[1], col[2]
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("trial %d: J[%d][%d] = %v, the general column %v", trial, i/6, i%6, got[i], want[i])
			}
		}
	}
}

// TestWeldMatchesJoint: weld gives the general joint's pose, velocity and
// κ for a welded body under moving parents, compared with == (so up to the
// sign of a zero), on random forests of every root type (identity and
// general joint frames), with and without velocities.
func TestWeldMatchesJoint(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	checked := 0
	for k := range 3 {
		for _, root := range allRoots {
			m, s := randomForest(r, root)
			plainFrames(m, k)
			for _, v := range [][]float64{s.V, nil} {
				ws, gen := NewWorkspace(m), NewWorkspace(m)
				ws.Update(s.Q, v)
				for b := range m.Bodies {
					body := &m.Bodies[b]
					if body.Tree < 0 || body.Joint.Type != JointWeld {
						continue
					}
					p := body.Joint.Parent
					gen.x[p], gen.kin[p] = ws.x[p], ws.kin[p] // the parent's pose and velocities, which joint reads
					gen.joint(s.Q, nil, b)
					if ws.x[b] != gen.x[b] || ws.kin[b].w != gen.kin[b].w || ws.kin[b].vel != gen.kin[b].vel || ws.kin[b].kw != gen.kin[b].kw || ws.kin[b].kl != gen.kin[b].kl {
						t.Errorf("root %v body %d (v nil %v): weld x %v w %v v %v κ (%v, %v); joint x %v w %v v %v κ (%v, %v)",
							root, b, v == nil, ws.x[b], ws.kin[b].w, ws.kin[b].vel, ws.kin[b].kw, ws.kin[b].kl, gen.x[b], gen.kin[b].w, gen.kin[b].vel, gen.kin[b].kw, gen.kin[b].kl)
					}
					if ws.kin[b].w == (spatial.Vec3{}) && v != nil {
						t.Errorf("root %v body %d: a weld under moving parents has ω = 0", root, b)
					}
					checked++
				}
			}
		}
	}
	if checked < 40 {
		t.Fatalf("only %d welds checked", checked)
	}
}

// plainFrames gives every third body of m (offset by k) identity joint
// frames and every third a parent frame without rotation and a child frame
// without offset, so that the joint kernels' special cases are exercised
// beside general frames.
func plainFrames(m *Model, k int) {
	for b := range m.Bodies {
		j := &m.Bodies[b].Joint
		switch (b + k) % 3 {
		case 1:
			j.ParentFrame, j.ChildFrame = spatial.PoseIdentity(), spatial.PoseIdentity()
		case 2:
			j.ParentFrame.R, j.ChildFrame.P = spatial.QuatIdentity(), spatial.Vec3{}
		}
	}
}
