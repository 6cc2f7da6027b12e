package hdf5

import (
	"bytes"
	"fmt"
)

// localHeap is a group's local heap: the data segment holding link names.
type localHeap struct {
	data []byte
}

// readLocalHeap decodes the local heap at addr ("HEAP", version 0).
func (f *File) readLocalHeap(addr uint64) (*localHeap, error) {
	what := fmt.Sprintf("local heap at 0x%x", addr)
	c, err := f.cursorAt(addr, what)
	if err != nil {
		return nil, err
	}
	sig := string(c.take(4))
	version := c.u8()
	c.skip(3)
	size := c.length()
	c.length() // offset of the free list head
	dataAddr := c.addr()
	switch {
	case c.err != nil:
		return nil, c.err
	case sig != "HEAP":
		return nil, malformed("%s: bad signature %q", what, sig)
	case version != 0:
		return nil, fmt.Errorf("%s: %w", what, unsupported("local heap version %d", version))
	}
	data, err := f.bytesAt(dataAddr, size, what+" data segment")
	if err != nil {
		return nil, err
	}
	return &localHeap{data: data}, nil
}

// name returns the NUL-terminated string at offset off of the data segment.
func (h *localHeap) name(off uint64) (string, error) {
	if off >= uint64(len(h.data)) {
		return "", malformed("local heap: name offset %d outside the data segment (%d bytes)", off, len(h.data))
	}
	s := h.data[off:]
	end := bytes.IndexByte(s, 0)
	if end < 0 {
		return "", malformed("local heap: name at offset %d is not NUL-terminated", off)
	}
	return string(s[:end]), nil
}
