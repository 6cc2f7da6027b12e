package hdf5

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// File is an HDF5 file held in memory. Every structure is decoded through a
// cursor bounded by the file's bytes, so corrupt sizes and addresses give
// errors, never out-of-range reads or allocations larger than the file. A
// File is read-only and safe for concurrent use.
type File struct {
	name string
	data []byte
	sb   superblock
}

// Open parses the superblock of the file image data. name identifies the
// file in error messages; pass "" when the caller names the file itself.
// data is not copied and must not change while the File is in use.
func Open(name string, data []byte) (*File, error) {
	f := &File{name: name, data: data}
	sb, err := parseSuperblock(data)
	if err != nil {
		return nil, f.wrap(err)
	}
	f.sb = sb
	return f, nil
}

// ReadFile reads and opens the HDF5 file at path; errors name the file by
// its base name.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hdf5: %w", err)
	}
	return Open(filepath.Base(path), data)
}

// Name returns the name given to Open.
func (f *File) Name() string { return f.name }

// Size returns the size of the file image in bytes.
func (f *File) Size() int { return len(f.data) }

// wrap prefixes err with the file name, when there is one.
func (f *File) wrap(err error) error {
	if err == nil || f.name == "" {
		return err
	}
	return fmt.Errorf("%s: %w", f.name, err)
}

// Object resolves an absolute path such as "/fclib_global/M/x" ("/" is the
// root group). A path that does not exist gives an error wrapping
// ErrNotFound.
func (f *File) Object(path string) (*Object, error) {
	h, err := f.lookup(path)
	if err != nil {
		return nil, f.wrap(err)
	}
	return &Object{f: f, path: cleanPath(path), h: h}, nil
}

// Exists reports whether path resolves to an object. Errors other than a
// missing path (a corrupt file, an unsupported group format) count as
// present, so that reading the object reports them.
func (f *File) Exists(path string) bool {
	_, err := f.lookup(path)
	return !errors.Is(err, ErrNotFound)
}

// Dataset opens the dataset at path.
func (f *File) Dataset(path string) (*Dataset, error) {
	o, err := f.Object(path)
	if err != nil {
		return nil, err
	}
	return o.Dataset()
}

// Walk calls fn with every dataset (every object that is not a group)
// reachable from the root, depth first in name order. Objects reachable by
// several paths (hard links) are visited once. fn receives the object, not
// the opened dataset, so that a walk can list objects it cannot read; an
// error from fn stops the walk and is returned.
func (f *File) Walk(fn func(o *Object) error) error {
	var fnErr error
	err := f.walk(func(path string, h *objectHeader) error {
		fnErr = fn(&Object{f: f, path: path, h: h})
		return fnErr
	})
	if err != nil && err == fnErr {
		return err // fn's error, as fn returned it
	}
	return f.wrap(err)
}

// cursorAt returns a cursor over the file from address addr (relative to the
// base address) to the end of the file.
func (f *File) cursorAt(addr uint64, what string) (*cursor, error) {
	if addr == undefAddr || addr > uint64(len(f.data))-f.sb.base {
		return nil, malformed("%s: address 0x%x outside the file (%d bytes)", what, addr, len(f.data))
	}
	start := f.sb.base + addr
	return &cursor{b: f.data[start:], offSize: f.sb.offSize, lenSize: f.sb.lenSize, what: what}, nil
}

// bytesAt returns the n bytes at address addr, checking they lie in the file.
func (f *File) bytesAt(addr, n uint64, what string) ([]byte, error) {
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
func (f *File) maxElements(elemSize int) uint64 {
	if elemSize < 1 {
		elemSize = 1
	}
	return uint64(len(f.data)) / uint64(elemSize)
}
