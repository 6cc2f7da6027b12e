// Package hdf5 is a pure-Go reader of the subset of HDF5 that FCLIB files
// (and other simple scientific files) use: a version 0 or 1 superblock,
// version 1 object headers, symbol-table groups (version 1 B-trees and
// local heaps) and contiguous scalar or 1-D datasets of int32 LE, float64
// LE or fixed-length strings. Unwritten datasets read as their fill value,
// as h5dump prints them.
//
// Anything else (newer superblocks or object headers, new-style groups,
// chunked, compact or virtual layouts, filters, external storage, shared
// messages, other datatypes, rank > 1) gives an error wrapping
// ErrUnsupported that names the feature; malformed, truncated or corrupt
// files give errors wrapping ErrFormat; a path that does not exist gives an
// error wrapping ErrNotFound. Every error names the object concerned, and
// the file when Open was given a name.
//
// The reader holds the file in memory and bounds every address, length and
// element count read from it by the file size, so corrupt files cannot make
// it read out of range or allocate more than the file holds (FuzzOpen
// exercises this).
//
// # Use
//
//	f, err := hdf5.ReadFile("problem.hdf5")
//	d, err := f.Dataset("/fclib_global/vectors/f")
//	v, err := d.Float64s()
//
// File.Object resolves a path to an Object (a group or a dataset),
// Object.Links lists a group's children, File.Walk visits every dataset
// reachable from the root in name order, and Dataset reads the values of
// the three supported types. The tests compare every value of five FCLIB
// sample files with h5dump's output.
package hdf5
