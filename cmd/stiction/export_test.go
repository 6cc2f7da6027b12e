package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// TestExportGLB exports a recorded clutter run and parses the .glb back:
// one root, 45 body nodes and 45 geometry nodes with 45 meshes, one
// animation with translation and rotation channels for the 40 moving
// bodies, keyed at the 101 frame times 0, 0.01, …, 1.
func TestExportGLB(t *testing.T) {
	dir := recordClutter(t)
	out := filepath.Join(t.TempDir(), "clutter.glb")
	if code, stdout, errs := runCLI("export", dir, "--gltf", out); code != 0 || !strings.Contains(stdout, "45 bodies, 101 frames") {
		t.Fatalf("exit %d: %s%s", code, stdout, errs)
	}
	doc, err := gltf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Nodes) != 1+45+45 || len(doc.Meshes) != 45 || len(doc.Animations) != 1 {
		t.Fatalf("%d nodes, %d meshes, %d animations; want 91, 45, 1", len(doc.Nodes), len(doc.Meshes), len(doc.Animations))
	}
	if root := doc.Nodes[doc.Scenes[0].Nodes[0]]; len(root.Children) != 45 {
		t.Errorf("root has %d children, want 45", len(root.Children))
	}
	anim := doc.Animations[0]
	paths := map[gltf.TRSProperty]int{}
	for _, ch := range anim.Channels {
		paths[ch.Target.Path]++
	}
	if len(anim.Channels) != 80 || paths[gltf.TRSTranslation] != 40 || paths[gltf.TRSRotation] != 40 {
		t.Errorf("%d channels %v, want 40 translation + 40 rotation", len(anim.Channels), paths)
	}
	checkKeyTimes(t, doc, anim.Samplers[0])
	checkMovement(t, doc, anim)
}

func checkKeyTimes(t *testing.T, doc *gltf.Document, s *gltf.AnimationSampler) {
	t.Helper()
	v, err := modeler.ReadAccessor(doc, doc.Accessors[s.Input], nil)
	if err != nil {
		t.Fatal(err)
	}
	times, ok := v.([]float32)
	if !ok || len(times) != 101 {
		t.Fatalf("keyframe times: %T of length %d, want 101 float32", v, len(times))
	}
	for i, x := range times {
		if d := float64(x) - float64(i)*0.01; d > 1e-6 || d < -1e-6 {
			t.Fatalf("key %d at t = %v, want %v", i, x, float64(i)*0.01)
		}
	}
	if acc := doc.Accessors[s.Input]; acc.Min[0] != 0 || float32(acc.Max[0]) != times[100] {
		t.Errorf("time accessor min %v max %v", acc.Min, acc.Max)
	}
}

// checkMovement checks that the first translation channel's body falls.
func checkMovement(t *testing.T, doc *gltf.Document, anim *gltf.Animation) {
	t.Helper()
	v, err := modeler.ReadAccessor(doc, doc.Accessors[anim.Samplers[0].Output], nil)
	if err != nil {
		t.Fatal(err)
	}
	pos, ok := v.([][3]float32)
	if !ok || len(pos) != 101 {
		t.Fatalf("translations: %T of length %d", v, len(pos))
	}
	if pos[0][2] <= pos[100][2] {
		t.Errorf("body does not fall: z %v → %v", pos[0][2], pos[100][2])
	}
}

func TestExportErrors(t *testing.T) {
	if code, _, errs := runCLI("export", t.TempDir(), "--gltf", "x.glb"); code != 2 || !strings.Contains(errs, "scene.json") {
		t.Errorf("missing run: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI("export", t.TempDir()); code != 2 || !strings.Contains(errs, "--gltf") {
		t.Errorf("no --gltf: exit %d, %q", code, errs)
	}
}
