package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// TestArmature checks that joint armature adds exactly to diag(M) (CRBA),
// that RNEA and ABA agree with that M, and that the kinetic energy is
// ½ vᵀ M v with it.
func TestArmature(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	forEachSystem(t, 21, 5, func(m *Model, s *State, ws *Workspace) {
		M0 := dense(m, ws)
		arm := make([]float64, m.NV)
		for b := range m.Bodies {
			body := &m.Bodies[b]
			if body.Tree < 0 {
				continue
			}
			a := r.Float64()
			if body.Joint.Type == JointCompound { // per part
				for i := range body.Joint.Parts {
					body.Joint.Parts[i].Armature = a
				}
			} else {
				body.Joint.Armature = a
			}
			for k := range body.Joint.NV() {
				arm[body.VOff+k] = a
			}
		}
		defer func() {
			for b := range m.Bodies {
				m.Bodies[b].Joint.Armature = 0
				for i := range m.Bodies[b].Joint.Parts {
					m.Bodies[b].Joint.Parts[i].Armature = 0
				}
			}
		}()
		ws = NewWorkspace(m) // it reads the armatures once (dofArmatures)
		ws.Update(s.Q, s.V)
		M := dense(m, ws)
		for i := range M {
			for j := range M {
				want := M0[i][j]
				if i == j {
					want += arm[i]
				}
				if M[i][j] != want {
					t.Fatalf("M[%d][%d] = %v, want %v", i, j, M[i][j], want)
				}
			}
		}
		a := randVec(r, m.NV)
		bias, tau := make([]float64, m.NV), make([]float64, m.NV)
		ws.InverseDynamics(nil, bias)
		ws.InverseDynamics(a, tau)
		ma := matVec(M, a)
		for i := range tau {
			if d := math.Abs(tau[i] - ma[i] - bias[i]); d > 1e-10*(1+math.Abs(tau[i])) {
				t.Fatalf("RNEA[%d] = %g, M a + bias = %g", i, tau[i], ma[i]+bias[i])
			}
		}
		acc := make([]float64, m.NV)
		if err := ws.ForwardDynamics(tau, acc); err != nil {
			t.Fatal(err)
		}
		for i := range acc {
			if math.Abs(acc[i]-a[i]) > 1e-8*(1+math.Abs(a[i])) {
				t.Fatalf("ABA a[%d] = %g, want %g", i, acc[i], a[i])
			}
		}
		Mv := matVec(M, s.V)
		want := 0.0
		for i := range Mv {
			want += 0.5 * s.V[i] * Mv[i]
		}
		if e := ws.KineticEnergy(); math.Abs(e-want) > 1e-12*(1+want) {
			t.Fatalf("kinetic energy %v, ½vᵀMv = %v", e, want)
		}
	})
}

// TestCollidable checks the collision filter: bits, excluded pairs,
// adjacency and world-welded pairs.
func TestCollidable(t *testing.T) {
	m := &Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Identity3()}
	w := m.AddWeldedBody("ground", spatial.PoseIdentity())
	a, _ := m.AddFreeBody("a", in)
	b, _ := m.AddFreeBody("b", in)
	c, _ := m.AddBody("c", in, Joint{Type: JointRevolute, Parent: b, Axis: spatial.Vec3{0, 0, 1}, ParentFrame: spatial.PoseIdentity(), ChildFrame: spatial.PoseIdentity()})
	sh := geometry.NewSphere(0.1)
	g := make([]int, 0, 5)
	for _, body := range []int{w, a, b, c, w} {
		i, err := m.AddGeometry(body, sh, spatial.PoseIdentity(), 0)
		if err != nil {
			t.Fatal(err)
		}
		g = append(g, i)
	}
	check := func(i, j int, want bool, what string) {
		t.Helper()
		if m.Collidable(g[i], g[j]) != want || m.Collidable(g[j], g[i]) != want {
			t.Errorf("%s: Collidable(%d, %d) = %v, want %v", what, i, j, !want, want)
		}
	}
	check(0, 1, true, "ground–a")
	check(0, 4, false, "two world geometries")
	check(2, 3, false, "parent–child")
	check(1, 3, true, "a–c")
	m.Geometries[g[1]].Contype, m.Geometries[g[1]].Conaffinity = 2, 0
	check(0, 1, false, "a bits 2/0 vs 1/1")
	m.Geometries[g[0]].Conaffinity = 3
	check(0, 1, true, "a contype 2 vs ground conaffinity 3")
	if err := m.ExcludePair(c, a); err != nil {
		t.Fatal(err)
	}
	m.Geometries[g[1]].Contype, m.Geometries[g[1]].Conaffinity = 1, 1
	check(1, 3, false, "excluded a–c")
	check(1, 2, true, "a–b not excluded")
	if m.ExcludePair(0, 99) == nil {
		t.Error("ExcludePair with a bad body: no error")
	}
}

// TestRigidGroups checks the collision filter on rigid groups: a is on a
// hinge; f, a massless frame, is welded to it and p, with mass, to f; c
// hinges from p; base and post are welded to the world, and e hinges from
// base. Same group (a, f, p; base, post, the world): never collide. The
// parent filters: FilterAdjacent (Drake's) filters c–p and e–base, not
// c–a; FilterMuJoCo filters c against its parent's group (p and a) and
// not e–base, whose group is the world's (MuJoCo's mj_contactFilter);
// FilterNone filters neither.
func TestRigidGroups(t *testing.T) {
	m := &Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Identity3()}
	id := spatial.PoseIdentity()
	hinge := func(parent int) Joint {
		return Joint{Type: JointRevolute, Parent: parent, Axis: spatial.Vec3{0, 0, 1}, ParentFrame: id, ChildFrame: id}
	}
	weld := func(parent int) Joint { return Joint{Type: JointWeld, Parent: parent, ParentFrame: id, ChildFrame: id} }
	a, _ := m.AddBody("a", in, hinge(-1))
	f, _ := m.AddBody("f", spatial.SpatialInertia{}, weld(a))
	p, _ := m.AddBody("p", in, weld(f))
	c, _ := m.AddBody("c", in, hinge(p))
	base := m.AddWeldedBody("base", id)
	post, _ := m.AddBody("post", spatial.SpatialInertia{}, weld(base))
	e, _ := m.AddBody("e", in, hinge(base))
	for body, want := range map[int]int{a: a, f: a, p: a, c: c, base: -1, post: -1, e: e} {
		if got := m.RigidGroup(body); got != want {
			t.Errorf("RigidGroup(%s) = %d, want %d", m.Bodies[body].Name, got, want)
		}
	}
	g := map[int]int{}
	for _, body := range []int{a, f, p, c, base, post, e} {
		i, err := m.AddGeometry(body, geometry.NewSphere(0.1), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		g[body] = i
	}
	for _, c := range []struct {
		x, y             int
		adj, mujoco, non bool
	}{
		{a, p, false, false, false}, {f, p, false, false, false}, {base, post, false, false, false},
		{c, p, false, false, true}, {c, a, true, false, true}, {c, f, true, false, true},
		{e, base, false, true, true}, {e, post, true, true, true}, {a, base, true, true, true},
	} {
		for filter, want := range map[ParentFilter]bool{FilterAdjacent: c.adj, FilterMuJoCo: c.mujoco, FilterNone: c.non} {
			m.ParentFilter = filter
			if got := m.Collidable(g[c.x], g[c.y]); got != want || m.Collidable(g[c.y], g[c.x]) != want {
				t.Errorf("filter %d: Collidable(%s, %s) = %v, want %v", filter, m.Bodies[c.x].Name, m.Bodies[c.y].Name, got, want)
			}
		}
	}
}
