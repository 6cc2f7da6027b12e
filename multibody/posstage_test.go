package multibody

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// posstageOriginParts returns random revolute and ball parts through the
// origin (Pos +0; at most 7 coordinates), with random, axis-aligned or
// short axes and random refs, after zero to two leading slides; with spoil
// set, one part gets a −0 or a nonzero anchor component, or a slide comes
// after a rotation, so the walk must not take the rotations-only path.
func posstageOriginParts(r *rand.Rand, spoil bool) []JointPart {
	var parts []JointPart
	nv, nq := 0, 0
	for nv == 0 || (nv < MaxCompoundDOF-2 && nq < 3 && r.IntN(3) > 0) {
		p := JointPart{Type: JointRevolute, Axis: rv(r), Ref: 0.3 * r.NormFloat64()}
		switch r.IntN(4) {
		case 0:
			p = JointPart{Type: JointBall}
		case 1:
			p.Axis = spatial.Vec3{}
			p.Axis[r.IntN(3)] = float64(1 - 2*r.IntN(2))
		case 2:
			p.Axis = p.Axis.Scale(1e-3) // not of unit length
		}
		parts = append(parts, p)
		nv, nq = nv+p.Type.NV(), nq+p.Type.NQ()
	}
	// Leading slides (the planar robots' root), which the walk takes.
	for range r.IntN(3) {
		if nv < MaxCompoundDOF {
			parts = append([]JointPart{{Type: JointPrismatic, Axis: rv(r), Ref: 0.2 * r.NormFloat64()}}, parts...)
			nv++
		}
	}
	if spoil {
		k := r.IntN(len(parts))
		switch r.IntN(3) {
		case 0:
			parts[k].Pos[r.IntN(3)] = math.Copysign(0, -1)
		case 1:
			parts[k].Pos[r.IntN(3)] = 0.1 * r.NormFloat64()
		default: // a slide after a rotation (the last part, or two rotations' second)
			slide := JointPart{Type: JointPrismatic, Axis: rv(r), Ref: 0.1}
			if nv < MaxCompoundDOF {
				parts = append(parts, slide)
			} else {
				parts[len(parts)-1] = slide
			}
		}
	}
	return parts
}

// TestPosstageCompoundWalkMatches: Workspace.motion's walk (walkRotations
// for rotations through the origin) gives the bits of
// compoundWalk.walk (compoundFrames) — rotations, anchors, origins and the
// pose of M — on compound joints of rotations through the origin at random
// and at neutral coordinates, and on joints that must take the walk (a −0
// or a nonzero anchor, a slide); Update's poses, velocities, subspace
// columns and κ are then those of a workspace that walks every joint.
func TestPosstageCompoundWalkMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(86, 2))
	taken := 0
	for trial := range 3000 {
		spoil := trial%3 == 2
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		parent := -1
		for range 3 {
			j := Joint{Type: JointCompound, Parent: parent, ParentFrame: rpose(r), ChildFrame: rpose(r), Parts: posstageOriginParts(r, spoil)}
			b, err := m.AddBody("b", rinertia(r), j)
			if err != nil {
				t.Fatal(err)
			}
			parent = b
		}
		s := m.NewState()
		if trial%4 != 0 {
			randomize(r, m, s)
		}
		ws, ref := NewWorkspace(m), NewWorkspace(m)
		for b := range ref.fr {
			ref.fr[b].rotsAtOrigin = false
			if ws.fr[b].rotsAtOrigin {
				taken++
				if spoil {
					t.Fatalf("trial %d: parts %+v take the rotations-only walk", trial, m.Bodies[b].Joint.Parts)
				}
			}
			j := &m.Bodies[b].Joint
			q := s.Q[m.Bodies[b].QOff:]
			want := ws.walk // the entries past the joint's parts as they were
			want.walk(j, q)
			var mo spatial.Pose
			fr := ws.fr[b]
			fr.bare = false // the walk keeps every part's frames (Update's bare walk: below)
			ws.motion(j, &fr, q, &mo)
			if !posstageSameBits(ws.walk, want) {
				t.Fatalf("trial %d, body %d: walk %+v, compoundFrames %+v", trial, b, ws.walk, want)
			}
		}
		ws.Update(s.Q, s.V)
		ref.Update(s.Q, s.V)
		got := []any{ws.x, ws.kin, ws.col, ws.ic}
		want := []any{ref.x, ref.kin, ref.col, ref.ic}
		for i := range got {
			if !posstageSameBits(got[i], want[i]) {
				t.Fatalf("trial %d: Update's field %d: %v, walked %v", trial, i, got[i], want[i])
			}
		}
	}
	if taken == 0 {
		t.Fatal("no joint took the rotations-only walk")
	}
}

// posstageSameBits reports whether a and b, of the same type, have the
// same bits: their %b renderings (every float64 as mantissa and exponent,
// −0 and NaN payloads apart) agree.
func posstageSameBits(a, b any) bool {
	return fmt.Sprintf("%b", a) == fmt.Sprintf("%b", b)
}

// TestPosstageRotateInertiaBits: rotateInertia, R x per row of R I, gives
// the bits of spatial.RotateInertia (R.Mul(I).Mul(R.T())), signed zeros
// included, on random rotations (and axis-aligned ones, whose entries have
// exact zeros) and random symmetric, asymmetric and diagonal inertias.
func TestPosstageRotateInertiaBits(t *testing.T) {
	r := rand.New(rand.NewPCG(86, 3))
	for trial := range 100000 {
		R := rq(r).RotMat()
		if trial%5 == 0 {
			R = spatial.Quat{W: float64(r.IntN(2)), X: float64(r.IntN(2)), Y: -float64(r.IntN(2)), Z: 1}.Normalize().RotMat()
		}
		var I spatial.Mat3
		for i := range 3 {
			for j := range 3 {
				I[i][j] = r.NormFloat64()
				if trial%3 == 0 && i != j {
					I[i][j] = 0
				}
			}
		}
		if trial%2 == 0 {
			I = I.Add(I.T())
		}
		var got spatial.Mat3
		rotateInertia(&R, &I, &got)
		if want := spatial.RotateInertia(R, I); !posstageSameBits(got, want) {
			t.Fatalf("R %v, I %v: %v, Mat3 form %v", R, I, got, want)
		}
	}
}
