package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// kin5SameBits reports whether two matrices have the same bits, zeros'
// signs included.
func kin5SameBits(a, b *spatial.Mat3) bool {
	for i := range 3 {
		for j := range 3 {
			if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
				return false
			}
		}
	}
	return true
}

// TestKin5RotFReuse: frames' R_WF, reused from the parent's kept matrix or
// made, has the bits of xf.R.RotMat() for every moving body of random
// forests of every root type with identity, partly identity and general
// joint frames, after Update; the reuse is taken for most bodies whose
// ParentFrame has no rotation, and a workspace that has not run Update
// (no kept matrices) makes every matrix.
func TestKin5RotFReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(105, 2))
	reused, checked := 0, 0
	for k := range 3 {
		for _, root := range allRoots {
			m, s := randomForest(r, root)
			plainFrames(m, k)
			ws, fresh := NewWorkspace(m), NewWorkspace(m)
			ws.Update(s.Q, s.V)
			for b := range m.Bodies {
				p := m.Bodies[b].Joint.Parent
				if m.Bodies[b].Tree < 0 || p < 0 {
					continue
				}
				var xf, xm, xb spatial.Pose
				got := ws.frames(s.Q, b, &ws.x[p], &xf, &xm, &xb, true)
				want := xf.R.RotMat()
				if !kin5SameBits(got, &want) {
					t.Fatalf("root %v, body %d: frames %v, RotMat %v", root, b, *got, want)
				}
				if got == &ws.rot[p].R {
					reused++
				}
				if got := fresh.frames(s.Q, b, &ws.x[p], &xf, &xm, &xb, true); got == &fresh.rot[p].R || !kin5SameBits(got, &want) {
					t.Fatalf("root %v, body %d, no Update: frames %v (kept: %v), RotMat %v", root, b, *got, got == &fresh.rot[p].R, want)
				}
				checked++
			}
		}
	}
	if checked < 200 || reused < checked/4 {
		t.Fatalf("%d bodies checked, %d reused the parent's matrix", checked, reused)
	}
	t.Logf("%d bodies, %d reused", checked, reused)
}

// TestKin5FixedBodiesKept: the bodies welded to the world keep the model's
// pose and zero velocities, which NewWorkspace writes once (constants) and
// Update no longer writes, through Updates at random states, with the bits
// of Model.BodyPose and BodyVelocity; their moving children are placed from
// them as from a fresh Update.
func TestKin5FixedBodiesKept(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 5))
	m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	base := m.AddWeldedBody("base", spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{1, 2, 3}, 0.7), P: spatial.Vec3{0.1, -0.2, 1.5}})
	in := spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{0, 0, -0.5}, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.015})}
	j := Joint{Type: JointRevolute, Parent: base, ParentFrame: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0.3, 0}}, ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 1, 0}}
	arm, err := m.AddBody("arm", in, j)
	if err != nil {
		t.Fatal(err)
	}
	wall := m.AddWeldedBody("wall", spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{2, 0, 0}})
	s := m.NewState()
	ws := NewWorkspace(m)
	for trial := range 50 {
		s.Q[0], s.V[0] = r.NormFloat64(), r.NormFloat64()
		ws.Update(s.Q, s.V)
		for _, b := range []int{base, wall} {
			want, w := m.BodyPose(s, b), ws.Pose(b)
			ww, wv := ws.Velocity(b)
			if !kin5SamePose(&w, &want) || !kin5SameVec(&ww, &spatial.Vec3{}) || !kin5SameVec(&wv, &spatial.Vec3{}) {
				t.Fatalf("trial %d body %d: pose %v velocities %v %v, model %v", trial, b, w, ww, wv, want)
			}
		}
		fresh := NewWorkspace(m)
		fresh.Update(s.Q, s.V)
		if got, want := ws.Pose(arm), fresh.Pose(arm); !kin5SamePose(&got, &want) {
			t.Fatalf("trial %d: arm %v, fresh %v", trial, got, want)
		}
	}
}

// kin5SameVec reports whether two vectors have the same bits.
func kin5SameVec(a, b *spatial.Vec3) bool {
	for i := range 3 {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// kin5SamePose reports whether two poses have the same bits.
func kin5SamePose(a, b *spatial.Pose) bool {
	qa, qb := spatial.Vec3{a.R.X, a.R.Y, a.R.Z}, spatial.Vec3{b.R.X, b.R.Y, b.R.Z}
	return math.Float64bits(a.R.W) == math.Float64bits(b.R.W) && kin5SameVec(&qa, &qb) && kin5SameVec(&a.P, &b.P)
}

// TestKin5BareWalkMatches: bareWalk's pose of a bare joint (slides alone,
// or slides and one hinge at the root) has the bits of walkRotations' at
// random coordinates, zeros of both signs, huge and non-finite ones
// included, for unit, short, long and zero axes.
func TestKin5BareWalkMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 6))
	axis := func() spatial.Vec3 {
		a := rv(r)
		switch r.IntN(4) {
		case 0:
			a = spatial.Vec3{}
			a[r.IntN(3)] = float64(1 - 2*r.IntN(2))
		case 1:
			a = a.Scale(math.Pow(10, float64(r.IntN(7)-3)))
		case 2:
			if r.IntN(3) == 0 {
				a = spatial.Vec3{}
			}
		}
		return a
	}
	coord := func() float64 {
		switch r.IntN(10) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return 0
		case 2:
			return []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e-300}[r.IntN(5)]
		}
		return r.NormFloat64() * 3
	}
	checked := [2]int{}
	for trial := range 4000 {
		hinge := trial%2 == 1
		var parts []JointPart
		for range r.IntN(3) + 1 { // a hinge after at least one slide (oneTurn)
			parts = append(parts, JointPart{Type: JointPrismatic, Axis: axis(), Ref: coord()})
		}
		if hinge {
			parts = append(parts, JointPart{Type: JointRevolute, Axis: axis(), Ref: 0.3 * r.NormFloat64()})
		}
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		if _, err := m.AddBody("b", rinertia(r), Joint{Type: JointCompound, Parent: -1, ParentFrame: rpose(r), ChildFrame: rpose(r), Parts: parts}); err != nil {
			continue // a zero slide axis, which validate refuses
		}
		ws := NewWorkspace(m)
		fr := &ws.fr[0]
		if !fr.bare || !fr.rotsAtOrigin {
			t.Fatalf("trial %d: parts %+v not bare (%v) or not at the origin (%v)", trial, parts, fr.bare, fr.rotsAtOrigin)
		}
		q := make([]float64, len(parts))
		for k := range q {
			q[k] = coord()
		}
		ws.bareWalk(&m.Bodies[0].Joint, fr, q)
		got := ws.walk.xm
		ws.walkRotations(&m.Bodies[0].Joint, fr, q)
		if !posstageSameBits(got, ws.walk.xm) {
			t.Fatalf("trial %d: parts %+v q %v: bareWalk %v, walkRotations %v", trial, parts, q, got, ws.walk.xm)
		}
		checked[btoi(hinge)]++
	}
	if checked[0] < 500 || checked[1] < 500 {
		t.Fatalf("checked %v slides alone and with a hinge", checked)
	}
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
