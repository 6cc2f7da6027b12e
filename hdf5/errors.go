package hdf5

import (
	"errors"
	"fmt"
)

// ErrUnsupported is wrapped by every error about an HDF5 feature outside the
// subset this package reads (see the package documentation). The error text
// names the feature, for example "chunked storage layout".
var ErrUnsupported = errors.New("unsupported feature")

// ErrFormat is wrapped by every error about a malformed, truncated or
// corrupt file.
var ErrFormat = errors.New("malformed file")

// ErrNotFound is wrapped by lookups of a path that does not exist.
var ErrNotFound = errors.New("not found")

// unsupported returns an error wrapping ErrUnsupported that names feature.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// malformed returns an error wrapping ErrFormat with a description.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}
