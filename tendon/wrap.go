package tendon

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// minVal is MuJoCo's mjMINVAL, the threshold of its degenerate cases.
const minVal = 1e-15

// vec2 is a point of the wrapping plane.
type vec2 [2]float64

func (a vec2) dot(b vec2) float64 { return a[0]*b[0] + a[1]*b[1] }
func (a vec2) norm() float64      { return math.Sqrt(a.dot(a)) }

// unit returns a/|a|, (1, 0) for |a| < minVal (mju_normalize's fallback).
func (a vec2) unit() vec2 {
	n := a.norm()
	if n < minVal {
		return vec2{1, 0}
	}
	return vec2{a[0] / n, a[1] / n}
}

// wrap returns the tangent points t0, t1 (world) and the length arc ≥ 0 of
// the shortest path from x0 to x1 around the sphere or cylinder of radius r
// with world frame f, or arc = −1 when the straight segment does not touch
// it (MuJoCo's mju_wrap). side is the side site's world position or nil.
// The points are mapped to the obstacle's frame and projected on a plane:
// for a sphere, the plane through its centre, x0 and x1 (axes p0/|p0| and
// n × p0/|p0| with n = p0 × p1 normalized); for a cylinder, its cross
// section (x, y). A cylinder's tangent points then get heights
// interpolated along the unrolled path, z = z0 + (z1 − z0) s/S, and its arc
// becomes the helix √(arc² + Δz²).
func wrap(x0, x1 spatial.Vec3, f spatial.Pose, r float64, cylinder bool, side *spatial.Vec3) (t0, t1 spatial.Vec3, arc float64) {
	p0, p1 := f.ApplyInv(x0), f.ApplyInv(x1)
	if p0.Norm() < minVal || p1.Norm() < minVal {
		return x0, x1, -1
	}
	ax0, ax1 := spatial.Vec3{1, 0, 0}, spatial.Vec3{0, 1, 0}
	if !cylinder {
		ax0, ax1 = sphereAxes(p0, p1)
	}
	proj := func(p spatial.Vec3) vec2 { return vec2{p.Dot(ax0), p.Dot(ax1)} }
	d0, d1 := proj(p0), proj(p1)
	var pt [2]vec2
	if side != nil {
		sd := proj(f.ApplyInv(*side))
		if sd.norm() >= r {
			u := sd.unit()
			sd = vec2{u[0] * r, u[1] * r}
			pt, arc = wrapCircle(d0, d1, &sd, r)
		} else { // the side site inside the circle: wrap from the inside
			pt, arc = wrapInside(d0, d1, r)
		}
	} else {
		pt, arc = wrapCircle(d0, d1, nil, r)
	}
	if arc < 0 {
		return x0, x1, -1
	}
	res0 := ax0.Scale(pt[0][0]).Add(ax1.Scale(pt[0][1]))
	res1 := ax0.Scale(pt[1][0]).Add(ax1.Scale(pt[1][1]))
	if cylinder {
		l0 := math.Hypot(p0[0]-res0[0], p0[1]-res0[1])
		l1 := math.Hypot(p1[0]-res1[0], p1[1]-res1[1])
		s := l0 + arc + l1
		res0[2] = p0[2] + (p1[2]-p0[2])*l0/s
		res1[2] = p0[2] + (p1[2]-p0[2])*(l0+arc)/s
		h := math.Abs(res1[2] - res0[2])
		arc = math.Sqrt(arc*arc + h*h)
	}
	return f.Apply(res0), f.Apply(res1), arc
}

// sphereAxes returns the axes of the plane through the sphere's centre and
// the points p0, p1 (mju_wrap; when p0 and p1 are parallel, the normal is
// taken from p0 and a vector with a zero where p0 is largest).
func sphereAxes(p0, p1 spatial.Vec3) (ax0, ax1 spatial.Vec3) {
	ax0 = unit3(p0)
	n, nn := p0.Cross(p1).Normalize()
	if nn < minVal {
		i := 0
		a := ax0.Abs()
		if a[1] > a[0] && a[1] > a[2] {
			i = 1
		}
		if a[2] > a[0] && a[2] > a[1] {
			i = 2
		}
		o := spatial.Vec3{1, 1, 1}
		o[i] = 0
		n = unit3(ax0.Cross(o))
	}
	return ax0, unit3(n.Cross(ax0))
}

// unit3 returns v/|v|, (1, 0, 0) for |v| < minVal (mju_normalize3).
func unit3(v spatial.Vec3) spatial.Vec3 {
	u, n := v.Normalize()
	if n < minVal {
		return spatial.Vec3{1, 0, 0}
	}
	return u
}

// intersects reports whether the segments p1–p2 and p3–p4 cross.
func intersects(p1, p2, p3, p4 vec2) bool {
	det := (p4[1]-p3[1])*(p2[0]-p1[0]) - (p4[0]-p3[0])*(p2[1]-p1[1])
	if math.Abs(det) < minVal {
		return false
	}
	a := ((p4[0]-p3[0])*(p1[1]-p3[1]) - (p4[1]-p3[1])*(p1[0]-p3[0])) / det
	b := ((p2[0]-p1[0])*(p1[1]-p3[1]) - (p2[1]-p1[1])*(p1[0]-p3[0])) / det
	return a >= 0 && a <= 1 && b >= 0 && b <= 1
}

// arcLength returns the length of the arc of radius r from p0 to p1, the
// short way or the long one as the orientation ind asks (MuJoCo's
// length_circle).
func arcLength(p0, p1 vec2, ind int, r float64) float64 {
	a, b := p0.unit(), p1.unit()
	angle := math.Acos(math.Max(-1, math.Min(1, a.dot(b))))
	cross := p0[1]*p1[0] - p0[0]*p1[1]
	if (cross > 0 && ind != 0) || (cross < 0 && ind == 0) {
		angle = 2*math.Pi - angle
	}
	return r * angle
}

// wrapCircle returns the tangent points from d0 and d1 to the circle of
// radius r about the origin and the arc between them, or arc = −1 when
// the segment d0–d1 misses the circle (on sd's side when sd is given) or
// an end is inside it. Of the two tangent pairs it takes the one nearer
// sd, else the shorter one, never one whose lines cross (wrap_circle).
func wrapCircle(d0, d1 vec2, sd *vec2, r float64) ([2]vec2, float64) {
	var none [2]vec2
	sq0, sq1, sqr := d0.dot(d0), d1.dot(d1), r*r
	if sq0 < sqr || sq1 < sqr || r < minVal {
		return none, -1
	}
	dif := vec2{d1[0] - d0[0], d1[1] - d0[1]}
	dd := dif.dot(dif)
	if dd < minVal {
		return none, -1
	}
	a := math.Max(0, math.Min(1, -dif.dot(d0)/dd)) // nearest point of the segment to the centre
	near := vec2{a*dif[0] + d0[0], a*dif[1] + d0[1]}
	if near.dot(near) > sqr && (sd == nil || sd.dot(near) >= 0) {
		return none, -1
	}
	s0, s1 := math.Sqrt(sq0-sqr), math.Sqrt(sq1-sqr)
	var sol [2][2]vec2
	var good [2]float64
	for i := range 2 {
		sg := 1.0
		if i == 1 {
			sg = -1
		}
		sol[i][0] = vec2{(d0[0]*sqr + sg*r*d0[1]*s0) / sq0, (d0[1]*sqr - sg*r*d0[0]*s0) / sq0}
		sol[i][1] = vec2{(d1[0]*sqr - sg*r*d1[1]*s1) / sq1, (d1[1]*sqr + sg*r*d1[0]*s1) / sq1}
		if sd != nil {
			m := vec2{sol[i][0][0] + sol[i][1][0], sol[i][0][1] + sol[i][1][1]}.unit()
			good[i] = m.dot(*sd)
		} else {
			df := vec2{sol[i][0][0] - sol[i][1][0], sol[i][0][1] - sol[i][1][1]}
			good[i] = -df.dot(df)
		}
		if intersects(d0, sol[i][0], d1, sol[i][1]) {
			good[i] = -10000
		}
	}
	i := 1
	if good[0] > good[1] {
		i = 0
	}
	if intersects(d0, sol[i][0], d1, sol[i][1]) {
		return none, -1
	}
	return sol[i], arcLength(sol[i][0], sol[i][1], i, r)
}

// Parameters of wrapInside's Newton iteration (MuJoCo's).
const (
	insideIter = 20
	insideZ0   = 1 - 1e-7
	insideTol  = 1e-6
)

// wrapInside returns the point where the path from d0 to d1 touches the
// circle of radius r from the inside (both tangent points are that point,
// the arc 0), or −1 when an end is inside the circle or the segment
// crosses it (wrap_inside): z solves asin(A z) + asin(B z) − 2 asin(z) +
// G = 0 with A = r/|d0|, B = r/|d1| and G the angle d0–0–d1, by Newton's
// method from z = 1 − 1e−7; the point is d0 (or d1) turned by
// asin(z) − asin(A z) (or − asin(B z)). On a numerical failure the point
// is the bisector's.
func wrapInside(d0, d1 vec2, r float64) ([2]vec2, float64) {
	var pt [2]vec2
	l0, l1 := d0.norm(), d1.norm()
	dif := vec2{d1[0] - d0[0], d1[1] - d0[1]}
	dd := dif.dot(dif)
	if l0 <= r || l1 <= r || r < minVal || l0 < minVal || l1 < minVal {
		return pt, -1
	}
	if dd > minVal {
		if a := -dif.dot(d0) / dd; a > 0 && a < 1 {
			if (vec2{d0[0] + a*dif[0], d0[1] + a*dif[1]}).norm() <= r {
				return pt, -1
			}
		}
	}
	mid := vec2{0.5 * (d0[0] + d1[0]), 0.5 * (d0[1] + d1[1])}.unit()
	pt[0] = vec2{mid[0] * r, mid[1] * r}
	pt[1] = pt[0]
	A, B := r/l0, r/l1
	cosG := (l0*l0 + l1*l1 - dd) / (2 * l0 * l1)
	if cosG < -1+minVal {
		return pt, -1
	} else if cosG > 1-minVal {
		return pt, 0
	}
	G := math.Acos(cosG)
	fz := func(z float64) float64 { return asin(A*z) + asin(B*z) - 2*asin(z) + G }
	z := insideZ0
	f := fz(z)
	if f > 0 {
		return pt, 0
	}
	it := 0
	for ; it < insideIter && math.Abs(f) > insideTol; it++ {
		df := A/math.Max(minVal, math.Sqrt(1-z*z*A*A)) + B/math.Max(minVal, math.Sqrt(1-z*z*B*B)) - 2/math.Max(minVal, math.Sqrt(1-z*z))
		if df > -minVal {
			return pt, 0
		}
		z1 := z - f/df
		if z1 > z {
			return pt, 0
		}
		z = z1
		if f = fz(z); f > insideTol {
			return pt, 0
		}
	}
	if it >= insideIter {
		return pt, 0
	}
	vec, ang := d1.unit(), asin(z)-asin(B*z)
	if d0[0]*d1[1]-d0[1]*d1[0] > 0 {
		vec, ang = d0.unit(), asin(z)-asin(A*z)
	}
	c, s := math.Cos(ang), math.Sin(ang)
	pt[0] = vec2{r * (c*vec[0] - s*vec[1]), r * (s*vec[0] + c*vec[1])}
	pt[1] = pt[0]
	return pt, 0
}

// asin is math.Asin with its argument clamped to [−1, 1] (mju_asin).
func asin(x float64) float64 { return math.Asin(math.Max(-1, math.Min(1, x))) }
