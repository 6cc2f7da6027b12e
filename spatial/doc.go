// Package spatial holds the small value types of rigid-body mechanics: Vec3,
// Mat3, unit quaternions (scalar first), poses, and the spatial inertia of a
// rigid body (mechanics notes §0.1) with its inverse and factorization.
//
// Every type is a plain value: no method allocates, and copies are cheap.
//
// Conventions: right-handed frames, SI units, quaternions (w, x, y, z) with the
// scalar first. Six-vectors of a free body (twists, wrenches) are ordered
// angular first, then linear, as in the rest of Stiction.
package spatial
