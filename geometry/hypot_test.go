package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// hypotCases returns pairs of plane offsets: random ones over many scales,
// near ties (the same norm, or one ulp apart, rotated), and the edges of
// floating point (zeros of both signs, subnormals, huge values, ±Inf, NaN).
func hypotCases() [][4]float64 {
	rng := rand.New(rand.NewPCG(23, 4))
	special := []float64{0, math.Copysign(0, -1), 5e-324, 1e-300, 1e-160, 1e-150, 1, 1e150, 1e160, 1e300,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	var cs [][4]float64
	for _, a := range special {
		for _, b := range special {
			cs = append(cs, [4]float64{a, b, b, a}, [4]float64{a, 1, 1, b}, [4]float64{a, -b, b, 0})
		}
	}
	for range 20000 {
		s := math.Pow(10, rng.Float64()*40-20)
		ax, ay := rng.NormFloat64()*s, rng.NormFloat64()*s
		switch rng.IntN(3) {
		case 0: // independent
			cs = append(cs, [4]float64{ax, ay, rng.NormFloat64() * s, rng.NormFloat64() * s})
		case 1: // the same norm, rotated: a tie up to rounding
			th := rng.Float64() * 2 * math.Pi
			c, sn := math.Cos(th), math.Sin(th)
			cs = append(cs, [4]float64{ax, ay, c*ax - sn*ay, sn*ax + c*ay})
		default: // one ulp apart
			cs = append(cs, [4]float64{ax, ay, math.Nextafter(ax, math.Inf(1)), ay})
		}
	}
	return cs
}

// hypotLess is hypotLessSq with the squared norms formed as production
// forms them: the plain form the tests compare against math.Hypot.
func hypotLess(ax, ay, bx, by float64) bool {
	return hypotLessSq(ax, ay, ax*ax+ay*ay, bx, by, bx*bx+by*by)
}

// TestHypotLessIsHypots: hypotLess and nearPoints (one point) answer as the
// comparisons of math.Hypot values do, on every case (bit-identical
// manifolds).
func TestHypotLessIsHypots(t *testing.T) {
	for _, c := range hypotCases() {
		ax, ay, bx, by := c[0], c[1], c[2], c[3]
		if got, want := hypotLess(ax, ay, bx, by), math.Hypot(ax, ay) < math.Hypot(bx, by); got != want {
			t.Fatalf("hypotLess(%g, %g, %g, %g) = %v, math.Hypot says %v", ax, ay, bx, by, got, want)
		}
		for _, d := range []float64{math.Hypot(bx, by), bx, -math.Abs(bx), math.Nextafter(math.Hypot(ax, ay), 0)} {
			r := newRadius(d)
			// The offset of the one point from the origin is (ax, ay) to the bit (x − 0 = x).
			if got, want := nearPoints([]spatial.Vec3{{ax, ay, 0}}, &spatial.Vec3{}, &r), math.Hypot(ax, ay) <= d; got != want {
				t.Fatalf("nearPoints at (%g, %g), radius %g = %v, math.Hypot says %v", ax, ay, d, got, want)
			}
		}
	}
}

// nearestInPolyHypot is nearestInPoly as it was written first: every
// candidate point in full and its distance by math.Hypot.
func nearestInPolyHypot(p *clipPoly, x, y float64) spatial.Vec3 {
	best, bd := p.v[0], math.Inf(1)
	prev := p.v[p.n-1]
	for _, cur := range p.v[:p.n] {
		ex, ey := cur[0]-prev[0], cur[1]-prev[1]
		l2 := ex*ex + ey*ey
		t := 0.0
		if l2 > 0 {
			t = clamp(((x-prev[0])*ex+(y-prev[1])*ey)/l2, 0, 1)
		}
		q := prev.AddScaled(t, cur.Sub(prev))
		if d := math.Hypot(q[0]-x, q[1]-y); d < bd {
			best, bd = q, d
		}
		prev = cur
	}
	return best
}

// TestNearestInPolyMatchesHypot: nearestInPoly returns bit for bit the
// point of the math.Hypot version on random convex polygons (regular ones
// with random scale, offset and heights, squares whose edge is orthogonal
// to the target direction, degenerate ones with repeated corners) and
// targets around them.
func TestNearestInPolyMatchesHypot(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	var buf, ebuf [16]spatial.Vec3
	for trial := range 20000 {
		p, cx, cy, s := randomClipPoly(rng, trial, buf[:])
		h := math.Sqrt(0.5)
		edges := polyEdges(&p, ebuf[:])
		for _, d := range [][2]float64{{h, h}, {-h, h}, {-h, -h}, {h, -h}, {1, 0}, {rng.NormFloat64(), rng.NormFloat64()}} {
			r := s * (1 + 10*rng.Float64())
			x, y := cx+r*d[0], cy+r*d[1]
			got, want := nearestInPoly(&p, edges, x, y), nearestInPolyHypot(&p, x, y)
			if got != want {
				t.Fatalf("trial %d: nearestInPoly(%v, %g, %g) = %v, the math.Hypot version %v", trial, p.v[:p.n], x, y, got, want)
			}
		}
	}
}

// randomClipPoly makes in buf the convex polygon of trial: a regular one
// of 3 to 8 corners with random scale s (1e-4 to 1e2), centre (cx, cy) and
// heights; every fourth an axis-aligned square (its edges orthogonal to
// the slot directions: ties between corners), every seventh with a
// repeated corner (a zero-length edge).
func randomClipPoly(rng *rand.Rand, trial int, buf []spatial.Vec3) (p clipPoly, cx, cy, s float64) {
	p = clipPoly{v: buf}
	n := 3 + rng.IntN(6)
	s = math.Pow(10, rng.Float64()*6-4)
	cx, cy = rng.NormFloat64(), rng.NormFloat64()
	th0 := rng.Float64() * 2 * math.Pi
	if trial%4 == 0 {
		n, th0 = 4, math.Pi/4
	}
	for k := range n {
		th := th0 + 2*math.Pi*float64(k)/float64(n)
		v := spatial.Vec3{cx + s*math.Cos(th), cy + s*math.Sin(th), rng.NormFloat64() * s}
		p.add(v)
		if trial%7 == 0 && k == 1 {
			p.add(v)
		}
	}
	return p, cx, cy, s
}
