package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestCubeslide4NearestInPolyN: the fused searches of nearestInPolyN (the
// four slots of faceManifold in one pass over the edges) each return bit
// for bit the point of the math.Hypot version searched alone, on random
// polygons, with targets at the slot directions and, now and then, one
// target NaN or infinite among them (its search must not disturb the
// others').
func TestCubeslide4NearestInPolyN(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 11))
	var buf, ebuf [16]spatial.Vec3
	h := math.Sqrt(0.5)
	for trial := range 20000 {
		p, cx, cy, s := randomClipPoly(rng, trial, buf[:])
		edges := polyEdges(&p, ebuf[:])
		var ss [numSlots]nearSearch
		for k, d := range [numSlots][2]float64{{h, h}, {-h, h}, {-h, -h}, {h, -h}} {
			r := s * (1 + 10*rng.Float64())
			ss[k] = nearSearch{x: cx + r*d[0], y: cy + r*d[1], bk: -1}
		}
		switch trial % 5 {
		case 1:
			ss[rng.IntN(numSlots)].x = math.NaN()
		case 2:
			ss[rng.IntN(numSlots)].y = math.Inf(1 - 2*rng.IntN(2))
		}
		targets := ss
		nearestInPolyN(&p, edges, ss[:])
		for k := range ss {
			got, want := ss[k].point(&p), nearestInPolyHypot(&p, targets[k].x, targets[k].y)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d slot %d: nearestInPolyN(%v, %g, %g) = %v, the math.Hypot version %v",
						trial, k, p.v[:p.n], targets[k].x, targets[k].y, got, want)
				}
			}
		}
	}
}

// clipSideVec3 is clipSide in its Vec3 form, as it was before the
// cubeslide4 pass.
func clipSideVec3(in, out *clipPoly, s sideLine, tol float64) {
	out.n = 0
	if in.n == 0 {
		return
	}
	prev := in.v[in.n-1]
	dp := s.m[0]*prev[0] + s.m[1]*prev[1] - s.off
	for _, cur := range in.v[:in.n] {
		dc := s.m[0]*cur[0] + s.m[1]*cur[1] - s.off
		if (dp <= tol) != (dc <= tol) && dp*dc < 0 {
			out.add(prev.AddScaled(dp/(dp-dc), cur.Sub(prev)))
		}
		if dc <= tol {
			out.add(cur)
		}
		prev, dp = cur, dc
	}
}

// TestCubeslide4ClipSide: clipSide gives bit for bit the polygon of its
// Vec3 form, on random polygons and lines through them (corners on the
// line up to tol, a NaN or infinite corner now and then), into output
// buffers of every room from 0 up (a full buffer drops the rest).
func TestCubeslide4ClipSide(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 12))
	var buf, ga, wa [16]spatial.Vec3
	for trial := range 20000 {
		in, cx, cy, s := randomClipPoly(rng, trial, buf[:])
		switch trial % 9 {
		case 1:
			in.v[rng.IntN(in.n)][rng.IntN(3)] = math.NaN()
		case 2:
			in.v[rng.IntN(in.n)][rng.IntN(2)] = math.Inf(1 - 2*rng.IntN(2))
		}
		th := rng.Float64() * 2 * math.Pi
		m := [2]float64{math.Cos(th), math.Sin(th)}
		line := sideLine{m: m, off: m[0]*cx + m[1]*cy + s*rng.NormFloat64()}
		tol := s * 1e-9
		if trial%3 == 0 { // the line through a corner
			c := in.v[rng.IntN(in.n)]
			line.off = m[0]*c[0] + m[1]*c[1]
		}
		room := rng.IntN(len(ga) + 1)
		got, want := clipPoly{v: ga[:room]}, clipPoly{v: wa[:room]}
		clipSide(&in, &got, line, tol)
		clipSideVec3(&in, &want, line, tol)
		if got.n != want.n {
			t.Fatalf("trial %d: %d corners, the Vec3 form %d", trial, got.n, want.n)
		}
		for k := range got.v[:got.n] {
			for i := range 3 {
				if math.Float64bits(got.v[k][i]) != math.Float64bits(want.v[k][i]) {
					t.Fatalf("trial %d corner %d: %v, the Vec3 form %v", trial, k, got.v[k], want.v[k])
				}
			}
		}
	}
}

// halfSpaceRefVec3 is halfSpaceRef in its Vec3 form, as it was before the
// cubeslide4 pass.
func halfSpaceRefVec3(ref *refFace, a *posed, u spatial.Vec3) {
	ref.n = a.axis(2)
	ref.c = a.pos
	ref.u, _ = unit(u.AddScaled(-u.Dot(ref.n), ref.n), spatial.Vec3{1, 0, 0})
	ref.v = ref.n.Cross(ref.u)
	ref.sides = nil
	ref.width = math.Inf(1)
}

// TestCubeslide4HalfSpaceRef: halfSpaceRef in scalars sets bit for bit the
// frame of its Vec3 form, for random rotations and in-plane hints u, u
// along the normal (the fallback), tiny, huge, zero, infinite and NaN.
func TestCubeslide4HalfSpaceRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 13))
	for trial := range 20000 {
		var a posed
		q := spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		a.rot = q.Scale(1 / math.Sqrt(q.W*q.W+q.X*q.X+q.Y*q.Y+q.Z*q.Z)).RotMat()
		a.pos = spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		u := spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		switch trial % 7 {
		case 1:
			u = a.axis(2).Scale(rng.NormFloat64())
		case 2:
			u = u.Scale(1e-160)
		case 3:
			u = u.Scale(1e300)
		case 4:
			u = spatial.Vec3{}
		case 5:
			u[rng.IntN(3)] = math.Inf(1 - 2*rng.IntN(2))
		case 6:
			u[rng.IntN(3)] = math.NaN()
		}
		var got, want refFace
		halfSpaceRef(&got, &a, u)
		halfSpaceRefVec3(&want, &a, u)
		for _, p := range [][2]spatial.Vec3{{got.n, want.n}, {got.c, want.c}, {got.u, want.u}, {got.v, want.v}} {
			for i := range 3 {
				if math.Float64bits(p[0][i]) != math.Float64bits(p[1][i]) {
					t.Fatalf("trial %d, u %v: frame %v %v, the Vec3 form %v %v", trial, u, got.u, got.v, want.u, want.v)
				}
			}
		}
		if got.width != want.width || len(got.sides) != 0 {
			t.Fatalf("trial %d: width %g, sides %v", trial, got.width, got.sides)
		}
	}
}
