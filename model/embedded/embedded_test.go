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
		{"embedded://drake_models/nope.urdf", "no such embedded file (the embedded models: embedded://drake_models/allegro_hand_description/sdf/allegro_hand_description_right.sdf, embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_collision.urdf)"},
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
