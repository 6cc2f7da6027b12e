package urdf

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// erdDir holds the URDF files of Gepetto/example-robot-data (BSD-3, see
// its README) with the few meshes that fit in testdata. STICTION_ERD_DIR
// names a whole checkout of the repository instead (with every mesh).
var erdDir = func() string {
	if d := os.Getenv("STICTION_ERD_DIR"); d != "" {
		return d
	}
	return "testdata/example-robot-data"
}()

// ERDFiles returns the URDF files of testdata/example-robot-data, sorted.
func erdFiles(t testing.TB) []string {
	var out []string
	err := filepath.WalkDir(erdDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".urdf") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestExampleRobotData loads every URDF of example-robot-data and builds
// its model. A file fails to load only for a mesh file that is not in
// testdata (the larger meshes were left out; DART fails on those too) —
// any other refusal fails the test. It reports which load, and how many
// warnings each gives.
func TestExampleRobotData(t *testing.T) {
	files := erdFiles(t)
	if len(files) != 69 {
		t.Fatalf("%d URDF files in %s, want the 69 of example-robot-data", len(files), erdDir)
	}
	loaded, missing := 0, 0
	for _, f := range files {
		im, err := Read(f, model.Options{})
		if err == nil {
			_, err = scene.Build(im.Scene)
		}
		rel, _ := filepath.Rel(erdDir, f)
		switch {
		case err == nil:
			loaded++
			t.Logf("%-70s loads, %d warnings", rel, len(im.Warnings))
		case strings.Contains(err.Error(), "not found") || strings.Contains(err.Error(), "not the file"):
			missing++
			t.Logf("%-70s missing mesh: %v", rel, firstLine(err))
		case meaningless[rel] != "" && strings.Contains(err.Error(), meaningless[rel]):
			t.Logf("%-70s refused: %v", rel, firstLine(err))
		default:
			t.Errorf("%s: %v", rel, err)
		}
	}
	t.Logf("%d of %d load; %d lack a mesh file left out of testdata; %d are refused as meaningless", loaded, len(files), missing, len(meaningless))
	// A mesh file that is not there is skipped with a warning (the
	// testdata holds the meshes of six robots only), so every file that is
	// not meaningless loads.
	if want := len(files) - len(meaningless); loaded != want || missing != 0 {
		t.Errorf("%d files load and %d lack a mesh; want %d and 0", loaded, missing, want)
	}
	// Without their visual and collision elements, every file that is
	// not meaningless loads.
	stripped := 0
	for _, f := range files {
		rel, _ := filepath.Rel(erdDir, f)
		if meaningless[rel] != "" {
			continue
		}
		if _, err := StrippedModel(f); err != nil {
			t.Errorf("%s without geometry: %v", rel, err)
			continue
		}
		stripped++
	}
	t.Logf("without geometry: %d of %d load", stripped, len(files))
}

// meaningless are the files of example-robot-data that say nothing a
// simulator can load, with what their refusal says.
var meaningless = map[string]string{
	"robots/falcon_description/urdf/falcon.urdf": `<child> link="Z_propeller": no link of this name`, // a joint to a link that is not there
	"robots/ur_description/urdf/ur3.urdf":        "no <link>",                                        // an empty xacro output
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
