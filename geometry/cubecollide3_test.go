package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// sameBits reports whether a and b are the same floats to the bit, any NaN
// matching any NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func sameVecBits(a, b spatial.Vec3) bool {
	return sameBits(a[0], b[0]) && sameBits(a[1], b[1]) && sameBits(a[2], b[2])
}

// awkward is a value for the random inputs of the bit tests: mostly a
// normal draw of scale s, sometimes a zero of either sign, an infinity or
// a NaN.
func awkward(rng *rand.Rand, s float64) float64 {
	switch rng.IntN(40) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Inf(1 - 2*rng.IntN(2))
	case 3:
		return math.NaN()
	}
	return s * rng.NormFloat64()
}

func awkwardVec(rng *rand.Rand, s float64) spatial.Vec3 {
	return spatial.Vec3{awkward(rng, s), awkward(rng, s), awkward(rng, s)}
}

// randPosedBox is a box of random (sometimes zero, negative or
// non-finite) half extents at a random pose, its rotation matrix sometimes
// with an awkward entry.
func randPosedBox(rng *rand.Rand) posed {
	h := awkwardVec(rng, 1)
	if rng.IntN(2) == 0 {
		h = spatial.Vec3{math.Abs(h[0]), math.Abs(h[1]), math.Abs(h[2])}
	}
	p := newPosed(Shape{Kind: Box, HalfExtents: h}, spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 2)})
	if rng.IntN(10) == 0 {
		p.rot[rng.IntN(3)][rng.IntN(3)] = awkward(rng, 1)
	}
	return p
}

// incidentFaceVec is incidentFace as it was written with Vec3 values and
// rot.Col: the reference the scalar form must match to the bit.
func incidentFaceVec(p *posed, n spatial.Vec3) ([4]spatial.Vec3, int, float64) {
	h := p.s.HalfExtents
	m := 0
	for q := 1; q < 3; q++ {
		if math.Abs(n.Dot(p.rot.Col(q))) > math.Abs(n.Dot(p.rot.Col(m))) {
			m = q
		}
	}
	s := -sign(n.Dot(p.rot.Col(m)))
	c := p.pos.AddScaled(s*h[m], p.rot.Col(m))
	v1 := p.rot.Col((m + 1) % 3).Scale(h[(m+1)%3])
	v2 := p.rot.Col((m + 2) % 3).Scale(h[(m+2)%3])
	return [4]spatial.Vec3{c.Add(v1).Add(v2), c.Sub(v1).Add(v2), c.Sub(v1).Sub(v2), c.Add(v1).Sub(v2)}, m, s
}

// TestCubecollide3IncidentFace: incidentFace (scalars, the rotation read in
// place) gives the Vec3 form's corners, axis and sign to the bit on random
// boxes and directions, with zeros of either sign, infinities and NaNs
// among the half extents, centres, rotations and directions; and
// posed.axis is rot.Col.
func TestCubecollide3IncidentFace(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	for trial := range 20000 {
		p := randPosedBox(rng)
		n := randUnit(rng)
		if trial%3 == 0 {
			n = awkwardVec(rng, 1)
		}
		if trial%7 == 0 { // along an axis: ties between the other two
			n = p.rot.Col(rng.IntN(3))
		}
		d := axisDots(&p, &n)
		var got [4]spatial.Vec3
		gm, gs := incidentFace(&p, &d, &got)
		want, wm, ws := incidentFaceVec(&p, n)
		if gm != wm || !sameBits(gs, ws) {
			t.Fatalf("trial %d: face (%d, %v), the Vec3 form (%d, %v)", trial, gm, gs, wm, ws)
		}
		for k := range got {
			if !sameVecBits(got[k], want[k]) {
				t.Fatalf("trial %d: corner %d %v, the Vec3 form %v", trial, k, got[k], want[k])
			}
		}
		for i := range 3 {
			if !sameVecBits(p.axis(i), p.rot.Col(i)) {
				t.Fatalf("trial %d: axis(%d) %v, rot.Col %v", trial, i, p.axis(i), p.rot.Col(i))
			}
		}
	}
}

// TestCubecollide3RefFaceFrame: refFace.project and refFace.world give
// the Vec3 expressions they replace (the incident polygon's projection and
// its centre, a manifold point's position) to the bit, awkward values
// included, on polygons of 1 to 8 corners.
func TestCubecollide3RefFaceFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	var buf [8]spatial.Vec3
	for trial := range 20000 {
		r := refFace{c: awkwardVec(rng, 3), n: randUnit(rng), u: randUnit(rng), v: randUnit(rng)}
		if trial%4 == 0 {
			r.n, r.u, r.v = awkwardVec(rng, 1), awkwardVec(rng, 1), awkwardVec(rng, 1)
		}
		inc := make([]spatial.Vec3, 1+rng.IntN(8))
		for k := range inc {
			inc[k] = awkwardVec(rng, 3)
		}
		p := clipPoly{v: buf[:]}
		c := r.project(inc, &p)
		var want [2]float64
		for k, w := range inc {
			d := w.Sub(r.c)
			x := spatial.Vec3{d.Dot(r.u), d.Dot(r.v), d.Dot(r.n)}
			if p.n != len(inc) || !sameVecBits(p.v[k], x) {
				t.Fatalf("trial %d: corner %d %v, the Vec3 form %v", trial, k, p.v[k], x)
			}
			want[0] += x[0] / float64(len(inc))
			want[1] += x[1] / float64(len(inc))
		}
		if !sameBits(c[0], want[0]) || !sameBits(c[1], want[1]) {
			t.Fatalf("trial %d: centre %v, the Vec3 form %v", trial, c, want)
		}
		q := awkwardVec(rng, 1)
		var got spatial.Vec3
		r.world(&got, &q)
		if want := r.c.AddScaled(q[0], r.u).AddScaled(q[1], r.v).AddScaled(q[2]/2, r.n); !sameVecBits(got, want) {
			t.Fatalf("trial %d: world %v, the Vec3 form %v", trial, got, want)
		}
	}
}

// boxBoxSATVec is boxBoxSAT as it was written with Mat3 and Vec3 values
// and every face axis of A through overlap: the reference the scalar form
// must match to the bit.
func boxBoxSATVec(a, b *posed, slack float64) satResult {
	rab := a.rot.T().Mul(b.rot)
	t := a.toLocal(b.pos)
	bp := boxPairFrame{ha: a.s.HalfExtents, hb: b.s.HalfExtents, t: t}
	for j := range 3 {
		bp.cols[j] = rab.Col(j)
	}
	tol := tieTol * (a.size() + b.size())
	res := satResult{overlap: math.Inf(1), sep: math.Inf(-1), face: -1}
	consider := func(u spatial.Vec3, o, bias float64, parallelSlack bool, face, edge int) {
		res.sep = max(res.sep, -o)
		if parallelSlack && math.Abs(u.Dot(res.u)) >= faceAlignCos {
			bias += slack
		}
		if res.face < 0 && face >= 0 || o < res.overlap-bias {
			if u.Dot(t) < 0 {
				u = u.Neg()
			}
			res.u, res.overlap, res.face, res.edge = u, o, face, edge
		}
	}
	for i := range 6 {
		var u spatial.Vec3
		if i < 3 {
			u[i] = 1
		} else {
			u = bp.cols[i-3]
		}
		consider(u, bp.overlap(&u), biasOf(res.face < 3 && i >= 3, tol, res.overlap), i >= 3 && res.face < 3, i, -1)
	}
	for i := range 3 {
		for j := range 3 {
			var e spatial.Vec3
			e[i] = 1
			c := e.Cross(bp.cols[j])
			l := c.Norm()
			if l < 1e-6 {
				continue
			}
			u := c.Scale(1 / l)
			consider(u, bp.overlap(&u), biasOf(res.face >= 0, tol, res.overlap), res.face >= 0, -1, 3*i+j)
		}
	}
	res.u = a.rot.MulVec(res.u)
	return res
}

// TestCubecollide3BoxBoxSAT: boxBoxSAT (B's frame set in place, A's face
// axes without dot products when finite, the edge axes in scalars) gives
// the Vec3 form's result to the bit on random box pairs: near and far,
// nearly parallel (axes within a few 1e-4 rad), sharing an axis, with
// zeros of either sign, infinities and NaNs among the extents, centres and
// rotations.
func TestCubecollide3BoxBoxSAT(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 6))
	for trial := range 20000 {
		a, b := randPosedBox(rng), randPosedBox(rng)
		switch trial % 4 {
		case 1: // nearly parallel
			b.rot = a.rot.Mul(spatial.QuatFromAxisAngle(randUnit(rng), 1e-4*rng.NormFloat64()).RotMat())
		case 2: // sharing an axis
			b.rot = a.rot.Mul(spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, rng.Float64()).RotMat())
		}
		slack := math.Abs(awkward(rng, 1e-3))
		got := boxBoxSAT(&a, &b, slack, a.size()+b.size())
		want := boxBoxSATVec(&a, &b, slack)
		if got.face != want.face || got.edge != want.edge || !sameVecBits(got.u, want.u) ||
			!sameBits(got.overlap, want.overlap) || !sameBits(got.sep, want.sep) {
			t.Fatalf("trial %d: %+v, the Vec3 form %+v", trial, got, want)
		}
	}
}

// TestCubecollide3FaceOverlapsA: faceOverlapsA gives overlap(e_i) to the
// bit, on random frames and on frames with a zero of either sign, an
// infinity or a NaN in B's axes or centre (where it must call overlap), and
// on frames whose finite components sum to an overflow.
func TestCubecollide3FaceOverlapsA(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	for trial := range 50000 {
		p := boxPairFrame{ha: awkwardVec(rng, 1), hb: awkwardVec(rng, 1), t: awkwardVec(rng, 3)}
		for j := range 3 {
			p.cols[j] = awkwardVec(rng, 1)
		}
		if trial%50 == 0 {
			p.t = spatial.Vec3{math.MaxFloat64, math.MaxFloat64, 1}
		}
		var got [3]float64
		p.faceOverlapsA(&got)
		for i := range 3 {
			var u spatial.Vec3
			u[i] = 1
			if want := p.overlap(&u); !sameBits(got[i], want) {
				t.Fatalf("trial %d: axis %d: %v (bits %x), overlap %v (bits %x); frame %+v", trial, i, got[i], math.Float64bits(got[i]), want, math.Float64bits(want), p)
			}
		}
	}
}

// TestCubecollide3ClampUnit: clampUnit is clamp(x, 0, 1) to the bit on
// signed zeros, infinities, the ends of the interval and their neighbours,
// subnormals and random values, and a NaN for a NaN.
func TestCubecollide3ClampUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 8))
	xs := []float64{0, math.Copysign(0, -1), 1, math.Nextafter(1, 2), math.Nextafter(1, 0), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, -math.MaxFloat64, 0.5}
	for range 10000 {
		xs = append(xs, awkward(rng, 2))
	}
	for _, x := range xs {
		if got, want := clampUnit(x), clamp(x, 0, 1); !sameBits(got, want) {
			t.Fatalf("clampUnit(%v) = %v (bits %x), clamp %v (bits %x)", x, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}
