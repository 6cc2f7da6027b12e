package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// halfSpaceBoxRef is halfSpaceBox as it was written before it entered
// facePoints directly: the incident face through faceManifold (its
// clipping buffers, no sides), with the Vec3 forms: the reference the
// new form must match to the bit.
func halfSpaceBoxRef(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	he := &b.s.HalfExtents
	d := axisDots(b, &n)
	low := n.Dot(b.pos.Sub(a.pos))
	for i := range 3 {
		low -= he[i] * math.Abs(d[i])
	}
	if !(low <= margin) {
		return out
	}
	var corners [4]spatial.Vec3
	m, s := incidentFace(b, &d, &corners)
	var ref refFace
	halfSpaceRef(&ref, a, b.axis((m+1)%3))
	w := 2 * math.Hypot(he[(m+1)%3], he[(m+2)%3])
	size := b.s.HalfExtents.Norm()
	out, _, _ = faceManifold(out, margin, &ref, corners[:], b.axis(m).Scale(s), w, faceFeature(false, 0, boxFaceID(m, s)), false, tieTol*size)
	return out
}

// TestCol7HalfSpaceBox: halfSpaceBox gives the contacts of its form
// through faceManifold to the bit, on random boxes (awkward half extents,
// positions and rotation entries: zeros of either sign, infinities, NaNs)
// over random planes, at random margins, and reaches the manifold in
// most trials.
func TestCol7HalfSpaceBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 157))
	reached := 0
	for trial := range 20000 {
		a := newPosed(Shape{Kind: HalfSpace}, spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		if trial%7 == 0 {
			a.rot[rng.IntN(3)][2] = awkward(rng, 1)
		}
		b := randPosedBox(rng)
		if trial%3 == 0 { // resting on the plane, nearly face down
			q := spatial.Quat{W: 1, X: 1e-3 * rng.NormFloat64(), Y: 1e-3 * rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			b = newPosed(Shape{Kind: Box, HalfExtents: spatial.Vec3{0.5, 0.3, 0.2}}, spatial.Pose{R: q, P: spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), 0.2 + 1e-3*rng.NormFloat64()}})
			a = newPosed(Shape{Kind: HalfSpace}, spatial.PoseIdentity())
		}
		margin := awkward(rng, 1)
		if trial%2 == 0 {
			margin = math.Abs(1e-2 * rng.NormFloat64())
		}
		got := halfSpaceBox(&a, &b, margin, nil)
		want := halfSpaceBoxRef(&a, &b, margin, nil)
		if !sameContactsBits(got, want) {
			t.Fatalf("trial %d: %v, through faceManifold %v", trial, got, want)
		}
		if len(want) > 0 {
			reached++
		}
	}
	if reached < 5000 {
		t.Fatalf("%d trials of 20000 gave contacts", reached)
	}
}
