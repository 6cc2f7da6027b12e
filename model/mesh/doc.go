// Package mesh reads triangle meshes from STL (binary and ASCII), Wavefront
// OBJ and glTF 2.0 files into a Mesh (vertices and triangles), checks them
// (empty, truncated, out-of-range indices, non-finite or degenerate
// vertices give errors) and computes the mass properties of the solid a
// closed mesh bounds (divergence theorem: MassProperties).
//
// The importers use a mesh two ways: its full triangles are drawn by the
// viewer and the glTF export, and its convex hull (package geometry) is its
// collision shape. MJCF's inertiafromgeom also needs the volume and inertia
// of a mesh, which MuJoCo takes from the mesh itself, not from its hull.
package mesh
