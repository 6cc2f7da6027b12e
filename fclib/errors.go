package fclib

import (
	"fmt"

	"github.com/stiction-sim/stiction/hdf5"
)

// ErrUnsupported is wrapped by every error about a feature outside what this
// package reads: an HDF5 feature outside the reader's subset (it is
// hdf5.ErrUnsupported, so the errors of package hdf5 match it) or a problem
// the SAP mapping cannot take. The error text names the feature, for
// example "chunked storage layout".
var ErrUnsupported = hdf5.ErrUnsupported

// ErrFormat is wrapped by every error about a malformed, truncated or
// corrupt file (it is hdf5.ErrFormat), and about FCLIB data that is
// inconsistent (for example a sparse matrix index out of range).
var ErrFormat = hdf5.ErrFormat

// unsupported returns an error wrapping ErrUnsupported that names feature.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// malformed returns an error wrapping ErrFormat with a description.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}
