package hdf5

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// sampleFiles are the FCLIB problems of package fclib's testdata (with
// their licence), the test corpus of this reader.
var sampleFiles = func() []string {
	paths, _ := filepath.Glob(filepath.Join("..", "fclib", "testdata", "*.hdf5"))
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names
}()

func samplePath(name string) string { return filepath.Join("..", "fclib", "testdata", name) }

// readAllDatasets reads every dataset of the file with our reader and
// returns its type name and values as h5dump would print them: integers in
// decimal, floats as float64 (compared by value), strings raw.
func readAllDatasets(t *testing.T, file string) map[string]*dumpedDataset {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(file, data)
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]*dumpedDataset{}
	err = f.Walk(func(o *Object) error {
		d, err := o.Dataset()
		if err != nil {
			return err
		}
		dd, err := datasetTokens(d)
		sets[o.Path()] = dd
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sets
}

// datasetTokens renders a dataset's values as tokens comparable with
// h5dump's.
func datasetTokens(d *Dataset) (*dumpedDataset, error) {
	dd := &dumpedDataset{typ: d.TypeName()}
	switch d.Class() {
	case Int32:
		v, err := d.Int32s()
		for _, x := range v {
			dd.tokens = append(dd.tokens, strconv.Itoa(int(x)))
		}
		return dd, err
	case Float64:
		v, err := d.Float64s()
		for _, x := range v {
			dd.tokens = append(dd.tokens, strconv.FormatFloat(x, 'g', -1, 64))
		}
		return dd, err
	}
	v, err := d.Strings()
	dd.tokens = v
	return dd, err
}

// compareDumps checks that ours has exactly the datasets of want, with the
// same types and every value equal. Floats are compared as float64 values
// (h5dump prints 17 significant digits, which round-trip exactly).
func compareDumps(t *testing.T, file string, want, got map[string]*dumpedDataset) (values int) {
	t.Helper()
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
		if got[p] == nil {
			t.Errorf("%s: dataset %s in h5dump output, not read", file, p)
		}
	}
	for p := range got {
		if want[p] == nil {
			t.Errorf("%s: dataset %s read, not in h5dump output", file, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		w, g := want[p], got[p]
		if g == nil {
			continue
		}
		values += compareDataset(t, file+":"+p, w, g)
	}
	return values
}

func compareDataset(t *testing.T, name string, w, g *dumpedDataset) int {
	t.Helper()
	if w.typ != g.typ {
		t.Errorf("%s: type %s, h5dump says %s", name, g.typ, w.typ)
		return 0
	}
	if len(w.tokens) != len(g.tokens) {
		t.Errorf("%s: %d values, h5dump has %d", name, len(g.tokens), len(w.tokens))
		return 0
	}
	bad := 0
	for i := range w.tokens {
		if !sameToken(w.typ, w.tokens[i], g.tokens[i]) {
			if bad < 3 {
				t.Errorf("%s[%d] = %q, h5dump says %q", name, i, g.tokens[i], w.tokens[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values differ", name, bad, len(w.tokens))
	}
	return len(w.tokens)
}

// sameToken compares one value: floats by parsed value (bits for NaN),
// others textually.
func sameToken(typ, want, got string) bool {
	if typ != "H5T_IEEE_F64LE" {
		return want == got
	}
	a, err1 := strconv.ParseFloat(want, 64)
	b, err2 := strconv.ParseFloat(got, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

// TestDatasetsMatchH5dump compares every value of every dataset of the five
// files with the golden h5dump output in testdata/h5dump.
func TestDatasetsMatchH5dump(t *testing.T) {
	for _, name := range sampleFiles {
		file := samplePath(name)
		if *update {
			out, err := runH5dump(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := writeGolden(file, out); err != nil {
				t.Fatal(err)
			}
		}
		out, err := readGolden(file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseH5dump(out)
		if err != nil {
			t.Fatal(err)
		}
		got := readAllDatasets(t, file)
		n := compareDumps(t, name, want, got)
		t.Logf("%s: %d datasets, %d values compared with h5dump", name, len(want), n)
	}
}

// TestDatasetsMatchLiveH5dump repeats the comparison against h5dump run
// now, when it is installed (Debian package hdf5-tools).
func TestDatasetsMatchLiveH5dump(t *testing.T) {
	if _, err := exec.LookPath("h5dump"); err != nil {
		t.Skip("h5dump not installed")
	}
	for _, name := range sampleFiles {
		file := samplePath(name)
		out, err := runH5dump(file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseH5dump(out)
		if err != nil {
			t.Fatal(err)
		}
		compareDumps(t, name, want, readAllDatasets(t, file))
	}
}
