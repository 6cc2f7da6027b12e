package hdf5

import "bytes"

// hdf5Signature opens every HDF5 superblock.
var hdf5Signature = []byte("\x89HDF\r\n\x1a\n")

// superblock holds the fields of a version 0 or 1 superblock that the reader
// uses.
type superblock struct {
	offset   uint64 // absolute file offset of the signature
	base     uint64 // base address: absolute offset of address 0
	offSize  int
	lenSize  int
	eof      uint64 // end-of-file address
	rootAddr uint64 // object header address of the root group
}

// findSignature returns the absolute offset of the superblock signature: 0
// or a power of two from 512 on (a user block may precede it).
func findSignature(data []byte) (uint64, error) {
	for off := 0; off+len(hdf5Signature) <= len(data); {
		if bytes.Equal(data[off:off+len(hdf5Signature)], hdf5Signature) {
			return uint64(off), nil
		}
		if off == 0 {
			off = 512
		} else {
			off *= 2
		}
	}
	return 0, malformed("no HDF5 signature (not an HDF5 file)")
}

// parseSuperblock decodes the superblock. Versions 2 and 3 (HDF5 1.8+
// "latest format" files) are reported as unsupported.
func parseSuperblock(data []byte) (superblock, error) {
	var sb superblock
	off, err := findSignature(data)
	if err != nil {
		return sb, err
	}
	sb.offset = off
	c := &cursor{b: data[off:], what: "superblock"}
	c.skip(len(hdf5Signature))
	version := c.u8()
	if c.err == nil && version > 1 {
		return sb, unsupported("superblock version %d (only versions 0 and 1)", version)
	}
	c.skip(4) // free-space, root symbol table, reserved, shared header versions
	sb.offSize, sb.lenSize = int(c.u8()), int(c.u8())
	c.skip(1)
	if c.err == nil && (!validFieldSize(sb.offSize) || !validFieldSize(sb.lenSize)) {
		return sb, malformed("superblock: size of offsets %d, size of lengths %d (want 2, 4 or 8)", sb.offSize, sb.lenSize)
	}
	c.offSize, c.lenSize = sb.offSize, sb.lenSize
	c.skip(2 + 2 + 4) // group leaf K, group internal K, consistency flags
	if version == 1 {
		c.skip(4) // indexed storage K, reserved
	}
	sb.base = c.addr()
	c.addr() // free-space info address
	sb.eof = c.addr()
	c.addr() // driver information block address
	if err := sb.readRoot(c); err != nil {
		return sb, err
	}
	return sb, sb.check(uint64(len(data)))
}

// readRoot decodes the root group's symbol table entry.
func (sb *superblock) readRoot(c *cursor) error {
	c.addr() // link name offset
	sb.rootAddr = c.addr()
	c.skip(4 + 4 + 16) // cache type, reserved, scratch pad
	return c.err
}

// check validates the addresses against the file size.
func (sb *superblock) check(size uint64) error {
	if sb.base == undefAddr || sb.base > size {
		return malformed("superblock: base address 0x%x outside the file (%d bytes)", sb.base, size)
	}
	if sb.eof != undefAddr && sb.eof > size-sb.base {
		return malformed("file truncated: end-of-file address %d beyond the file size %d", sb.eof, size-sb.base)
	}
	if sb.rootAddr == undefAddr {
		return malformed("superblock: undefined root group address")
	}
	return nil
}

func validFieldSize(n int) bool { return n == 2 || n == 4 || n == 8 }
