package sim_test

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/internal/mjref"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestMuJoCoGeomPoses: the geoms the convex collider takes (geom_xpos,
// geom_xmat, geom_rbound) equal MuJoCo 2.2.2's to the bit on the four
// collision_convex models at their initial state: primitives and meshes,
// turned by euler angles (glibc's sin and cos) on the world and on free
// bodies, a mesh's frame composed as MuJoCo's compiler and mj_kinematics
// compose it. Measured before: up to 3.3e-16 in geom_xmat on
// multiple_objects (Go's cos, Stiction's composition).
func TestMuJoCoGeomPoses(t *testing.T) {
	dir := t.TempDir()
	exe, err := mjref.BuildTool(dir)
	if errors.Is(err, mjref.ErrNoMuJoCo) {
		t.Skipf("skipping: %v (the MuJoCo reference needs gcc and Debian's libmujoco-dev)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"cylinder_box", "long_box", "multiple_objects", "stacked_boxes"} {
		path := filepath.Join("..", "internal", "mjref", "testdata", "mujoco", "test", "engine", "testdata", "collision_convex", f+".xml")
		c, err := mjref.Collide(exe, path, 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		sc, _, err := modelload.Scene(path, nil, modelload.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := scene.Build(sc)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range b.Model.Geometries {
			g, ok := sim.MuJoCoGeom(s, i)
			if !ok {
				continue
			}
			// MuJoCo's geom of the same type nearest in position.
			best, bd := -1, math.Inf(1)
			for k, mg := range c.Geoms {
				if mjccd.Type(mg.Type) != g.Type {
					continue
				}
				d := math.Hypot(math.Hypot(mg.XPos[0]-g.Pos[0], mg.XPos[1]-g.Pos[1]), mg.XPos[2]-g.Pos[2])
				if d < bd {
					best, bd = k, d
				}
			}
			if best < 0 {
				t.Fatalf("%s geometry %d: no MuJoCo geom of type %d", f, i, g.Type)
			}
			n++
			mg := c.Geoms[best]
			dm := 0.0
			for k := range 9 {
				dm = math.Max(dm, math.Abs(mg.XMat[k]-g.Mat[k]))
			}
			if bd != 0 || dm != 0 || g.RBound != mg.RBound {
				t.Errorf("%s geometry %d (type %d), MuJoCo geom %d: |Δpos| %.3g, max |Δmat| %.3g, rbound %.17g, MuJoCo %.17g", f, i, g.Type, best, bd, dm, g.RBound, mg.RBound)
			}
		}
		if n == 0 {
			t.Errorf("%s: no geometry compared", f)
		}
	}
}
