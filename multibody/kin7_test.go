package multibody

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// kin7SamePose reports whether two poses have the same bits, zeros' signs
// included.
func kin7SamePose(a, b *spatial.Pose) bool {
	x := [7]float64{a.R.W, a.R.X, a.R.Y, a.R.Z, a.P[0], a.P[1], a.P[2]}
	y := [7]float64{b.R.W, b.R.X, b.R.Y, b.R.Z, b.P[0], b.P[1], b.P[2]}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}

// TestKin7FramesWithoutRot: frames with rot false (a weld's call) writes
// the poses frames with rot true writes, bit for bit, and returns nil for
// every body with a parent, on random forests of every root type with
// identity, partly identity and general joint frames.
func TestKin7FramesWithoutRot(t *testing.T) {
	r := rand.New(rand.NewPCG(107, 3))
	checked := 0
	for k := range 3 {
		for _, root := range allRoots {
			m, s := randomForest(r, root)
			plainFrames(m, k)
			ws := NewWorkspace(m)
			ws.Update(s.Q, s.V)
			for b := range m.Bodies {
				p := m.Bodies[b].Joint.Parent
				if m.Bodies[b].Tree < 0 || p < 0 || m.Bodies[b].Joint.Type == JointFree {
					continue
				}
				var f1, m1, b1, f2, m2, b2 spatial.Pose
				ws.frames(s.Q, b, &ws.x[p], &f1, &m1, &b1, true)
				if R := ws.frames(s.Q, b, &ws.x[p], &f2, &m2, &b2, false); R != nil {
					t.Fatalf("root %v, body %d: rot false returned %v", root, b, *R)
				}
				if !kin7SamePose(&f1, &f2) || !kin7SamePose(&m1, &m2) || !kin7SamePose(&b1, &b2) {
					t.Fatalf("root %v, body %d: poses %v %v %v, without rot %v %v %v", root, b, f1, m1, b1, f2, m2, b2)
				}
				checked++
			}
		}
	}
	if checked < 200 {
		t.Fatalf("%d bodies checked", checked)
	}
}

// TestKin7PlanarRootMatchesJoint: planarRoot gives joint's bits (poses,
// velocities, κ, columns; signed zeros and NaNs included) on random planar
// roots with unit or random axes, rest or moving, at velocities and
// coordinates with ±0, huge, infinite and NaN entries, and the planar
// robots' roots (axis-aligned ParentFrame) move by it.
func TestKin7PlanarRootMatchesJoint(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 7))
	planar := 0
	for trial := range 20000 {
		parts := make([]JointPart, 2, MaxCompoundDOF)
		for k := range parts {
			parts[k] = JointPart{Type: JointPrismatic, Axis: rv(r)}
			if trial%2 == 0 {
				parts[k].Axis = spatial.Vec3{}
				parts[k].Axis[r.IntN(3)] = float64(1 - 2*r.IntN(2))
			}
		}
		hinge := JointPart{Type: JointRevolute, Axis: rv(r), Ref: 0.3 * r.NormFloat64()}
		if trial%2 == 0 {
			hinge.Axis = spatial.Vec3{}
			hinge.Axis[r.IntN(3)] = float64(1 - 2*r.IntN(2))
		}
		root := Joint{Type: JointCompound, Parent: -1, Parts: append(parts, hinge)}
		switch trial % 3 {
		case 1:
			root.ParentFrame, root.ChildFrame = rpose(r), rpose(r)
		case 2:
			root.ParentFrame.P, root.ChildFrame.P = rv(r), rv(r)
		}
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		b, err := m.AddBody("root", rinertia(r), root)
		if err != nil {
			t.Fatal(err)
		}
		got, want := NewWorkspace(m), NewWorkspace(m)
		if trial%3 == 0 && got.kind[b] != kindPlanar {
			t.Fatalf("trial %d: an axis-aligned planar root moves by kind %d", trial, got.kind[b])
		}
		if got.kind[b] == kindPlanar {
			planar++
		}
		want.kind[b] = kindJoint
		s := m.NewState()
		randomize(r, m, s)
		for i := range s.V {
			switch trial % 4 {
			case 0:
				s.V[i] = compound2Velocity(r)
			case 1:
				s.V[i] = math.Copysign(0, float64(r.IntN(2))-0.5)
			}
		}
		if trial%5 == 0 {
			s.Q[r.IntN(len(s.Q))] = compound2Velocity(r)
		}
		v := s.V
		if trial%7 == 0 {
			v = nil
		}
		updateSameBits(t, got, want, s.Q, v, fmt.Sprintf("trial %d, parts %+v", trial, root.Parts), "joint")
	}
	if planar < 12000 {
		t.Fatalf("only %d planar roots moved by planarRoot", planar)
	}
}

// TestKin7MassMatrixOverwrites: MassMatrix writes every entry of its block
// (crbaColumns clears it, crbaFreeBody writes all 36): into a buffer of
// NaNs it gives the bits it gives into zeros, on random forests and on a
// lone free body (crbaFreeBody).
func TestKin7MassMatrixOverwrites(t *testing.T) {
	check := func(m *Model, ws *Workspace) {
		for ti := range m.Trees {
			n := m.Trees[ti].NV
			zero, nan := make([]float64, n*n), make([]float64, n*n)
			for i := range nan {
				nan[i] = math.NaN()
			}
			ws.MassMatrix(ti, zero)
			ws.MassMatrix(ti, nan)
			if !posstageSameBits(zero, nan) {
				t.Fatalf("tree %d: into zeros %v, into NaNs %v", ti, zero, nan)
			}
		}
	}
	forEachSystem(t, 71, 20, func(m *Model, _ *State, ws *Workspace) { check(m, ws) })
	r := rand.New(rand.NewPCG(17, 71))
	for range 200 {
		m, in := &Model{}, rinertia(r)
		if r.IntN(2) == 0 {
			in.Com = spatial.Vec3{}
		}
		if _, err := m.AddBody("cube", in, Joint{Type: JointFree, Parent: -1}); err != nil {
			t.Fatal(err)
		}
		s := m.NewState()
		randomize(r, m, s)
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		check(m, ws)
	}
}

// TestKin7PointJacobianOverwrites: PointJacobian writes every entry of
// its block: into a buffer of NaNs it gives the bits it gives into zeros,
// for every body of random forests.
func TestKin7PointJacobianOverwrites(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 72))
	forEachSystem(t, 72, 10, func(m *Model, _ *State, ws *Workspace) {
		for b := range m.Bodies {
			zero, nan := make([]float64, 3*m.NV), make([]float64, 3*m.NV)
			for i := range nan {
				nan[i] = math.NaN()
			}
			p := rv(r)
			t0, t1 := ws.PointJacobian(b, p, zero), ws.PointJacobian(b, p, nan)
			if t0 < 0 {
				continue
			}
			n := 3 * m.Trees[t0].NV
			if t0 != t1 || !posstageSameBits(zero[:n], nan[:n]) {
				t.Fatalf("body %d: into zeros %v, into NaNs %v", b, zero[:n], nan[:n])
			}
		}
	})
}
