package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// nearPointsOld is nearPoints as it was before pass 183: a call of
// radius.within (kept here) for each point.
func nearPointsOld(pts []spatial.Vec3, q *spatial.Vec3, r *radius) bool {
	for i := range pts {
		if r.withinOld(pts[i][0]-q[0], pts[i][1]-q[1]) {
			return true
		}
	}
	return false
}

func (r *radius) withinOld(ax, ay float64) bool {
	if a2 := ax*ax + ay*ay; r.in && a2 >= sqLo && a2 <= sqHi && (a2 < r.lo || a2 > r.hi) {
		return a2 < r.lo
	}
	return math.Hypot(ax, ay) <= r.d
}

// TestCol12NearPointsMatchesOld: nearPoints answers as the loop of
// radius.within calls it replaced and as math.Hypot's test, on lists of 0
// to 5 points (facePoints' slots) at random offsets over many scales, on
// the radius exactly, one ulp either side, at zero, negative, subnormal,
// huge, infinite and NaN radii and coordinates.
func TestCol12NearPointsMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(183, 12))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, 1e-160, 1, -1, 1e160, 1e300,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	coord := func(s float64) float64 {
		if rng.IntN(8) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * s
	}
	var pts [numSlots + 1]spatial.Vec3
	counts := [2]int{}
	for trial := range 400000 {
		s := math.Pow(10, rng.Float64()*40-20)
		n := rng.IntN(len(pts) + 1)
		for i := range pts[:n] {
			pts[i] = spatial.Vec3{coord(s), coord(s), coord(s)}
		}
		q := spatial.Vec3{coord(s), coord(s), coord(s)}
		var d float64
		switch k := rng.IntN(6); {
		case k == 0:
			d = special[rng.IntN(len(special))]
		case k <= 3 && n > 0: // on a point's distance, or one ulp either side
			i := rng.IntN(n)
			d = math.Hypot(pts[i][0]-q[0], pts[i][1]-q[1])
			switch rng.IntN(3) {
			case 1:
				d = math.Nextafter(d, math.Inf(1))
			case 2:
				d = math.Nextafter(d, math.Inf(-1))
			}
		default:
			d = math.Abs(rng.NormFloat64()) * s
		}
		r := newRadius(d)
		got, want := nearPoints(pts[:n], &q, &r), nearPointsOld(pts[:n], &q, &r)
		if got != want {
			t.Fatalf("trial %d: nearPoints(%v, %v, radius %g) = %v, the old loop says %v", trial, pts[:n], q, d, got, want)
		}
		hyp := false
		for i := range pts[:n] {
			hyp = hyp || math.Hypot(pts[i][0]-q[0], pts[i][1]-q[1]) <= d
		}
		if got != hyp {
			t.Fatalf("trial %d: nearPoints(%v, %v, radius %g) = %v, math.Hypot says %v", trial, pts[:n], q, d, got, hyp)
		}
		if got {
			counts[1]++
		} else {
			counts[0]++
		}
	}
	if counts[0] < 1000 || counts[1] < 1000 {
		t.Fatalf("near and not near: %v, want both at least 1000", counts)
	}
}

// pointOld is nearSearch.point as it was before pass 183 (a Vec3 result).
func (s *nearSearch) pointOld(p *clipPoly) spatial.Vec3 {
	if s.bk < 0 {
		return p.v[0]
	}
	j := s.bk - 1
	if j < 0 {
		j = p.n - 1
	}
	prev, cur := &p.v[j], &p.v[s.bk]
	bt := s.bt
	return spatial.Vec3{prev[0] + bt*(cur[0]-prev[0]), prev[1] + bt*(cur[1]-prev[1]), prev[2] + bt*(cur[2]-prev[2])}
}

// TestCol12PointToMatchesOld: pointTo (facePoints' slots, in place) and
// point set the old point to the bit, on random polygons of 1 to 8 corners,
// every corner as bk (and −1, no best), parameters 0, 1 and between, with
// special coordinates (±0, subnormal, huge, ±Inf, NaN).
func TestCol12PointToMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(183, 13))
	special := []float64{0, math.Copysign(0, -1), 5e-324, 1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	same := func(a, b spatial.Vec3) bool {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
				return false
			}
		}
		return true
	}
	var v [8]spatial.Vec3
	for trial := range 100000 {
		n := 1 + rng.IntN(len(v))
		for i := range v[:n] {
			for c := range v[i] {
				if rng.IntN(10) == 0 {
					v[i][c] = special[rng.IntN(len(special))]
				} else {
					v[i][c] = rng.NormFloat64() * math.Pow(10, rng.Float64()*10-5)
				}
			}
		}
		p := clipPoly{v: v[:], n: n}
		s := nearSearch{bk: rng.IntN(n+1) - 1}
		switch rng.IntN(4) {
		case 0:
			s.bt = 0
		case 1:
			s.bt = 1
		default:
			s.bt = rng.Float64()
		}
		want := s.pointOld(&p)
		q := spatial.Vec3{math.NaN(), 7, -7} // overwritten whole
		s.pointTo(&p, &q)
		if got := s.point(&p); !same(q, want) || !same(got, want) {
			t.Fatalf("trial %d: bk %d, bt %g: pointTo %v, point %v, want %v", trial, s.bk, s.bt, q, got, want)
		}
	}
}

// TestCol12PolyEdgesZMatchesOld: polyEdgesZ's edges are polyEdges' as they
// were formed (kept here) and its height is facePoints' old loop of
// minKeep over the corners, to the bit, on random polygons of 0 to 8
// corners with ±0, subnormal, huge, infinite and NaN coordinates.
func TestCol12PolyEdgesZMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(183, 15))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	bits := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	var v, buf, want [8]spatial.Vec3
	for trial := range 100000 {
		n := rng.IntN(len(v) + 1)
		for i := range v[:n] {
			for c := range v[i] {
				if rng.IntN(6) == 0 {
					v[i][c] = special[rng.IntN(len(special))]
				} else {
					v[i][c] = rng.NormFloat64()
				}
			}
		}
		p := clipPoly{v: v[:], n: n}
		zw := math.Inf(1)
		for i := range v[:n] {
			zw = minKeep(zw, v[i][2])
			j := (i + n - 1) % n
			ex, ey := v[i][0]-v[j][0], v[i][1]-v[j][1]
			want[i] = spatial.Vec3{ex, ey, ex*ex + ey*ey}
		}
		e, z := polyEdgesZ(&p, buf[:])
		if len(e) != n || !bits(z, zw) {
			t.Fatalf("trial %d: %d edges, zmin %v; want %d, %v", trial, len(e), z, n, zw)
		}
		for i := range e {
			for c := range e[i] {
				if !bits(e[i][c], want[i][c]) && !(math.IsNaN(e[i][c]) && math.IsNaN(want[i][c])) {
					t.Fatalf("trial %d: edge %d = %v, want %v", trial, i, e[i], want[i])
				}
			}
		}
	}
}
