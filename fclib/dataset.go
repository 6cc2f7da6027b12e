package fclib

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// dataset is an opened contiguous dataset.
type dataset struct {
	f     *h5File
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
func (f *h5File) openDataset(path string, h *objectHeader) (*dataset, error) {
	if err := checkDatasetMessages(h); err != nil {
		return nil, fmt.Errorf("dataset %q: %w", path, err)
	}
	d := &dataset{f: f, path: path}
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
func (d *dataset) raw() ([]byte, error) {
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
func (d *dataset) filled(nbytes uint64) []byte {
	b := make([]byte, nbytes)
	if d.fill != nil {
		for i := 0; i < len(b); i += len(d.fill) {
			copy(b[i:], d.fill)
		}
	}
	return b
}

// want checks the dataset's class.
func (d *dataset) want(c dtClass) error {
	if d.dtype.class != c {
		return fmt.Errorf("dataset %q: %w", d.path, malformed("holds %s values, want %s", d.dtype.class, c))
	}
	return nil
}

// int32s reads an int32 dataset.
func (d *dataset) int32s() ([]int32, error) {
	b, err := d.bytesOf(dtInt32)
	if err != nil {
		return nil, err
	}
	v := make([]int32, d.n)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// float64s reads a float64 dataset.
func (d *dataset) float64s() ([]float64, error) {
	b, err := d.bytesOf(dtFloat64)
	if err != nil {
		return nil, err
	}
	v := make([]float64, d.n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v, nil
}

// strings reads a fixed-length string dataset, applying the padding rule:
// NUL-terminated and NUL-padded strings end at the first NUL, space-padded
// ones lose their trailing spaces.
func (d *dataset) strings() ([]string, error) {
	b, err := d.bytesOf(dtString)
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

func (d *dataset) bytesOf(c dtClass) ([]byte, error) {
	if err := d.want(c); err != nil {
		return nil, err
	}
	return d.raw()
}

// readDataset opens the dataset at path.
func (f *h5File) readDataset(path string) (*dataset, error) {
	h, err := f.lookup(path)
	if err != nil {
		return nil, err
	}
	return f.openDataset(path, h)
}
