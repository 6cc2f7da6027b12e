package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// compound2Velocity returns a random velocity entry: mostly normal draws,
// and sometimes a ±0, a huge value (whose sums overflow), an infinity or
// a NaN.
func compound2Velocity(r *rand.Rand) float64 {
	switch r.IntN(16) {
	case 0:
		return math.Copysign(0, float64(r.IntN(2))-0.5)
	case 1:
		return math.MaxFloat64 * float64(1-2*r.IntN(2))
	case 2:
		return math.Inf(1 - 2*r.IntN(2))
	case 3:
		return math.NaN()
	}
	return r.NormFloat64()
}

// TestCompound2RotsSubspaceMatches: rotsSubspace gives compoundSubspaceAt's
// bits — columns, sw and sl, signed zeros included — at walkRotations'
// frames of random compound joints of rotations through the origin, at
// random and neutral coordinates, for velocities with zeros, huge entries,
// infinities and NaN (non-finite sums must take the full sums) and for a
// nil velocity.
func TestCompound2RotsSubspaceMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(96, 1))
	fast := 0
	for trial := range 20000 {
		m := &Model{}
		j := Joint{Type: JointCompound, Parent: -1, Parts: posstageOriginParts(r, false)}
		b, err := m.AddBody("b", rinertia(r), j)
		if err != nil {
			t.Fatal(err)
		}
		ws := NewWorkspace(m)
		if !ws.fr[b].rotsAtOrigin {
			t.Fatalf("parts %+v do not take the rotations-only walk", m.Bodies[b].Joint.Parts)
		}
		s, v := compoundTrial(r, m, trial, trial%5 != 0, 97)
		jb := &m.Bodies[b].Joint
		var mo spatial.Pose
		fr := ws.fr[b]
		fr.bare = false // the walk keeps every part's frames, which both subspaces read
		ws.motion(jb, &fr, s.Q, &mo)
		var gw, gl, ww, wl [6]spatial.Vec3
		gsw, gsl := jb.rotsSubspace(&ws.walk, v, &gw, &gl)
		wsw, wsl := jb.compoundSubspaceAt(&ws.walk, v, &ww, &wl)
		gcw, gcl, wcw, wcl := gsw.array(), gsl.array(), wsw.array(), wsl.array()
		got := []any{gw, gl, gcw, gcl}
		if want := []any{ww, wl, wcw, wcl}; !posstageSameBits(got, want) {
			t.Fatalf("trial %d, parts %+v, q %v, v %v: %v, full sums %v", trial, jb.Parts, s.Q, v, got, want)
		}
		if v != nil && spatial.Vec3(gcw).IsFinite() {
			fast++
		}
	}
	if fast < 1000 {
		t.Fatalf("only %d trials with finite sums", fast)
	}
}

// compoundTrial draws a trial's state for the compound walks' tests: random
// coordinates and velocities when random is set, compound2Velocity's
// awkward velocities in every third trial, a NaN coordinate in every
// nanEvery-th, and a nil velocity (the walk without velocities) in every
// eleventh. It returns the state and the velocity to give the walk.
func compoundTrial(r *rand.Rand, m *Model, trial int, random bool, nanEvery int) (*State, []float64) {
	s := m.NewState()
	if random {
		randomize(r, m, s)
	}
	for i := range s.V {
		if trial%3 == 0 {
			s.V[i] = compound2Velocity(r)
		}
	}
	if trial%nanEvery == 0 {
		s.Q[r.IntN(len(s.Q))] = math.NaN()
	}
	var v []float64
	if trial%11 != 0 {
		v = s.V
	}
	return s, v
}
