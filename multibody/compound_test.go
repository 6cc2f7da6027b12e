package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// twinModels builds two one-body trees that should be the same system: a
// body on joint a and a body on joint b, with the same frames and inertia.
func twinModels(r *rand.Rand, a, b Joint) (*Model, *State) {
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	I := rinertia(r)
	pf, cf := rpose(r), rpose(r)
	for _, j := range []Joint{a, b} {
		j.Parent, j.ParentFrame, j.ChildFrame = -1, pf, cf
		if _, err := m.AddBody("b", I, j); err != nil {
			panic(err)
		}
	}
	s := m.NewState()
	return m, s
}

// TestCompoundMatchesBuiltinJoints: a compound joint whose parts spell out
// a built-in joint is that joint: hinge x then hinge y is the universal
// joint, slide x, slide y then hinge z the planar joint, one ball part the
// ball joint and one hinge part (with ref) the revolute joint. Poses,
// mass matrices and bias forces agree to 1e-12 at random (q, v).
func TestCompoundMatchesBuiltinJoints(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	x, y, z := spatial.Vec3{1, 0, 0}, spatial.Vec3{0, 1, 0}, spatial.Vec3{0, 0, 1}
	axis := rv(r)
	cases := []struct {
		name    string
		builtin Joint
		parts   []JointPart
	}{
		{"universal", Joint{Type: JointUniversal}, []JointPart{{Type: JointRevolute, Axis: x}, {Type: JointRevolute, Axis: y}}},
		{"planar", Joint{Type: JointPlanar}, []JointPart{{Type: JointPrismatic, Axis: x}, {Type: JointPrismatic, Axis: y}, {Type: JointRevolute, Axis: z}}},
		{"ball", Joint{Type: JointBall}, []JointPart{{Type: JointBall}}},
		{"revolute with ref", Joint{Type: JointRevolute, Axis: axis, Ref: 0.4}, []JointPart{{Type: JointRevolute, Axis: axis, Ref: 0.4}}},
		{"prismatic with ref", Joint{Type: JointPrismatic, Axis: axis, Ref: -0.2}, []JointPart{{Type: JointPrismatic, Axis: axis, Ref: -0.2}}},
	}
	worst := 0.0
	for _, c := range cases {
		for range 20 {
			m, s := twinModels(r, c.builtin, Joint{Type: JointCompound, Parts: c.parts})
			randomize(r, m, s)
			// Give the compound body the built-in body's state.
			copy(m.JointQ(s, 1), m.JointQ(s, 0))
			copy(m.JointV(s, 1), m.JointV(s, 0))
			ws := NewWorkspace(m)
			ws.Update(s.Q, s.V)
			x0, x1 := ws.x[0], ws.x[1]
			if d := x0.P.Sub(x1.P).Norm() + x0.R.Mul(x1.R.Conj()).Vec().Norm(); d > 1e-12 {
				t.Fatalf("%s: poses differ by %g", c.name, d)
			}
			M := dense(m, ws)
			bias := make([]float64, m.NV)
			ws.InverseDynamics(nil, bias)
			n := m.Bodies[0].Joint.NV()
			for i := range n {
				for k := range n {
					d := math.Abs(M[i][k] - M[n+i][n+k])
					worst = math.Max(worst, d)
					if d > 1e-12*(1+math.Abs(M[i][k])) {
						t.Fatalf("%s: M[%d][%d] = %g, compound %g", c.name, i, k, M[i][k], M[n+i][n+k])
					}
				}
				if d := math.Abs(bias[i] - bias[n+i]); d > 1e-12*(1+math.Abs(bias[i])) {
					t.Fatalf("%s: bias[%d] = %g, compound %g", c.name, i, bias[i], bias[n+i])
				}
			}
		}
	}
	t.Logf("largest mass-matrix difference %.2g", worst)
}

// TestCompoundMuJoCoComposition: the pose of a compound joint is MuJoCo's
// mj_kinematics, written out here for a slide then a hinge about an
// off-origin anchor: x ← x + R a₁ (q₁ − ref₁); R ← R·rot(a₂, q₂ − ref₂);
// x ← (x + R₀ p₂) − R p₂ with R₀ the rotation before the hinge.
func TestCompoundMuJoCoComposition(t *testing.T) {
	a1, a2 := spatial.Vec3{0, 0.6, 0.8}, spatial.Vec3{1, 0, 0}
	p2 := spatial.Vec3{0.1, -0.2, 0.3}
	j := Joint{Type: JointCompound, Parts: []JointPart{
		{Type: JointPrismatic, Axis: a1, Ref: 0.05},
		{Type: JointRevolute, Axis: a2, Pos: p2, Ref: 0.2},
	}}
	if err := j.validate(); err != nil {
		t.Fatal(err)
	}
	q := []float64{0.35, 1.1}
	got := j.motion(q)
	pos := a1.Scale(q[0] - 0.05)
	anchor := pos.Add(p2)
	R := spatial.QuatFromAxisAngle(a2, q[1]-0.2)
	want := spatial.Pose{R: R, P: anchor.Sub(R.Rotate(p2))}
	if d := got.P.Sub(want.P).Norm() + got.R.Mul(want.R.Conj()).Vec().Norm(); d > 1e-15 {
		t.Fatalf("pose %v, MuJoCo's %v", got, want)
	}
	q0 := make([]float64, 2)
	j.neutral(q0)
	if x := j.motion(q0); x.P.Norm() > 1e-15 || x.R.Vec().Norm() > 1e-15 {
		t.Fatalf("neutral configuration %v is not the model pose (%v)", q0, x)
	}
}

// TestCompoundErrors: malformed compound joints are refused with the part
// named.
func TestCompoundErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		j    Joint
	}{
		{"no parts", Joint{Type: JointCompound}},
		{"zero axis", Joint{Type: JointCompound, Parts: []JointPart{{Name: "knee", Type: JointRevolute}}}},
		{"free part", Joint{Type: JointCompound, Parts: []JointPart{{Type: JointFree}}}},
		{"too many dofs", Joint{Type: JointCompound, Parts: []JointPart{{Type: JointBall}, {Type: JointBall}, {Type: JointRevolute, Axis: spatial.Vec3{1, 0, 0}}}}},
		{"stiff ball", Joint{Type: JointCompound, Parts: []JointPart{{Type: JointBall, Stiffness: 1}}}},
		{"nan ref", Joint{Type: JointCompound, Parts: []JointPart{{Type: JointRevolute, Axis: spatial.Vec3{1, 0, 0}, Ref: math.NaN()}}}},
		{"joint-level damping", Joint{Type: JointCompound, Damping: 1, Parts: []JointPart{{Type: JointBall}}}},
		{"parts on a revolute", Joint{Type: JointRevolute, Axis: spatial.Vec3{1, 0, 0}, Parts: []JointPart{{Type: JointBall}}}},
	} {
		m := &Model{}
		if _, err := m.AddBody("b", spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{1, 1, 1})}, c.j); err == nil {
			t.Errorf("%s: accepted", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
}

// TestCompoundSubspaceRateFD: the velocity-product term (Ṡ v) of a random
// compound joint equals the central difference of its subspace columns
// along q̇ = N(q) v, contracted with v.
func TestCompoundSubspaceRateFD(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 22))
	const h = 1e-6
	worst := 0.0
	for range 50 {
		j := Joint{Type: JointCompound, Parts: randomParts(r)}
		if err := j.validate(); err != nil {
			t.Fatal(err)
		}
		nq, nv := j.NQ(), j.NV()
		q, v := make([]float64, nq), randVec(r, nv)
		j.neutral(q)
		qi := 0
		for _, p := range j.Parts {
			if p.Type == JointBall {
				u := rq(r)
				q[qi], q[qi+1], q[qi+2], q[qi+3] = u.W, u.X, u.Y, u.Z
			} else {
				q[qi] = r.NormFloat64()
			}
			qi += p.Type.NQ()
		}
		qp, qm := make([]float64, nq), make([]float64, nq)
		j.integrate(q, q, v, h, qp)
		j.integrate(q, q, v, -h, qm)
		var w, l, wp, lp, wm, lm [6]spatial.Vec3
		cw, cl := j.subspace(q, v, &w, &l)
		j.subspace(qp, nil, &wp, &lp)
		j.subspace(qm, nil, &wm, &lm)
		var fw, fl spatial.Vec3
		for k := range nv {
			fw = fw.AddScaled(v[k]/(2*h), wp[k].Sub(wm[k]))
			fl = fl.AddScaled(v[k]/(2*h), lp[k].Sub(lm[k]))
		}
		d := cw.Sub(fw).Norm() + cl.Sub(fl).Norm()
		worst = math.Max(worst, d)
		if d > 1e-6 {
			t.Fatalf("parts %v: Ṡv = (%v, %v), FD (%v, %v)", j.Parts, cw, cl, fw, fl)
		}
		// The columns give the velocity of M: compare with the pose's FD.
		xp, xm := j.motion(qp), j.motion(qm)
		var vw, vl spatial.Vec3
		for k := range nv {
			vw = vw.AddScaled(v[k], w[k])
			vl = vl.AddScaled(v[k], l[k])
		}
		if d := xp.P.Sub(xm.P).Scale(1 / (2 * h)).Sub(vl).Norm(); d > 1e-6 {
			t.Fatalf("parts %v: velocity of M's origin %v, FD %v", j.Parts, vl, xp.P.Sub(xm.P).Scale(1/(2*h)))
		}
	}
	t.Logf("largest |Ṡv − FD| = %.2g", worst)
}
