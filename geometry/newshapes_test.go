package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// otherShapes returns one shape of every kind (a box-shaped hull and a
// hexagonal prism for hulls) for pairing with the new kinds.
func otherShapes(t testing.TB) []Shape {
	return []Shape{NewHalfSpace(), NewSphere(0.3), NewBox(spatial.Vec3{0.5, 0.7, 0.4}), NewCapsule(0.2, 0.6),
		NewCylinder(0.25, 0.5), NewEllipsoid(spatial.Vec3{0.2, 0.35, 0.3}),
		mustHull(t, boxPoints(spatial.Vec3{0.3, 0.2, 0.25}, pose(v3(0.05, -0.02, 0.03), rotAbout(v3(1, 2, 3), 30)))),
		prism(t, 6, 0.3, 0.15)}
}

// TestHullMatchesBox: a hull built from a box's corners collides like the
// box against every kind, in both orders (collideBoth): the same signed
// distance (deepest Phi, at margin 0 when they overlap) to 1e-9 of the
// size, for random poses, separated (margin 5) and overlapping.
func TestHullMatchesBox(t *testing.T) {
	r := newRand(91)
	h := spatial.Vec3{0.3, 0.45, 0.2}
	box := NewBox(h.Scale(2))
	hull := mustHull(t, boxPoints(h, spatial.PoseIdentity()))
	for oi, o := range otherShapes(t) {
		for trial := range 40 {
			xa := pose(randUnit(r).Scale(uniform(r, 0, 0.6)), randQuat(r))
			xo := pose(randUnit(r).Scale(uniform(r, 0, 0.6)), randQuat(r))
			scale := 2.0
			cb := collideBoth(t, box, xa, o, xo, 5)
			ch := collideBoth(t, hull, xa, o, xo, 5)
			if len(cb) == 0 || len(ch) == 0 {
				if len(cb) != len(ch) {
					t.Fatalf("other %d trial %d: %d box contacts, %d hull contacts", oi, trial, len(cb), len(ch))
				}
				continue
			}
			if deepest(cb).Phi < 0 {
				cb = collideBoth(t, box, xa, o, xo, 0)
				ch = collideBoth(t, hull, xa, o, xo, 0)
			}
			db, dh := deepest(cb), deepest(ch)
			tol := 1e-9 * scale
			if o.Kind == Cylinder || o.Kind == Ellipsoid { // GJK/EPA on a curved surface
				tol = 1e-7 * scale
			}
			face := db.Feature&featFace != 0 && dh.Feature&featFace != 0
			if db.Phi > 0 && face { // separated nearly parallel faces: see TestCollideMatchesOracle
				tol = math.Sin(1*math.Pi/180) * scale
			}
			if math.Abs(db.Phi-dh.Phi) > tol {
				t.Fatalf("%v (other %d) trial %d: box deepest %+v, hull deepest %+v", o.Kind, oi, trial, db, dh)
			}
		}
	}
}

// TestEllipsoidClosedForms: an ellipsoid with equal radii collides like a
// sphere against every kind (GJK/EPA to 1e-7 of the size), and on a
// half-space its Phi is the closed form h − ‖D Rᵀ n‖ (D = diag(radii)).
func TestEllipsoidClosedForms(t *testing.T) {
	r := newRand(92)
	sphere, ell := NewSphere(0.3), NewEllipsoid(spatial.Vec3{0.3, 0.3, 0.3})
	for oi, o := range otherShapes(t) {
		for trial := range 30 {
			xa := pose(randUnit(r).Scale(uniform(r, 0, 0.5)), randQuat(r))
			xo := pose(randUnit(r).Scale(uniform(r, 0, 0.5)), randQuat(r))
			cs, ce := collideBoth(t, sphere, xa, o, xo, 5), collideBoth(t, ell, xa, o, xo, 5)
			if len(cs) == 0 || len(ce) == 0 {
				continue
			}
			if math.Abs(deepest(cs).Phi-deepest(ce).Phi) > 1e-7 {
				t.Fatalf("other %d (%v) trial %d: sphere %+v, ellipsoid %+v", oi, o.Kind, trial, deepest(cs), deepest(ce))
			}
		}
	}
	e := NewEllipsoid(spatial.Vec3{0.2, 0.5, 0.3})
	for range 50 {
		xg := pose(randUnit(r), randQuat(r))
		xe := pose(randUnit(r).Scale(0.5).Add(xg.P), randQuat(r))
		n := xg.R.Rotate(ez)
		d := xe.R.Conj().Rotate(n).Mul(e.Radii)
		want := n.Dot(xe.P.Sub(xg.P)) - d.Norm()
		cs := collideBoth(t, NewHalfSpace(), xg, e, xe, 5)
		if want > 5 {
			continue
		}
		if len(cs) != 1 || math.Abs(cs[0].Phi-want) > 1e-12 || !vecClose(cs[0].Normal, n, 1e-12) {
			t.Fatalf("ellipsoid on half-space: %+v, want Phi %g", cs, want)
		}
	}
}

// TestNewShapesPhiDerivative: for every pair with a new kind, in both
// orders, translating B by ±ε along the deepest contact's normal changes
// its Phi by ±ε (central difference, ε = 1e-6 of the size), and rotating
// changes nothing when the contact is single-point and B is a sphere
// about its centre... (covered by the translation check only).
func TestNewShapesPhiDerivative(t *testing.T) {
	r := newRand(93)
	news := []Shape{NewEllipsoid(spatial.Vec3{0.2, 0.35, 0.3}), prism(t, 7, 0.3, 0.2)}
	for _, a := range news {
		for oi, o := range otherShapes(t) {
			for trial := range 20 {
				xa := pose(randUnit(r).Scale(uniform(r, 0, 0.4)), randQuat(r))
				xo := pose(randUnit(r).Scale(uniform(r, 0, 0.4)), randQuat(r))
				for _, swap := range []bool{false, true} {
					sa, pa, sb, pb := a, xa, o, xo
					if swap {
						sa, pa, sb, pb = o, xo, a, xa
					}
					if sb.Kind == HalfSpace {
						continue
					}
					cs := collideBoth(t, sa, pa, sb, pb, 0)
					if len(cs) == 0 {
						continue
					}
					d := deepest(cs)
					eps := 1e-6
					phiAt := func(s float64) float64 {
						x := pb
						x.P = x.P.AddScaled(s, d.Normal)
						c := Collide(sa, pa, sb, x, 1, nil)
						return deepest(c).Phi
					}
					g := (phiAt(eps) - phiAt(-eps)) / (2 * eps)
					if math.Abs(g-1) > 1e-3 {
						t.Fatalf("%v-%v (other %d) trial %d swap %v: dPhi/ds = %g along the normal, want 1", sa.Kind, sb.Kind, oi, trial, swap, g)
					}
				}
			}
		}
	}
}

// TestCollideNewShapesAllocatesNothing: Collide with hulls and ellipsoids
// does not allocate when out has room.
func TestCollideNewShapesAllocatesNothing(t *testing.T) {
	hex := prism(t, 6, 0.06, 0.025)
	out := make([]Contact, 0, 8)
	for _, o := range otherShapes(t) {
		for _, s := range []Shape{hex, prism(t, 40, 0.06, 0.025), NewEllipsoid(spatial.Vec3{0.1, 0.2, 0.15})} {
			xa, xb := at(0, 0, 0), pose(v3(0.02, 0.01, 0.1), rotAbout(v3(1, 1, 0), 3))
			if o.Kind == s.Kind { // resting face on face: the clipping buffers
				xb = at(0.002, 0.001, 0.0499)
			}
			if n := testing.AllocsPerRun(50, func() { out = Collide(o, xa, s, xb, 0.5, out[:0]) }); n != 0 {
				t.Errorf("%v-%v: %v allocations per call", o.Kind, s.Kind, n)
			}
		}
	}
}
