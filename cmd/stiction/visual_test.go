package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/stiction-sim/stiction/record"
)

// ellOBJ is an L-shaped prism: 12 vertices, 20 triangles once the two
// hexagons and six rectangles are fanned. Its convex hull has 10 vertices:
// the two inner corners are not on it.
const ellOBJ = `v 0 0 0
v 0.2 0 0
v 0.2 0.1 0
v 0.1 0.1 0
v 0.1 0.2 0
v 0 0.2 0
v 0 0 0.1
v 0.2 0 0.1
v 0.2 0.1 0.1
v 0.1 0.1 0.1
v 0.1 0.2 0.1
v 0 0.2 0.1
f 1 6 5 4 3 2
f 7 8 9 10 11 12
f 1 2 8 7
f 2 3 9 8
f 3 4 10 9
f 4 5 11 10
f 5 6 12 11
f 6 1 7 12
`

// TestVisualMeshesInOutputs runs an MJCF model whose body has a visual
// mesh (drawn in full) and a collision mesh (its convex hull): scene.json
// holds both meshes once, with the visual's colour, and the glTF export
// draws the visual mesh with every triangle in that colour.
func TestVisualMeshesInOutputs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ell.obj"), []byte(ellOBJ), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := `<mujoco model="ell"><asset><mesh file="ell.obj"/></asset><worldbody>
  <body name="ell" pos="0 0 1"><freejoint/>
    <geom type="mesh" mesh="ell" contype="0" conaffinity="0" rgba="0.1 0.2 0.3 1"/>
    <geom type="mesh" mesh="ell" density="300"/></body></worldbody></mujoco>`
	path := filepath.Join(dir, "ell.xml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	if code, _, errs := runCLI("run", path, "--duration", "0.01", "--out", out, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(filepath.Join(out, "scene.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sc record.SceneJSON
	if err := json.Unmarshal(data, &sc); err != nil {
		t.Fatal(err)
	}
	b := sc.Bodies[0]
	if len(sc.Meshes) != 2 || len(b.Visuals) != 1 || len(b.Geometries) != 1 || b.Geometries[0].Shape != "convexhull" || b.Visuals[0].Shape != "mesh" {
		t.Fatalf("meshes %d, body %+v", len(sc.Meshes), b)
	}
	vis := sc.Meshes[*b.Visuals[0].Mesh]
	hull := sc.Meshes[*b.Geometries[0].Mesh]
	if len(vis.Indices) != 3*20 || len(vis.Positions) != 3*12 || *b.Visuals[0].Color != [4]float64{0.1, 0.2, 0.3, 1} {
		t.Errorf("visual mesh: %d indices, %d coordinates, colour %v", len(vis.Indices), len(vis.Positions), b.Visuals[0].Color)
	}
	if len(hull.Positions) != 3*10 || !strings.HasPrefix(hull.Name, "hull") {
		t.Errorf("hull mesh %s: %d coordinates, want 10 vertices", hull.Name, len(hull.Positions))
	}
	glb := filepath.Join(dir, "ell.glb")
	if code, _, errs := runCLI("export", out, "--gltf", glb); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	g, err := gltf.Open(glb)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Meshes) != 1 {
		t.Fatalf("%d glTF meshes, want the one visual", len(g.Meshes))
	}
	prim := g.Meshes[0].Primitives[0]
	if n := g.Accessors[*prim.Indices].Count; n != 60 {
		t.Errorf("glTF visual mesh has %d indices, want 60", n)
	}
	if c := g.Materials[*prim.Material].PBRMetallicRoughness.BaseColorFactor; c == nil || *c != [4]float64{0.1, 0.2, 0.3, 1} {
		t.Errorf("visual colour %v", c)
	}
}
