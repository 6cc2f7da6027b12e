package contact

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestFoundationElements: a unit cube 1 mm into a foundation half-space
// meets it in n² element points at the centres of an even grid of its
// bottom face, each with φ = −1 mm and the half-space's normal (negated
// when the cube is geometry A); tilted by θ about x, φ varies as y sin θ.
// Other pairs keep the narrow phase's points.
func TestFoundationElements(t *testing.T) {
	f := &Foundation{Modulus: 1e7, Depth: 1, Elements: 4, Damping: 1}
	mats := []Material{{Stiffness: 1e9, Foundation: f}, {Stiffness: 1e9}}
	plane := &multibody.Geometry{Body: 0, Shape: geometry.NewHalfSpace(), Pose: spatial.PoseIdentity(), Material: 0}
	cube := &multibody.Geometry{Body: 1, Shape: geometry.NewBox(spatial.Vec3{1, 1, 1}), Pose: spatial.PoseIdentity(), Material: 1}
	xp := spatial.PoseIdentity()
	xc := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0.3, -0.2, 0.5 - 1e-3}}
	hits := Collide(mats, plane, xp, cube, xc, 1e-3, nil)
	if len(hits) != 16 {
		t.Fatalf("%d points, want 16", len(hits))
	}
	for _, h := range hits {
		dx, dy := h.Point[0]-0.3, h.Point[1]+0.2
		onGrid := func(d float64) bool {
			return math.Abs(math.Abs(d)-0.125) < 1e-12 || math.Abs(math.Abs(d)-0.375) < 1e-12
		}
		if math.Abs(h.Phi+1e-3) > 1e-15 || h.Normal != (spatial.Vec3{0, 0, 1}) || !onGrid(dx) || !onGrid(dy) {
			t.Errorf("point %v normal %v φ %g", h.Point, h.Normal, h.Phi)
		}
	}
	if flipped := Collide(mats, cube, xc, plane, xp, 1e-3, nil); len(flipped) != 16 || flipped[0].Normal != (spatial.Vec3{0, 0, -1}) {
		t.Errorf("cube as A: %d points, normal %v", len(flipped), flipped[0].Normal)
	}
	th := 1e-3
	xt := spatial.Pose{R: spatial.Quat{W: math.Cos(th / 2), X: math.Sin(th / 2)}, P: spatial.Vec3{0, 0, 0.5}}
	for _, h := range Collide(mats, plane, xp, cube, xt, 1, nil) {
		y := h.Point[1] // the face point at local (·, ly, −0.5): y = ly cos θ + 0.5 sin θ, φ = ly sin θ + 0.5 (1 − cos θ)
		ly := (y - 0.5*math.Sin(th)) / math.Cos(th)
		if want := ly*math.Sin(th) + 0.5*(1-math.Cos(th)); math.Abs(h.Phi-want) > 1e-12 {
			t.Errorf("tilted: φ %g at y %g, want %g", h.Phi, y, want)
		}
	}
	ball := &multibody.Geometry{Body: 1, Shape: geometry.NewSphere(0.1), Pose: spatial.PoseIdentity(), Material: 1}
	if n := len(Collide(mats, plane, xp, ball, dwPose(0.09), 1e-3, nil)); n != 1 {
		t.Errorf("sphere on the foundation: %d points, want the narrow phase's 1", n)
	}
}

func dwPose(z float64) spatial.Pose {
	return spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, z}}
}

// TestFoundationElementMaterial: an element of a 4 × 4 grid under a unit
// face has K = E (1/16)/depth and τd = B/K; bad foundations are errors.
func TestFoundationElementMaterial(t *testing.T) {
	f := &Foundation{Modulus: 1e7, Depth: 2, Elements: 4, Damping: 3}
	m := f.elementMaterial(geometry.NewBox(spatial.Vec3{1, 1, 1}), spatial.PoseIdentity(), spatial.Vec3{0, 0, 1}, Material{Friction: 0.5})
	k := 1e7 / 16 / 2
	if math.Abs(m.Stiffness-k) > 1e-9*k || math.Abs(m.Dissipation-3/k) > 1e-20 || m.Friction != 0.5 {
		t.Errorf("element material %+v, want k %g, τd %g", m, k, 3/k)
	}
	for _, bad := range []Foundation{{Modulus: 0, Depth: 1, Elements: 1}, {Modulus: 1, Depth: -1, Elements: 1}, {Modulus: 1, Depth: 1, Elements: 0}, {Modulus: 1, Depth: 1, Elements: 1, Damping: math.NaN()}} {
		if (Material{Stiffness: 1, Foundation: &bad}).Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
