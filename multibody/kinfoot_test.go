package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// crbaFreeBodyVec is crbaFreeBody in the Vec3 form it replaced, with the
// armature MassMatrix added after it, the reference of
// TestKinfootCRBAFreeBodyBits.
func (ws *Workspace) crbaFreeBodyVec(b int, out []float64) {
	cc := ws.x[b].P.Add(ws.kin[b].com).Sub(ws.x[b].P)
	mass, ci, voff := ws.kin[b].m, ws.ic[b], ws.m.Bodies[b].VOff
	for c := range 6 {
		W, L := ws.col[voff+c].w, ws.col[voff+c].l
		f := L.Add(W.Cross(cc)).Scale(mass)
		nm := ci.MulVec(W).Add(cc.Cross(f))
		for j := 0; j <= c; j++ {
			var e float64
			if j < 3 {
				e = nm[j]
			} else {
				e = f[j-3]
			}
			out[j*6+c], out[c*6+j] = e, e
		}
	}
	for k := range 6 {
		out[k*6+k] += ws.m.Bodies[b].Joint.DOFArmature(k)
	}
}

// TestKinfootCRBAFreeBodyBits: crbaFreeBody on scalars gives the bits of
// its Vec3 form and MassMatrix's armature after it, signed zeros included,
// for lone free bodies of random (full and diagonal) inertias and masses,
// tiny ones among them, with and without armature, off-centre centres of
// mass and random and identity orientations, and when the columns hold
// random numbers, infinities or NaN instead of the unit vectors.
func TestKinfootCRBAFreeBodyBits(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	odd := []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), math.MaxFloat64}
	for trial := range 2000 {
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		in := rinertia(r)
		switch trial % 4 {
		case 0:
			in.Icom = spatial.Diag3(spatial.Vec3{in.Icom[0][0], in.Icom[1][1], in.Icom[2][2]})
		case 1:
			in.Mass *= 1e-300 // products that underflow
		}
		j := Joint{Type: JointFree, Parent: -1}
		if trial%2 == 1 {
			j.Armature = r.Float64()
		}
		if _, err := m.AddBody("b", in, j); err != nil {
			t.Fatal(err)
		}
		s := m.NewState()
		if trial%5 != 0 {
			randomize(r, m, s)
		}
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		got, want := make([]float64, 36), make([]float64, 36)
		ws.MassMatrix(0, got) // sets the composite inertia both read
		if trial%3 == 0 {
			for i := range 6 {
				for k := range 3 {
					ws.col[i].w[k], ws.col[i].l[k] = r.NormFloat64(), r.NormFloat64()
					if r.IntN(8) == 0 {
						ws.col[i].l[k] = odd[r.IntN(len(odd))]
					}
				}
			}
		}
		ws.crbaFreeBody(0, got)
		ws.crbaFreeBodyVec(0, want)
		if !posstageSameBits(got, want) {
			t.Fatalf("trial %d: %v, Vec3 form %v", trial, got, want)
		}
	}
}

// TestKinfootSlidesMatchJoint: Update's compound joints of slides alone
// (slide and prismatic with the parts' columns) give joint's pose,
// velocities, columns and κ up to the sign of a zero (==), for one to six
// slides through the origin or not, at the root and under a turning
// revolute parent, with velocities and at rest.
func TestKinfootSlidesMatchJoint(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	checked := 0
	for trial := range 400 {
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		parent := -1
		if trial%2 == 0 {
			b, err := m.AddBody("p", rinertia(r), Joint{Type: JointRevolute, Parent: -1, Axis: rv(r), ParentFrame: rpose(r)})
			if err != nil {
				t.Fatal(err)
			}
			parent = b
		}
		parts := make([]JointPart, 1+r.IntN(MaxCompoundDOF))
		for k := range parts {
			parts[k] = JointPart{Type: JointPrismatic, Axis: rv(r), Ref: 0.1 * r.NormFloat64()}
			if trial%3 == 0 {
				parts[k].Pos = rv(r)
			}
		}
		j := Joint{Type: JointCompound, Parent: parent, ParentFrame: rpose(r), ChildFrame: rpose(r), Parts: parts}
		b, err := m.AddBody("s", rinertia(r), j)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Bodies[b].Joint.slides {
			t.Fatalf("parts %+v: not slides", parts)
		}
		s := m.NewState()
		randomize(r, m, s)
		for _, v := range [][]float64{s.V, nil} {
			ws, gen := NewWorkspace(m), NewWorkspace(m)
			ws.Update(s.Q, v)
			if parent >= 0 { // the parent's pose and velocities, which joint reads
				gen.x[parent], gen.kin[parent] = ws.x[parent], ws.kin[parent]
			}
			gen.joint(s.Q, v, b)
			if ws.x[b] != gen.x[b] || ws.kin[b].w != gen.kin[b].w || ws.kin[b].vel != gen.kin[b].vel || ws.kin[b].kw != gen.kin[b].kw || ws.kin[b].kl != gen.kin[b].kl {
				t.Fatalf("trial %d (v nil %v): x %v w %v v %v κ (%v, %v); joint x %v w %v v %v κ (%v, %v)", trial, v == nil,
					ws.x[b], ws.kin[b].w, ws.kin[b].vel, ws.kin[b].kw, ws.kin[b].kl, gen.x[b], gen.kin[b].w, gen.kin[b].vel, gen.kin[b].kw, gen.kin[b].kl)
			}
			for i := m.Bodies[b].VOff; i < m.NV; i++ {
				if ws.col[i].w != gen.col[i].w || ws.col[i].l != gen.col[i].l {
					t.Fatalf("trial %d column %d: (%v, %v), joint (%v, %v)", trial, i, ws.col[i].w, ws.col[i].l, gen.col[i].w, gen.col[i].l)
				}
			}
			checked++
		}
	}
	if checked < 800 {
		t.Fatalf("only %d joints checked", checked)
	}
}

// TestKinfootPlanarSubspaceMatches: planarSubspace gives rotsSubspace's
// bits — columns, sw and sl, signed zeros included — at walkRotations'
// frames of random joints of one to five slides and a hinge through the
// origin, for velocities with zeros, huge entries, infinities and NaN, NaN
// coordinates and a nil velocity; joints whose hinge is not last alone do
// not take it.
func TestKinfootPlanarSubspaceMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 3))
	zero := 0
	for trial := range 20000 {
		parts := make([]JointPart, 1+r.IntN(MaxCompoundDOF-1), MaxCompoundDOF)
		for k := range parts {
			parts[k] = JointPart{Type: JointPrismatic, Axis: rv(r), Ref: 0.1 * r.NormFloat64()}
		}
		hinge := JointPart{Type: JointRevolute, Axis: rv(r), Ref: 0.3 * r.NormFloat64()}
		if trial%7 == 0 {
			hinge.Axis = spatial.Vec3{}
			hinge.Axis[r.IntN(3)] = float64(1 - 2*r.IntN(2))
		}
		parts = append(parts, hinge)
		spoil := trial%13 == 0 && len(parts) > 2
		if spoil { // a second hinge among the slides' places, the last but one
			parts[len(parts)-2] = hinge
		}
		m := &Model{}
		b, err := m.AddBody("b", rinertia(r), Joint{Type: JointCompound, Parent: -1, Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		ws := NewWorkspace(m)
		if ws.fr[b].oneTurn == spoil || !ws.fr[b].rotsAtOrigin {
			t.Fatalf("parts %+v: oneTurn %v, rotsAtOrigin %v", parts, ws.fr[b].oneTurn, ws.fr[b].rotsAtOrigin)
		}
		if spoil {
			continue
		}
		s, v := compoundTrial(r, m, trial, true, 37)
		jb := &m.Bodies[b].Joint
		var mo spatial.Pose
		ws.motion(jb, &ws.fr[b], s.Q, &mo)
		var gw, gl, ww, wl [6]spatial.Vec3
		gsw, gsl := jb.planarSubspace(&ws.walk, v, &gw, &gl)
		wsw, wsl := jb.rotsSubspace(&ws.walk, v, &ww, &wl)
		got := []any{gw, gl, gsw.array(), gsl.array()}
		if want := []any{ww, wl, wsw.array(), wsl.array()}; !posstageSameBits(got, want) {
			t.Fatalf("trial %d, parts %+v, q %v, v %v: %v, rotsSubspace %v", trial, jb.Parts, s.Q, v, got, want)
		}
		if v != nil && gsw == (vec3{}) {
			zero++
		}
	}
	if zero < 1000 {
		t.Fatalf("only %d trials with the zero sums", zero)
	}
}
