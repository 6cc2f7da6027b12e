package mjref

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/geometry/mjccd"
)

// planeHits runs MuJoCo 2.2.2's collider of plane g1 and geom g2 in
// package mjccd (mjc_PlaneCylinder for a cylinder, mjc_PlaneConvex for
// an ellipsoid or a mesh) and reports whether the pair is one of them.
func planeHits(g1, g2 *mjccd.Geom, margin float64) ([]mjccd.Contact, bool) {
	if g1.Type != mjccd.Plane {
		return nil, false
	}
	switch g2.Type {
	case mjccd.Cylinder:
		return mjccd.PlaneCylinder(g1, g2, margin, nil), true
	case mjccd.Ellipsoid, mjccd.Mesh:
		return mjccd.PlaneConvex(g1, g2, margin, nil), true
	}
	return nil, false
}

// comparePlaneConvex runs package mjccd on every plane–ellipsoid,
// plane–mesh and plane–cylinder pair of c that MuJoCo collided, with
// margin, and returns the number of contacts compared per geom type of
// geom 2 and the largest difference of a distance, position or normal
// component from MuJoCo's; a pair whose contact count differs is an
// error.
func comparePlaneConvex(c *Collision, margin float64) (map[mjccd.Type]int, float64, error) {
	return compareCollided(c, func(g1, g2 *mjccd.Geom, want []CollisionContact) ([]mjccd.Contact, []CollisionContact, bool) {
		got, ok := planeHits(g1, g2, margin)
		return got, want, ok
	})
}

// planeConvexRotations are the plane–box test's orientations and a
// cylinder on its side (a quarter turn about x, and about y a hair off).
var planeConvexRotations = append(planeBoxRotations[:len(planeBoxRotations):len(planeBoxRotations)],
	struct {
		axis  [3]float64
		angle float64
	}{[3]float64{1, 0, 0}, math.Pi / 2},
	struct {
		axis  [3]float64
		angle float64
	}{[3]float64{0, 1, 0}, math.Pi/2 + 1e-9},
	struct {
		axis  [3]float64
		angle float64
	}{[3]float64{0.2, 1, 0.1}, 1.3},
)

// planeConvexGeoms are the free geoms of planeConvexXML: a box mesh, a
// pentagonal prism mesh, a 24-sided prism mesh (whose neighbouring
// vertices are closer than tolplanemesh·rbound), an ellipsoid and a
// cylinder (smallest half sizes 0.03 to 0.1).
var planeConvexGeoms = []string{
	`type="mesh" mesh="cube"`,
	`type="mesh" mesh="penta"`,
	`type="mesh" mesh="disk"`,
	`type="ellipsoid" size="0.12 0.08 0.05"`,
	`type="cylinder" size="0.1 0.06"`,
}

// planeConvexXML is a model with a plane tilted by euler (degrees) and,
// for every geom of planeConvexGeoms and every rotation of
// planeConvexRotations, a free body with that geom, of margin margin,
// which collides with the plane only.
func planeConvexXML(euler string, margin float64) string {
	var b strings.Builder
	b.WriteString(`<mujoco><option iterations="1"/><size nconmax="400" njmax="800"/><asset><mesh name="cube" vertex="-.1 -.1 -.1 .1 -.1 -.1 -.1 .1 -.1 .1 .1 -.1 -.1 -.1 .1 .1 -.1 .1 -.1 .1 .1 .1 .1 .1"/><mesh name="penta" vertex="`)
	for z := -0.05; z < 0.1; z += 0.1 {
		for k := range 5 {
			a := 2 * math.Pi * float64(k) / 5
			fmt.Fprintf(&b, "%.17g %.17g %g ", 0.1*math.Cos(a), 0.1*math.Sin(a), z)
		}
	}
	b.WriteString(`"/><mesh name="disk" vertex="`)
	for z := -0.03; z < 0.05; z += 0.06 { // 24 sides: neighbours 0.026 apart, within tolplanemesh·rbound
		for k := range 24 {
			a := 2 * math.Pi * float64(k) / 24
			fmt.Fprintf(&b, "%.17g %.17g %g ", 0.1*math.Cos(a), 0.1*math.Sin(a), z)
		}
	}
	fmt.Fprintf(&b, `"/></asset><worldbody><geom type="plane" size="5 5 0.1" euler="%s" contype="2" conaffinity="1"/>`, euler)
	for _, g := range planeConvexGeoms {
		for range planeConvexRotations {
			fmt.Fprintf(&b, `<body pos="0 0 1"><freejoint/><geom %s margin="%g" contype="1" conaffinity="2" condim="1"/></body>`, g, margin)
		}
	}
	b.WriteString(`</worldbody></mujoco>`)
	return b.String()
}

// TestPlaneConvexContactsMuJoCo: mjccd.PlaneConvex and
// mjccd.PlaneCylinder, given MuJoCo's own posed geoms and compiled meshes
// (with MuJoCo's vertex graph), return MuJoCo 2.2.2's mjc_PlaneConvex and
// mjc_PlaneCylinder contacts, contact by contact (count, order, dist, pos,
// frame normal; asserted to 1e-12, measured equal to the bit), for a
// flat and a tilted plane, a box
// mesh, a pentagonal and a 24-sided prism mesh, an ellipsoid and a cylinder at the
// plane–box test's face, edge and corner poses and on their sides, with
// yaws, at depths from 1e-5 to 0.04, and with a geom margin of 0.02 at
// heights 0.01 (inside it) and 0.03 (outside).
func TestPlaneConvexContactsMuJoCo(t *testing.T) {
	exe := tool(t)
	dir := t.TempDir()
	total, worst := map[mjccd.Type]int{}, 0.0
	for _, tilt := range []string{"0 0 0", "17 -9 30"} {
		for _, margin := range []float64{0, 0.02} {
			path := filepath.Join(dir, "planeconvex.xml")
			if err := os.WriteFile(path, []byte(planeConvexXML(tilt, margin)), 0o644); err != nil {
				t.Fatal(err)
			}
			depths := []float64{1e-5, 1e-3, 0.01, 0.04}
			if margin > 0 {
				depths = []float64{-0.01, -0.03}
			}
			for _, depth := range depths {
				c, err := planeConvexCollide(exe, path, depth)
				if err != nil {
					t.Fatal(err)
				}
				n, w, err := comparePlaneConvex(c, margin)
				if err != nil {
					t.Errorf("plane %s, margin %g, depth %g: %v", tilt, margin, depth, err)
				}
				for ty, k := range n {
					total[ty] += k
				}
				if depth > 0 && len(n) != 3 {
					t.Errorf("plane %s, margin %g, depth %g: contacts of %d of 3 geom types", tilt, margin, depth, len(n))
				}
				worst = math.Max(worst, w)
			}
		}
	}
	t.Logf("contacts compared: %d ellipsoid, %d mesh, %d cylinder; largest difference %.3g", total[mjccd.Ellipsoid], total[mjccd.Mesh], total[mjccd.Cylinder], worst)
	if worst > 1e-12 {
		t.Errorf("contacts differ from MuJoCo's by %.3g", worst)
	}
}

// planeConvexCollide poses the bodies of planeConvexXML's model at path
// (turned by planeConvexRotations, apart on the plane) so that each
// geom's lowest point is depth below the plane, and returns MuJoCo's
// collision there. The lowest point is found from a first MuJoCo
// collision at the same orientations (its geoms as MuJoCo poses them),
// with mjccd's colliders at a large margin, whose first contact is the
// support point along −n.
func planeConvexCollide(exe, path string, depth float64) (*Collision, error) {
	c, err := Collide(exe, path, 0, nil, nil)
	if err != nil {
		return nil, err
	}
	gs := mjccdGeoms(c)
	n := [3]float64{gs[0].Mat[2], gs[0].Mat[5], gs[0].Mat[8]}
	nr := len(planeConvexRotations)
	nb := nr * len(planeConvexGeoms)
	q, v := make([]float64, 7*nb), make([]float64, 6*nb)
	for i := range nb {
		r := planeConvexRotations[i%nr]
		quat := axisQuat(r.axis, r.angle)
		off := [3]float64{float64(i%10)*0.5 - 2.5, float64(i/10)*0.5 - 1, 0} // apart on the plane
		off[2] = -(n[0]*off[0] + n[1]*off[1]) / n[2]
		copy(q[7*i:], off[:])
		copy(q[7*i+3:], quat[:])
	}
	if c, err = Collide(exe, path, 0, q, v); err != nil {
		return nil, err
	}
	gs = mjccdGeoms(c)
	for i := range nb {
		hits, _ := planeHits(&gs[0], &gs[i+1], 1e9)
		s := -depth - hits[0].Dist // move the body along n by s
		for a := range 3 {
			q[7*i+a] += s * n[a]
		}
	}
	return Collide(exe, path, 0, q, v)
}
