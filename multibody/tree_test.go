package multibody

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

func rv(r *rand.Rand) spatial.Vec3 {
	return spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
}

func rq(r *rand.Rand) spatial.Quat {
	return spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
}

func rpose(r *rand.Rand) spatial.Pose { return spatial.Pose{R: rq(r), P: rv(r).Scale(0.3)} }

// rinertia is a random inertia with a centre of mass offset from the origin.
func rinertia(r *rand.Rand) spatial.SpatialInertia {
	d := spatial.Vec3{1 + r.Float64(), 1 + r.Float64(), 1 + r.Float64()}.Scale(0.1)
	R := rq(r).RotMat()
	return spatial.SpatialInertia{Mass: 0.5 + r.Float64(), Com: rv(r).Scale(0.2), Icom: spatial.RotateInertia(R, spatial.Diag3(d))}
}

// randomForest builds a model with a free-root tree and a fixed-base tree
// that together use every joint type (and a body welded to a moving
// parent), with random frames, axes, inertias, q and v.
func randomForest(r *rand.Rand, root JointType) (*Model, *State) {
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	add := func(t JointType, parent int) int {
		j := Joint{Type: t, Parent: parent, ParentFrame: rpose(r), ChildFrame: rpose(r), Axis: rv(r)}
		if t == JointCompound {
			j.Parts = randomParts(r)
		}
		b, err := m.AddBody(fmt.Sprintf("b%d", len(m.Bodies)), rinertia(r), j)
		if err != nil {
			panic(err)
		}
		return b
	}
	base := m.AddWeldedBody("base", rpose(r))
	f := add(JointFree, -1)
	a := add(JointRevolute, f)
	add(JointBall, a)
	add(JointWeld, a)
	root0 := add(root, base) // re-parented to the world
	p := root0
	for _, t := range []JointType{JointRevolute, JointPrismatic, JointBall, JointPlanar, JointUniversal, JointCompound, JointRevolute} {
		p = add(t, p)
	}
	add(JointPrismatic, root0)
	s := m.NewState()
	randomize(r, m, s)
	return m, s
}

// randomize sets random coordinates (unit quaternions) and velocities.
func randomize(r *rand.Rand, m *Model, s *State) {
	for b := range m.Bodies {
		body := &m.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		q := m.JointQ(s, b)
		for i := range q {
			q[i] = r.NormFloat64()
		}
		if t := body.Joint.Type; t == JointFree || t == JointBall {
			u := rq(r)
			q[0], q[1], q[2], q[3] = u.W, u.X, u.Y, u.Z
		}
		qi := 0
		for _, p := range body.Joint.Parts {
			if p.Type == JointBall {
				u := rq(r)
				q[qi], q[qi+1], q[qi+2], q[qi+3] = u.W, u.X, u.Y, u.Z
			}
			qi += p.Type.NQ()
		}
		for i := range m.JointV(s, b) {
			m.JointV(s, b)[i] = r.NormFloat64()
		}
	}
}

var allRoots = []JointType{JointRevolute, JointPrismatic, JointBall, JointPlanar, JointUniversal, JointFree, JointCompound}

// randomParts returns the parts of a random 6-dof compound joint: a hinge,
// a slide, a ball and a hinge, in random order, with random axes, anchors
// and refs.
func randomParts(r *rand.Rand) []JointPart {
	types := []JointType{JointRevolute, JointPrismatic, JointBall, JointRevolute}
	r.Shuffle(len(types), func(i, k int) { types[i], types[k] = types[k], types[i] })
	parts := make([]JointPart, len(types))
	for i, t := range types {
		parts[i] = JointPart{Type: t, Axis: rv(r), Pos: rv(r).Scale(0.2)}
		if t != JointBall {
			parts[i].Ref = 0.3 * r.NormFloat64()
		}
	}
	return parts
}

// forEachSystem runs f on random forests rooted in every joint type.
func forEachSystem(t *testing.T, seed uint64, n int, f func(m *Model, s *State, ws *Workspace)) {
	r := rand.New(rand.NewPCG(seed, seed))
	for _, root := range allRoots {
		for range n {
			m, s := randomForest(r, root)
			ws := NewWorkspace(m)
			ws.Update(s.Q, s.V)
			f(m, s, ws)
		}
	}
}

// dense returns the full mass matrix (block diagonal by tree).
func dense(m *Model, ws *Workspace) [][]float64 {
	M := make([][]float64, m.NV)
	for i := range M {
		M[i] = make([]float64, m.NV)
	}
	for ti, t := range m.Trees {
		blk := make([]float64, t.NV*t.NV)
		ws.MassMatrix(ti, blk)
		for i := range t.NV {
			for j := range t.NV {
				M[t.VOffset+i][t.VOffset+j] = blk[i*t.NV+j]
			}
		}
	}
	return M
}

func matVec(M [][]float64, v []float64) []float64 {
	out := make([]float64, len(v))
	for i := range M {
		for j := range M[i] {
			out[i] += M[i][j] * v[j]
		}
	}
	return out
}

func maxAbs(v []float64) float64 {
	x := 0.0
	for _, e := range v {
		x = math.Max(x, math.Abs(e))
	}
	return x
}

func randVec(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

// TestMassMatrixSPD: M(q) is symmetric and positive definite (Cholesky
// succeeds, vᵀMv = 2 KE > 0) for random configurations of every joint type,
// and ½vᵀMv equals KineticEnergy computed body by body (by the Model and
// by a Workspace after its Update).
func TestMassMatrixSPD(t *testing.T) {
	worst := 0.0
	forEachSystem(t, 11, 10, func(m *Model, s *State, ws *Workspace) {
		M := dense(m, ws)
		for i := range M {
			for j := range M {
				if d := math.Abs(M[i][j] - M[j][i]); d > 0 {
					t.Fatalf("M[%d][%d] − M[%d][%d] = %g", i, j, j, i, d)
				}
			}
		}
		for ti, tr := range m.Trees {
			if !choleskyOK(M, tr.VOffset, tr.NV) {
				t.Fatalf("tree %d block not positive definite", ti)
			}
		}
		ke := 0.0
		for i, x := range matVec(M, s.V) {
			ke += 0.5 * s.V[i] * x
		}
		e := m.KineticEnergy(s)
		worst = math.Max(worst, math.Abs(ke-e)/e)
		if math.Abs(ke-e) > 1e-12*e {
			t.Fatalf("½vᵀMv = %.15g, KineticEnergy = %.15g", ke, e)
		}
		if we := ws.KineticEnergy(); math.Abs(ke-we) > 1e-12*we {
			t.Fatalf("½vᵀMv = %.15g, Workspace.KineticEnergy = %.15g", ke, we)
		}
	})
	t.Logf("M symmetric to the last bit, SPD; max |½vᵀMv − KE|/KE = %.2g", worst)
}

// choleskyOK runs a dense Cholesky on the n×n block at offset o.
func choleskyOK(M [][]float64, o, n int) bool {
	L := make([][]float64, n)
	for i := range L {
		L[i] = make([]float64, n)
	}
	for j := range n {
		s := M[o+j][o+j]
		for k := range j {
			s -= L[j][k] * L[j][k]
		}
		if !(s > 0) {
			return false
		}
		L[j][j] = math.Sqrt(s)
		for i := j + 1; i < n; i++ {
			x := M[o+i][o+j]
			for k := range j {
				x -= L[i][k] * L[j][k]
			}
			L[i][j] = x / L[j][j]
		}
	}
	return true
}

// TestRNEAandABA: RNEA(q, v, a) = M a + bias with bias = RNEA(q, v, 0), and
// ABA's accelerations solve M a = τ − bias to 1e-10 (relative).
func TestRNEAandABA(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	worstR, worstA := 0.0, 0.0
	forEachSystem(t, 12, 10, func(m *Model, s *State, ws *Workspace) {
		M := dense(m, ws)
		a := randVec(r, m.NV)
		bias := make([]float64, m.NV)
		ws.InverseDynamics(nil, bias)
		tau := make([]float64, m.NV)
		ws.InverseDynamics(a, tau)
		ma := matVec(M, a)
		for i := range tau {
			d := math.Abs(tau[i] - ma[i] - bias[i])
			worstR = math.Max(worstR, d/(1+math.Abs(tau[i])))
			if d > 1e-10*(1+math.Abs(tau[i])) {
				t.Fatalf("RNEA[%d] = %g, M a + bias = %g", i, tau[i], ma[i]+bias[i])
			}
		}
		tau = randVec(r, m.NV)
		acc := make([]float64, m.NV)
		if err := ws.ForwardDynamics(tau, acc); err != nil {
			t.Fatal(err)
		}
		ma = matVec(M, acc)
		// A backward-stable solve leaves a residual of order ε‖M‖‖a‖: the
		// scale includes ‖M‖‖a‖ for configurations near a singular pose.
		normM := 0.0
		for i := range M {
			normM = math.Max(normM, maxAbs(M[i]))
		}
		scale := maxAbs(tau) + maxAbs(bias) + normM*maxAbs(acc)
		for i := range tau {
			d := math.Abs(ma[i] - (tau[i] - bias[i]))
			worstA = math.Max(worstA, d/scale)
			if d > 1e-10*scale {
				t.Fatalf("ABA: (M a)[%d] = %.15g, τ − bias = %.15g", i, ma[i], tau[i]-bias[i])
			}
		}
	})
	t.Logf("max relative residual: RNEA − (M a + bias) %.2g, M a_ABA − (τ − bias) %.2g", worstR, worstA)
}

// advance returns the state moved by h along (q̇ = N(q) v, v̇ = a).
func advance(m *Model, s *State, a []float64, h float64) *State {
	out := &State{Q: make([]float64, m.NQ), V: make([]float64, m.NV)}
	m.IntegrateQ(s.Q, s.Q, s.V, h, out.Q)
	for i := range s.V {
		out.V[i] = s.V[i]
		if a != nil {
			out.V[i] += h * a[i]
		}
	}
	return out
}

// TestPointJacobianFD: for a random point of every body, J v equals the
// central difference of the point's world position along q̇ = N(q) v, and
// PointVelocity equals J v; the workspace and model Jacobians agree.
func TestPointJacobianFD(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	const h = 1e-6
	worst := 0.0
	forEachSystem(t, 13, 5, func(m *Model, s *State, ws *Workspace) {
		for b := range m.Bodies {
			if m.Bodies[b].Tree < 0 {
				continue
			}
			tr := m.Trees[m.Bodies[b].Tree]
			pb := rv(r)
			p := m.BodyPose(s, b).Apply(pb)
			J, J2 := make([]float64, 3*tr.NV), make([]float64, 3*tr.NV)
			m.PointJacobian(s, b, p, J)
			ws.PointJacobian(b, p, J2)
			var jv spatial.Vec3
			for i := range 3 {
				for k := range tr.NV {
					jv[i] += J[i*tr.NV+k] * s.V[tr.VOffset+k]
					if math.Abs(J[i*tr.NV+k]-J2[i*tr.NV+k]) > 1e-12*(1+math.Abs(J[i*tr.NV+k])) {
						t.Fatalf("model and workspace Jacobians differ")
					}
				}
			}
			fd := m.BodyPose(advance(m, s, nil, h), b).Apply(pb).Sub(m.BodyPose(advance(m, s, nil, -h), b).Apply(pb)).Scale(1 / (2 * h))
			d := jv.Sub(fd).Norm() / (1 + fd.Norm())
			worst = math.Max(worst, d)
			if d > 1e-7 {
				t.Fatalf("body %d (%s): J v = %v, FD %v", b, m.Bodies[b].Joint.Type, jv, fd)
			}
			if pv := m.PointVelocity(s, b, p); pv.Sub(jv).Norm() > 1e-12*(1+jv.Norm()) {
				t.Fatalf("PointVelocity %v, J v %v", pv, jv)
			}
		}
	})
	t.Logf("max |J v − FD|/(1+|FD|) = %.2g", worst)
}

// momentum returns the total linear momentum and the angular momentum about
// the world origin.
func momentum(m *Model, s *State) (p, l spatial.Vec3) {
	for b := range m.Bodies {
		body := &m.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		x, w, v := m.kin(s.Q, s.V, b)
		R := x.R.RotMat()
		c := R.MulVec(body.Inertia.Com)
		vc := v.Add(w.Cross(c))
		h := vc.Scale(body.Inertia.Mass)
		p = p.Add(h)
		l = l.Add(x.P.Add(c).Cross(h)).Add(spatial.RotateInertia(R, body.Inertia.Icom).MulVec(w))
	}
	return p, l
}

// TestPowerAndMomentum: with no gravity and joint forces τ, the kinetic
// energy's rate along the ABA dynamics equals the power τ·v (central
// differences, extrapolated to O(h⁴)); with τ = 0, the free-root tree's linear and angular
// momenta are conserved. With gravity and τ = 0, KE + PE is conserved.
func TestPowerAndMomentum(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const h = 4e-6
	worstE, worstP, worstG := 0.0, 0.0, 0.0
	forEachSystem(t, 14, 5, func(m *Model, s *State, ws *Workspace) {
		g := m.Gravity
		m.Gravity = spatial.Vec3{}
		defer func() { m.Gravity = g }()
		tau := randVec(r, m.NV)
		a := make([]float64, m.NV)
		if err := ws.ForwardDynamics(tau, a); err != nil {
			t.Fatal(err)
		}
		// Richardson's extrapolation of two central differences: O(h⁴), so
		// that stiff random configurations (a compound joint near a
		// singular pose reaches |a| ~ 10⁴) still resolve to 1e-6.
		diff := func(h float64) float64 {
			return (m.KineticEnergy(advance(m, s, a, h)) - m.KineticEnergy(advance(m, s, a, -h))) / (2 * h)
		}
		rate := (4*diff(h/2) - diff(h)) / 3
		power := 0.0
		for i := range tau {
			power += tau[i] * s.V[i]
		}
		d := math.Abs(rate-power) / (1 + math.Abs(power))
		worstE = math.Max(worstE, d)
		if d > 1e-6 {
			t.Fatalf("dKE/dt = %.10g, τ·v = %.10g", rate, power)
		}
		// momentum of the free tree (tree 0) with τ = 0 on it
		free := &Model{Bodies: m.Bodies[:5], Trees: m.Trees[:1], NQ: m.Trees[0].NQ, NV: m.Trees[0].NV}
		fs := &State{Q: s.Q[:free.NQ], V: s.V[:free.NV]}
		fw := NewWorkspace(free)
		fw.Update(fs.Q, fs.V)
		fa := make([]float64, free.NV)
		if err := fw.ForwardDynamics(nil, fa); err != nil {
			t.Fatal(err)
		}
		p1, l1 := momentum(free, advance(free, fs, fa, h))
		p0, l0 := momentum(free, advance(free, fs, fa, -h))
		p, l := momentum(free, fs)
		dp := p1.Sub(p0).Scale(1/(2*h)).Norm() / (1 + p.Norm())
		dl := l1.Sub(l0).Scale(1/(2*h)).Norm() / (1 + l.Norm())
		worstP = math.Max(worstP, math.Max(dp, dl))
		if dp > 1e-6 || dl > 1e-6 {
			t.Fatalf("momentum rates %g, %g with no external force", dp, dl)
		}
		// energy with gravity
		m.Gravity = g
		ws.Update(s.Q, s.V)
		if err := ws.ForwardDynamics(nil, a); err != nil {
			t.Fatal(err)
		}
		en := func(st *State) float64 { return m.KineticEnergy(st) + m.PotentialEnergy(st) }
		de := math.Abs(en(advance(m, s, a, h))-en(advance(m, s, a, -h))) / (2 * h) / (1 + m.KineticEnergy(s))
		worstG = math.Max(worstG, de)
		if de > 1e-6 {
			t.Fatalf("d(KE+PE)/dt = %g with gravity only", de)
		}
	})
	t.Logf("max relative |dKE/dt − τ·v| %.2g, momentum rate %.2g, d(KE+PE)/dt %.2g", worstE, worstP, worstG)
}

// TestModelLayoutAndErrors: q and v are laid out tree by tree even when
// bodies of different trees are added interleaved; a joint on a body welded
// to the world is re-parented to the world with the composed frame and stays
// adjacent to it; bad joints are rejected.
func TestModelLayoutAndErrors(t *testing.T) {
	m := &Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Identity3()}
	wall := m.AddWeldedBody("wall", spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{1, 0, 0}})
	a, _ := m.AddBody("a", in, Joint{Type: JointRevolute, Parent: wall, ParentFrame: spatial.PoseIdentity(), ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 0, 2}})
	f, _ := m.AddFreeBody("f", in)
	c, _ := m.AddBody("c", in, Joint{Type: JointBall, Parent: a, ParentFrame: spatial.PoseIdentity(), ChildFrame: spatial.PoseIdentity()})
	if m.Trees[0].NV != 4 || m.Trees[1].VOffset != 4 || m.Bodies[c].VOff != 1 || m.Bodies[f].QOff != 5 || m.NQ != 12 {
		t.Fatalf("layout: trees %+v, c.VOff %d, f.QOff %d, NQ %d", m.Trees, m.Bodies[c].VOff, m.Bodies[f].QOff, m.NQ)
	}
	if m.Bodies[a].Joint.Parent != -1 || m.Bodies[a].Joint.ParentFrame.P != (spatial.Vec3{1, 0, 0}) || !m.Adjacent(a, wall) || !m.Adjacent(c, a) || m.Adjacent(c, wall) {
		t.Fatal("re-parenting or adjacency wrong")
	}
	if m.Bodies[a].Joint.Axis != (spatial.Vec3{0, 0, 1}) {
		t.Fatalf("axis not normalised: %v", m.Bodies[a].Joint.Axis)
	}
	for _, j := range []Joint{
		{Type: JointRevolute, Parent: -1},                              // zero axis
		{Type: JointFree, Parent: a},                                   // free joint on a body
		{Type: JointPrismatic, Parent: 7, Axis: spatial.Vec3{1, 0, 0}}, // no such parent
		{Type: JointFree, Parent: -1, Stiffness: 1},                    // stiffness on a free joint
		{Type: JointRevolute, Parent: -1, Axis: spatial.Vec3{1, 0, 0}, Q0: []float64{1, 2}},
	} {
		if _, err := m.AddBody("bad", in, j); err == nil {
			t.Errorf("joint %+v accepted", j)
		}
	}
}

// TestFreeRootMatchesJoint: the written-out kinematics of a free joint at
// the root (Workspace.freeRoot) give the general joint recursion's pose,
// velocities, subspace columns and κ, to the last bit, with and without
// velocities.
func TestFreeRootMatchesJoint(t *testing.T) {
	checked := 0
	forEachSystem(t, 17, 10, func(m *Model, s *State, ws *Workspace) {
		for _, v := range [][]float64{s.V, nil} {
			ws.Update(s.Q, v)
			gen := NewWorkspace(m)
			for b := range m.Bodies {
				body := &m.Bodies[b]
				if body.Tree < 0 || body.Joint.Type != JointFree || body.Joint.Parent >= 0 {
					continue
				}
				gen.joint(s.Q, v, b) // a root: the world's pose and zeros

				if ws.x[b] != gen.x[b] || ws.kin[b].w != gen.kin[b].w || ws.kin[b].vel != gen.kin[b].vel || ws.kin[b].kw != gen.kin[b].kw || ws.kin[b].kl != gen.kin[b].kl {
					t.Fatalf("body %d: freeRoot (x %v, ω %v, v %v, κ %v %v) ≠ joint (x %v, ω %v, v %v, κ %v %v)", b,
						ws.x[b], ws.kin[b].w, ws.kin[b].vel, ws.kin[b].kw, ws.kin[b].kl, gen.x[b], gen.kin[b].w, gen.kin[b].vel, gen.kin[b].kw, gen.kin[b].kl)
				}
				for k := range 6 {
					i := body.VOff + k
					if ws.col[i].w != gen.col[i].w || ws.col[i].l != gen.col[i].l {
						t.Fatalf("body %d column %d: freeRoot (%v, %v) ≠ joint (%v, %v)", b, k, ws.col[i].w, ws.col[i].l, gen.col[i].w, gen.col[i].l)
					}
				}
				checked++
			}
		}
	})
	if checked == 0 {
		t.Fatal("no free root body in the random forests")
	}
	t.Logf("%d free root bodies checked", checked)
}

// TestTreeVelocityParents: a free root (6 velocities), a weld, two hinges
// on the welded body and a ball joint on the first hinge give the
// velocity parents of MuJoCo's dof_parentid: the free joint's chain, both
// hinges hanging from its last velocity through the weld (no velocity
// of its own), the ball's chain from the first hinge; a second tree
// numbers from its own VOffset.
func TestTreeVelocityParents(t *testing.T) {
	m := &Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Identity3()}
	id := spatial.PoseIdentity()
	hinge := func(parent int) Joint {
		return Joint{Type: JointRevolute, Parent: parent, Axis: spatial.Vec3{0, 0, 1}, ParentFrame: id, ChildFrame: id}
	}
	root, _ := m.AddBody("root", in, Joint{Type: JointFree, Parent: -1, ParentFrame: id, ChildFrame: id})
	w, _ := m.AddBody("w", in, Joint{Type: JointWeld, Parent: root, ParentFrame: id, ChildFrame: id})
	h1, _ := m.AddBody("h1", in, hinge(w))
	if _, err := m.AddBody("h2", in, hinge(w)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddBody("ball", in, Joint{Type: JointBall, Parent: h1, ParentFrame: id, ChildFrame: id}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddBody("other", in, hinge(-1)); err != nil {
		t.Fatal(err)
	}
	if len(m.Trees) != 2 {
		t.Fatalf("%d trees, want 2", len(m.Trees))
	}
	want := []int{-1, 0, 1, 2, 3, 4, 5, 5, 6, 8, 9}
	if got := m.TreeVelocityParents(0); !slices.Equal(got, want) {
		t.Errorf("tree 0: parents %v, want %v", got, want)
	}
	if got := m.TreeVelocityParents(1); !slices.Equal(got, []int{-1}) {
		t.Errorf("tree 1: parents %v, want [-1]", got)
	}
}
