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
