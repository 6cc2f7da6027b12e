package hdf5

import (
	"encoding/binary"
	"math"
)

// cursor decodes little-endian fields from a byte slice. The first read past
// the end sets a sticky error; later reads return zero. This keeps every
// structure parser free of per-field bounds checks while never indexing out
// of range.
type cursor struct {
	b       []byte
	pos     int
	offSize int // size of file addresses ("offsets") in bytes
	lenSize int // size of lengths in bytes
	err     error
	what    string // structure being decoded, for the error text
}

// take returns the next n bytes, or nil after setting the error.
func (c *cursor) take(n int) []byte {
	if c.err != nil {
		return nil
	}
	if n < 0 || n > len(c.b)-c.pos {
		c.err = malformed("%s truncated: need %d bytes at position %d of %d", c.what, n, c.pos, len(c.b))
		return nil
	}
	s := c.b[c.pos : c.pos+n]
	c.pos += n
	return s
}

func (c *cursor) skip(n int) { c.take(n) }

func (c *cursor) u8() uint8 {
	if s := c.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (c *cursor) u16() uint16 {
	if s := c.take(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (c *cursor) u32() uint32 {
	if s := c.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

// uvar reads an unsigned little-endian integer of n (1–8) bytes.
func (c *cursor) uvar(n int) uint64 {
	s := c.take(n)
	var v uint64
	for i := len(s) - 1; i >= 0; i-- {
		v = v<<8 | uint64(s[i])
	}
	return v
}

// addr reads a file address; undefined addresses (all bits set) come back
// as undefAddr whatever the address size.
func (c *cursor) addr() uint64 {
	v := c.uvar(c.offSize)
	if c.offSize < 8 && v == 1<<(8*uint(c.offSize))-1 {
		return undefAddr
	}
	return v
}

// length reads a length field.
func (c *cursor) length() uint64 { return c.uvar(c.lenSize) }

// undefAddr is HDF5's "undefined address".
const undefAddr = math.MaxUint64
