package fclib

// h5File is an HDF5 file held in memory. Every structure is decoded through
// a cursor bounded by the file's bytes, so corrupt sizes and addresses give
// errors, never out-of-range reads or allocations larger than the file.
type h5File struct {
	name string
	data []byte
	sb   superblock
}

// openHDF5 parses the superblock of the file image data. name is used in
// error messages only.
func openHDF5(name string, data []byte) (*h5File, error) {
	sb, err := parseSuperblock(data)
	if err != nil {
		return nil, err
	}
	return &h5File{name: name, data: data, sb: sb}, nil
}

// cursorAt returns a cursor over the file from address addr (relative to the
// base address) to the end of the file.
func (f *h5File) cursorAt(addr uint64, what string) (*cursor, error) {
	if addr == undefAddr || addr > uint64(len(f.data))-f.sb.base {
		return nil, malformed("%s: address 0x%x outside the file (%d bytes)", what, addr, len(f.data))
	}
	start := f.sb.base + addr
	return &cursor{b: f.data[start:], offSize: f.sb.offSize, lenSize: f.sb.lenSize, what: what}, nil
}

// bytesAt returns the n bytes at address addr, checking they lie in the file.
func (f *h5File) bytesAt(addr, n uint64, what string) ([]byte, error) {
	c, err := f.cursorAt(addr, what)
	if err != nil {
		return nil, err
	}
	if n > uint64(len(c.b)) {
		return nil, malformed("%s: %d bytes at 0x%x run past the end of the file (%d bytes)", what, n, addr, len(f.data))
	}
	return c.b[:n], nil
}

// maxElements bounds the element count of any array read from the file: an
// array of elemSize-byte elements cannot hold more elements than fit in the
// file.
func (f *h5File) maxElements(elemSize int) uint64 {
	if elemSize < 1 {
		elemSize = 1
	}
	return uint64(len(f.data)) / uint64(elemSize)
}
