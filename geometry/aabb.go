package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// AABB is a world axis-aligned bounding box, the closed set
// Min ≤ x ≤ Max component-wise. Components may be ±Inf for unbounded
// shapes; they must not be NaN.
type AABB struct{ Min, Max spatial.Vec3 }

// Overlaps reports whether the closed boxes a and b intersect (touching
// boxes overlap).
func (a AABB) Overlaps(b AABB) bool { return a.Meets(&b) }

// Meets is Overlaps for boxes read in place: the same test without
// copying the two boxes (a broad phase's pair loop).
func (a *AABB) Meets(b *AABB) bool {
	return a.Min[0] <= b.Max[0] && b.Min[0] <= a.Max[0] &&
		a.Min[1] <= b.Max[1] && b.Min[1] <= a.Max[1] &&
		a.Min[2] <= b.Max[2] && b.Min[2] <= a.Max[2]
}

// Inflate returns a grown by m on every side.
func (a AABB) Inflate(m float64) AABB {
	d := spatial.Vec3{m, m, m}
	return AABB{Min: a.Min.Sub(d), Max: a.Max.Add(d)}
}

// SetInflated sets *a to b.Inflate(m), the same differences and sums,
// read and written in place: Inflate's values cost a broad phase's loop
// six copies of a vector a box.
func (a *AABB) SetInflated(b *AABB, m float64) {
	a.Min = spatial.Vec3{b.Min[0] - m, b.Min[1] - m, b.Min[2] - m}
	a.Max = spatial.Vec3{b.Max[0] + m, b.Max[1] + m, b.Max[2] + m}
}

// bounded reports whether every component of a is finite.
func (a AABB) bounded() bool { return a.Min.IsFinite() && a.Max.IsFinite() }

// AABB returns the world bounding box of the shape at pose x. It is tight
// for every kind. A half-space extends to infinity in every direction
// except, when its normal is a world axis (up to axisTol), along that
// axis.
//
// A sphere's box does not depend on the rotation and a capsule's only on
// its axis, the rotation matrix's third column: those two kinds (most of
// the MJCF robots' geometries) skip forming the whole matrix, with the
// same expressions for what they use, so the same bits as aabbMat's; a
// box's reads its matrix in place (boxAABB).
func (s Shape) AABB(x spatial.Pose) AABB { return s.BoxAt(&x) }

// BoxAt is AABB without copying the shape and the pose.
func (s *Shape) BoxAt(x *spatial.Pose) AABB {
	var b AABB
	s.SetBox(&b, x)
	return b
}

// SetBox sets *b to s.BoxAt(x), written in place: a sphere's and a
// capsule's box, the robots' kinds, are formed in *b, without the copies
// of a returned box (two a call through BoxAt and capsuleAABB, each of
// 48 bytes) and the call to capsuleAABB; the same expressions, so the same
// bits.
func (s *Shape) SetBox(b *AABB, x *spatial.Pose) {
	switch s.Kind {
	case Sphere: // aabbMat's p ∓ (r, r, r), which does not read the rotation
		p, r := &x.P, s.Radius
		b.Min = spatial.Vec3{p[0] - r, p[1] - r, p[2] - r}
		b.Max = spatial.Vec3{p[0] + r, p[1] + r, p[2] + r}
	case Capsule:
		z := zAxis(&x.R)
		setCapsuleBox(b, s, &z, &x.P)
	case Box:
		var r spatial.Mat3
		x.R.RotMatTo(&r)
		*b = boxAABB(&s.HalfExtents, &r, &x.P)
	default:
		*b = s.aabbMat(x.R.RotMat(), x.P)
	}
}

// boxAABB returns the world box of a box of half-extents h with rotation
// r (world from shape) centred at p: p ∓ e with e_i = Σ_k |r_ik| h_k, in
// scalars read in place, aabbMat's expressions for a box without its
// switch over the other kinds and the copies of r, p and e (the Vec3
// forms copied each vector several times).
func boxAABB(h *spatial.Vec3, r *spatial.Mat3, p *spatial.Vec3) AABB {
	h0, h1, h2 := h[0], h[1], h[2]
	e0 := math.Abs(r[0][0])*h0 + math.Abs(r[0][1])*h1 + math.Abs(r[0][2])*h2
	e1 := math.Abs(r[1][0])*h0 + math.Abs(r[1][1])*h1 + math.Abs(r[1][2])*h2
	e2 := math.Abs(r[2][0])*h0 + math.Abs(r[2][1])*h1 + math.Abs(r[2][2])*h2
	return AABB{Min: spatial.Vec3{p[0] - e0, p[1] - e1, p[2] - e2}, Max: spatial.Vec3{p[0] + e0, p[1] + e1, p[2] + e2}}
}

// capsuleAABB returns the world box of the capsule s centred at p with
// unit axis a (world): setCapsuleBox's.
func capsuleAABB(s *Shape, a, p *spatial.Vec3) AABB {
	var b AABB
	setCapsuleBox(&b, s, a, p)
	return b
}

// setCapsuleBox sets *b to the world box of the capsule s centred at p
// with unit axis a (world): p ∓ e with e_i = |a_i| l + r, in scalars read
// in place (the Vec3 values were copied some ten times a call).
func setCapsuleBox(b *AABB, s *Shape, a, p *spatial.Vec3) {
	l, r := s.HalfLength, s.Radius
	e0, e1, e2 := math.Abs(a[0])*l+r, math.Abs(a[1])*l+r, math.Abs(a[2])*l+r
	b.Min = spatial.Vec3{p[0] - e0, p[1] - e1, p[2] - e2}
	b.Max = spatial.Vec3{p[0] + e0, p[1] + e1, p[2] + e2}
}

// zAxis returns the third column of q.RotMat(), the rotated z axis, by
// the same expressions.
func zAxis(q *spatial.Quat) spatial.Vec3 {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return spatial.Vec3{2 * (x*z + w*y), 2 * (y*z - w*x), 1 - 2*(x*x+y*y)}
}

// aabbMat is AABB for the pose given by the rotation matrix r (world from
// shape) and position p.
func (s *Shape) aabbMat(r spatial.Mat3, p spatial.Vec3) AABB {
	var e spatial.Vec3 // half extents of the box around p
	switch s.Kind {
	case HalfSpace:
		return halfSpaceAABB(r.Col(2), p)
	case Sphere:
		e = spatial.Vec3{s.Radius, s.Radius, s.Radius}
	case Box:
		return boxAABB(&s.HalfExtents, &r, &p)
	case Capsule:
		a := r.Col(2)
		return capsuleAABB(s, &a, &p)
	case Cylinder:
		// A disc of radius ρ with unit normal a spans ρ √(1 − a_i²) along axis i.
		for i := range 3 {
			a := r[i][2]
			e[i] = math.Abs(a)*s.HalfLength + s.Radius*math.Sqrt(math.Max(0, 1-a*a))
		}
	case Ellipsoid:
		// The support of the ellipsoid along world axis i is ‖D Rᵀ e_i‖
		// with D = diag(radii).
		for i := range 3 {
			e[i] = math.Sqrt(sq(r[i][0]*s.Radii[0]) + sq(r[i][1]*s.Radii[1]) + sq(r[i][2]*s.Radii[2]))
		}
	case HeightField:
		if s.Field == nil {
			return AABB{Min: p, Max: p}
		}
		return s.Field.aabb(r, p)
	case ConvexHull:
		if s.Hull == nil {
			return AABB{Min: p, Max: p}
		}
		inf := math.Inf(1)
		b := AABB{Min: spatial.Vec3{inf, inf, inf}, Max: spatial.Vec3{-inf, -inf, -inf}}
		for _, v := range s.Hull.verts {
			w := r.MulVec(v).Add(p)
			b.Min, b.Max = b.Min.Min(w), b.Max.Max(w)
		}
		return b
	}
	return AABB{Min: p.Sub(e), Max: p.Add(e)}
}

// axisTol is how far from a world axis a half-space normal may be and
// still bound the half-space along that axis. A tilt of 1e-12 moves the
// boundary by 1e-12 per unit of distance, negligible within 1e6 units
// once the boxes are inflated by any practical margin; it lets ground
// planes posed with rotations computed in floating point be bounded.
const axisTol = 1e-12

func halfSpaceAABB(n, p spatial.Vec3) AABB {
	inf := math.Inf(1)
	b := AABB{Min: spatial.Vec3{-inf, -inf, -inf}, Max: spatial.Vec3{inf, inf, inf}}
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		if math.Abs(n[j]) > axisTol || math.Abs(n[k]) > axisTol {
			continue
		}
		if n[i] > 0 {
			b.Max[i] = p[i]
		} else if n[i] < 0 {
			b.Min[i] = p[i]
		}
	}
	return b
}

func sq(x float64) float64 { return x * x }
