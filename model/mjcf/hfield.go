package mjcf

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

// hfieldAsset is an <hfield> of <asset>: nrow × ncol elevations
// normalised to [0, 1] in MuJoCo's model order (row 0 at −y; nil when
// flat) and size (radius_x, radius_y, elevation_z, base_z).
type hfieldAsset struct {
	rows, cols int
	size       [4]float64
	data       []float64
}

// hfieldAssets reads the <hfield>s of an <asset>. The elevation comes
// from the elevation attribute (rows top to bottom, as MuJoCo reads
// them), from a PNG file (grey levels, the image's top row at +y:
// readGrey) or from
// MuJoCo's binary format (int32 nrow, int32 ncol, float32 data, row 0 at
// −y), or is flat when neither is given (dm_control sets it at run time);
// as in MuJoCo it is normalised to [0, 1] by its minimum and maximum.
func (c *compiler) hfieldAssets(a *xmlutil.Element) error {
	if c.hfields == nil {
		c.hfields = map[string]*hfieldAsset{}
	}
	for _, h := range a.All("hfield") {
		v := view{e: h}
		file := v.str("file", "")
		name := assetName(v, file)
		if name == "" {
			return c.r.Errorf(h, "name", "missing (an hfield needs a name or a file)")
		}
		if c.hfields[name] != nil {
			return c.r.Errorf(h, "name", "a second hfield named %q", name)
		}
		size, err := c.floats(v, "size", 4, nil)
		if err != nil {
			return err
		}
		if size == nil {
			return c.r.Errorf(h, "size", "missing (required: radius_x radius_y elevation_z base_z)")
		}
		for i, what := range []string{"radius_x", "radius_y", "elevation_z", "base_z"} {
			if !(size[i] > 0) || math.IsInf(size[i], 0) {
				return c.r.Errorf(h, "size", "%s = %v must be positive and finite", what, size[i])
			}
		}
		nr, err := c.float(v, "nrow", 0)
		if err != nil {
			return err
		}
		nc, err := c.float(v, "ncol", 0)
		if err != nil {
			return err
		}
		if nr != math.Trunc(nr) || nc != math.Trunc(nc) || nr < 0 || nc < 0 || nr*nc > 1<<24 {
			return c.r.Errorf(h, "nrow", "nrow %v and ncol %v must be non-negative integers (at most 2²⁴ points)", nr, nc)
		}
		hf := &hfieldAsset{rows: int(nr), cols: int(nc), size: [4]float64(size)}
		switch {
		case file != "":
			if hf.rows != 0 || hf.cols != 0 {
				return c.r.Errorf(h, "nrow", "nrow and ncol must be 0 (or absent) when the data come from file %s", file)
			}
			if err := c.hfieldFile(h, file, hf); err != nil {
				return err
			}
		case v.e.Has("elevation"):
			el, _, err := c.r.Floats(h, "elevation", -1)
			if err != nil {
				return err
			}
			if len(el) != hf.rows*hf.cols {
				return c.r.Errorf(h, "elevation", "%d values, want nrow × ncol = %d × %d = %d", len(el), hf.rows, hf.cols, hf.rows*hf.cols)
			}
			hf.data = make([]float64, len(el))
			for r := range hf.rows { // XML rows run from +y to −y
				copy(hf.data[r*hf.cols:(r+1)*hf.cols], el[(hf.rows-1-r)*hf.cols:(hf.rows-r)*hf.cols])
			}
		}
		if hf.rows < 2 || hf.cols < 2 {
			return c.r.Errorf(h, "nrow", "a height field of %d rows and %d columns: want at least 2 of each", hf.rows, hf.cols)
		}
		normalise(hf.data)
		c.hfields[name] = hf
	}
	return nil
}

// normalise maps data onto [0, 1] as MuJoCo 2.2.2's compiler does
// (mjCHField::Compile), in single precision as its hfield_data holds it:
// x − min, divided by max − min when that exceeds mjMINVAL (1e-15), so
// that the height-field collider's data · scale products are MuJoCo's.
func normalise(data []float64) {
	lo, hi := float32(1e10), float32(-1e10)
	for _, x := range data {
		lo, hi = min(lo, float32(x)), max(hi, float32(x))
	}
	span := hi - lo
	for i, x := range data {
		f := float32(x) - lo
		if float64(span) > 1e-15 {
			f /= span
		}
		data[i] = float64(f)
	}
}

// hfieldFile reads the elevation of hf from a PNG or MuJoCo binary file.
func (c *compiler) hfieldFile(h *xmlutil.Element, file string, hf *hfieldAsset) error {
	dir := filepath.Dir(h.File)
	if c.meshdir != "" {
		dir = c.meshdir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(c.r.File), dir)
		}
	}
	path, err := c.opts.ResolveURI(file, dir)
	if err != nil {
		return c.r.Errorf(h, "file", "%v", err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return c.r.Errorf(h, "file", "%v", err)
	}
	if strings.EqualFold(filepath.Ext(path), ".png") {
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			return c.r.Errorf(h, "file", "%s: %v", file, err)
		}
		readGrey(img, hf)
		return nil
	}
	if len(raw) < 8 {
		return c.r.Errorf(h, "file", "%s: %d bytes, too short for MuJoCo's hfield format (int32 nrow, int32 ncol, float32 data)", file, len(raw))
	}
	nr, nc := int64(int32(binary.LittleEndian.Uint32(raw))), int64(int32(binary.LittleEndian.Uint32(raw[4:])))
	if nr < 2 || nc < 2 || nr*nc > 1<<24 || int64(len(raw)) != 8+4*nr*nc {
		return c.r.Errorf(h, "file", "%s: header says %d × %d, file has %d bytes (want 8 + 4·nrow·ncol)", file, nr, nc, len(raw))
	}
	hf.rows, hf.cols = int(nr), int(nc)
	hf.data = make([]float64, nr*nc)
	for i := range hf.data {
		hf.data[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[8+4*i:])))
	}
	return nil
}

// readGrey sets hf's size and data from the 8-bit grey levels of img,
// its top row at +y (the last model row). A colour pixel counts by its red
// channel, as with MuJoCo 2.2.2's PNG decoder (measured: red and white
// give the same elevation, green and blue that of black).
func readGrey(img image.Image, hf *hfieldAsset) {
	b := img.Bounds()
	hf.rows, hf.cols = b.Dy(), b.Dx()
	hf.data = make([]float64, hf.rows*hf.cols)
	for y := range hf.rows {
		for x := range hf.cols {
			r, _, _, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			hf.data[(hf.rows-1-y)*hf.cols+x] = float64(r >> 8)
		}
	}
}

// hfieldShape returns the scene shape of an hfield geom.
func (c *compiler) hfieldShape(v view) (*scene.Shape, error) {
	name := v.str("hfield", "")
	hf := c.hfields[name]
	if hf == nil {
		if src := v.src("hfield"); src != nil {
			return nil, c.r.Errorf(src, "hfield", "no hfield of this name in <asset>")
		}
		return nil, c.r.Errorf(v.e, "hfield", "missing (an hfield geom needs an hfield)")
	}
	if v.has("size") {
		v.str("size", "") // MuJoCo ignores a hfield geom's size
	}
	size := scene.Vec{2 * hf.size[0], 2 * hf.size[1], hf.size[2]}
	rows, cols, base := hf.rows, hf.cols, hf.size[3]
	return &scene.Shape{Type: "heightfield", Size: &size, Rows: &rows, Cols: &cols, Base: &base, Heights: hf.data}, nil
}
