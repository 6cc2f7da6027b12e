package multibody

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestKin2PlanarRootMatches: Update with a planar root's constant columns
// (fr.planar, planarRoots) gives the bits of Update through worldColumns
// (the same workspace with fr.planar nil) for the root and a revolute
// child: poses, velocities, columns and κ, signed zeros included, on
// random slides-then-hinge roots (axis-aligned and random axes, random
// ParentFrame and ChildFrame, which make d non-zero) at random, zero,
// huge, infinite and NaN coordinates and velocities, and at rest (v nil).
func TestKin2PlanarRootMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	fast := 0
	for trial := range 8000 {
		parts := make([]JointPart, 1+r.IntN(MaxCompoundDOF-1), MaxCompoundDOF)
		for k := range parts {
			parts[k] = JointPart{Type: JointPrismatic, Axis: rv(r), Ref: 0.1 * r.NormFloat64()}
			if trial%2 == 0 { // the planar robots' unit axes
				parts[k].Axis = spatial.Vec3{}
				parts[k].Axis[r.IntN(3)] = 1
			}
		}
		hinge := JointPart{Type: JointRevolute, Axis: rv(r), Ref: 0.3 * r.NormFloat64()}
		if trial%2 == 0 {
			hinge.Axis = spatial.Vec3{}
			hinge.Axis[r.IntN(3)] = float64(1 - 2*r.IntN(2))
		}
		parts = append(parts, hinge)
		root := Joint{Type: JointCompound, Parent: -1, Parts: parts}
		if trial%3 != 0 {
			root.ParentFrame, root.ChildFrame = rpose(r), rpose(r)
		}
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		b, err := m.AddBody("root", rinertia(r), root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.AddBody("leg", rinertia(r), Joint{Type: JointRevolute, Parent: b, ParentFrame: rpose(r), Axis: rv(r)}); err != nil {
			t.Fatal(err)
		}
		got, want := NewWorkspace(m), NewWorkspace(m)
		if got.fr[b].planar == nil {
			t.Fatalf("parts %+v: no planar columns", parts)
		}
		want.fr[b].planar, want.fr[b].bare = nil, false // the general path, walk frames kept
		want.kind[b] = kindJoint                        // not planarRoot, which reads fr.planar
		s := m.NewState()
		randomize(r, m, s)
		for i := range s.V {
			if trial%3 == 0 {
				s.V[i] = compound2Velocity(r)
			}
		}
		if trial%5 == 0 {
			s.Q[r.IntN(len(s.Q))] = compound2Velocity(r)
		}
		v := s.V
		if trial%11 == 0 {
			v = nil
		}
		updateSameBits(t, got, want, s.Q, v, fmt.Sprintf("trial %d, parts %+v", trial, parts), "worldColumns")
		if pc := got.fr[b].planar; m.Bodies[b].Joint.planarHolds(v, &pc.fw, &pc.fl, &got.walk.xm.P) {
			fast++ // the root read the constant columns
		}
	}
	if fast < 4000 {
		t.Fatalf("only %d trials on the constant columns", fast)
	}
}

// TestKin2InPlaceAccessors: PoseOf and VelocityOf read what Pose and
// Velocity copy, and follow the next Update.
func TestKin2InPlaceAccessors(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 4))
	m, s := randomForest(r, JointFree)
	ws := NewWorkspace(m)
	for range 2 {
		randomize(r, m, s)
		ws.Update(s.Q, s.V)
		for b := range m.Bodies {
			w, v := ws.Velocity(b)
			pw, pv := ws.VelocityOf(b)
			if *ws.PoseOf(b) != ws.Pose(b) || *pw != w || *pv != v {
				t.Fatalf("body %d: %v %v %v, copies %v %v %v", b, *ws.PoseOf(b), *pw, *pv, ws.Pose(b), w, v)
			}
		}
	}
}

// updateSameBits runs Update(q, v) on got and want and fails, naming the
// case and want's path, unless their poses, kinematics and column
// results are the same bits.
func updateSameBits(t *testing.T, got, want *Workspace, q, v []float64, label, path string) {
	t.Helper()
	got.Update(q, v)
	want.Update(q, v)
	g := []any{got.x, got.kin, got.col}
	if w := []any{want.x, want.kin, want.col}; !posstageSameBits(g, w) {
		t.Fatalf("%s, q %v, v %v:\n%v\n%s:\n%v", label, q, v, g, path, w)
	}
}
