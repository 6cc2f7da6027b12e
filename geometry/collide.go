package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Contact is one contact point between geometry A and geometry B.
type Contact struct {
	Point  spatial.Vec3 // world; midway between the two surfaces' witness points
	Normal spatial.Vec3 // world unit normal, pointing FROM A TOWARDS B
	Phi    float64      // signed distance: > 0 separated, < 0 penetration (depth = −Phi)
	// Feature identifies the point within the pair's manifold, stable under
	// small changes of pose; see the package documentation (Features).
	Feature uint32
}

// Collide appends to out the contacts between a at pose xa and b at pose xb
// whose Phi ≤ margin, and returns out. It does not allocate when out has
// enough spare capacity (8 contacts always suffice). Shapes that fail
// Validate, non-finite poses and a pair of half-spaces give no contacts.
// See the package documentation for the conventions.
func Collide(a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, margin float64, out []Contact) []Contact {
	var pa, pb Posed
	pa.Set(&a, &xa)
	pb.Set(&b, &xb)
	return CollidePosed(&pa, &pb, margin, out)
}

// Posed is a shape at a world pose with what Collide derives from them at
// every call derived once: the rotation matrix of the normalized
// quaternion, and whether the shape is valid and the pose finite. A caller
// that collides one geometry with several others, or a fixed one at every
// step, sets it once per pose (Set) and calls CollidePosed, which gives
// Collide's contacts to the bit.
type Posed struct {
	posed
	x     spatial.Pose // the pose as given: swapOrder's tie-break, height fields
	ok    bool         // the shape passes Validate's checks and the pose is finite
	valid bool         // the shape passes Validate's checks (SetShape)
}

// Set makes p the shape s at the world pose x.
func (p *Posed) Set(s *Shape, x *spatial.Pose) {
	p.SetShape(s)
	p.Move(x)
}

// SetShape makes s p's shape and checks it once, for the poses that Move
// then gives it (a caller's geometry whose shape does not change): Set is
// SetShape and Move.
func (p *Posed) SetShape(s *Shape) {
	p.s = *s
	p.valid = s.valid()
}

// Move puts p's shape (SetShape) at the world pose x, as Set does: the
// shape is neither copied nor checked again.
func (p *Posed) Move(x *spatial.Pose) {
	x.R.Normalize().RotMatTo(&p.rot)
	p.pos = x.P
	p.x = *x
	p.ok = p.valid && finitePose(x)
}

// finitePose reports whether x's translation and quaternion are finite,
// as Vec3.IsFinite and Quat.IsFinite do: v − v is +0 for a finite v and
// NaN otherwise, and a sum of such terms is +0 exactly when all are.
func finitePose(x *spatial.Pose) bool {
	p, q := &x.P, &x.R
	return (p[0]-p[0])+(p[1]-p[1])+(p[2]-p[2])+(q.W-q.W)+(q.X-q.X)+(q.Y-q.Y)+(q.Z-q.Z) == 0
}

// CollidePosed is Collide for two shapes at their poses as Set them, with
// the same contacts to the bit.
func CollidePosed(a, b *Posed, margin float64, out []Contact) []Contact {
	if !a.ok || !b.ok {
		return out
	}
	if a.s.Kind == HeightField || b.s.Kind == HeightField {
		return collideHeightField(a.s, a.x, b.s, b.x, margin, out)
	}
	return collideWith(orderedFor(min(a.s.Kind, b.s.Kind), max(a.s.Kind, b.s.Kind)), a, b, margin, out)
}

// Pair is CollidePosed for the shapes of two fixed kinds with its
// collider chosen once (PairFor): a caller that collides the same two
// geometries at every step does not dispatch on their kinds again, nor
// order two shapes of different kinds again (swapOrder). The zero Pair
// dispatches at every call (CollidePosed).
type Pair struct {
	f     ordered   // the collider of the two kinds in increasing order
	set   bool      // false: CollidePosed
	order kindOrder // the order of the two kinds
}

// kindOrder is the order of a Pair's two kinds: equal, whose shapes
// swapOrder orders at each call by their poses, or increasing or
// decreasing, whose order swapOrder gives at once (by kind).
type kindOrder int8

const (
	kindsEqual kindOrder = iota
	kindsIncreasing
	kindsDecreasing
)

// PairFor returns the Pair of shapes of kinds ka and kb: CollidePosed's
// collider for them, or the zero Pair for a height field, whose pairs
// CollidePosed collides otherwise.
func PairFor(ka, kb Kind) Pair {
	if ka == HeightField || kb == HeightField {
		return Pair{}
	}
	o := kindsEqual
	switch {
	case ka < kb:
		o = kindsIncreasing
	case ka > kb:
		o = kindsDecreasing
	}
	return Pair{f: orderedFor(min(ka, kb), max(ka, kb)), set: true, order: o}
}

// Collide is CollidePosed(a, b, margin, out) for a and b of the kinds p
// was made for (PairFor), with the same contacts to the bit: collideWith's
// order, known for two kinds (kindOrder) and swapPoses' for two shapes of
// one kind, tested here.
func (p Pair) Collide(a, b *Posed, margin float64, out []Contact) []Contact {
	if !p.set {
		return CollidePosed(a, b, margin, out)
	}
	if !a.ok || !b.ok {
		return out
	}
	if p.order == kindsIncreasing || p.order == kindsEqual && !swapPoses(&a.x, &b.x, &a.s, &b.s) {
		return p.f.collide(&a.posed, &b.posed, margin, out)
	}
	return collideSwapped(p.f, a, b, margin, out)
}

// collideWith collides a and b with f, the collider of their kinds in
// increasing order: as (b, a), with the normals turned back, when
// swapOrder says so.
func collideWith(f ordered, a, b *Posed, margin float64, out []Contact) []Contact {
	if swapOrder(&a.s, &a.x, &b.s, &b.x) {
		return collideSwapped(f, a, b, margin, out)
	}
	return f.collide(&a.posed, &b.posed, margin, out)
}

// collideSwapped collides a and b with f as (b, a), with the normals
// turned back: collideWith's path when swapOrder says so.
func collideSwapped(f ordered, a, b *Posed, margin float64, out []Contact) []Contact {
	n := len(out)
	out = f.collide(&b.posed, &a.posed, margin, out)
	for i := n; i < len(out); i++ {
		out[i].Normal = out[i].Normal.Neg()
	}
	return out
}

// swapOrder reports whether the pair must be processed as (b, a). Kinds are
// processed in increasing order. For equal kinds, the shape with the lower
// coordinate along the axis of largest centre separation comes first, which
// is antisymmetric bit for bit because xb.P − xa.P = −(xa.P − xb.P) exactly
// in floating point; coincident centres fall back to comparing dimensions
// and orientations.
func swapOrder(a *Shape, xa *spatial.Pose, b *Shape, xb *spatial.Pose) bool {
	if a.Kind != b.Kind {
		return a.Kind > b.Kind
	}
	return swapPoses(xa, xb, a, b)
}

// swapPoses is swapOrder for shapes a at xa and b at xb of one kind.
func swapPoses(xa, xb *spatial.Pose, a, b *Shape) bool {
	p, q := &xa.P, &xb.P // d = q − p in scalars, read in place
	d0, d1, d2 := q[0]-p[0], q[1]-p[1], q[2]-p[2]
	m := d0 // d[k] for k the first axis of largest |d[k]|
	if math.Abs(d1) > math.Abs(m) {
		m = d1
	}
	if math.Abs(d2) > math.Abs(m) {
		m = d2
	}
	if m != 0 {
		return m < 0
	}
	return swapCoincident(a, xa, b, xb)
}

// swapCoincident is swapOrder for two shapes of one kind with the same
// centre: it compares their dimensions and orientations (orderKey). Out
// of line: coincident centres are rare, and its keys are large.
//
//go:noinline
func swapCoincident(a *Shape, xa *spatial.Pose, b *Shape, xb *spatial.Pose) bool {
	ka, kb := orderKey(a, xa), orderKey(b, xb)
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] > kb[i]
		}
	}
	return false
}

func orderKey(s *Shape, x *spatial.Pose) [14]float64 {
	h, e := s.HalfExtents, s.Radii
	var hv, hr float64
	if s.Hull != nil {
		hv, hr = s.Hull.volume, s.Hull.radius
	}
	return [14]float64{s.Radius, s.HalfLength, h[0], h[1], h[2], e[0], e[1], e[2], hv, hr, x.R.W, x.R.X, x.R.Y, x.R.Z}
}

// ordered names the collider of a pair of shapes whose kinds are in
// increasing order (a.s.Kind ≤ b.s.Kind): collide calls it directly, so
// that the shapes' Posed values do not escape as through a func value.
type ordered uint8

const (
	noContacts ordered = iota // two half-spaces, or a half-space and a height field
	// The robots' pairs and a box on a plane first: collide's jump table
	// places its cases in the order of these values, so that the cases a
	// robot's step runs share the lines after the dispatch.
	halfSpaceWithCapsule
	capsuleWithCapsule
	halfSpaceWithBox
	halfSpaceWithSphere
	halfSpaceWithCylinder
	halfSpaceWithEllipsoid
	halfSpaceWithHull
	sphereWithSphere
	sphereWithBox
	sphereWithCapsule
	boxWithBox
	boxWithCapsule
	boxWithCylinder
	polytopes
	convexPair
)

// orderedFor returns the collider of kinds ka ≤ kb.
func orderedFor(ka, kb Kind) ordered {
	switch ka {
	case HalfSpace:
		return halfSpaceFor(kb)
	case Sphere:
		switch kb {
		case Sphere:
			return sphereWithSphere
		case Box:
			return sphereWithBox
		case Capsule:
			return sphereWithCapsule
		}
	case Box:
		switch kb {
		case Box:
			return boxWithBox
		case Capsule:
			return boxWithCapsule
		case Cylinder:
			return boxWithCylinder
		case ConvexHull:
			return polytopes
		}
	case Capsule:
		if kb == Capsule {
			return capsuleWithCapsule
		}
	case ConvexHull:
		return polytopes
	}
	return convexPair // every other pair with a cylinder, ellipsoid or hull
}

// halfSpaceFor returns the collider of a half-space A and a shape B of
// kind kb.
func halfSpaceFor(kb Kind) ordered {
	switch kb {
	case Sphere:
		return halfSpaceWithSphere
	case Box:
		return halfSpaceWithBox
	case Capsule:
		return halfSpaceWithCapsule
	case Cylinder:
		return halfSpaceWithCylinder
	case Ellipsoid:
		return halfSpaceWithEllipsoid
	case ConvexHull:
		return halfSpaceWithHull
	}
	return noContacts
}

// collide collides a and b, of kinds in increasing order, with f.
func (f ordered) collide(a, b *posed, margin float64, out []Contact) []Contact {
	switch f {
	case halfSpaceWithSphere:
		return halfSpaceSphere(a, b, margin, out)
	case halfSpaceWithBox:
		return halfSpaceBox(a, b, margin, out)
	case halfSpaceWithCapsule:
		return halfSpaceCapsule(a, b, margin, out)
	case halfSpaceWithCylinder:
		return halfSpaceCylinder(a, b, margin, out)
	case halfSpaceWithEllipsoid:
		return halfSpaceEllipsoid(a, b, margin, out)
	case halfSpaceWithHull:
		return halfSpaceHull(a, b, margin, out)
	case sphereWithSphere:
		return sphereSphere(a, b, margin, out)
	case sphereWithBox:
		return sphereBox(a, b, margin, out)
	case sphereWithCapsule:
		return sphereCapsule(a, b, margin, out)
	case boxWithBox:
		return boxBox(a, b, margin, out)
	case boxWithCapsule:
		return boxCapsule(a, b, margin, out)
	case boxWithCylinder:
		return boxCylinder(a, b, margin, out)
	case polytopes:
		return polytopePair(a, b, margin, out)
	case capsuleWithCapsule:
		return capsuleCapsule(a, b, margin, out)
	case convexPair:
		return convexConvex(a, b, margin, out)
	}
	return out
}

// posed is a shape with its pose expanded into a rotation matrix.
type posed struct {
	s   Shape
	rot spatial.Mat3 // world from shape
	pos spatial.Vec3 // shape origin in the world
}

func newPosed(s Shape, x spatial.Pose) posed {
	return posed{s: s, rot: x.R.Normalize().RotMat(), pos: x.P}
}

// axis returns the shape's local axis i in world coordinates: column i
// of the rotation, read in place (rot.Col(i) copied the whole matrix to
// the stack for a variable i).
func (p *posed) axis(i int) spatial.Vec3 {
	r := &p.rot
	return spatial.Vec3{r[0][i], r[1][i], r[2][i]}
}

// toWorld maps a point from the shape frame to the world.
func (p *posed) toWorld(v spatial.Vec3) spatial.Vec3 { return p.rot.MulVec(v).Add(p.pos) }

// toLocal maps a world point into the shape frame.
func (p *posed) toLocal(v spatial.Vec3) spatial.Vec3 { return p.rot.MulTVec(v.Sub(p.pos)) }

// size returns the radius of a ball around the origin bounding the shape
// (0 for a half-space); it sets the scale of numerical tolerances.
func (p *posed) size() float64 {
	s := &p.s
	switch s.Kind {
	case Sphere:
		return s.Radius
	case Box:
		return s.HalfExtents.Norm()
	case Capsule:
		return s.HalfLength + s.Radius
	case Cylinder:
		return math.Hypot(s.Radius, s.HalfLength)
	case Ellipsoid:
		return max(s.Radii[0], s.Radii[1], s.Radii[2])
	case ConvexHull:
		return s.Hull.radius
	}
	return 0
}

// appendContact appends the contact with witness points wa on A and wb on
// B, normal n and signed distance phi, when phi ≤ margin.
func appendContact(out []Contact, margin float64, wa, wb, n spatial.Vec3, phi float64) []Contact {
	if !(phi <= margin) {
		return out
	}
	return append(out, Contact{Point: wa.Add(wb).Scale(0.5), Normal: n, Phi: phi})
}

// Numerical tolerances, relative to the size of the pair of shapes.
const (
	touchTol = 1e-9  // separations below this use the separating-axis (penetration) result
	faceTol  = 1e-9  // 1 − |cos| below which a normal counts as a box face normal
	tieTol   = 1e-12 // values closer than this are ties, settled by a fixed preference
)

// minNormLen is the shortest vector that unit normalises reliably.
const minNormLen = 1e-150

// unit returns v/‖v‖ and true, or fallback and false when v is too short to
// give a direction.
func unit(v, fallback spatial.Vec3) (spatial.Vec3, bool) {
	n := v.Norm()
	if !(n > minNormLen) || math.IsInf(n, 0) {
		return fallback, false
	}
	return v.Scale(1 / n), true
}

// fallbackNormal is the deterministic direction used when the geometry does
// not define one, such as for concentric spheres.
var fallbackNormal = spatial.Vec3{0, 0, 1}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// clamp returns x limited to [lo, hi]. The built-in min and max treat NaN
// and signed zeros as math.Min and math.Max do (the Go specification), and
// compile to a few instructions instead of calls.
func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }
