package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// halfSpaceCylinderVec is halfSpaceCylinder as it was written, with Vec3
// values and a closure for the deepest rim direction: the reference the
// scalar form must match to the bit.
func halfSpaceCylinderVec(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	ax := b.axis(2)
	na := n.Dot(ax)
	r, l := b.s.Radius, b.s.HalfLength
	deepDir := func() spatial.Vec3 { // unit rim direction towards the plane
		p := n.AddScaled(-na, ax)
		u, ok := unit(p.AddScaled(-p.Dot(ax), ax), b.axis(0))
		if !ok || p.Norm() <= flatTol {
			return b.axis(0)
		}
		return u.Neg()
	}
	if math.Abs(na) < capCos {
		u := deepDir()
		var pts [2]planePoint
		for k, z := range [2]float64{-l, l} {
			p := b.pos.AddScaled(z, ax).AddScaled(r, u)
			h := n.Dot(p.Sub(a.pos))
			pts[k] = planePoint{wa: p.AddScaled(-h, n), wb: p, phi: h, feature: faceFeature(false, 0, 2) | uint32(k)}
		}
		return appendKept(out, margin, n, pts[:], 2*l)
	}
	c := b.pos.AddScaled(-sign(na)*l, ax) // centre of the cap facing the plane
	capf := faceFeature(false, 0, boxFaceID(0, -sign(na)))
	var pts [5]planePoint
	q := r * math.Sqrt(0.5)
	ex, ey := b.axis(0), b.axis(1)
	zs := math.Inf(1)
	for k, d := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		p := c.AddScaled(d[0]*q, ex).AddScaled(d[1]*q, ey)
		h := n.Dot(p.Sub(a.pos))
		pts[k] = planePoint{wa: p.AddScaled(-h, n), wb: p, phi: h, feature: capf | uint32(k)}
		zs = math.Min(zs, h)
	}
	np := 4
	p := c.AddScaled(r, deepDir())
	if h := n.Dot(p.Sub(a.pos)); h < zs-deepGap(2*r, margin, h, tieTol*b.size()) || h <= margin && zs > margin {
		pts[4] = planePoint{wa: p.AddScaled(-h, n), wb: p, phi: h, feature: capf | numSlots}
		np = 5
	}
	return appendKept(out, margin, n, pts[:np], 2*r)
}

// TestCol11HalfSpaceCylinder: halfSpaceCylinder gives the contacts of its
// Vec3 form to the bit on random cylinders over random planes: axes
// parallel and perpendicular to the plane (and at the 45° switch), zero
// radius and length, and awkward values (zeros of either sign,
// infinities, NaNs) among the positions, rotations, sizes and margins.
func TestCol11HalfSpaceCylinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 175))
	var seen [6]int // trials by number of contacts
	for trial := range 40000 {
		a := newPosed(Shape{Kind: HalfSpace}, spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		b := newPosed(Shape{Kind: Cylinder, Radius: math.Abs(awkward(rng, 0.2)), HalfLength: math.Abs(awkward(rng, 0.5))},
			spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		switch trial % 11 {
		case 0: // axis along the normal, either way
			b.rot = a.rot
			if rng.IntN(2) == 0 {
				for i := range 3 {
					b.rot[i][1], b.rot[i][2] = -b.rot[i][1], -b.rot[i][2]
				}
			}
		case 1: // axis in the plane
			for i := range 3 {
				b.rot[i][0], b.rot[i][1], b.rot[i][2] = a.rot[i][2], a.rot[i][0], a.rot[i][1]
			}
		case 2: // axis at 45° from the normal
			s := math.Sqrt(0.5)
			for i := range 3 {
				b.rot[i][2] = s*a.rot[i][2] + s*a.rot[i][0]
			}
		case 3:
			b.s.Radius = 0
		case 4:
			b.s.HalfLength = 0
		case 5:
			b.rot[rng.IntN(3)][rng.IntN(3)] = awkward(rng, 1)
		case 6:
			a.rot[rng.IntN(3)][2] = awkward(rng, 1)
		case 7: // standing near the plane, so that points are kept
			b.rot = a.rot
			b.pos = a.pos.AddScaled(b.s.HalfLength+0.01*rng.NormFloat64(), a.axis(2))
		}
		margin := awkward(rng, 1)
		got := halfSpaceCylinder(&a, &b, margin, nil)
		want := halfSpaceCylinderVec(&a, &b, margin, nil)
		if !sameContactsBits(got, want) {
			t.Fatalf("trial %d: %v, the Vec3 form %v", trial, got, want)
		}
		seen[min(len(got), 5)]++
	}
	for k, c := range seen {
		if c == 0 && k != 3 {
			t.Errorf("no trial gave %d contacts: %v", k, seen)
		}
	}
}

// TestGapOverTol: when gapOverTol holds, deepGap's max(tieTol·Hypot(r, l),
// g) is g to the bit, over zeros of both signs, infinities, NaN, tiny and
// huge values.
func TestGapOverTol(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.03, 1e-300, 5e-324, 1e300, math.MaxFloat64,
		1e-14, -1e-14, 2e-12, 2.5e-12, 2.8e-12, 3e-12, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, r := range vals {
		for _, l := range vals {
			for _, g := range vals {
				for _, f := range []float64{1, 1 + 0x1p-52, 1 - 0x1p-53, math.Sqrt2} {
					g := g * f
					if want := max(tieTol*math.Hypot(r, l), g); gapOverTol(r, l, g) && math.Float64bits(g) != math.Float64bits(want) {
						t.Fatalf("gapOverTol(%g, %g, %g), deepGap's max %g", r, l, g, want)
					}
				}
			}
		}
	}
}
