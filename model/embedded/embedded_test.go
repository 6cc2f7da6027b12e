package embedded

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPath: an embedded file is written once into the cache directory (a
// fresh one here) with the embedded bytes, the licences are there, and
// bad names are errors that say what is embedded.
func TestPath(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	const urdf = "embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_collision.urdf"
	p, err := Path(urdf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := files.ReadFile("drake_models/iiwa_description/urdf/iiwa14_spheres_collision.urdf")
	if string(got) != string(want) || len(want) == 0 {
		t.Errorf("%s: %d bytes, want the embedded %d", p, len(got), len(want))
	}
	dir, _ := Dir()
	for _, f := range []string{"drake_models/DRAKE_LICENSE.TXT", "drake_models/iiwa_description/iiwa_stack.LICENSE.txt", "drake_models/allegro_hand_description/LICENSE.TXT", "drake_models/package.xml", ".complete"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s missing: %v", f, err)
		}
	}
	if !strings.Contains(dir, "embedded-") {
		t.Errorf("cache dir %s", dir)
	}
	for _, c := range []struct{ uri, want string }{
		{"embedded://drake_models/nope.urdf", "no such embedded file (the embedded models: embedded://drake_models/allegro_hand_description/sdf/allegro_hand_description_left.sdf, "},
		{"embedded://drake_models/nope.urdf", ", embedded://mujoco_menagerie/wonik_allegro/scene_right.xml)"},
		{"embedded://../etc/passwd", "not a valid embedded path"},
		{"drake_models/package.xml", "not an embedded:// name"},
	} {
		if _, err := Path(c.uri); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.uri, err, c.want)
		}
	}
}

// TestWriteStale: a tree left incomplete (no marker) by an interrupted
// write is replaced.
func TestWriteStale(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "stiction", "embedded-x")
	if err := os.MkdirAll(filepath.Join(dir, "junk"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	if !complete(dir) {
		t.Fatal("not complete")
	}
	if _, err := os.Stat(filepath.Join(dir, "junk")); err == nil {
		t.Error("stale contents kept")
	}
}

// TestModels: every embedded model file is listed once, with its format,
// and with a source and a licence whose files are embedded beside it.
func TestModels(t *testing.T) {
	ms := Models()
	formats := map[string]int{}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.URI] {
			t.Errorf("%s listed twice", m.URI)
		}
		seen[m.URI] = true
		formats[m.Format]++
		if m.Source == "" || m.Licence == "" {
			t.Errorf("%s: source %q, licence %q", m.URI, m.Source, m.Licence)
		}
		_, names, _ := strings.Cut(m.Licence, ": ")
		for _, f := range strings.Split(names, ", ") {
			dir := strings.SplitN(strings.TrimPrefix(m.URI, Scheme), "/", 2)[0]
			if !strings.HasPrefix(f, dir+"/") {
				f = dir + "/" + f
			}
			if _, err := files.ReadFile(f); err != nil {
				t.Errorf("%s: licence file %s: %v", m.URI, f, err)
			}
		}
	}
	// drake_models: 8 iiwa URDF, 2 iiwa SDF, 2 Allegro URDF, 2 Allegro
	// SDF; mujoco_menagerie: iiwa14.xml, scene.xml and the Allegro's
	// right_hand, left_hand, scene_right, scene_left.
	want := map[string]int{"URDF": 10, "SDFormat": 4, "MJCF": 6}
	for f, n := range want {
		if formats[f] != n {
			t.Errorf("%d %s files, want %d", formats[f], f, n)
		}
	}
	for _, uri := range []string{
		"embedded://mujoco_menagerie/kuka_iiwa_14/scene.xml",
		"embedded://mujoco_menagerie/wonik_allegro/right_hand.xml",
		"embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_dense_collision.urdf",
		"embedded://drake_models/allegro_hand_description/urdf/allegro_hand_description_right.urdf",
	} {
		if !seen[uri] {
			t.Errorf("%s not listed", uri)
		}
	}
	if seen["embedded://drake_models/package.xml"] {
		t.Error("package.xml listed as a model")
	}
}

// TestDirRewritten: a tree removed after first use (a cleaned cache) is
// written again.
func TestDirRewritten(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	p, err := Path("embedded://mujoco_menagerie/kuka_iiwa_14/scene.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("not rewritten: %v", err)
	}
}
