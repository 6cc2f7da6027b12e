package sweep_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/sweep"
)

// cubeOBJ is a 0.1 m cube.
const cubeOBJ = `v 0 0 0
v 0.1 0 0
v 0.1 0.1 0
v 0 0.1 0
v 0 0 0.1
v 0.1 0 0.1
v 0.1 0.1 0.1
v 0 0.1 0.1
f 1 3 2
f 1 4 3
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 2 3 7
f 2 7 6
f 3 4 8
f 3 8 7
f 4 1 5
f 4 5 8
`

// TestBundleCarriesFiles sweeps a scene file that includes another scene
// and names a mesh, both by relative paths: every job carries the two
// files, and the sweep completes with rows identical to the jobs run
// before the files were deleted from the disk (the jobs read only their
// bundle).
func TestBundleCarriesFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"scenes/main.yaml": `name: carried
dt: 0.001
duration: 0.01
materials:
  default: {stiffness: 1e12, dissipation: 0, friction: 1}
include:
  - {file: parts/ball.yaml, prefix: p_}
bodies:
  - {name: ground, fixed: true, shape: {type: halfspace}, material: default}
  - name: box
    shape: {type: mesh, file: meshes/cube.obj}
    material: default
    density: 1000
    pose: {position: [0, 0, 0.001]}
`,
		"scenes/parts/ball.yaml": `name: ball
dt: 0.001
duration: 1
materials:
  m: {stiffness: 1e12, dissipation: 0, friction: 1}
bodies:
  - {name: ball, shape: {type: sphere, radius: 0.05}, material: m, density: 1000, pose: {position: [0.5, 0, 0.05]}}
`,
		"scenes/meshes/cube.obj": cubeOBJ,
		"spec.yaml":              "scene: scenes/main.yaml\ngrid: {materials.default.friction: [0.2, 0.5, 0.9]}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := sweep.ReadSpec(filepath.Join(dir, "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Expand()
	if err != nil {
		t.Fatal(err)
	}
	var carried []string
	for _, f := range p.Jobs[0].Bundle {
		rel, _ := filepath.Rel(dir, f.Path)
		carried = append(carried, filepath.ToSlash(rel))
	}
	if want := []string{"scenes/meshes/cube.obj", "scenes/parts/ball.yaml"}; !slices.Equal(carried, want) {
		t.Fatalf("the jobs carry %v, want %v", carried, want)
	}
	want := aloneRows(t, p)
	if err := os.RemoveAll(filepath.Join(dir, "scenes")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	q := embedded(t, out)
	rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: out, LocalWorkers: 1})
	if err != nil || rep.Failed != 0 {
		t.Fatalf("report %+v: %v", rep, err)
	}
	if got := tableRows(t, out, p.Columns()); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("rows\n got %v\nwant %v", got, want)
	}
}
