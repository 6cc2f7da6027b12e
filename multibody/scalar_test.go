package multibody

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestRevoluteMatchesVectorForm: Workspace.hinge's revolute terms,
// written on scalars (in revolute, a function of their own, until the
// 198th pass), give the bits of the Vec3 form they replaced in joint1, on
// random parent poses and velocities (zeros among them), joint frames,
// axes, coordinates and rates, with R = R_WF, d and r_PM from frames.
func TestRevoluteMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 14))
	x := func() float64 {
		if r.IntN(6) == 0 {
			return 0
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(5)-2))
	}
	v := func() spatial.Vec3 { return spatial.Vec3{x(), x(), x()} }
	for trial := range 500 {
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		p, _ := m.AddBody("p", rinertia(r), Joint{Type: JointRevolute, Parent: -1, Axis: rv(r)})
		axis := v()
		for axis == (spatial.Vec3{}) {
			axis = v()
		}
		j := Joint{Type: JointRevolute, Parent: p, ParentFrame: rpose(r), ChildFrame: rpose(r), Axis: axis}
		if trial%4 == 0 {
			j.ParentFrame.R = spatial.QuatIdentity() // frames' kept R_WP
		}
		b, err := m.AddBody("b", rinertia(r), j)
		if err != nil {
			t.Fatal(err)
		}
		ws, s := NewWorkspace(m), m.NewState()
		for range 100 {
			s.Q[0], s.Q[1] = x(), x()
			xp := spatial.Pose{R: rq(r), P: v()}
			if r.IntN(4) == 0 {
				xp.R = spatial.QuatIdentity()
			}
			wp, vp, vel := v(), v(), x()
			ws.x[p], ws.kin[p].w, ws.kin[p].vel = xp, wp, vp    // the parent's, which hinge reads
			ws.worldInertia(p, &m.Bodies[p].Inertia, &rootPose) // the parent's kept R_WP, which frames may read
			var vb []float64
			if r.IntN(8) != 0 {
				vb = make([]float64, m.NV)
				vb[m.Bodies[b].VOff] = vel
			} else {
				vel = 0 // at rest
			}
			ws.hinge(s.Q, vb, b)
			got := [6]spatial.Vec3{ws.col[1].w, ws.col[1].l, ws.kin[b].w, ws.kin[b].vel, ws.kin[b].kw, ws.kin[b].kl}
			var xf, xm, xb spatial.Pose
			R := *ws.frames(s.Q, b, &xp, &xf, &xm, &xb, true)
			d, rpm := xb.P.Sub(xm.P), xm.P.Sub(xp.P)
			W := R.MulVec(m.Bodies[b].Joint.Axis)
			wj := W.Scale(vel)
			w := wp.Add(wj)
			ka := wp.Cross(wj)
			want := [6]spatial.Vec3{W, W.Cross(d), w, vp.Add(wp.Cross(rpm)).Add(w.Cross(d)), ka,
				wp.Cross(wp.Cross(rpm)).Add(ka.Cross(d)).Add(w.Cross(w.Cross(d)))}
			for k := range 6 {
				for i := range 3 {
					if math.Float64bits(got[k][i]) != math.Float64bits(want[k][i]) {
						t.Fatalf("output %d: %v, vector form %v (R %v, d %v, rpm %v, wp %v, vp %v, q̇ %v)", k, got[k], want[k], R, d, rpm, wp, vp, vel)
					}
				}
			}
		}
	}
}

// TestRotateInertiaDiagMatchesVectorForm: rotateDiagInertia of a diagonal
// inertia, written on scalars, gives the bits of the Mat3 form it replaced
// (R's columns scaled by the diagonal, times Rᵀ).
func TestRotateInertiaDiagMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 15))
	for range 50000 {
		q := spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		R := q.RotMat()
		I := spatial.Diag3(spatial.Vec3{r.Float64(), r.Float64(), r.Float64()})
		var ri spatial.Mat3
		for i := range 3 {
			ri[i] = spatial.Vec3{R[i][0] * I[0][0], R[i][1] * I[1][1], R[i][2] * I[2][2]}
		}
		var got spatial.Mat3
		want := ri.Mul(R.T())
		rotateDiagInertia(&R, &I, &got)
		for i := range 3 {
			for j := range 3 {
				if math.Float64bits(got[i][j]) != math.Float64bits(want[i][j]) {
					t.Fatalf("R %v, I %v: %v, Mat3 form %v", R, I, got, want)
				}
			}
		}
	}
}

// TestCRBAColumnMatchesVectorForm: the mass matrices of random forests of
// every joint type, whose columns crbaColumns computes on scalars, have the
// bits of the Vec3 form it replaced (crbaColumnVec below).
func TestCRBAColumnMatchesVectorForm(t *testing.T) {
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree} {
		m, s := randomForest(rand.New(rand.NewPCG(23, uint64(jt))), jt)
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		checkMassMatrixVec(t, m, ws, fmt.Sprintf("joint type %v", jt))
	}
}

// checkMassMatrixVec fails t unless every tree's MassMatrix at ws has the
// bits of MassMatrix's passes made with the Vec3 form of the columns
// (crbaColumnVec), the composite inertias from the Body's mass.
func checkMassMatrixVec(t *testing.T, m *Model, ws *Workspace, what string) {
	t.Helper()
	for t0, tr := range m.Trees {
		n := tr.NV
		got, want := make([]float64, n*n), make([]float64, n*n)
		ws.MassMatrix(t0, got)
		for _, b := range tr.Bodies {
			ws.cm[b], ws.cx[b], ws.ci[b] = m.Bodies[b].Inertia.Mass, ws.x[b].P.Add(ws.kin[b].com), ws.ic[b]
		}
		if b := tr.Bodies[0]; len(tr.Bodies) == 1 && m.Bodies[b].Joint.Type == JointFree && m.Bodies[b].Joint.Parent < 0 {
			ws.crbaFreeBody(b, want) // which adds the armature
		} else {
			for i := len(tr.Bodies) - 1; i >= 0; i-- {
				b := tr.Bodies[i]
				for k := range m.Bodies[b].Joint.NV() {
					ws.crbaColumnVec(&m.Trees[t0], b, m.Bodies[b].VOff+k, want)
				}
				if p := m.Bodies[b].Joint.Parent; p >= 0 {
					ws.combineVec(p, b)
				}
			}
			for _, b := range tr.Bodies {
				for k := range m.Bodies[b].Joint.NV() {
					r := m.Bodies[b].VOff + k - tr.VOffset
					want[r*n+r] += m.Bodies[b].Joint.DOFArmature(k)
				}
			}
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s, tree %d, entry %d: %v, Vec3 form %v", what, t0, i, got[i], want[i])
			}
		}
	}
}

// crbaColumnVec is a column of crbaColumns in the Vec3 form it had.
func (ws *Workspace) crbaColumnVec(tr *Tree, b, c int, out []float64) {
	m, n := ws.m, tr.NV
	W, L := ws.col[c].w, ws.col[c].l
	cc := ws.cx[b].Sub(ws.x[b].P)
	f := L.Add(W.Cross(cc)).Scale(ws.cm[b])
	nm := ws.ci[b].MulVec(W).Add(cc.Cross(f))
	for a := b; a >= 0; a = m.Bodies[a].Joint.Parent {
		body := &m.Bodies[a]
		for k := range body.Joint.NV() {
			j := body.VOff + k
			e := ws.col[j].w.Dot(nm) + ws.col[j].l.Dot(f)
			r, s := j-tr.VOffset, c-tr.VOffset
			out[r*n+s], out[s*n+r] = e, e
		}
		if p := body.Joint.Parent; p >= 0 {
			nm = nm.Add(ws.x[a].P.Sub(ws.x[p].P).Cross(f))
		}
	}
}

// TestPointJacobianMatchesVectorForm: Workspace.PointJacobian, whose
// columns L + W × r (ws.col) are summed on scalars, gives the bits of the Vec3
// form, and AngularJacobian the W of the path, on random forests of five
// root joint types and random points, every entry written.
func TestPointJacobianMatchesVectorForm(t *testing.T) {
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree, JointCompound} {
		r := rand.New(rand.NewPCG(23, 16+uint64(jt)))
		m, s := randomForest(r, jt)
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		for b := range m.Bodies {
			tr := m.Bodies[b].Tree
			if tr < 0 {
				continue
			}
			n := m.Trees[tr].NV
			p := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			got, want := make([]float64, 3*n), make([]float64, 3*n)
			gotW, wantW := make([]float64, 3*n), make([]float64, 3*n)
			for i := range got {
				got[i], gotW[i] = math.NaN(), math.NaN()
			}
			ws.PointJacobian(b, p, got)
			ws.AngularJacobian(b, gotW)
			if j := &m.Bodies[b].Joint; j.Type == JointFree && j.Parent < 0 && n == 6 {
				continue // freePointJacobian (TestFreePointJacobianMatches)
			}
			for a := b; a >= 0; a = m.Bodies[a].Joint.Parent {
				ra := p.Sub(ws.x[a].P)
				for k := range m.Bodies[a].Joint.NV() {
					i := m.Bodies[a].VOff + k
					col, w := ws.col[i].l.Add(ws.col[i].w.Cross(ra)), ws.col[i].w
					c := i - m.Trees[tr].VOffset
					want[c], want[n+c], want[2*n+c] = col[0], col[1], col[2]
					wantW[c], wantW[n+c], wantW[2*n+c] = w[0], w[1], w[2]
				}
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(gotW[i]) != math.Float64bits(wantW[i]) {
					t.Fatalf("joint type %v, body %d, entry %d: %v and %v, Vec3 form %v and %v", jt, b, i, got[i], gotW[i], want[i], wantW[i])
				}
			}
		}
	}
}

// TestPrismaticMatchesVectorForm: Workspace.slide's prismatic terms,
// written on scalars (in prismatic, a function of their own, until the
// 198th pass), give the bits of the Vec3 form, on random parent poses and
// velocities (zeros among them), joint frames, axes, coordinates and
// rates, with R = R_WF, d and r_PM from frames.
func TestPrismaticMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 17))
	x := func() float64 {
		if r.IntN(6) == 0 {
			return 0
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(5)-2))
	}
	v := func() spatial.Vec3 { return spatial.Vec3{x(), x(), x()} }
	for trial := range 500 {
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		p, _ := m.AddBody("p", rinertia(r), Joint{Type: JointRevolute, Parent: -1, Axis: rv(r)})
		axis := v()
		for axis == (spatial.Vec3{}) {
			axis = v()
		}
		j := Joint{Type: JointPrismatic, Parent: p, ParentFrame: rpose(r), ChildFrame: rpose(r), Axis: axis}
		if trial%4 == 0 {
			j.ParentFrame.R = spatial.QuatIdentity() // frames' kept R_WP
		}
		b, err := m.AddBody("b", rinertia(r), j)
		if err != nil {
			t.Fatal(err)
		}
		ws, s := NewWorkspace(m), m.NewState() // the axis is read at New (partAxes)
		for range 100 {
			s.Q[0], s.Q[1] = x(), x()
			xp := spatial.Pose{R: rq(r), P: v()}
			if r.IntN(4) == 0 {
				xp.R = spatial.QuatIdentity()
			}
			wp, vp, vel := v(), v(), x()
			ws.x[p], ws.kin[p].w, ws.kin[p].vel = xp, wp, vp    // the parent's, which slide reads
			ws.worldInertia(p, &m.Bodies[p].Inertia, &rootPose) // the parent's kept R_WP, which frames may read
			var vb []float64
			if r.IntN(8) != 0 {
				vb = make([]float64, m.NV)
				vb[m.Bodies[b].VOff] = vel
			} else {
				vel = 0 // at rest
			}
			ws.slide(s.Q, vb, b)
			got := [6]spatial.Vec3{ws.col[1].w, ws.col[1].l, ws.kin[b].w, ws.kin[b].vel, ws.kin[b].kw, ws.kin[b].kl}
			var xf, xm, xb spatial.Pose
			R := *ws.frames(s.Q, b, &xp, &xf, &xm, &xb, true)
			d, rpm := xb.P.Sub(xm.P), xm.P.Sub(xp.P)
			lm := R.MulVec(ws.slides[ws.fr[b].part0])
			lj := lm.Scale(vel) // −0 + x is x: the sum from −0 of one term
			want := [6]spatial.Vec3{{}, lm, wp, vp.Add(wp.Cross(rpm)).Add(lj).Add(wp.Cross(d)), {},
				wp.Cross(wp.Cross(rpm)).Add(wp.Cross(lj).Scale(2)).Add(wp.Cross(wp.Cross(d)))}
			for k := range 6 {
				for i := range 3 {
					if math.Float64bits(got[k][i]) != math.Float64bits(want[k][i]) {
						t.Fatalf("output %d: %v, vector form %v (R %v, d %v, rpm %v, wp %v, vp %v, q̇ %v)", k, got[k], want[k], R, d, rpm, wp, vp, vel)
					}
				}
			}
		}
	}
}

// TestRNEAMatchesVectorForm: rnea, whose accelerations, body forces and
// backward pass are summed on scalars, gives the bits of its Vec3 form
// (rneaVec below) on random forests of four joint types, with and without
// accelerations and velocity terms.
func TestRNEAMatchesVectorForm(t *testing.T) {
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree} {
		r := rand.New(rand.NewPCG(23, 30+uint64(jt)))
		m, s := randomForest(r, jt)
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		acc := make([]float64, m.NV)
		for i := range acc {
			acc[i] = r.NormFloat64()
		}
		for _, a := range [][]float64{nil, acc} {
			for _, vel := range []bool{false, true} {
				got, want := make([]float64, m.NV), make([]float64, m.NV)
				ws.rnea(a, m.Gravity, vel, got)
				ws.rneaVec(a, m.Gravity, vel, want)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("joint type %v, a %v, vel %v, τ[%d] = %v, Vec3 form %v", jt, a != nil, vel, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// rneaVec is rnea in the Vec3 form it had.
func (ws *Workspace) rneaVec(a []float64, g spatial.Vec3, vel bool, tau []float64) {
	m := ws.m
	for b := range m.Bodies {
		body := &m.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		al, ac := spatial.Vec3{}, g.Neg()
		if p := body.Joint.Parent; p >= 0 {
			al, ac = ws.rb[p].al, ws.rb[p].ac.Add(ws.rb[p].al.Cross(ws.x[b].P.Sub(ws.x[p].P)))
		}
		if vel {
			al, ac = al.Add(ws.kin[b].kw), ac.Add(ws.kin[b].kl)
		}
		for k := range body.Joint.NV() {
			if a != nil {
				i := body.VOff + k
				al, ac = al.AddScaled(a[i], ws.col[i].w), ac.AddScaled(a[i], ws.col[i].l)
			}
		}
		ws.rb[b].al, ws.rb[b].ac = al, ac
		w := spatial.Vec3{}
		if vel {
			w = ws.kin[b].w
		}
		mass, c, ic := body.Inertia.Mass, ws.kin[b].com, ws.ic[b]
		f := ac.Add(al.Cross(c)).Add(w.Cross(w.Cross(c))).Scale(mass)
		ws.rb[b].ff = f
		ws.rb[b].fn = ic.MulVec(al).Add(w.Cross(ic.MulVec(w))).Add(c.Cross(f))
	}
	for b := len(m.Bodies) - 1; b >= 0; b-- {
		body := &m.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		for k := range body.Joint.NV() {
			i := body.VOff + k
			tau[i] = ws.col[i].w.Dot(ws.rb[b].fn) + ws.col[i].l.Dot(ws.rb[b].ff)
			if a != nil {
				tau[i] += body.Joint.DOFArmature(k) * a[i]
			}
		}
		if p := body.Joint.Parent; p >= 0 {
			ws.rb[p].fn = ws.rb[p].fn.Add(ws.rb[b].fn).Add(ws.x[b].P.Sub(ws.x[p].P).Cross(ws.rb[b].ff))
			ws.rb[p].ff = ws.rb[p].ff.Add(ws.rb[b].ff)
		}
	}
}

// parallelAxis returns m ((d·d) I − d dᵀ), the shift of a rotational inertia
// from the centre of mass to a point at −d from it (notes §0.1), entry by
// entry: (m d·d) δ_ij − m (d_i d_j), the operations (and bits, up to the
// sign of a zero) of spatial.Identity3().Scale(m d·d).Sub(spatial.Outer(d,
// d).Scale(m)) without its products with the identity's ones and zeros.
func parallelAxis(m float64, d spatial.Vec3) spatial.Mat3 {
	s := m * d.Dot(d)
	var r spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			z := 0.0
			if i == j {
				z = s
			}
			r[i][j] = z - m*(d[i]*d[j])
		}
	}
	return r
}

// combineVec is combine in the Vec3/Mat3 form it had.
func (ws *Workspace) combineVec(p, b int) {
	m1, m2 := ws.cm[b], ws.cm[p]
	mt := m1 + m2
	if m1 == 0 {
		return
	}
	x := ws.cx[b].Scale(m1 / mt).Add(ws.cx[p].Scale(m2 / mt))
	ws.ci[p] = ws.ci[p].Add(ws.ci[b]).Add(parallelAxis(m1, ws.cx[b].Sub(x))).Add(parallelAxis(m2, ws.cx[p].Sub(x)))
	ws.cm[p], ws.cx[p] = mt, x
}

// TestCombineMatchesMatrixForm: the composite inertias crbaColumns
// leaves (its sums, on scalars) have the bits of the Vec3/Mat3 form
// (combineVec) accumulated leaf to root, for every body of random forests
// of four joint types (a lone free body's tree, which crbaFreeBody takes,
// aside).
func TestCombineMatchesMatrixForm(t *testing.T) {
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree} {
		m, s := randomForest(rand.New(rand.NewPCG(29, uint64(jt))), jt)
		got, want := NewWorkspace(m), NewWorkspace(m)
		got.Update(s.Q, s.V)
		want.Update(s.Q, s.V)
		n := 0
		for t0, tr := range m.Trees {
			if b := tr.Bodies[0]; len(tr.Bodies) == 1 && got.kind[b] == kindFreeRoot {
				continue
			}
			got.MassMatrix(t0, make([]float64, tr.NV*tr.NV))
			for _, b := range tr.Bodies {
				want.cm[b], want.cx[b], want.ci[b] = m.Bodies[b].Inertia.Mass, want.x[b].P.Add(want.kin[b].com), want.ic[b]
			}
			for i := len(tr.Bodies) - 1; i >= 0; i-- {
				if b := tr.Bodies[i]; m.Bodies[b].Joint.Parent >= 0 {
					want.combineVec(m.Bodies[b].Joint.Parent, b)
					n++
				}
			}
			for _, b := range tr.Bodies {
				same := math.Float64bits(got.cm[b]) == math.Float64bits(want.cm[b])
				for i := range 3 {
					same = same && math.Float64bits(got.cx[b][i]) == math.Float64bits(want.cx[b][i])
					for j := range 3 {
						same = same && math.Float64bits(got.ci[b][i][j]) == math.Float64bits(want.ci[b][i][j])
					}
				}
				if !same {
					t.Fatalf("joint type %v, tree %d, body %d: (%v, %v, %v), matrix form (%v, %v, %v)", jt, t0, b,
						got.cm[b], got.cx[b], got.ci[b], want.cm[b], want.cx[b], want.ci[b])
				}
			}
		}
		if n == 0 {
			t.Fatalf("joint type %v: the forest has no parent–child pair", jt)
		}
	}
}

// jointVec is Workspace.joint in the Vec3 form it had.
func (ws *Workspace) jointVec(q, vj []float64, b int, xp spatial.Pose, wp, vp spatial.Vec3) {
	body := &ws.m.Bodies[b]
	var xf, xm, xb spatial.Pose
	R := ws.frames(q, b, &xp, &xf, &xm, &xb, true)
	cw, cl := &ws.cw, &ws.cl
	var sw, sl spatial.Vec3
	if body.Joint.Type == JointCompound {
		w, l := body.Joint.compoundSubspaceAt(&ws.walk, vj, cw, cl)
		sw, sl = w.array(), l.array()
	} else {
		sw, sl = body.Joint.subspace(q[body.QOff:], vj, cw, cl)
	}
	d := xb.P.Sub(xm.P)
	var wj, lj spatial.Vec3
	for k := range body.Joint.NV() {
		W := R.MulVec(cw[k])
		lm := R.MulVec(cl[k])
		ws.col[body.VOff+k].w, ws.col[body.VOff+k].l = W, lm.Add(W.Cross(d))
		if vj != nil {
			wj = wj.AddScaled(vj[k], W)
			lj = lj.AddScaled(vj[k], lm)
		}
	}
	w := wp.Add(wj)
	rpm := xm.P.Sub(xp.P)
	vm := vp.Add(wp.Cross(rpm)).Add(lj)
	ka := R.MulVec(sw).Add(wp.Cross(wj))
	kam := wp.Cross(wp.Cross(rpm)).Add(R.MulVec(sl)).Add(wp.Cross(lj).Scale(2))
	ws.x[b], ws.kin[b].w, ws.kin[b].vel = xb, w, vm.Add(w.Cross(d))
	ws.kin[b].kw = ka
	ws.kin[b].kl = kam.Add(ka.Cross(d)).Add(w.Cross(w.Cross(d)))
}

// TestJointMatchesVectorForm: Workspace.joint, on scalars, gives the bits
// of its Vec3 form (jointVec) for every body of random forests whose joints
// take that path (ball, planar, universal, compound, a free joint under a
// parent), with and without velocities.
func TestJointMatchesVectorForm(t *testing.T) {
	bits := sameVecBits
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree, JointPlanar, JointUniversal, JointCompound} {
		m, s := randomForest(rand.New(rand.NewPCG(31, uint64(jt))), jt)
		for _, v := range [][]float64{s.V, nil} {
			got, want := NewWorkspace(m), NewWorkspace(m)
			got.Update(s.Q, v)
			want.Update(s.Q, v)
			n := 0
			for b := range m.Bodies {
				body := &m.Bodies[b]
				bt := body.Joint.Type
				if body.Tree < 0 || bt == JointRevolute || bt == JointPrismatic || (bt == JointFree && body.Joint.Parent < 0) {
					continue
				}
				xp, wp, vp := spatial.PoseIdentity(), spatial.Vec3{}, spatial.Vec3{}
				if p := body.Joint.Parent; p >= 0 {
					xp, wp, vp = got.x[p], got.kin[p].w, got.kin[p].vel
				}
				var vj []float64
				if v != nil {
					vj = v[body.VOff:]
				}
				got.joint(s.Q, v, b) // got's parent is xp, wp, vp (its own Update)
				want.jointVec(s.Q, vj, b, xp, wp, vp)
				n++
				same := got.x[b] == want.x[b] && bits(got.kin[b].w, want.kin[b].w) && bits(got.kin[b].vel, want.kin[b].vel) &&
					bits(got.kin[b].kw, want.kin[b].kw) && bits(got.kin[b].kl, want.kin[b].kl)
				for k := range body.Joint.NV() {
					i := body.VOff + k
					same = same && bits(got.col[i].w, want.col[i].w) && bits(got.col[i].l, want.col[i].l)
				}
				if !same {
					t.Fatalf("root %v, body %d (%v), velocities %v: w %v v %v κ (%v, %v); Vec3 form w %v v %v κ (%v, %v)",
						jt, b, body.Joint.Type, v != nil, got.kin[b].w, got.kin[b].vel, got.kin[b].kw, got.kin[b].kl,
						want.kin[b].w, want.kin[b].vel, want.kin[b].kw, want.kin[b].kl)
				}
			}
			if n == 0 {
				t.Fatalf("root %v: no body takes joint's path", jt)
			}
		}
	}
}

// TestWorldInertiaMatchesVectorForm: Update's centres of mass and
// rotational inertias in the world orientation, written on scalars in
// place (Workspace.worldInertia), equal R c and R I Rᵀ of the Mat3 form
// (Quat.RotMat, Mat3.MulVec, spatial.RotateInertia), compared with == (so
// up to the sign of a zero), on random forests of every root type whose
// inertias are diagonal for half the bodies.
func TestWorldInertiaMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 16))
	checked := 0
	for _, root := range allRoots {
		m, s := randomForest(r, root)
		for b := range m.Bodies {
			if b%2 == 0 {
				d := m.Bodies[b].Inertia.Icom
				m.Bodies[b].Inertia.Icom = spatial.Diag3(spatial.Vec3{d[0][0], d[1][1], d[2][2]})
			}
		}
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		for b := range m.Bodies {
			if m.Bodies[b].Tree < 0 {
				continue
			}
			R := ws.x[b].R.RotMat()
			in := m.Bodies[b].Inertia
			if c, ic := R.MulVec(in.Com), spatial.RotateInertia(R, in.Icom); ws.kin[b].com != c || ws.ic[b] != ic {
				t.Fatalf("root %v body %d: com %v, I %v; Mat3 form %v, %v", root, b, ws.kin[b].com, ws.ic[b], c, ic)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d bodies checked", checked)
	}
}
