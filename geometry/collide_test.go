package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// Randomised tests of Collide for every pair of kinds against the oracle
// of helpers_test.go, the signed-distance gradient, degenerate inputs,
// determinism and allocations.

// kindPairs lists every unordered pair of kinds (a ≤ b), with two
// half-spaces when withPlanes is set.
func kindPairs(withPlanes bool) [][2]Kind {
	var ps [][2]Kind
	for _, a := range allKinds {
		for _, b := range allKinds {
			if a <= b && (withPlanes || !(a == HalfSpace && b == HalfSpace)) {
				ps = append(ps, [2]Kind{a, b})
			}
		}
	}
	return ps
}

// usesGJK reports whether the pair goes through GJK/EPA.
func usesGJK(a, b Kind) bool {
	return (a == Cylinder || b == Cylinder) && a != HalfSpace && b != HalfSpace
}

// randomPair places b near a: for a half-space a, at a height between −0.6
// and 1.2 times b's size; otherwise with centres up to 1.1 times the sum of
// the sizes apart, so that pairs range from deep overlap to separation.
func randomPair(r *rand.Rand, ka, kb Kind) (Shape, spatial.Pose, Shape, spatial.Pose) {
	a, b := randShape(r, ka), randShape(r, kb)
	xa := pose(randUnit(r).Scale(uniform(r, 0, 2)), randQuat(r))
	var pb spatial.Vec3
	if ka == HalfSpace {
		n := xa.R.Rotate(ez)
		t1, t2 := spatial.Orthonormal(n)
		pb = xa.P.AddScaled(uniform(r, -0.6, 1.2)*shapeSize(b), n).AddScaled(uniform(r, -3, 3), t1).AddScaled(uniform(r, -3, 3), t2)
	} else {
		pb = xa.P.Add(randUnit(r).Scale(uniform(r, 0, 1.1) * (shapeSize(a) + shapeSize(b))))
	}
	return a, xa, b, pose(pb, randQuat(r))
}

// supportValue returns max over the shape of d·x (+Inf for a half-space
// unless d is along its outward normal).
func supportValue(s Shape, x spatial.Pose, d spatial.Vec3) float64 {
	if s.Kind == HalfSpace {
		n := x.R.Rotate(ez)
		if d.Cross(n).Norm() > 1e-9*d.Norm() || d.Dot(n) <= 0 {
			return math.Inf(1)
		}
		return d.Dot(x.P)
	}
	return d.Dot(supportShape(s, x, d))
}

// separationAlong returns the gap between the shapes along the unit n
// (from A to B): min over B of n·x − max over A of n·x. The signed distance
// is its maximum over n, reached at the true contact normal.
func separationAlong(a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, n spatial.Vec3) float64 {
	return -supportValue(b, xb, n.Neg()) - supportValue(a, xa, n)
}

func TestCollideMatchesOracle(t *testing.T) {
	r := newRand(11)
	for _, kp := range kindPairs(false) {
		ka, kb := kp[0], kp[1]
		t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
			for i := range 40 {
				a, xa, b, xb := randomPair(r, ka, kb)
				scale := shapeSize(a) + shapeSize(b)
				cs := collideBoth(t, a, xa, b, xb, 10)
				if len(cs) == 0 {
					t.Fatalf("case %d: no contact within margin 10", i)
				}
				phi, n := oracle(a, xa, b, xb)
				if phi < 0 {
					// Flat manifolds report the exact depth at margin 0
					// (deepGap, faceSlack scale with the margin).
					cs = collideBoth(t, a, xa, b, xb, 0)
				}
				d := deepest(cs)
				sep := separationAlong(a, xa, b, xb, d.Normal)
				// No contact is deeper than the gap along its own normal.
				for _, c := range cs {
					if s := separationAlong(a, xa, b, xb, c.Normal); c.Phi < s-1e-9*scale {
						t.Fatalf("case %d: contact %+v deeper than the gap %g along its normal", i, c, s)
					}
				}
				// The deepest contact's normal achieves the signed distance...
				tol := 1e-9 * scale
				if phi > 0 && d.Feature&featFace != 0 && d.Normal.Dot(n) < 1-1e-9 {
					// ...except for separated, nearly parallel faces (within
					// 1° of the closest direction), whose face manifold
					// measures heights along the reference face's normal:
					// then only within sin 1° of the pair's size.
					if math.Abs(d.Phi-phi) > math.Sin(1*math.Pi/180)*scale || d.Normal.Dot(n) < faceAngleCos-1e-9 {
						t.Fatalf("case %d: face manifold at Phi %g, normal %v; signed distance %g along %v", i, d.Phi, d.Normal, phi, n)
					}
					continue
				}
				if phi-sep > tol {
					t.Fatalf("case %d: gap %g along normal %v, signed distance %g along %v", i, sep, d.Normal, phi, n)
				}
				// ...and the deepest Phi is the signed distance.
				if math.Abs(d.Phi-phi) > tol {
					t.Fatalf("case %d: deepest Phi %.12g, signed distance %.12g (%d contacts)", i, d.Phi, phi, len(cs))
				}
				// Beyond the margin nothing is reported.
				if cs := Collide(a, xa, b, xb, phi-1e-5*scale, nil); len(cs) != 0 {
					t.Fatalf("case %d: contacts %+v with margin below the signed distance %g", i, cs, phi)
				}
			}
		})
	}
}

// TestCollideNormalsMatchOracle checks the normal directly for the pairs
// whose normal is unique and analytic (no EPA, no face ties).
func TestCollideNormalsMatchOracle(t *testing.T) {
	r := newRand(12)
	for _, kp := range kindPairs(false) {
		ka, kb := kp[0], kp[1]
		if usesGJK(ka, kb) || ka == Box {
			continue // box normals are covered by the gap test above (face normals are not unique at ties)
		}
		for i := range 20 {
			a, xa, b, xb := randomPair(r, ka, kb)
			cs := Collide(a, xa, b, xb, 10, nil)
			_, n := oracle(a, xa, b, xb)
			if d := deepest(cs); !vecClose(d.Normal, n, 1e-6) {
				t.Fatalf("%v-%v case %d: normal %v, oracle %v", ka, kb, i, d.Normal, n)
			}
		}
	}
}

func TestCollideGradient(t *testing.T) {
	r := newRand(13)
	for _, kp := range kindPairs(false) {
		ka, kb := kp[0], kp[1]
		for i := range 25 {
			a, xa, b, xb := randomPair(r, ka, kb)
			cs := Collide(a, xa, b, xb, 10, nil)
			if len(cs) == 0 {
				t.Fatalf("%v-%v case %d: no contact", ka, kb, i)
			}
			n := deepest(cs).Normal
			eps := 1e-6 * (shapeSize(a) + shapeSize(b))
			phiAt := func(s float64) float64 {
				x := xb
				x.P = x.P.AddScaled(s, n)
				return deepest(Collide(a, xa, b, x, 10, nil)).Phi
			}
			slope := (phiAt(eps) - phiAt(-eps)) / (2 * eps)
			if math.Abs(slope-1) > 1e-5 {
				t.Fatalf("%v-%v case %d: dPhi/ds along the normal = %.9f, want 1", ka, kb, i, slope)
			}
		}
	}
}

// TestCollideDegenerate feeds every pair (both orders, both half-spaces
// included) with coincident centres, identical poses, axis-aligned
// orientations on a coarse grid (exact ties and touching), tiny gaps and
// extreme size ratios, and checks that results are finite with unit
// normals, swap-symmetric and bit-for-bit repeatable.
func TestCollideDegenerate(t *testing.T) {
	r := newRand(14)
	quarter := func() spatial.Quat {
		q := spatial.QuatIdentity()
		for range 3 {
			axis := [3]spatial.Vec3{ex, ey, ez}[r.IntN(3)]
			q = q.Mul(rotAbout(axis, 90*float64(r.IntN(4))))
		}
		return q
	}
	grid := func() spatial.Vec3 {
		return spatial.Vec3{0.25 * float64(r.IntN(9)-4), 0.25 * float64(r.IntN(9)-4), 0.25 * float64(r.IntN(9)-4)}
	}
	for _, kp := range kindPairs(true) {
		for mode := range 6 {
			for range 30 {
				a, xa, b, xb := randomPair(r, kp[0], kp[1])
				switch mode {
				case 0: // coincident centres
					xb.P = xa.P
				case 1: // identical poses
					xb = xa
				case 2: // axis-aligned on a grid
					xa, xb = pose(grid(), quarter()), pose(grid(), quarter())
				case 3: // grid with exact round dimensions
					a, b = roundShape(r, kp[0]), roundShape(r, kp[1])
					xa, xb = pose(grid(), quarter()), pose(grid(), quarter())
				case 4: // extreme size ratio
					a, b = scaleShape(a, 1e-3), scaleShape(b, 10)
				case 5: // barely touching: move b to a gap of 1e-12 along the contact normal
					if cs := Collide(a, xa, b, xb, 10, nil); len(cs) > 0 {
						d := deepest(cs)
						xb.P = xb.P.AddScaled(1e-12-d.Phi, d.Normal)
					}
				}
				first := collideBoth(t, a, xa, b, xb, 0.5)
				again := Collide(a, xa, b, xb, 0.5, nil)
				if len(first) != len(again) {
					t.Fatalf("repeat gave %d contacts, first %d", len(again), len(first))
				}
				for i := range first {
					if first[i] != again[i] {
						t.Fatalf("repeat differs: %+v vs %+v", first[i], again[i])
					}
				}
			}
		}
	}
}

// roundShape returns a shape with dimensions that are multiples of 0.25.
func roundShape(r *rand.Rand, k Kind) Shape {
	q := func() float64 { return 0.25 * float64(1+r.IntN(4)) }
	switch k {
	case Sphere:
		return NewSphere(q())
	case Box:
		return boxH(q(), q(), q())
	case Capsule:
		return capsuleH(q(), q())
	case Cylinder:
		return cylinderH(q(), q())
	}
	return NewHalfSpace()
}

func scaleShape(s Shape, f float64) Shape {
	s.Radius *= f
	s.HalfLength *= f
	s.HalfExtents = s.HalfExtents.Scale(f)
	return s
}

func TestCollideRejectsBadInput(t *testing.T) {
	s := NewSphere(1)
	id := spatial.PoseIdentity()
	nan := math.NaN()
	for _, c := range []struct {
		name   string
		a, b   Shape
		xa, xb spatial.Pose
	}{
		{"NaN position", s, s, at(nan, 0, 0), id},
		{"Inf position", s, s, id, at(0, math.Inf(1), 0)},
		{"NaN rotation", s, s, pose(spatial.Vec3{}, spatial.Quat{W: nan}), id},
		{"NaN radius", NewSphere(nan), s, id, id},
		{"zero radius", NewSphere(0), s, id, id},
		{"zero box", boxH(1, 0, 1), s, id, id},
		{"negative radius", NewSphere(-1), s, id, id},
		{"unknown kind", Shape{Kind: 7, Radius: 1}, s, id, id},
		{"two half-spaces", NewHalfSpace(), NewHalfSpace(), id, pose(spatial.Vec3{}, rotAbout(ex, 180))},
	} {
		if cs := Collide(c.a, c.xa, c.b, c.xb, 1, nil); len(cs) != 0 {
			t.Errorf("%s: got %+v, want no contacts", c.name, cs)
		}
	}
}

// TestCollideUnnormalisedQuaternion checks that poses whose quaternion is
// off unit length are treated as the normalised rotation.
func TestCollideUnnormalisedQuaternion(t *testing.T) {
	a, b := boxH(0.5, 0.4, 0.3), NewSphere(0.2)
	q := rotAbout(v3(1, 2, 3), 40)
	xa := pose(v3(0, 0, 0), q.Scale(1.7))
	want := Collide(a, pose(v3(0, 0, 0), q), b, at(0.3, 0.5, 0.2), 1, nil)
	got := Collide(a, xa, b, at(0.3, 0.5, 0.2), 1, nil)
	if len(got) != 1 || len(want) != 1 || math.Abs(got[0].Phi-want[0].Phi) > 1e-12 || !vecClose(got[0].Normal, want[0].Normal, 1e-12) {
		t.Fatalf("scaled quaternion gave %+v, unit %+v", got, want)
	}
}

func TestCollideAllocs(t *testing.T) {
	r := newRand(15)
	for _, kp := range kindPairs(false) {
		a, xa, b, xb := randomPair(r, kp[0], kp[1])
		for _, swap := range []bool{false, true} {
			if swap {
				a, xa, b, xb = b, xb, a, xa
			}
			out := make([]Contact, 0, 8)
			out = Collide(a, xa, b, xb, 10, out)
			if len(out) == 0 {
				t.Fatalf("%v-%v: no contacts", a.Kind, b.Kind)
			}
			if n := testing.AllocsPerRun(100, func() { out = Collide(a, xa, b, xb, 10, out[:0]) }); n != 0 {
				t.Errorf("%v-%v: %v allocations per call", a.Kind, b.Kind, n)
			}
		}
	}
}

func BenchmarkCollide(b *testing.B) {
	r := newRand(16)
	for _, kp := range kindPairs(false) {
		sa, xa, sb, xb := randomPair(r, kp[0], kp[1])
		b.Run(kp[0].String()+"-"+kp[1].String(), func(b *testing.B) {
			out := make([]Contact, 0, 8)
			for b.Loop() {
				out = Collide(sa, xa, sb, xb, 10, out[:0])
			}
		})
	}
}
