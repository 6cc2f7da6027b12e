package mjref

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/geometry/mjccd"
)

// convexModels are MuJoCo's test models whose pairs go through mjc_Convex
// with multiccd on.
var convexModels = []string{
	"mujoco/test/engine/testdata/collision_convex/cylinder_box.xml",
	"mujoco/test/engine/testdata/collision_convex/long_box.xml",
	"mujoco/test/engine/testdata/collision_convex/multiple_objects.xml",
	"mujoco/test/engine/testdata/collision_convex/stacked_boxes.xml",
}

// mjccdGeoms returns MuJoCo's geoms of c as package mjccd takes them.
func mjccdGeoms(c *Collision) []mjccd.Geom {
	meshes := make([]mjccd.MeshData, len(c.Meshes))
	for i, m := range c.Meshes {
		v := make([]float32, len(m.Vert))
		for k, x := range m.Vert {
			v[k] = float32(x)
		}
		meshes[i] = mjccd.MeshData{Vert: v, Graph: m.Graph}
	}
	gs := make([]mjccd.Geom, len(c.Geoms))
	for i, g := range c.Geoms {
		gs[i] = mjccd.Geom{Type: mjccd.Type(g.Type), RBound: g.RBound}
		copy(gs[i].Size[:], g.Size)
		copy(gs[i].Pos[:], g.XPos)
		copy(gs[i].Mat[:], g.XMat)
		if g.Mesh >= 0 {
			gs[i].Mesh = &meshes[g.Mesh]
		}
	}
	return gs
}

// compareConvex runs mjccd.Convex on every geom pair of c that MuJoCo
// collided with mjc_Convex and returns the number of contacts compared
// and the largest difference of a distance, position or normal component
// from MuJoCo's; a pair whose contact count differs is an error. With
// multi false, only each pair's first contact (MPR's own) is compared, the
// collider run without multiccd.
func compareConvex(c *Collision, multi bool) (int, float64, error) {
	gs := mjccdGeoms(c)
	opt := mjccd.Options{Tolerance: c.MPRTolerance, Iterations: c.MPRIterations, MultiCCD: multi && c.MultiCCD != 0}
	n, worst := 0, 0.0
	for k := 0; k < len(c.Contacts); {
		pair := c.Contacts[k].Geom
		end := k
		for end < len(c.Contacts) && c.Contacts[end].Geom == pair {
			end++
		}
		g1, g2 := &gs[pair[0]], &gs[pair[1]]
		if !mjccd.Table(g1.Type, g2.Type) {
			k = end
			continue
		}
		want := c.Contacts[k:end]
		if !opt.MultiCCD {
			want = want[:1]
		}
		got := mjccd.Convex(g1, g2, 0, opt, nil)
		if len(got) != len(want) {
			return n, worst, fmt.Errorf("geoms %d–%d: %d contacts, MuJoCo %d", pair[0], pair[1], len(got), len(want))
		}
		worst = math.Max(worst, contactsDiff(got, want))
		n += len(want)
		k = end
	}
	return n, worst, nil
}

// TestConvexContactsMuJoCo: package mjccd, given MuJoCo's own posed geoms
// and compiled meshes, returns MuJoCo 2.2.2's contacts of every
// mjc_Convex pair (cylinder–box, mesh–box, mesh–mesh, mesh–cylinder),
// contact by contact, on the four collision_convex models along their
// trajectories from the initial and the perturbed states (steps 0, 1, 10;
// with STICTION_LONG=1 also 50 and 99), with multiccd (the models' flag) and without (each pair's first
// contact): the same number of contacts and the same distances,
// positions and normals (asserted to 1e-12; measured equal to the bit).
func TestConvexContactsMuJoCo(t *testing.T) {
	exe := tool(t)
	for _, file := range convexModels {
		path := filepath.Join("testdata", file)
		ref, err := Exec(exe, path, Options{Steps: 1, Every: 1})
		if err != nil {
			t.Fatal(err)
		}
		q, v := perturbedState(ref)
		total, worst := 0, 0.0
		for _, start := range []struct {
			name string
			q, v []float64
		}{{"initial", nil, nil}, {"perturbed", q, v}} {
			steps := []int{0, 1, 10}
			if long() {
				steps = append(steps, 50, 99)
			}
			for _, steps := range steps {
				c, err := Collide(exe, path, steps, start.q, start.v)
				if err != nil {
					t.Fatal(err)
				}
				for _, multi := range []bool{true, false} {
					n, w, err := compareConvex(c, multi)
					if err != nil {
						t.Errorf("%s, %s state, step %d, multiccd %v: %v", file, start.name, steps, multi, err)
					}
					total += n
					worst = math.Max(worst, w)
				}
			}
		}
		t.Logf("%s: %d contacts compared, largest difference %.3g", file, total, worst)
		if worst > 1e-12 {
			t.Errorf("%s: contacts differ from MuJoCo's by %.3g", file, worst)
		}
	}
}

// contactsDiff returns the largest difference in distance, point or
// normal between got and MuJoCo's want, contact by contact (same length).
func contactsDiff(got []mjccd.Contact, want []CollisionContact) float64 {
	var worst float64
	for i, w := range want {
		worst = math.Max(worst, math.Abs(got[i].Dist-w.Dist))
		for a := range 3 {
			worst = math.Max(worst, math.Abs(got[i].Pos[a]-w.Pos[a]))
			worst = math.Max(worst, math.Abs(got[i].Normal[a]-w.Frame[a]))
		}
	}
	return worst
}
