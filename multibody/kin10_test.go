package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// kin10HingeParts draws one to MaxCompoundDOF revolute parts with random
// anchors (some +0, −0 or all zero: a joint at the origin, which walkRotations
// takes instead), unit, non-unit and axis-aligned axes, and random refs.
func kin10HingeParts(r *rand.Rand) []JointPart {
	parts := make([]JointPart, 1+r.IntN(MaxCompoundDOF))
	for k := range parts {
		p := JointPart{Type: JointRevolute, Axis: rv(r), Ref: 0.3 * r.NormFloat64()}
		switch r.IntN(4) {
		case 0:
			p.Axis = spatial.Vec3{}
			p.Axis[r.IntN(3)] = float64(1 - 2*r.IntN(2))
		case 1:
			p.Axis = p.Axis.Scale(1e-3)
		}
		switch r.IntN(4) {
		case 0: // +0
		case 1:
			p.Pos[r.IntN(3)] = math.Copysign(0, -1)
		default:
			p.Pos = rv(r).Scale(0.05)
		}
		parts[k] = p
	}
	return parts
}

// TestKin10HingesMatchCompound: for compound joints of revolute parts alone
// (fr.hinges), walkHinges gives compoundFrames' bits (rotations, anchors,
// origins, the pose of M) and hingesSubspace compoundSubspaceAt's (columns,
// sw and sl, signed zeros included), at random and neutral coordinates (a
// NaN in some), for velocities with zeros, huge entries, infinities and
// NaN, and for a nil velocity; Update's poses, velocities, columns and κ on
// chains of such joints are then those of a workspace that takes the
// general walk.
func TestKin10HingesMatchCompound(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 160))
	taken := 0
	for trial := range 4000 {
		m := &Model{Gravity: spatial.Vec3{0, 0, -9.81}}
		parent := -1
		for range 3 {
			j := Joint{Type: JointCompound, Parent: parent, ParentFrame: rpose(r), ChildFrame: rpose(r), Parts: kin10HingeParts(r)}
			b, err := m.AddBody("b", rinertia(r), j)
			if err != nil {
				t.Fatal(err)
			}
			parent = b
		}
		s, v := compoundTrial(r, m, trial, trial%5 != 0, 7)
		ws, ref := NewWorkspace(m), NewWorkspace(m)
		for b := range ws.fr {
			if ws.fr[b].hinges == ws.fr[b].rotsAtOrigin {
				t.Fatalf("trial %d, body %d: hinges %v, rotsAtOrigin %v", trial, b, ws.fr[b].hinges, ws.fr[b].rotsAtOrigin)
			}
			ref.fr[b].hinges, ref.fr[b].rotsAtOrigin = false, false
			if !ws.fr[b].hinges {
				continue
			}
			taken++
			j, q := &m.Bodies[b].Joint, s.Q[m.Bodies[b].QOff:]
			var vj []float64
			if v != nil {
				vj = v[m.Bodies[b].VOff:]
			}
			want := ws.walk // the entries past the joint's parts as they were
			want.walk(j, q)
			var mo spatial.Pose
			ws.motion(j, &ws.fr[b], q, &mo)
			if !posstageSameBits(ws.walk, want) {
				t.Fatalf("trial %d, body %d: walk %+v, compoundFrames %+v", trial, b, ws.walk, want)
			}
			var gw, gl, ww, wl [6]spatial.Vec3
			gsw, gsl := j.hingesSubspace(&ws.walk, vj, &gw, &gl)
			wsw, wsl := j.compoundSubspaceAt(&ws.walk, vj, &ww, &wl)
			got := []any{gw, gl, gsw.array(), gsl.array()}
			if want := []any{ww, wl, wsw.array(), wsl.array()}; !posstageSameBits(got, want) {
				t.Fatalf("trial %d, body %d, parts %+v, q %v, v %v: %v, general %v", trial, b, j.Parts, q, vj, got, want)
			}
		}
		ws.Update(s.Q, v)
		ref.Update(s.Q, v)
		got := []any{ws.x, ws.kin, ws.col, ws.ic}
		want := []any{ref.x, ref.kin, ref.col, ref.ic}
		for i := range got {
			if !posstageSameBits(got[i], want[i]) {
				t.Fatalf("trial %d: Update's field %d: %v, general walk %v", trial, i, got[i], want[i])
			}
		}
	}
	if taken < 5000 {
		t.Fatalf("only %d joints took the hinges' walk", taken)
	}
}
