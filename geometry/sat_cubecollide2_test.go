package geometry

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// overlapClosure is boxBoxSAT's overlap as it was written before
// boxPairFrame (a closure over the half extents, B's axes and centre): the
// reference the method must match to the bit.
func overlapClosure(ha, hb spatial.Vec3, cols [3]spatial.Vec3, t spatial.Vec3) func(u spatial.Vec3) float64 {
	return func(u spatial.Vec3) float64 {
		ra := ha[0]*math.Abs(u[0]) + ha[1]*math.Abs(u[1]) + ha[2]*math.Abs(u[2])
		rb := hb[0]*math.Abs(u.Dot(cols[0])) + hb[1]*math.Abs(u.Dot(cols[1])) + hb[2]*math.Abs(u.Dot(cols[2]))
		return ra + rb - math.Abs(u.Dot(t))
	}
}

// TestCubecollide2OverlapBits checks boxPairFrame.overlap against the old
// closure on random boxes, poses and axes (the 15 SAT axes' kinds: unit
// vectors, B's axes, normalised cross products), including zeros, signed
// zeros and non-finite centres: the same bits every time.
func TestCubecollide2OverlapBits(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	vec := func(s float64) spatial.Vec3 {
		return spatial.Vec3{s * rng.NormFloat64(), s * rng.NormFloat64(), s * rng.NormFloat64()}
	}
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}
	for trial := range 2000 {
		axis, _ := vec(1).Normalize()
		q := spatial.QuatFromAxisAngle(axis, 4*rng.Float64())
		r := q.RotMat()
		p := boxPairFrame{ha: vec(1), hb: vec(1), t: vec(2)}
		for k := range 3 {
			p.ha[k], p.hb[k] = math.Abs(p.ha[k]), math.Abs(p.hb[k])
			p.cols[k] = r.Col(k)
		}
		if trial%10 == 0 {
			p.t[trial/10%3] = specials[trial/30%len(specials)]
		}
		ref := overlapClosure(p.ha, p.hb, p.cols, p.t)
		axes := []spatial.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, p.cols[0], p.cols[1], p.cols[2]}
		for i := range 3 {
			var e spatial.Vec3
			e[i] = 1
			for j := range 3 {
				if c := e.Cross(p.cols[j]); c.Norm() > 1e-6 {
					axes = append(axes, c.Scale(1/c.Norm()))
				}
			}
		}
		for _, u := range axes {
			got, want := p.overlap(&u), ref(u)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("trial %d, axis %v: overlap %v (bits %x), closure %v (bits %x)", trial, u, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
	}
}
