package mjcf

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// hfieldOf imports doc and returns the world's heightfield collision.
func hfieldOf(t *testing.T, path, doc string) *scene.Shape {
	t.Helper()
	im, err := Parse(path, []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range im.Scene.Bodies {
		for _, c := range b.Collisions {
			if c.Shape.Type == "heightfield" {
				return c.Shape
			}
		}
	}
	t.Fatal("no heightfield collision")
	return nil
}

// TestHfield checks MuJoCo's hfield data: the elevation attribute (rows
// given from +y down, normalised by min and max), PNG files (the image's
// top row at +y; the numbers are MuJoCo 2.2.2's hfield_data for the same
// files), MuJoCo's binary format, and no data (flat); each value is
// MuJoCo's single-precision one, exactly.
func TestHfield(t *testing.T) {
	const tmpl = `<mujoco><asset><hfield name="h" %s size="1 2 0.5 0.1"/></asset>
  <worldbody><geom type="hfield" hfield="h" pos="0 0 -0.01"/><body><freejoint/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>`
	dir := t.TempDir()
	bin := filepath.Join(dir, "h.bin")
	raw := binary.LittleEndian.AppendUint32(nil, 2)
	raw = binary.LittleEndian.AppendUint32(raw, 2)
	for _, x := range []float32{2, 4, 6, 10} {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	if err := os.WriteFile(bin, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		attrs      string
		rows, cols int
		want       []float64
	}{
		{`nrow="2" ncol="3" elevation="1 2 3 4 5 6"`, 2, 3, []float64{0.6, 0.8, 1, 0, 0.2, 0.4}},
		{`file="hfield_grey.png"`, 2, 3, []float64{0.6, 0.8, 1, 0, 0.2, 0.4}},
		{`file="hfield_colour.png"`, 2, 2, []float64{0, 1, 1, 0}},
		{`file="` + bin + `"`, 2, 2, []float64{0, 0.25, 0.5, 1}},
		{`nrow="4" ncol="5"`, 4, 5, nil},
	} {
		sh := hfieldOf(t, "testdata/h.xml", strings.Replace(tmpl, "%s", tc.attrs, 1))
		if *sh.Rows != tc.rows || *sh.Cols != tc.cols || *sh.Size != (scene.Vec{2, 4, 0.5}) || *sh.Base != 0.1 || len(sh.Heights) != len(tc.want) {
			t.Errorf("%s: %d × %d, size %v, base %v, heights %v", tc.attrs, *sh.Rows, *sh.Cols, *sh.Size, *sh.Base, sh.Heights)
			continue
		}
		for i, w := range tc.want {
			if sh.Heights[i] != float64(float32(w)) { // MuJoCo's single-precision hfield_data
				t.Errorf("%s: heights %v, want %v", tc.attrs, sh.Heights, tc.want)
				break
			}
		}
	}
	for _, tc := range []struct{ doc, want string }{
		{strings.Replace(tmpl, "%s", `nrow="2" ncol="3" elevation="1 2 3"`, 1), `elevation="1 2 3": 3 values, want nrow × ncol = 2 × 3 = 6`},
		{strings.Replace(tmpl, "%s", `nrow="1" ncol="3"`, 1), "1 rows and 3 columns"},
		{strings.Replace(tmpl, "%s", `file="hfield_grey.png" nrow="2" ncol="3"`, 1), "nrow and ncol must be 0"},
		{strings.Replace(strings.Replace(tmpl, "%s", `nrow="2" ncol="2"`, 1), `size="1 2 0.5 0.1"`, `size="1 2 0.5 0"`, 1), "base_z = 0 must be positive"},
		{strings.Replace(strings.Replace(tmpl, "%s", `nrow="2" ncol="2"`, 1), `hfield="h"`, `hfield="g"`, 1), "no hfield of this name"},
		{strings.Replace(strings.Replace(tmpl, "%s", `nrow="2" ncol="2"`, 1), `<geom type="sphere" size="0.1"/>`, `<geom type="hfield" hfield="h"/>`, 1), "a height field is static terrain"},
	} {
		_, err := Parse("testdata/h.xml", []byte(tc.doc), model.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// TestQuadrupedLoads: dm_control's quadruped, whose terrain hfield has no
// data (flat), imports and builds.
func TestQuadrupedLoads(t *testing.T) {
	path := "../../internal/mjref/testdata/dm_control/suite/quadruped.xml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	im, err := Parse(path, data, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range b.Model.Geometries {
		if g.Shape.Kind.String() == "heightfield" {
			n++
			if f := g.Shape.Field; f.Rows() != 201 || f.Cols() != 201 || f.Base() != 0.1 || f.Height(100, 100) != 0 {
				t.Errorf("terrain %d × %d, base %v", f.Rows(), f.Cols(), f.Base())
			}
		}
	}
	if n != 1 {
		t.Errorf("%d height fields, want 1", n)
	}
}
