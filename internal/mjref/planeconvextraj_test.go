package mjref

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// planeConvexScene is a body on a floor plane for
// TestPlaneConvexTrajectories: its geom, initial position, orientation
// (axis, angle) and velocity (MuJoCo's free-joint qvel: world linear,
// local angular).
type planeConvexScene struct {
	name  string
	geom  string
	pos   [3]float64
	axis  [3]float64
	angle float64
	vel   [6]float64
}

var planeConvexScenes = []planeConvexScene{
	{"cylinder flat", `type="cylinder" size="0.1 0.04"`, [3]float64{0, 0, 0.06}, [3]float64{0, 0, 1}, 0.3, [6]float64{}},
	{"cylinder tilted", `type="cylinder" size="0.1 0.04"`, [3]float64{0, 0, 0.15}, [3]float64{1, 0.5, 0}, 0.4, [6]float64{0.3, 0, 0, 0, 0, 1}},
	{"cylinder rolling", `type="cylinder" size="0.1 0.04"`, [3]float64{0, 0, 0.101}, [3]float64{1, 0, 0}, math.Pi / 2, [6]float64{1, 0, 0, 0, 0, -10}},
	{"ellipsoid rolling", `type="ellipsoid" size="0.1 0.07 0.05"`, [3]float64{0, 0, 0.08}, [3]float64{1, 0.3, 0}, 0.5, [6]float64{0.5, 0.1, 0, 0, 3, 1}},
	{"mesh box", `type="mesh" mesh="cube"`, [3]float64{0, 0, 0.15}, [3]float64{1, 1, 0}, 0.4, [6]float64{0.8, 0.2, 0, 0, 0, 0}},
	{"mesh pentaprism", `type="mesh" mesh="penta"`, [3]float64{0, 0, 0.15}, [3]float64{0.3, 1, 0}, 0.6, [6]float64{0.6, -0.3, 0, 1, 0, 0}},
}

// planeConvexSceneXML is scene s on a floor (the body at its initial
// pose, at rest) at time step dt with integrator integ.
func planeConvexSceneXML(s planeConvexScene, dt float64, integ string) string {
	mesh := `<asset><mesh name="cube" vertex="-.05 -.05 -.05 .05 -.05 -.05 -.05 .05 -.05 .05 .05 -.05 -.05 -.05 .05 .05 -.05 .05 -.05 .05 .05 .05 .05 .05"/><mesh name="penta" vertex="`
	for z := -0.04; z < 0.05; z += 0.08 {
		for k := range 5 {
			a := 2 * math.Pi * float64(k) / 5
			mesh += fmt.Sprintf("%.17g %.17g %g ", 0.08*math.Cos(a), 0.08*math.Sin(a), z)
		}
	}
	mesh += `"/></asset>`
	q := axisQuat(s.axis, s.angle)
	return fmt.Sprintf(`<mujoco><option timestep="%g" integrator="%s"/>%s<worldbody><geom type="plane" size="5 5 0.1"/><body name="b" pos="%.17g %.17g %.17g" quat="%.17g %.17g %.17g %.17g"><freejoint/><geom %s mass="1"/></body></worldbody></mujoco>`,
		dt, integ, mesh, s.pos[0], s.pos[1], s.pos[2], q[0], q[1], q[2], q[3], s.geom)
}

// TestPlaneConvexTrajectories: one free body on a floor plane, as MJCF
// scenes run it (MuJoCo's collider: mjc_PlaneCylinder, mjc_PlaneConvex),
// follows MuJoCo 2.2.2 over 300 steps through its landing, under Euler at
// δt 2 ms and 10 ms and RK4 at 2 ms: a cylinder dropped flat, dropped
// tilted and rolling on its side, and an ellipsoid rolling, to 1e-9 in
// qpos (RK4: 1e-8). Measured: at most 1.2e-18, 1.9e-15, 9.4e-11, 4.2e-16
// (Euler 2 ms), 8.9e-13, 1.5e-14, 1.7e-11, 1.7e-15 (10 ms), 8.4e-14,
// 2.4e-9, 1.1e-10, 2.1e-15 (RK4); Stiction's own narrow phase gave 3.4e-5,
// 0.039 (Euler 2 ms) and 0.45 (10 ms) for the dropped cylinders. A box
// mesh and a pentagonal prism mesh dropped tilted and sliding follow
// MuJoCo to 1e-12 (measured at most 4.6e-15) when their compiled mesh is
// given MuJoCo's vertex graph (mesh_graph), which mjc_PlaneConvex walks
// for its support vertex and extra contacts; as the importer compiles
// them (no graph: the exhaustive search) they part from MuJoCo some
// steps after landing (logged; measured 6.0e-3 and 1.9e-2 over 300 steps
// at 2 ms, the first difference over 1e-9 85 and 112 steps after
// MuJoCo's first contact).
func TestPlaneConvexTrajectories(t *testing.T) {
	exe := tool(t)
	const steps = 300
	for _, run := range []struct {
		integ string
		dt    float64
		tol   float64
	}{{"Euler", 0.002, 1e-9}, {"Euler", 0.01, 1e-9}, {"RK4", 0.002, 1e-8}} {
		for _, s := range planeConvexScenes {
			path := writeModel(t, planeConvexSceneXML(s, run.dt, run.integ))
			q := axisQuat(s.axis, s.angle)
			qpos := []float64{s.pos[0], s.pos[1], s.pos[2], q[0], q[1], q[2], q[3]}
			ref, mp, worst, first := runFromState(t, exe, path, Options{Steps: steps, Every: 1, QPos: qpos, QVel: s.vel[:]})
			firstContact := -1
			for k, st := range ref.Steps {
				if st.NCon > 0 {
					firstContact = k
					break
				}
			}
			if firstContact < 0 {
				t.Errorf("%s δt %g, %s: MuJoCo's body never touches the floor", run.integ, run.dt, s.name)
			}
			name := fmt.Sprintf("%s δt %g, %s", run.integ, run.dt, s.name)
			if s.geom[:11] != `type="mesh"` {
				t.Logf("%s: max |Δqpos| %.3g over %d steps (MuJoCo's first contact at step %d)", name, worst, steps, firstContact)
				if worst > run.tol {
					t.Errorf("%s: qpos differs from MuJoCo's by %.3g over %d steps", name, worst, steps)
				}
				continue
			}
			c, err := Collide(exe, path, 0, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			mi := c.Geoms[1].Mesh
			g, vd, err := trajectoryWithGraph(path, ref, mp, steps, c.Meshes[mi].Graph, c.Meshes[mi].Vert)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: max |Δqpos| %.3g over %d steps with MuJoCo's graph (vertices differ by %.3g); as compiled, without one, %.3g, first over %g at step %d (MuJoCo's first contact at step %d)",
				name, g, steps, vd, worst, trajTol, first, firstContact)
			if g > 1e-12 {
				t.Errorf("%s: with MuJoCo's mesh graph, qpos differs from MuJoCo's by %.3g over %d steps", name, g, steps)
			}
		}
	}
}

// trajectoryWithGraph is compareTrajectory from ref's initial state with
// MuJoCo's compiled mesh (verts, mesh_vert, and graph, mesh_graph) in
// place of the vertices of the model's mesh geoms at path as Stiction
// compiles them (which have no graph). It returns the largest qpos
// difference and the largest difference between MuJoCo's vertices and
// Stiction's.
func trajectoryWithGraph(path string, ref *Run, mp *Map, h int, graph []int32, verts []float64) (worst, vdiff float64, err error) {
	b, _, err := stiction(path)
	if err != nil {
		return 0, 0, err
	}
	for i := range b.Model.Geometries {
		mm := b.Model.Geometries[i].Shape.Hull.MuJoCo()
		if mm == nil {
			continue
		}
		if len(mm.Data.Vert) != len(verts) {
			return 0, 0, fmt.Errorf("%d vertex coordinates, MuJoCo %d", len(mm.Data.Vert), len(verts))
		}
		v := make([]float32, len(verts))
		for k, x := range verts {
			v[k] = float32(x)
			vdiff = math.Max(vdiff, math.Abs(float64(v[k]-mm.Data.Vert[k])))
		}
		mm.Data.Vert = v
		mm.Data.Graph = graph
	}
	mp.QToStiction(ref.QInit, b.State.Q)
	mp.VToStiction(ref.QInit, ref.VInit, b.State.V)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return 0, 0, err
	}
	q := make([]float64, ref.NQ)
	for k := 0; k <= h && k < len(ref.Steps); k++ {
		if k > 0 {
			if _, err := s.Step(); err != nil {
				return worst, vdiff, fmt.Errorf("step %d: %w", k, err)
			}
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worst = math.Max(worst, math.Abs(q[i]-ref.Steps[k].QPos[i]))
		}
	}
	return worst, vdiff, nil
}

// TestMultipleObjectsNoslip: MuJoCo's collision_convex/multiple_objects
// from the parity test's perturbed state parts from Stiction at step 98
// (6.0e-5 over 100 steps, measured); with its noslip_iterations="2" set to
// 0 in both (the importer ignores the attribute, with a warning), MuJoCo
// and Stiction agree to 1e-9 over those 100 steps (measured 5.0e-15):
// noslip, MuJoCo's friction post-pass, is what remains there. Its pairs
// there are meshes on the fixed box mesh (mjc_Convex with multiccd; its
// plane is reached by no body within 500 steps of the initial run).
func TestMultipleObjectsNoslip(t *testing.T) {
	exe := tool(t)
	src, err := os.ReadFile(filepath.Join("testdata", "mujoco/test/engine/testdata/collision_convex/multiple_objects.xml"))
	if err != nil {
		t.Fatal(err)
	}
	const attr = `noslip_iterations="2"`
	if !strings.Contains(string(src), attr) {
		t.Fatalf("multiple_objects.xml has no %s", attr)
	}
	for _, ns := range []string{attr, `noslip_iterations="0"`} {
		path := writeModel(t, strings.Replace(string(src), attr, ns, 1))
		ref0, err := Exec(exe, path, Options{Steps: 1, Every: 1})
		if err != nil {
			t.Fatal(err)
		}
		q, v := perturbedState(ref0)
		_, _, worst, first := runFromState(t, exe, path, Options{Steps: 100, Every: 1, QPos: q, QVel: v})
		t.Logf("%s: max |Δqpos| %.3g over 100 steps (first over %g at step %d)", ns, worst, trajTol, first)
		if ns != attr && worst > trajTol {
			t.Errorf("%s: qpos differs from MuJoCo's by %.3g over 100 steps", ns, worst)
		}
	}
}

// TestPlaneConvexStepsAllocateNothing: a warmed-up step of each scene of
// TestPlaneConvexTrajectories (its contacts from mjc_PlaneCylinder and
// mjc_PlaneConvex) allocates nothing.
func TestPlaneConvexStepsAllocateNothing(t *testing.T) {
	for _, sc := range planeConvexScenes {
		b, _, err := stiction(writeModel(t, planeConvexSceneXML(sc, 0.002, "Euler")))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 { // lands on the floor
			if _, err := s.Step(); err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warmed-up step", sc.name, allocs)
		}
	}
}
