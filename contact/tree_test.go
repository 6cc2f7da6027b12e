package contact

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// TestSameTreeContact: a contact between two bodies of one kinematic tree
// (the first and third spheres of a folded revolute chain) gives one merged
// J block for that tree, whose rows are the relative velocity of B's and A's
// material points at the contact point in the contact frame, and whose
// normal row is the central difference of φ along q̇ = N(q) v.
func TestSameTreeContact(t *testing.T) {
	m := &multibody.Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.01, 0.01})}
	parent := -1
	for i := range 3 {
		j := multibody.Joint{Type: multibody.JointRevolute, Parent: parent, ParentFrame: spatial.PoseIdentity(),
			ChildFrame: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, 0.3}}, Axis: spatial.Vec3{1, 0.2, 0}}
		if i == 0 {
			j.ParentFrame.P = spatial.Vec3{0, 0, 1}
		} else {
			j.ParentFrame = spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, -0.3}}
		}
		b, err := m.AddBody("s", in, j)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.AddGeometry(b, geometry.NewSphere(0.12), spatial.PoseIdentity(), 0); err != nil {
			t.Fatal(err)
		}
		parent = b
	}
	s := m.NewState()
	copy(s.Q, []float64{0.3, 2.2, 1.4}) // fold link 3 back towards link 1
	copy(s.V, []float64{0.7, -1.1, 0.4})
	phi := func(st *multibody.State) geometry.Contact {
		xa := m.BodyPose(st, 0)
		xb := m.BodyPose(st, 2)
		c := geometry.Collide(m.Geometries[0].Shape, xa, m.Geometries[2].Shape, xb, 1, nil)
		if len(c) != 1 {
			t.Fatalf("%d contacts between links 1 and 3", len(c))
		}
		return c[0]
	}
	c := phi(s)
	p := &solver.Problem{}
	p.Reset(m.NV)
	p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: 3})
	p.A = make([]float64, 9)
	m.TreeMassMatrix(s, 0, p.A)
	m.MassDiagonal(s, p.MDiag)
	var a Assembler
	mat := []Material{{Stiffness: 1e6, Dissipation: 0.01, Friction: 0.5}}
	kin := multibody.NewWorkspace(m)
	kin.Update(s.Q, s.V)
	if err := a.Assemble(m, kin, []Pair{{GeomA: 0, GeomB: 2, BodyA: 0, BodyB: 2, Contact: c}}, mat, 0.01, new(DefaultParams()), p); err != nil {
		t.Fatal(err)
	}
	if len(p.JBlock) != 1 || p.JBlock[0].Clique != 0 {
		t.Fatalf("J blocks %+v, want one block for tree 0", p.JBlock)
	}
	J := p.JBlockData(0)
	rel := m.PointVelocity(s, 2, c.Point).Sub(m.PointVelocity(s, 0, c.Point))
	t1, t2 := spatial.Orthonormal(c.Normal)
	for r, d := range []spatial.Vec3{t1, t2, c.Normal} {
		jv := J[3*r]*s.V[0] + J[3*r+1]*s.V[1] + J[3*r+2]*s.V[2]
		if math.Abs(jv-rel.Dot(d)) > 1e-12 {
			t.Fatalf("row %d: J v = %g, relative velocity %g", r, jv, rel.Dot(d))
		}
	}
	const h = 1e-6
	adv := func(h float64) *multibody.State {
		o := &multibody.State{}
		o.CopyFrom(s)
		m.IntegrateQ(s.Q, s.Q, s.V, h, o.Q)
		return o
	}
	fd := (phi(adv(h)).Phi - phi(adv(-h)).Phi) / (2 * h)
	jn := J[6]*s.V[0] + J[7]*s.V[1] + J[8]*s.V[2]
	t.Logf("φ = %.4f m, J_n v = %.9f, dφ/dt = %.9f", c.Phi, jn, fd)
	if math.Abs(jn-fd) > 1e-6*(1+math.Abs(fd)) {
		t.Fatalf("J_n v = %g, dφ/dt = %g", jn, fd)
	}
}
