package hdf5

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAPI walks the groups of a sample through the exported API and checks
// the lookups, the listing and the typed reads against what h5dump prints.
func TestAPI(t *testing.T) {
	f, err := ReadFile(samplePath(boxFile))
	if err != nil {
		t.Fatal(err)
	}
	if f.Name() != boxFile || f.Size() == 0 {
		t.Errorf("Name, Size = %q, %d", f.Name(), f.Size())
	}
	root, err := f.Object("/")
	if err != nil || !root.IsGroup() || root.Path() != "/" {
		t.Fatalf("root: %v, %v", root, err)
	}
	links, err := root.Links()
	if err != nil || !slices.Equal(links, []string{"fclib_global", "guesses", "solution"}) {
		t.Errorf("root links = %v, %v", links, err)
	}
	m, err := f.Object("fclib_global//M/")
	if err != nil || m.Path() != "/fclib_global/M" || !m.IsGroup() {
		t.Fatalf("M: %v, %v", m, err)
	}
	if links, _ := m.Links(); !slices.Equal(links, []string{"i", "m", "n", "nz", "nzmax", "p", "x"}) {
		t.Errorf("M links = %v", links)
	}
	if _, err := m.Dataset(); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "is a group") {
		t.Errorf("group as dataset: %v", err)
	}
	if _, err := f.Object("/fclib_global/nothing"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), boxFile) {
		t.Errorf("missing object: %v", err)
	}
	if f.Exists("/fclib_global/nothing") || !f.Exists("/fclib_global/M/x") {
		t.Error("Exists")
	}

	x, err := f.Dataset("/fclib_global/M/x")
	if err != nil {
		t.Fatal(err)
	}
	if x.Class() != Float64 || x.ElemSize() != 8 || x.Rank() != 1 || x.Path() != "/fclib_global/M/x" || x.TypeName() != "H5T_IEEE_F64LE" {
		t.Errorf("x: class %v size %d rank %d path %q type %s", x.Class(), x.ElemSize(), x.Rank(), x.Path(), x.TypeName())
	}
	v, err := x.Float64s()
	if err != nil || len(v) != x.Len() {
		t.Errorf("x: %d values of %d, %v", len(v), x.Len(), err)
	}
	if _, err := x.Int32s(); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "holds float64 values, want int32") {
		t.Errorf("float64 read as int32: %v", err)
	}
	nz, err := f.Dataset("/fclib_global/M/nz")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := nz.Int32s(); err != nil || len(n) != 1 || nz.Rank() != 1 {
		t.Errorf("nz = %v (rank %d), %v", n, nz.Rank(), err)
	}
	if _, ok := nz.DataOffset(); !ok {
		t.Error("nz: no data offset")
	}
	title, err := f.Dataset("/fclib_global/info/title")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := title.Strings(); err != nil || len(s) != 1 || title.Class() != String || title.TypeName() != "H5T_STRING" {
		t.Errorf("title = %q, %v", s, err)
	}

	var walked []string
	if err := f.Walk(func(o *Object) error { walked = append(walked, o.Path()); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(walked) != 28 || !slices.IsSorted(walked) || !slices.Contains(walked, "/fclib_global/M/x") {
		t.Errorf("walk: %d datasets %v", len(walked), walked)
	}
	stop := errors.New("stop")
	if err := f.Walk(func(*Object) error { return stop }); err != stop {
		t.Errorf("walk returned %v, want fn's error unchanged", err)
	}
}

// TestClassString checks the names of the classes.
func TestClassString(t *testing.T) {
	for c, want := range map[Class]string{Int32: "int32", Float64: "float64", String: "string", Class(7): "Class(7)"} {
		if c.String() != want {
			t.Errorf("%d: %q, want %q", int(c), c.String(), want)
		}
	}
}
