package scene

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

const robotDoc = `name: robot
dt: 0.001
duration: 0.01
materials:
  steel: {stiffness: 1e6, dissipation: 0.01, friction: 0.5}
  rubber: {stiffness: 1e5, dissipation: 0.02, friction: 1}
bodies:
  - name: base
    fixed: true
    visuals:
      - {shape: {type: box, size: [0.2, 0.2, 0.1]}, color: [0.5, 0.5, 0.5, 1]}
  - name: link
    material: steel
    density: 1000
    collisions:
      - {shape: {type: box, size: [0.1, 0.1, 0.4]}, pose: {position: [0, 0, 0.2]}}
      - {shape: {type: sphere, radius: 0.1}, pose: {position: [0, 0, 0.5]}, material: rubber, contype: 2, conaffinity: 0}
    joint: {type: revolute, parent: base, axis: [0, 1, 0], armature: 0.25}
  - name: tool
    mass: 0.5
    com: [0.01, 0, 0.02]
    inertia: {diagonal: [0.001, 0.002, 0.0025]}
    joint: {type: revolute, parent: link, parent_frame: {position: [0, 0, 0.6]}}
  - name: frame
    joint: {type: weld, parent: tool}
exclude:
  - [base, tool]
keyframes:
  - name: up
    joints: {link: {q: [0.3], v: [1]}, tool: {q: [-0.2]}}
`

// TestRobotFeatures builds a scene with several collision shapes, visuals,
// a centre of mass, armature, a massless frame, an exclusion and a
// keyframe, and checks each against its definition.
func TestRobotFeatures(t *testing.T) {
	s, err := Parse("robot.yaml", []byte(robotDoc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyKeyframe("up"); err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	link := m.Bodies[m.BodyByName("link")]
	// Composite: box 0.1×0.1×0.4 at z 0.2 and sphere r 0.1 at z 0.5, ρ 1000.
	mb, ms := 1000*0.004, 1000*4*math.Pi*0.001/3
	zc := (mb*0.2 + ms*0.5) / (mb + ms)
	Ixx := mb*(0.01+0.16)/12 + mb*(0.2-zc)*(0.2-zc) + 0.4*ms*0.01 + ms*(0.5-zc)*(0.5-zc)
	if in := link.Inertia; math.Abs(in.Mass-(mb+ms)) > 1e-12 || math.Abs(in.Com[2]-zc) > 1e-15 || math.Abs(in.Icom[0][0]-Ixx) > 1e-14 {
		t.Errorf("link inertia %+v, want mass %v com z %v Ixx %v", in, mb+ms, zc, Ixx)
	}
	if link.Joint.Armature != 0.25 {
		t.Errorf("armature %v", link.Joint.Armature)
	}
	tool := m.Bodies[m.BodyByName("tool")]
	if tool.Inertia.Com != (spatial.Vec3{0.01, 0, 0.02}) || tool.Inertia.Icom[2][2] != 0.0025 {
		t.Errorf("tool inertia %+v", tool.Inertia)
	}
	if f := m.Bodies[m.BodyByName("frame")]; f.Inertia.Mass != 0 || f.Tree != tool.Tree {
		t.Errorf("frame: %+v", f)
	}
	if len(m.Geometries) != 2 || m.Geometries[1].Contype != 2 || m.Geometries[1].Conaffinity != 0 || m.Geometries[1].Material != 0 || m.Geometries[0].Material != 1 {
		t.Errorf("geometries %+v", m.Geometries)
	}
	if !m.Excluded(m.BodyByName("base"), m.BodyByName("tool")) {
		t.Error("base–tool not excluded")
	}
	if len(m.Visuals) != 1 || m.Visuals[0].Color != [4]float64{0.5, 0.5, 0.5, 1} {
		t.Errorf("visuals %+v", m.Visuals)
	}
	q, v := b.State.Q, b.State.V
	if q[link.QOff] != 0.3 || v[link.VOff] != 1 || q[tool.QOff] != -0.2 || v[tool.VOff] != 0 {
		t.Errorf("keyframe state q %v v %v", q, v)
	}
	if err := s.ApplyKeyframe("down"); err == nil || !strings.Contains(err.Error(), `no keyframe "down" (keyframes: up)`) {
		t.Errorf("unknown keyframe: %v", err)
	}
}

// TestRobotFeatureErrors: each new field's bad values name file, line and
// path.
func TestRobotFeatureErrors(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"contype: 2", "contype: -1", `robot.yaml:17: bodies[1].collisions[1].contype: -1 must be in [0, 4294967295]`},
		{"material: rubber, ", "material: wood, ", `robot.yaml:17: bodies[1].collisions[1].material: "wood" is not a defined material`},
		{"armature: 0.25", "armature: -1", `robot.yaml:18: bodies[1].joint.armature: -1 must be ≥ 0`},
		{"[base, tool]", "[base, nobody]", `robot.yaml:27: exclude[0][1]: "nobody" is not a body name`},
		{"[base, tool]", "[tool, tool]", `exclude[0]: [tool, tool]: a body cannot be excluded from itself`},
		{"tool: {q: [-0.2]}", "tool: {q: [-0.2, 1]}", `robot.yaml:30: keyframes[0].joints.tool.q: [-0.2, 1] has 2 values; a revolute joint has 1 coordinates`},
		{"tool: {q: [-0.2]}", "ghost: {q: [1]}", `keyframes[0].joints.ghost: "ghost" is not a body name`},
		{"color: [0.5, 0.5, 0.5, 1]", "color: [2, 0.5, 0.5, 1]", `robot.yaml:11: bodies[0].visuals[0].color: [2, 0.5, 0.5, 1]: element 0 is 2, outside [0, 1]`},
		{"{shape: {type: box, size: [0.2, 0.2, 0.1]}", "{shape: {type: mesh, size: [0.2, 0.2, 0.1]}", `bodies[0].visuals[0].shape.file: missing (required for a mesh)`},
		{"{type: box, size: [0.2, 0.2, 0.1]}", "{type: ellipsoid, radii: [0.2, 0, 0.1]}", `bodies[0].visuals[0].shape.radii: [0.2, 0, 0.1]: every semi-axis must be positive`},
		{"{type: box, size: [0.2, 0.2, 0.1]}", "{type: box, size: [0.2, 0.2, 0.1], scale: [1, 1, 1]}", `shape.scale: [1, 1, 1] not allowed for a box`},
		{"    com: [0.01, 0, 0.02]\n    inertia: {diagonal: [0.001, 0.002, 0.0025]}\n", "    com: [0.01, 0, 0.02]\n", `bodies[2].com: [0.01, 0, 0.02] given without mass and inertia`},
		{"    density: 1000\n    collisions:\n      - {shape: {type: box, size: [0.1, 0.1, 0.4]}, pose: {position: [0, 0, 0.2]}}\n      - {shape: {type: sphere, radius: 0.1}, pose: {position: [0, 0, 0.5]}, material: rubber, contype: 2, conaffinity: 0}\n", "    mass: 2\n", `bodies[1].inertia: missing: a body without collision shapes needs mass and inertia`},
	} {
		doc := strings.Replace(robotDoc, c.old, c.new, 1)
		if doc == robotDoc {
			t.Fatalf("edit %q not applied", c.old)
		}
		_, err := Parse("robot.yaml", []byte(doc), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: got\n%v\nwant %q", c.old, c.new, err, c.want)
		}
	}
}

// TestInclude merges two copies of a small model with prefixes, poses and
// a parent, and checks names, placement, materials, exclusions, keyframes
// and that the including scene's own fields keep their line numbers.
func TestInclude(t *testing.T) {
	arm := func() *Scene {
		s, err := Parse("arm.yaml", []byte(robotDoc), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	calls := 0
	inc := func(path string, in Include) (*Scene, error) {
		calls++
		if path != "/models/arm.yaml" {
			return nil, errors.New("unexpected path " + path)
		}
		return arm(), nil
	}
	doc := `name: two
dt: 0.001
duration: 0.01
include:
  - {file: arm.yaml, prefix: left_, pose: {position: [0, 0.5, 0]}}
  - {file: arm.yaml, prefix: right_, parent: left_tool, pose: {position: [0, 0, 0.1]}}
materials:
  steel: {stiffness: 1e6, dissipation: 0.01, friction: 0.5}
bodies:
  - name: ball
    shape: {type: sphere, radius: -1}
    material: steel
    density: 100
`
	_, err := ParseWith("two.yaml", []byte(doc), nil, Options{Dir: "/models", Include: inc})
	if err == nil || !strings.Contains(err.Error(), "two.yaml:11: bodies[8].shape.radius: -1 must be positive") {
		t.Fatalf("line numbers of the scene's own bodies after includes: %v", err)
	}
	doc = strings.Replace(doc, "radius: -1", "radius: 0.1", 1)
	s, err := ParseWith("two.yaml", []byte(doc), nil, Options{Dir: "/models", Include: inc})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Bodies) != 9 || s.Bodies[0].Name != "left_base" || s.Bodies[4].Name != "right_base" || s.Bodies[8].Name != "ball" {
		t.Fatalf("bodies: %d, first %s", len(s.Bodies), s.Bodies[0].Name)
	}
	if j := s.Bodies[4].Joint; j == nil || j.Type != "weld" || j.Parent != "left_tool" || j.ParentFrame.Pos() != [3]float64{0, 0, 0.1} {
		t.Errorf("right base: %+v", s.Bodies[4])
	}
	if s.Bodies[0].Pose.Pos() != [3]float64{0, 0.5, 0} || s.Bodies[1].Joint.Parent != "left_base" {
		t.Errorf("left base pose %v, link parent %s", s.Bodies[0].Pose.Pos(), s.Bodies[1].Joint.Parent)
	}
	if _, ok := s.Materials["left_rubber"]; !ok || len(s.Materials) != 5 {
		t.Errorf("materials %v", sortedKeys(s.Materials))
	}
	if len(s.Exclude) != 2 || s.Exclude[1] != [2]string{"right_base", "right_tool"} {
		t.Errorf("exclude %v", s.Exclude)
	}
	if len(s.Keyframes) != 1 || len(s.Keyframes[0].Joints) != 4 {
		t.Errorf("keyframes %+v", s.Keyframes)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	// The right arm's base rides on the left tool: one tree of 2 + 2 dofs.
	if len(b.Model.Trees) != 2 || b.Model.NV != 4+6 {
		t.Errorf("trees %d nv %d", len(b.Model.Trees), b.Model.NV)
	}
	_, err = Parse("two.yaml", []byte(doc), nil)
	if err == nil || !strings.Contains(err.Error(), "two.yaml:5: include[0]: \"arm.yaml\": including models needs a model loader") {
		t.Errorf("without an includer: %v", err)
	}
}

// TestMeshShapes: a mesh collision shape is its convex hull (mass from the
// hull at the body's density, centre of mass at the hull's centroid), a
// mesh visual keeps every triangle, and a scale applies to both.
func TestMeshShapes(t *testing.T) {
	dir := t.TempDir()
	// An L-shaped prism (non-convex, volume 3); its hull adds the
	// triangle x + y > 3 cut off the 2×2 square: volume 3.5.
	obj := `v 0 0 0
v 2 0 0
v 2 1 0
v 1 1 0
v 1 2 0
v 0 2 0
v 0 0 1
v 2 0 1
v 2 1 1
v 1 1 1
v 1 2 1
v 0 2 1
f 1 6 5 4 3 2
f 7 8 9 10 11 12
f 1 2 8 7
f 2 3 9 8
f 3 4 10 9
f 4 5 11 10
f 5 6 12 11
f 6 1 7 12
`
	if err := os.WriteFile(filepath.Join(dir, "ell.obj"), []byte(obj), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := `name: mesh
dt: 0.001
duration: 0.01
materials:
  d: {stiffness: 1e6, dissipation: 0.01, friction: 0.5}
bodies:
  - name: ell
    material: d
    density: 10
    shape: {type: mesh, file: ell.obj, scale: [1, 1, 2]}
    visuals:
      - {shape: {type: mesh, file: ell.obj}}
`
	s, err := LoadWith(writeFile(t, dir, "mesh.yaml", doc), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	in := m.Bodies[0].Inertia
	// Hull of the scaled L: the box [0,2]×[0,2]×[0,2] cut by the plane
	// x + y ≤ 3: volume 2·(4 − ½) = 7, so the mass is 70.
	if math.Abs(in.Mass-70) > 1e-12 || m.Geometries[0].Shape.Kind.String() != "convexhull" {
		t.Errorf("mass %v kind %v, want 70 convexhull", in.Mass, m.Geometries[0].Shape.Kind)
	}
	if math.Abs(in.Com[2]-1) > 1e-12 || math.Abs(in.Com[0]-in.Com[1]) > 1e-12 {
		t.Errorf("com %v", in.Com)
	}
	if v := m.Visuals[0]; len(v.Triangles) != 20 || len(v.Vertices) != 12 {
		t.Errorf("visual: %d triangles, %d vertices", len(v.Triangles), len(v.Vertices))
	}
	s.Bodies[0].Shape.File = "missing.obj"
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "missing.obj") {
		t.Errorf("missing mesh: %v", err)
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
