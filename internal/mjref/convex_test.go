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

// pairCheck gives package mjccd's contacts for MuJoCo's geom pair
// (g1, g2) and the part of MuJoCo's contacts of the pair, want, that they
// are compared with; ok false skips the pair.
type pairCheck func(g1, g2 *mjccd.Geom, want []CollisionContact) (got []mjccd.Contact, cmp []CollisionContact, ok bool)

// compareCollided runs collide on every geom pair of c that MuJoCo collided
// and returns the number of contacts compared per geom type of geom 2 and
// the largest difference of a distance, position or normal component
// from MuJoCo's; a pair whose contact count differs is an error.
func compareCollided(c *Collision, collide pairCheck) (map[mjccd.Type]int, float64, error) {
	gs := mjccdGeoms(c)
	n, worst := map[mjccd.Type]int{}, 0.0
	for k := 0; k < len(c.Contacts); {
		pair := c.Contacts[k].Geom
		end := k
		for end < len(c.Contacts) && c.Contacts[end].Geom == pair {
			end++
		}
		g1, g2 := &gs[pair[0]], &gs[pair[1]]
		got, want, ok := collide(g1, g2, c.Contacts[k:end])
		k = end
		if !ok {
			continue
		}
		if len(got) != len(want) {
			return n, worst, fmt.Errorf("geoms %d–%d (type %d): %d contacts, MuJoCo %d", pair[0], pair[1], g2.Type, len(got), len(want))
		}
		worst = math.Max(worst, contactsDiff(got, want))
		n[g2.Type] += len(want)
	}
	return n, worst, nil
}

// sumCounts is the total of compareCollided's counts.
func sumCounts(n map[mjccd.Type]int) int {
	t := 0
	for _, k := range n {
		t += k
	}
	return t
}

// compareConvex runs mjccd.Convex on every geom pair of c that MuJoCo
// collided with mjc_Convex and returns the number of contacts compared
// and the largest difference of a distance, position or normal component
// from MuJoCo's; a pair whose contact count differs is an error. With
// multi false, only each pair's first contact (MPR's own) is compared, the
// collider run without multiccd.
func compareConvex(c *Collision, multi bool) (int, float64, error) {
	opt := mjccd.Options{Tolerance: c.MPRTolerance, Iterations: c.MPRIterations, MultiCCD: multi && c.MultiCCD != 0}
	n, worst, err := compareCollided(c, func(g1, g2 *mjccd.Geom, want []CollisionContact) ([]mjccd.Contact, []CollisionContact, bool) {
		if !mjccd.Table(g1.Type, g2.Type) {
			return nil, nil, false
		}
		if !opt.MultiCCD {
			want = want[:1]
		}
		return mjccd.Convex(g1, g2, 0, opt, nil), want, true
	})
	return sumCounts(n), worst, err
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
		total, worst := alongRuns(t, exe, filepath.Join("testdata", file), func(c *Collision) (int, float64, []error) {
			n, worst := 0, 0.0
			var errs []error
			for _, multi := range []bool{true, false} {
				k, w, err := compareConvex(c, multi)
				if err != nil {
					errs = append(errs, fmt.Errorf("multiccd %v: %w", multi, err))
				}
				n += k
				worst = math.Max(worst, w)
			}
			return n, worst, errs
		})
		t.Logf("%s: %d contacts compared, largest difference %.3g", file, total, worst)
		if worst > 1e-12 {
			t.Errorf("%s: contacts differ from MuJoCo's by %.3g", file, worst)
		}
	}
}

// alongRuns runs compare on MuJoCo's collisions of the model at path at steps
// 0, 1 and 10 (with STICTION_LONG=1 also 50 and 99) of its runs from the
// initial and the perturbed states, reports its errors on t with the
// state and step, and returns the contacts compared and the largest
// difference.
func alongRuns(t *testing.T, exe, path string, compare func(*Collision) (int, float64, []error)) (int, float64) {
	t.Helper()
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
			n, w, errs := compare(c)
			for _, err := range errs {
				t.Errorf("%s, %s state, step %d: %v", path, start.name, steps, err)
			}
			total += n
			worst = math.Max(worst, w)
		}
	}
	return total, worst
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
