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

// comparePlaneBox runs mjccd.PlaneBox on every plane–box geom pair of c
// that MuJoCo collided and returns the number of contacts compared and
// the largest difference of a distance, position or normal component
// from MuJoCo's; a pair whose contact count differs is an error.
func comparePlaneBox(c *Collision) (int, float64, error) {
	n, worst, err := compareCollided(c, func(g1, g2 *mjccd.Geom, want []CollisionContact) ([]mjccd.Contact, []CollisionContact, bool) {
		if g1.Type != mjccd.Plane || g2.Type != mjccd.Box {
			return nil, nil, false
		}
		got, _ := mjccd.PlaneBox(g1, g2, 0, nil, nil)
		return got, want, true
	})
	return sumCounts(n), worst, err
}

// planeBoxRotations are box orientations (axis, angle in rad): face,
// edge (45° about an axis, and a hair off it) and corner landings
// (about (1, −1, 0) by atan √2, which puts a body diagonal upright), with
// yaws about z.
var planeBoxRotations = []struct {
	axis  [3]float64
	angle float64
}{
	{[3]float64{0, 0, 1}, 0}, {[3]float64{0, 0, 1}, 0.7}, {[3]float64{0.1, 0.2, 1}, 0.05},
	{[3]float64{1, 0, 0}, math.Pi / 4}, {[3]float64{0, 1, 0}, math.Pi/4 + 1e-9}, {[3]float64{1, 0.3, 0}, math.Pi / 4},
	{[3]float64{1, -1, 0}, math.Atan(math.Sqrt2)}, {[3]float64{1, -1, 0.4}, math.Atan(math.Sqrt2) + 0.01},
	{[3]float64{0.3, 0.5, 0.8}, 2.1}, {[3]float64{-0.6, 0.1, 0.2}, 3.0},
}

// planeBoxXML is a model with a plane tilted by euler (degrees) and
// len(planeBoxRotations) free boxes of half sizes size that collide with
// the plane only.
func planeBoxXML(euler, size string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<mujoco><worldbody><geom type="plane" size="5 5 0.1" euler="%s" contype="2" conaffinity="1"/>`, euler)
	for range planeBoxRotations {
		fmt.Fprintf(&b, `<body pos="0 0 1"><freejoint/><geom type="box" size="%s" contype="1" conaffinity="2"/></body>`, size)
	}
	b.WriteString(`</worldbody></mujoco>`)
	return b.String()
}

// TestPlaneBoxContactsMuJoCo: mjccd.PlaneBox, given MuJoCo's own posed
// plane and boxes, returns MuJoCo 2.2.2's mjc_PlaneBox contacts, contact
// by contact (count, order, dist, pos, frame normal; asserted to 1e-12,
// measured equal to the bit), for a flat and a tilted plane, a cube and a
// thin plate, face, edge and corner landings with yaws, each at
// penetrations from 1e-4 to 0.6 of the box's smallest half size (deep
// ones put more than 4 corners below the plane: MuJoCo keeps the first 4).
func TestPlaneBoxContactsMuJoCo(t *testing.T) {
	exe := tool(t)
	dir := t.TempDir()
	total, worst := 0, 0.0
	for _, tilt := range []struct{ euler string }{{"0 0 0"}, {"17 -9 30"}} {
		for _, size := range [][3]float64{{0.1, 0.1, 0.1}, {0.2, 0.12, 0.01}} {
			path := filepath.Join(dir, "planebox.xml")
			if err := os.WriteFile(path, []byte(planeBoxXML(tilt.euler, fmt.Sprintf("%g %g %g", size[0], size[1], size[2]))), 0o644); err != nil {
				t.Fatal(err)
			}
			c0, err := Collide(exe, path, 0, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			pm := c0.Geoms[0].XMat
			n := [3]float64{pm[2], pm[5], pm[8]}
			for _, pen := range []float64{1e-4, 0.05, 0.3, 0.6} {
				nb := len(planeBoxRotations)
				q, v := make([]float64, 7*nb), make([]float64, 6*nb)
				for i, r := range planeBoxRotations {
					quat := axisQuat(r.axis, r.angle)
					m := mjccd.QuatToMat(quat)
					h := 0.0 // the box's half extent along n
					for a := range 3 {
						h += size[a] * math.Abs(n[0]*m[a]+n[1]*m[3+a]+n[2]*m[6+a])
					}
					d := h - pen*min(size[0], size[1], size[2])
					off := [3]float64{float64(i%5) - 2, float64(i/5) - 0.5, 0} // apart on the plane
					off[2] = -(n[0]*off[0] + n[1]*off[1]) / n[2]
					for a := range 3 {
						q[7*i+a] = off[a] + d*n[a]
					}
					copy(q[7*i+3:], quat[:])
				}
				c, err := Collide(exe, path, 0, q, v)
				if err != nil {
					t.Fatal(err)
				}
				k, w, err := comparePlaneBox(c)
				if err != nil {
					t.Errorf("plane %s, box %v, penetration %g: %v", tilt.euler, size, pen, err)
				}
				if k == 0 {
					t.Errorf("plane %s, box %v, penetration %g: no plane–box contacts", tilt.euler, size, pen)
				}
				total += k
				worst = math.Max(worst, w)
			}
		}
	}
	t.Logf("%d contacts compared, largest difference %.3g", total, worst)
	if worst > 1e-12 {
		t.Errorf("contacts differ from MuJoCo's by %.3g", worst)
	}
}

// axisQuat is the unit quaternion (w, x, y, z) of a turn by angle about
// axis (normalized here).
func axisQuat(axis [3]float64, angle float64) [4]float64 {
	l := math.Sqrt(axis[0]*axis[0] + axis[1]*axis[1] + axis[2]*axis[2])
	s := math.Sin(angle/2) / l
	return [4]float64{math.Cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s}
}
