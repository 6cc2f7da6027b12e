package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestCubecollideNearestInPolyScales: nearestInPoly, with its squared-norm
// test in line and its edges formed once by polyEdges, returns bit for
// bit the point of the math.Hypot version on polygons whose squared
// offsets fall below sqLo or above sqHi (where the in-line test must give
// way to hypotLessSq), on near ties (a square whose edge is orthogonal to
// the target direction, targets on its diagonals) and on polygons with a
// repeated corner (squared offsets down to subnormals, where the in-line
// test must not decide). Fails when the in-line test inverts its answer.
func TestCubecollideNearestInPolyScales(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 76))
	var buf, ebuf [16]spatial.Vec3
	scales := []float64{1e-200, 1e-162, 1e-160, 1e-158, 1e-145, 1e-141, 1e-3, 1, 1e138, 1e141, 1e150}
	for trial := range 20000 {
		p := clipPoly{v: buf[:]}
		n := 3 + rng.IntN(8)
		s := scales[rng.IntN(len(scales))] * (0.5 + rng.Float64())
		cx, cy := s*rng.NormFloat64(), s*rng.NormFloat64()
		th0 := rng.Float64() * 2 * math.Pi
		if trial%3 == 0 {
			n, th0 = 4, math.Pi/4
		}
		for k := range n {
			th := th0 + 2*math.Pi*float64(k)/float64(n)
			v := spatial.Vec3{cx + s*math.Cos(th), cy + s*math.Sin(th), rng.NormFloat64() * s}
			p.add(v)
			if trial%5 == 0 && k == 2 {
				p.add(v)
			}
		}
		edges := polyEdges(&p, ebuf[:])
		h := math.Sqrt(0.5)
		for _, d := range [][2]float64{{h, h}, {-h, h}, {1, 0}, {0, -1}, {rng.NormFloat64(), rng.NormFloat64()}} {
			r := s * (1 + 10*rng.Float64())
			if trial%2 == 0 {
				r = s * 10 // a target at the reach of the slots
			}
			x, y := cx+r*d[0], cy+r*d[1]
			got, want := nearestInPoly(&p, edges, x, y), nearestInPolyHypot(&p, x, y)
			if got != want {
				t.Fatalf("trial %d: nearestInPoly(%v, %g, %g) = %v, the math.Hypot version %v", trial, p.v[:p.n], x, y, got, want)
			}
		}
	}
}

// TestCubecollideClipBuffersHoldOctagon: a square incident face turned
// against a square reference face clips to an octagon, the most corners a
// box pair makes (4 corners + 4 sides), which must fit faceManifold's
// smallest clipping buffers whole: the smallest height it returns is that
// of the whole polygon clipped in buffers of maxClipVerts. Fails when the
// smallest buffers hold fewer than 8 corners (a corner is then dropped).
func TestCubecollideClipBuffersHoldOctagon(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 77))
	ref := refFace{
		n: spatial.Vec3{0, 0, 1}, u: spatial.Vec3{1, 0, 0}, v: spatial.Vec3{0, 1, 0},
		sides: []sideLine{{m: [2]float64{1, 0}, off: 1}, {m: [2]float64{-1, 0}, off: 1},
			{m: [2]float64{0, 1}, off: 1}, {m: [2]float64{0, -1}, off: 1}},
		width: 2,
	}
	octagons := 0
	var out []Contact
	for trial := range 2000 {
		th := 0.3 * (rng.Float64() - 0.5)
		r := 1.2 + 0.2*rng.Float64() // half-diagonal: every corner beyond a side
		a, b, c := 0.01*rng.Float64(), 0.1*rng.NormFloat64(), 0.1*rng.NormFloat64()
		inc := make([]spatial.Vec3, 4)
		for k := range inc {
			x, y := r*math.Cos(th+float64(k)*math.Pi/2), r*math.Sin(th+float64(k)*math.Pi/2)
			inc[k] = spatial.Vec3{x, y, a + b*x + c*y}
		}
		incNormal := spatial.Vec3{b, c, -1}.Scale(1 / math.Sqrt(b*b+c*c+1))
		var zmin float64
		var ok bool
		out, zmin, ok = faceManifold(out[:0], 0.01, &ref, inc, incNormal, 2*r, 0, false, 1e-12)
		if !ok {
			t.Fatalf("trial %d: empty polygon", trial)
		}
		// The same clipping in the largest buffers.
		var big [2][maxClipVerts]spatial.Vec3
		p, q := &clipPoly{v: big[0][:]}, &clipPoly{v: big[1][:]}
		for _, w := range inc {
			p.add(spatial.Vec3{w.Dot(ref.u), w.Dot(ref.v), w.Dot(ref.n)})
		}
		for _, s := range ref.sides {
			clipSide(p, q, s, 1e-12)
			p, q = q, p
		}
		want := math.Inf(1)
		for _, v := range p.v[:p.n] {
			want = min(want, v[2])
		}
		if p.n == 8 {
			octagons++
		}
		if zmin != want {
			t.Fatalf("trial %d: faceManifold's smallest height %v, the whole polygon's (%d corners) %v", trial, zmin, p.n, want)
		}
	}
	if octagons < 1000 {
		t.Fatalf("only %d of 2000 trials clipped to an octagon", octagons)
	}
}
