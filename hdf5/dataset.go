package hdf5

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Dataset is an opened contiguous dataset: its type, element count and
// storage. The values are decoded by Int32s, Float64s or Strings.
type Dataset struct {
	f     *File
	path  string
	n     uint64 // number of elements
	rank  int    // 0 (scalar) or 1
	dtype datatype
	store layout
	fill  []byte // fill value of unwritten elements, nil for zeros
}

// filterNames names the predefined HDF5 filters.
var filterNames = map[uint16]string{1: "deflate", 2: "shuffle", 3: "fletcher32", 4: "szip", 5: "nbit", 6: "scaleoffset"}

// openDataset decodes the messages of a dataset's object header.
func (f *File) openDataset(path string, h *objectHeader) (*Dataset, error) {
	if err := checkDatasetMessages(h); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", path, err)
	}
	d := &Dataset{f: f, path: path}
	var err error
	if d.dtype, err = parseDatatype(h.find(msgDatatype).data); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", path, err)
	}
	maxElems := f.maxElements(d.dtype.size)
	if d.n, d.rank, err = parseDataspace(h.find(msgDataspace).data, f.sb.lenSize, maxElems); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", path, err)
	}
	if d.store, err = parseLayout(h.find(msgLayout).data, f.sb.offSize, f.sb.lenSize); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", path, err)
	}
	if d.fill, err = fillValue(h, d.dtype.size); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", path, err)
	}
	return d, nil
}

// checkDatasetMessages rejects headers that are not plain datasets:
// missing messages, filters, external storage, shared messages.
func checkDatasetMessages(h *objectHeader) error {
	if isGroupHeader(h) {
		return malformed("is a group, not a dataset")
	}
	for _, t := range []uint16{msgDatatype, msgDataspace, msgLayout} {
		m := h.find(t)
		if m == nil {
			return malformed("object header lacks message type 0x%04x (not a dataset)", t)
		}
		if m.flags&msgFlagShared != 0 {
			return unsupported("shared header message type 0x%04x (committed datatype or shared dataspace)", t)
		}
	}
	if m := h.find(msgFilters); m != nil {
		return unsupported("filter pipeline (%s)", describeFilters(m.data))
	}
	if h.find(msgExternal) != nil {
		return unsupported("external data storage")
	}
	return nil
}

// describeFilters names the filters of a filter pipeline message, as far as
// the message can be decoded.
func describeFilters(data []byte) string {
	c := &cursor{b: data, what: "filter pipeline message"}
	version, n := c.u8(), int(c.u8())
	if version == 1 {
		c.skip(6)
	}
	s := ""
	for i := 0; i < n && c.err == nil; i++ {
		id := c.u16()
		nameLen := 0
		if version == 1 || id >= 256 {
			nameLen = int(c.u16())
		}
		c.u16() // flags
		nvals := int(c.u16())
		c.skip(nameLen)
		c.skip(4 * nvals)
		if version == 1 && nvals%2 == 1 {
			c.skip(4)
		}
		if c.err == nil {
			if s != "" {
				s += ", "
			}
			name, ok := filterNames[id]
			if !ok {
				name = fmt.Sprintf("filter %d", id)
			}
			s += name
		}
	}
	if s == "" {
		s = "undecodable"
	}
	return s
}

// raw returns the dataset's bytes, checked to lie in the file. A dataset
// whose storage was never allocated (never written) reads as its fill value,
// as h5dump prints it.
func (d *Dataset) raw() ([]byte, error) {
	nbytes := d.n * uint64(d.dtype.size) // no overflow: n ≤ file size / size
	if nbytes == 0 {
		return nil, nil
	}
	if nbytes > uint64(len(d.f.data)) {
		return nil, fmt.Errorf("dataset %q: %w", d.path, malformed("%d bytes of data, more than the file holds", nbytes))
	}
	if d.store.addr == undefAddr {
		return d.filled(nbytes), nil
	}
	if d.store.size != 0 && d.store.size < nbytes {
		return nil, fmt.Errorf("dataset %q: %w", d.path, malformed("storage of %d bytes holds less than %d elements of %d bytes", d.store.size, d.n, d.dtype.size))
	}
	b, err := d.f.bytesAt(d.store.addr, nbytes, "raw data")
	if err != nil {
		return nil, fmt.Errorf("dataset %q: %w", d.path, err)
	}
	return b, nil
}

// filled returns nbytes of the fill value (nbytes ≤ the file size).
func (d *Dataset) filled(nbytes uint64) []byte {
	b := make([]byte, nbytes)
	if d.fill != nil {
		for i := 0; i < len(b); i += len(d.fill) {
			copy(b[i:], d.fill)
		}
	}
	return b
}

// want checks the dataset's class.
func (d *Dataset) want(c Class) error {
	if d.dtype.class != c {
		return fmt.Errorf("dataset %q: %w", d.path, malformed("holds %s values, want %s", d.dtype.class, c))
	}
	return nil
}

// Int32s reads an int32 dataset.
func (d *Dataset) Int32s() ([]int32, error) {
	b, err := d.bytesOf(Int32)
	if err != nil {
		return nil, err
	}
	v := make([]int32, d.n)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// Float64s reads a float64 dataset.
func (d *Dataset) Float64s() ([]float64, error) {
	b, err := d.bytesOf(Float64)
	if err != nil {
		return nil, err
	}
	v := make([]float64, d.n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v, nil
}

// Strings reads a fixed-length string dataset, applying the padding rule:
// NUL-terminated and NUL-padded strings end at the first NUL, space-padded
// ones lose their trailing spaces.
func (d *Dataset) Strings() ([]string, error) {
	b, err := d.bytesOf(String)
	if err != nil {
		return nil, err
	}
	v := make([]string, d.n)
	for i := range v {
		s := b[i*d.dtype.size : (i+1)*d.dtype.size]
		if d.dtype.pad == 2 {
			s = bytes.TrimRight(s, " ")
		} else if k := bytes.IndexByte(s, 0); k >= 0 {
			s = s[:k]
		}
		v[i] = string(s)
	}
	return v, nil
}

// bytesOf checks the dataset's class and returns its bytes; errors name
// the file.
func (d *Dataset) bytesOf(c Class) ([]byte, error) {
	if err := d.want(c); err != nil {
		return nil, d.f.wrap(err)
	}
	b, err := d.raw()
	return b, d.f.wrap(err)
}

// Path returns the dataset's absolute path.
func (d *Dataset) Path() string { return d.path }

// Len returns the number of elements (1 for a scalar dataset).
func (d *Dataset) Len() int { return int(d.n) }

// Rank returns 0 for a scalar dataset, 1 for a 1-D one.
func (d *Dataset) Rank() int { return d.rank }

// Class returns the kind of values the dataset holds.
func (d *Dataset) Class() Class { return d.dtype.class }

// ElemSize returns the size of one element in bytes (the string length for
// fixed-length strings).
func (d *Dataset) ElemSize() int { return d.dtype.size }

// TypeName returns the datatype as h5dump's DATATYPE line names it
// (H5T_STD_I32LE, H5T_IEEE_F64LE or H5T_STRING).
func (d *Dataset) TypeName() string {
	if d.dtype.class == String {
		return "H5T_STRING"
	}
	return d.dtype.String()
}

// DataOffset returns the offset in the file image of the dataset's raw
// data, and false when the data was never written (the dataset reads as its
// fill value).
func (d *Dataset) DataOffset() (int64, bool) {
	if d.store.addr == undefAddr {
		return 0, false
	}
	return int64(d.f.sb.base + d.store.addr), true
}
