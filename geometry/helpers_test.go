package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// Test helpers: random shapes and poses, and an oracle for the signed
// distance that shares no code with the package (it uses quaternion
// rotation instead of rotation matrices, and a direct search over
// directions instead of SAT, GJK or EPA).

var allKinds = []Kind{HalfSpace, Sphere, Box, Capsule, Cylinder}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func randUnit(r *rand.Rand) spatial.Vec3 {
	for {
		v := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if n := v.Norm(); n > 1e-3 {
			return v.Scale(1 / n)
		}
	}
}

func randQuat(r *rand.Rand) spatial.Quat {
	return spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
}

func uniform(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// randShape returns a shape of kind k with dimensions of order 0.1–1.
func randShape(r *rand.Rand, k Kind) Shape {
	switch k {
	case Sphere:
		return NewSphere(uniform(r, 0.2, 0.8))
	case Box:
		return NewBox(spatial.Vec3{uniform(r, 0.3, 1.6), uniform(r, 0.3, 1.6), uniform(r, 0.3, 1.6)})
	case Capsule:
		return NewCapsule(uniform(r, 0.1, 0.4), uniform(r, 0.3, 1.5))
	case Cylinder:
		return NewCylinder(uniform(r, 0.2, 0.7), uniform(r, 0.3, 1.5))
	}
	return NewHalfSpace()
}

// shapeSize is an independent bounding radius.
func shapeSize(s Shape) float64 {
	switch s.Kind {
	case Sphere:
		return s.Radius
	case Box:
		return s.HalfExtents.Norm()
	case Capsule:
		return s.HalfLength + s.Radius
	case Cylinder:
		return math.Sqrt(s.HalfLength*s.HalfLength + s.Radius*s.Radius)
	}
	return 0
}

func pose(p spatial.Vec3, q spatial.Quat) spatial.Pose { return spatial.Pose{R: q, P: p} }

func at(x, y, z float64) spatial.Pose { return pose(spatial.Vec3{x, y, z}, spatial.QuatIdentity()) }

func rotAbout(axis spatial.Vec3, deg float64) spatial.Quat {
	return spatial.QuatFromAxisAngle(axis, deg*math.Pi/180)
}

// supportShape returns a point of s at pose x furthest in the world
// direction d (d ≠ 0), computed independently of the package.
func supportShape(s Shape, x spatial.Pose, d spatial.Vec3) spatial.Vec3 {
	dl := x.R.Conj().Rotate(d)
	sgn := func(v float64) float64 {
		if v < 0 {
			return -1
		}
		return 1
	}
	var p spatial.Vec3
	switch s.Kind {
	case Sphere:
		p = dl.Scale(s.Radius / dl.Norm())
	case Box:
		p = spatial.Vec3{sgn(dl[0]) * s.HalfExtents[0], sgn(dl[1]) * s.HalfExtents[1], sgn(dl[2]) * s.HalfExtents[2]}
	case Capsule:
		p = dl.Scale(s.Radius / dl.Norm())
		p[2] += sgn(dl[2]) * s.HalfLength
	case Cylinder:
		if rho := math.Hypot(dl[0], dl[1]); rho > 0 {
			p[0], p[1] = s.Radius*dl[0]/rho, s.Radius*dl[1]/rho
		}
		p[2] = sgn(dl[2]) * s.HalfLength
	}
	return x.Apply(p)
}

// oracle returns the signed distance φ between convex a and b and the unit
// normal from A to B: φ = −min over unit u of h(u), where
// h(u) = h_B(u) + h_A(−u) is the support function of B − A, and the normal
// is −u at the minimum. A half-space A has h_A(−u) finite only for u = −n.
//
// h is smooth on the sphere except on the great circles orthogonal to the
// box, capsule and cylinder axes (and at a cylinder's poles), so the
// minimum is found among: pattern searches from the best of 1000 spread
// directions (smooth minima), one-dimensional searches along every kink
// circle, and the intersections of kink circles and the poles.
func oracle(a Shape, xa spatial.Pose, b Shape, xb spatial.Pose) (float64, spatial.Vec3) {
	if a.Kind == HalfSpace || b.Kind == HalfSpace {
		flip := 1.0
		if b.Kind == HalfSpace {
			a, xa, b, xb, flip = b, xb, a, xa, -1
		}
		n := xa.R.Rotate(spatial.Vec3{0, 0, 1})
		return n.Dot(supportShape(b, xb, n.Neg()).Sub(xa.P)), n.Scale(flip)
	}
	h := func(u spatial.Vec3) float64 {
		return u.Dot(supportShape(b, xb, u)) - u.Dot(supportShape(a, xa, u.Neg()))
	}
	bu, bh := spatial.Vec3{0, 0, 1}, math.Inf(1)
	try := func(u spatial.Vec3, v float64) {
		if v < bh {
			bu, bh = u, v
		}
	}
	for _, c := range bestDirections(h, 1000, 3) {
		try(refine(h, c, h(c)))
	}
	kinks := append(kinkAxes(a, xa), kinkAxes(b, xb)...)
	for i, k := range kinks {
		try(minOnCircle(h, k))
		for _, s := range [2]float64{1, -1} {
			try(k.Scale(s), h(k.Scale(s))) // cylinder poles (harmless for others)
		}
		for _, l := range kinks[:i] {
			if c := k.Cross(l); c.Norm() > 1e-9 {
				c = c.Scale(1 / c.Norm())
				try(c, h(c))
				try(c.Neg(), h(c.Neg()))
			}
		}
	}
	return -bh, bu.Neg()
}

// kinkAxes returns the world axes a whose great circle u·a = 0 carries a
// kink of the shape's support function.
func kinkAxes(s Shape, x spatial.Pose) []spatial.Vec3 {
	switch s.Kind {
	case Box:
		return []spatial.Vec3{x.R.Rotate(spatial.Vec3{1, 0, 0}), x.R.Rotate(spatial.Vec3{0, 1, 0}), x.R.Rotate(spatial.Vec3{0, 0, 1})}
	case Capsule, Cylinder:
		return []spatial.Vec3{x.R.Rotate(spatial.Vec3{0, 0, 1})}
	}
	return nil
}

// bestDirections returns the k best of n directions spread evenly over the
// sphere (Fibonacci lattice).
func bestDirections(h func(spatial.Vec3) float64, n, k int) []spatial.Vec3 {
	us := make([]spatial.Vec3, 0, k+1)
	hs := make([]float64, 0, k+1)
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range n {
		z := 1 - (2*float64(i)+1)/float64(n)
		rho := math.Sqrt(1 - z*z)
		u := spatial.Vec3{rho * math.Cos(golden*float64(i)), rho * math.Sin(golden*float64(i)), z}
		v := h(u)
		j := len(hs)
		for j > 0 && hs[j-1] > v {
			j--
		}
		if j < k {
			us = append(us[:j], append([]spatial.Vec3{u}, us[j:]...)...)
			hs = append(hs[:j], append([]float64{v}, hs[j:]...)...)
			us, hs = us[:min(len(us), k)], hs[:min(len(hs), k)]
		}
	}
	return us
}

// minOnCircle minimises h on the great circle orthogonal to the unit
// vector k: dense sampling, then golden-section search around the best
// three samples.
func minOnCircle(h func(spatial.Vec3) float64, k spatial.Vec3) (spatial.Vec3, float64) {
	t1, t2 := spatial.Orthonormal(k)
	at := func(th float64) spatial.Vec3 { return t1.Scale(math.Cos(th)).AddScaled(math.Sin(th), t2) }
	const n = 360
	step := 2 * math.Pi / n
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = h(at(float64(i) * step))
	}
	bu, bv := at(0), vals[0]
	for i := range vals {
		if vals[i] > vals[(i+n-1)%n] || vals[i] > vals[(i+1)%n] {
			continue // not a local minimum of the samples
		}
		lo, hi := float64(i-1)*step, float64(i+1)*step
		g := (math.Sqrt(5) - 1) / 2
		for range 80 {
			m1, m2 := hi-g*(hi-lo), lo+g*(hi-lo)
			if h(at(m1)) < h(at(m2)) {
				hi = m2
			} else {
				lo = m1
			}
		}
		if u := at((lo + hi) / 2); h(u) < bv {
			bu, bv = u, h(u)
		}
	}
	return bu, bv
}

// refine minimises h on the unit sphere near u by a pattern search on a
// 5×5 grid of the tangent plane: it moves to the best grid point (and
// widens the grid) while that improves h, and halves the grid otherwise.
func refine(h func(spatial.Vec3) float64, u spatial.Vec3, v float64) (spatial.Vec3, float64) {
	rad := 0.05
	for it := 0; it < 2000 && rad > 1e-15; it++ {
		t1, t2 := spatial.Orthonormal(u)
		bu, bv := u, v
		for i := -2; i <= 2; i++ {
			for j := -2; j <= 2; j++ {
				w := u.AddScaled(rad*float64(i)/2, t1).AddScaled(rad*float64(j)/2, t2)
				w = w.Scale(1 / w.Norm())
				if hv := h(w); hv < bv {
					bu, bv = w, hv
				}
			}
		}
		if bv < v {
			u, v = bu, bv
			rad = min(2*rad, 0.1)
		} else {
			rad /= 2
		}
	}
	return u, v
}

// collideBoth runs Collide in both orders and checks that the swapped
// order gives the same points and Phi and the negated normals, bit for bit.
func collideBoth(t *testing.T, a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, margin float64) []Contact {
	t.Helper()
	ab := Collide(a, xa, b, xb, margin, nil)
	ba := Collide(b, xb, a, xa, margin, nil)
	if len(ab) != len(ba) {
		t.Fatalf("%v/%v: %d contacts, %d swapped", a.Kind, b.Kind, len(ab), len(ba))
	}
	for i := range ab {
		if ab[i].Point != ba[i].Point || ab[i].Phi != ba[i].Phi || ab[i].Normal != ba[i].Normal.Neg() || ab[i].Feature != ba[i].Feature {
			t.Fatalf("%v/%v: contact %d = %+v, swapped %+v", a.Kind, b.Kind, i, ab[i], ba[i])
		}
	}
	checkContacts(t, ab, margin, 2*(shapeSize(a)+shapeSize(b)))
	return ab
}

// checkContacts checks finiteness, unit normals, unique features and the
// margin: every contact has Phi ≤ margin, except the points of a face
// manifold, which may reach keepLimit(margin, w) (w at most the given
// width) when the manifold's deepest point is within the margin.
func checkContacts(t *testing.T, cs []Contact, margin, width float64) {
	t.Helper()
	seen := map[uint32]bool{}
	minPhi := math.Inf(1)
	for _, c := range cs {
		minPhi = math.Min(minPhi, c.Phi)
	}
	for i, c := range cs {
		if seen[c.Feature] {
			t.Fatalf("contact %d repeats feature %#x: %+v", i, c.Feature, cs)
		}
		seen[c.Feature] = true
		limit := margin
		if c.Feature&featFace != 0 && minPhi <= margin {
			limit = keepLimit(margin, width)
		}
		if !c.Point.IsFinite() || !c.Normal.IsFinite() || math.IsNaN(c.Phi) || math.IsInf(c.Phi, 0) {
			t.Fatalf("contact %d not finite: %+v", i, c)
		}
		if d := math.Abs(c.Normal.Norm() - 1); d > 1e-12 {
			t.Fatalf("contact %d normal %v has length 1%+g", i, c.Normal, d)
		}
		if c.Phi > limit {
			t.Fatalf("contact %d Phi %g exceeds margin %g (limit %g)", i, c.Phi, margin, limit)
		}
	}
}

// deepest returns the contact with the smallest Phi.
func deepest(cs []Contact) Contact {
	best := cs[0]
	for _, c := range cs[1:] {
		if c.Phi < best.Phi {
			best = c
		}
	}
	return best
}

func vecClose(a, b spatial.Vec3, tol float64) bool { return a.Sub(b).Norm() <= tol }
