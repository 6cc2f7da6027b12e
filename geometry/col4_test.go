package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestPairMatchesCollide: a Pair chosen once for two kinds (PairFor)
// collides two shapes of those kinds, in either order and at random
// poses near one another, as Collide does, to the bit: every kind against
// every kind (a hull, a height field, an invalid sphere and a non-finite
// pose among them). It fails when PairFor picks another collider, skips
// the swap of a pair given against the kinds' order, or drops the
// validity checks.
func TestPairMatchesCollide(t *testing.T) {
	r := newRand(41)
	hull, err := NewConvexHull([]spatial.Vec3{{0.4, 0, 0}, {-0.3, 0.3, 0}, {-0.2, -0.4, 0.1}, {0, 0, 0.5}, {0.1, 0.1, -0.4}})
	if err != nil {
		t.Fatal(err)
	}
	field, err := NewHeightMap(3, 3, 1, 1, 0.2, []float64{0, 0.1, 0, 0.2, 0.3, 0.1, 0, 0.1, 0})
	if err != nil {
		t.Fatal(err)
	}
	shapes := []Shape{
		NewHalfSpace(), randShape(r, Sphere), randShape(r, Box), randShape(r, Capsule), randShape(r, Cylinder),
		NewEllipsoid(spatial.Vec3{0.3, 0.5, 0.2}), hull, NewHeightFieldShape(field), NewSphere(0),
	}
	touched := 0
	for _, a := range shapes {
		for _, b := range shapes {
			p := PairFor(a.Kind, b.Kind)
			for k := range 40 {
				xa := pose(spatial.Vec3{uniform(r, -0.3, 0.3), uniform(r, -0.3, 0.3), uniform(r, -0.3, 0.3)}, randQuat(r))
				xb := pose(spatial.Vec3{uniform(r, -0.6, 0.6), uniform(r, -0.6, 0.6), uniform(r, 0, 0.9)}, randQuat(r))
				if k == 0 {
					xb.P[1] = math.NaN()
				}
				margin := uniform(r, 0, 0.2)
				var pa, pb Posed
				pa.Set(&a, &xa)
				pb.SetShape(&b)
				pb.Move(&xb)
				got := p.Collide(&pa, &pb, margin, nil)
				want := Collide(a, xa, b, xb, margin, nil)
				if !sameContacts(got, want) {
					t.Fatalf("kinds %v and %v: Pair's contacts %+v, Collide's %+v", a.Kind, b.Kind, got, want)
				}
				touched += len(want)
			}
		}
	}
	if touched < 500 {
		t.Errorf("only %d contacts: the poses do not test the colliders", touched)
	}
}

// sameContacts reports whether a and b hold the same contacts to the bit.
func sameContacts(a, b []Contact) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Feature != y.Feature {
			return false
		}
		u := [...]float64{x.Point[0], x.Point[1], x.Point[2], x.Normal[0], x.Normal[1], x.Normal[2], x.Phi}
		v := [...]float64{y.Point[0], y.Point[1], y.Point[2], y.Normal[0], y.Normal[1], y.Normal[2], y.Phi}
		for k := range u {
			if math.Float64bits(u[k]) != math.Float64bits(v[k]) {
				return false
			}
		}
	}
	return true
}

// TestBoxAtBoxMatchesPlain: a box's BoxAt (boxAABB, its matrix read in
// place) gives, to the bit, the box of aabbMat's plain expressions
// (the rotation matrix by value, e_i = Σ_k |r_ik| h_k, p ∓ e), at random
// poses, unnormalized quaternions and non-finite positions among them.
func TestBoxAtBoxMatchesPlain(t *testing.T) {
	r := newRand(43)
	for k := range 2000 {
		s := randShape(r, Box)
		x := pose(spatial.Vec3{uniform(r, -5, 5), uniform(r, -5, 5), uniform(r, -5, 5)}, randQuat(r))
		switch k % 7 {
		case 1:
			x.R = x.R.Scale(uniform(r, 0.5, 2))
		case 2:
			x.P[k%3] = math.Inf(1)
		case 3:
			x.R.X = math.NaN()
		}
		rot := x.R.RotMat()
		var e spatial.Vec3
		for i := range 3 {
			e[i] = math.Abs(rot[i][0])*s.HalfExtents[0] + math.Abs(rot[i][1])*s.HalfExtents[1] + math.Abs(rot[i][2])*s.HalfExtents[2]
		}
		want := AABB{Min: x.P.Sub(e), Max: x.P.Add(e)}
		got := s.BoxAt(&x)
		for i := range 3 {
			if math.Float64bits(got.Min[i]) != math.Float64bits(want.Min[i]) || math.Float64bits(got.Max[i]) != math.Float64bits(want.Max[i]) {
				t.Fatalf("pose %+v: BoxAt %+v, plain %+v", x, got, want)
			}
		}
	}
}
