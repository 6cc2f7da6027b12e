package geometry

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// pointsFrom decodes bytes into points: each coordinate is one byte
// (integer grid, many duplicates, collinear and coplanar sets) or, after a
// 0xff marker, a raw float64 (any value, NaN and Inf included).
func pointsFrom(data []byte) []spatial.Vec3 {
	var coords []float64
	for i := 0; i < len(data); i++ {
		if data[i] == 0xff && i+8 < len(data) {
			coords = append(coords, math.Float64frombits(binary.LittleEndian.Uint64(data[i+1:i+9])))
			i += 8
			continue
		}
		coords = append(coords, float64(int8(data[i]))/16)
	}
	var pts []spatial.Vec3
	for i := 0; i+2 < len(coords); i += 3 {
		pts = append(pts, spatial.Vec3{coords[i], coords[i+1], coords[i+2]})
	}
	return pts
}

func fuzzSeeds(f *testing.F) {
	f.Add([]byte{0, 0, 0, 16, 0, 0, 0, 16, 0, 0, 0, 16})
	f.Add([]byte{0, 0, 0, 16, 16, 16, 32, 32, 32, 48, 48, 48})     // collinear
	f.Add([]byte{0, 0, 5, 16, 0, 5, 0, 16, 5, 16, 16, 5, 8, 8, 5}) // coplanar
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})              // duplicates
	f.Add([]byte{16, 16, 16, 240, 16, 16, 16, 240, 16, 16, 16, 240, 240, 240, 240, 240, 240, 16, 16, 240, 240, 240, 16, 240})
}

// FuzzConvexHull: NewConvexHull never panics; it returns an error or a
// hull whose invariants hold (closed convex surface, every point inside,
// positive volume, finite mass properties).
func FuzzConvexHull(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		pts := pointsFrom(data)
		s, err := NewConvexHull(pts)
		if err != nil {
			return
		}
		checkHullInvariants(t, s, pts)
		u, err := s.UnitInertia()
		if err != nil || !u.IsFinite() || !(s.Volume() > 0) || !s.Centroid().IsFinite() {
			t.Fatalf("mass properties: volume %g, centroid %v, inertia %v (%v)", s.Volume(), s.Centroid(), u, err)
		}
	})
}

// FuzzCollideHull: Collide of a fuzzed hull against every kind at a
// fuzzed pose never panics and returns finite contacts with unit normals
// and unique features, in both orders.
func FuzzCollideHull(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		pts := pointsFrom(data)
		s, err := NewConvexHull(pts)
		if err != nil {
			return
		}
		var q [7]float64
		for i := range q {
			if len(data) > i {
				q[i] = float64(int8(data[len(data)-1-i])) / 64
			}
		}
		xb := pose(spatial.Vec3{q[0], q[1], q[2]}, spatial.Quat{W: 1 + q[3], X: q[4], Y: q[5], Z: q[6]}.Normalize())
		for _, o := range otherShapes(t) {
			for _, margin := range []float64{0, 0.1} {
				for _, cs := range [][]Contact{Collide(o, spatial.PoseIdentity(), s, xb, margin, nil), Collide(s, xb, o, spatial.PoseIdentity(), margin, nil)} {
					checkContacts(t, cs, margin, 2*(s.Hull.radius+3))
				}
			}
		}
	})
}
