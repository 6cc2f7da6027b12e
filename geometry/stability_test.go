package geometry

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// restingCase is a shape B resting on a shape A (A at the identity, B's
// bottom face 0.2 mm into A's top at the nominal pose xb).
type restingCase struct {
	name string
	a, b Shape
	xb   spatial.Pose
	size float64 // face width, for the Lipschitz bound
	line bool    // B rests on a line (a lying cylinder): 2 points, not 4
}

// prism returns the hull of a regular n-gon of circumradius r extruded
// over z ∈ [−h, h].
func prism(t testing.TB, n int, r, h float64) Shape {
	var pts []spatial.Vec3
	for k := range n {
		a := 2 * math.Pi * float64(k) / float64(n)
		for _, z := range []float64{-h, h} {
			pts = append(pts, spatial.Vec3{r * math.Cos(a), r * math.Sin(a), z})
		}
	}
	return mustHull(t, pts)
}

func restingCases(t testing.TB) []restingCase {
	cube := NewBox(spatial.Vec3{0.1, 0.1, 0.1})
	hullCube := mustHull(t, boxPoints(spatial.Vec3{0.05, 0.05, 0.05}, spatial.PoseIdentity()))
	hex := prism(t, 6, 0.06, 0.025)
	p40 := prism(t, 40, 0.06, 0.025)
	slab := NewBox(spatial.Vec3{0.3, 0.3, 0.1})
	pen := 2e-4
	return []restingCase{
		{"box on box", cube, cube, at(0, 0, 0.1-pen), 0.14, false},
		{"box on half-space", NewHalfSpace(), cube, at(0, 0, 0.05-pen), 0.14, false},
		{"hull on hull", hex, hex, at(0, 0, 0.05-pen), 0.12, false},
		{"hull on half-space", NewHalfSpace(), hex, at(0, 0, 0.025-pen), 0.12, false},
		{"40-gon prism on itself", p40, p40, at(0, 0, 0.05-pen), 0.12, false},
		{"hull cube on box", cube, hullCube, at(0, 0, 0.1-pen), 0.14, false},
		{"big box on small box", NewBox(spatial.Vec3{0.06, 0.08, 0.1}), cube, at(0.01, -0.005, 0.1-pen), 0.1, false},
		{"cylinder on half-space", NewHalfSpace(), NewCylinder(0.05, 0.1), at(0, 0, 0.05-pen), 0.1, false},
		{"cylinder on box", slab, NewCylinder(0.05, 0.1), at(0.01, -0.02, 0.1-pen), 0.1, false},
		{"cylinder over a box's edge", slab, NewCylinder(0.05, 0.1), at(0.13, 0.03, 0.1-pen), 0.1, false},
		{"cylinder lying on a box", slab, NewCylinder(0.03, 0.12), spatial.Pose{R: rotAbout(ex, 90), P: spatial.Vec3{0.01, 0, 0.08 - pen}}, 0.12, true},
	}
}

// perturb returns xb moved by a random lateral offset up to 2 mm, yaw up
// to 1° and tilt up to 0.1° about a random horizontal axis (about B's
// centre), and the size of the change (metres plus radians times the
// face width).
func perturb(r *rand.Rand, xb spatial.Pose, scale float64, width float64) (spatial.Pose, spatial.Vec3, [2]float64) {
	d := spatial.Vec3{uniform(r, -2e-3, 2e-3) * scale, uniform(r, -2e-3, 2e-3) * scale, 0}
	yaw := uniform(r, -1, 1) * scale
	ta := uniform(r, 0, 2*math.Pi)
	tilt := uniform(r, 0, 0.1) * scale
	q := rotAbout(spatial.Vec3{math.Cos(ta), math.Sin(ta), 0}, tilt).Mul(rotAbout(ez, yaw)).Mul(xb.R)
	return spatial.Pose{R: q, P: xb.P.Add(d)}, d, [2]float64{yaw, tilt}
}

func featureSet(cs []Contact) []uint32 {
	var f []uint32
	for _, c := range cs {
		f = append(f, c.Feature)
	}
	slices.Sort(f)
	return f
}

// TestManifoldStability: for shapes resting face on face, 300 random small
// perturbations of the upper shape (lateral up to 2 mm, yaw up to 1°, tilt
// up to 0.1°) at margins from 1 mm to 5 cm give exactly the nominal set
// of features (max feature-set changes = 0); every point's witnesses lie
// on the two surfaces and its Phi is their distance; and the points move
// continuously: a second perturbation by 1e-4 of the first moves each
// point (matched by feature) by at most Lmax times the pose change
// (‖Δx‖ + width·|Δangle|), where the measured maximum ratio is logged.
func TestManifoldStability(t *testing.T) {
	r := newRand(77)
	// A corner moves with the pose (ratio ≈ 1); a point sliding along an
	// edge nearly orthogonal to its slot direction moves up to about
	// slotReach times faster (measured ≤ 1.2 for boxes and the hexagonal
	// prism, 6.6 for the 40-gon prism, whose edges come within 4.5°).
	lmax := float64(slotReach)
	for _, c := range restingCases(t) {
		for _, margin := range []float64{1e-3, 5e-3, 0.05} {
			nominal := featureSet(collideBoth(t, c.a, spatial.PoseIdentity(), c.b, c.xb, margin))
			if len(nominal) < 4 && !c.line || c.line && len(nominal) != 2 {
				t.Fatalf("%s, margin %g: nominal manifold %v has fewer than 4 points (or not 2 on a line)", c.name, margin, nominal)
			}
			changes, worst := 0, 0.0
			for range 300 {
				xb, _, _ := perturb(r, c.xb, 1, c.size)
				cs := collideBoth(t, c.a, spatial.PoseIdentity(), c.b, xb, margin)
				if !slices.Equal(featureSet(cs), nominal) {
					changes++
					t.Errorf("%s, margin %g: features %x, nominal %x", c.name, margin, featureSet(cs), nominal)
				}
				checkWitnesses(t, c.a, spatial.PoseIdentity(), c.b, xb, cs)
				// Continuity: a further tiny perturbation.
				xb2, d, ang := perturb(r, xb, 1e-4, c.size)
				cs2 := Collide(c.a, spatial.PoseIdentity(), c.b, xb2, margin, nil)
				dpose := d.Norm() + c.size*(math.Abs(ang[0])+math.Abs(ang[1]))*math.Pi/180
				for _, p := range cs {
					for _, q := range cs2 {
						if p.Feature == q.Feature {
							worst = math.Max(worst, p.Point.Sub(q.Point).Norm()/dpose)
						}
					}
				}
			}
			if worst > lmax {
				t.Errorf("%s, margin %g: a point moved %.3g times the pose change", c.name, margin, worst)
			}
			t.Logf("%s, margin %g: %d points, %d feature-set changes in 300 perturbations, max point jump / pose change %.3g",
				c.name, margin, len(nominal), changes, worst)
		}
	}
}

// checkWitnesses checks that each contact's witnesses Point ∓ (Phi/2)·n
// lie on the surfaces of A and B (signed distance within 1e-9), so Phi is
// their distance along the normal.
func checkWitnesses(t *testing.T, a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, cs []Contact) {
	t.Helper()
	for _, c := range cs {
		wa := c.Point.AddScaled(-c.Phi/2, c.Normal)
		wb := c.Point.AddScaled(c.Phi/2, c.Normal)
		da, db := surfaceDistance(a, xa, wa), surfaceDistance(b, xb, wb)
		if math.Abs(da) > 1e-9 || math.Abs(db) > 1e-9 {
			t.Fatalf("contact %+v: witnesses off the surfaces by %g and %g", c, da, db)
		}
	}
}

// surfaceDistance is the signed distance of p from the surface of s (for a
// hull, the largest signed distance to a face plane, exact on and inside
// the surface, where the witnesses lie).
func surfaceDistance(s Shape, x spatial.Pose, p spatial.Vec3) float64 {
	if s.Kind != ConvexHull {
		return signedDistance(s, x, p)
	}
	q := x.ApplyInv(p)
	d := math.Inf(-1)
	for _, f := range s.Hull.Faces() {
		d = math.Max(d, f.Normal.Dot(q)-f.Offset)
	}
	return d
}
