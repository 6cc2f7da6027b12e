// Package geometry provides Stiction's collision shapes, their mass
// properties, a broad phase over axis-aligned bounding boxes, and a narrow
// phase that turns a pair of posed shapes into contact points.
//
// # Shapes
//
// Every shape is described in its own frame and placed in the world by a
// spatial.Pose (X_WS: the shape frame S seen from the world W):
//
//   - HalfSpace is the region z ≤ 0 of its frame. Its boundary is the plane
//     z = 0 and its outward normal is the frame's +z axis.
//   - Sphere is centred at the origin.
//   - Box is centred at the origin with its edges along x, y and z;
//     HalfExtents holds half the side lengths.
//   - Capsule is the set of points within Radius of the segment from
//     (0, 0, −HalfLength) to (0, 0, +HalfLength): a cylinder along z capped by
//     two hemispheres.
//   - Cylinder is the solid cylinder of radius Radius around the z axis with
//     flat caps at z = ±HalfLength.
//
// Volumes and inertias are those of the solid with unit density or unit
// mass, about its centroid (the frame origin) and expressed in the shape
// frame.
//
// # Contacts
//
// Collide reports contacts between geometry A and geometry B as Contact
// values in world coordinates:
//
//   - Normal is a unit vector pointing from A towards B.
//   - Phi is the signed distance along Normal: positive when the shapes are
//     separated, negative when they overlap (the penetration depth is −Phi).
//     Translating B by ε·Normal increases Phi by ε to first order.
//   - Point is midway between the witness points on the two surfaces, so for
//     touching shapes it lies on both surfaces.
//
// Only contacts with Phi ≤ margin are reported. Swapping A and B reports the
// same points and Phi with negated normals (the pair is put into a canonical
// order internally, so the symmetry is exact). The result is a deterministic
// function of the input: the same input gives bit-identical output, and no
// result contains NaN.
//
// Pairs with flat faces return several points where faces touch: box on
// half-space (up to 4), box on box (up to 8, found by the separating axis
// test and clipping of the incident face against the reference face),
// capsule on half-space or on a box face (up to 2), cylinder on half-space
// (up to 4). Pairs involving a cylinder and a sphere, box, capsule or
// cylinder use GJK for the distance between separated shapes and EPA for the
// penetration depth and return one point.
//
// # Broad phase
//
// BroadPhase finds the overlapping pairs in a set of AABBs with a bounding
// volume hierarchy rebuilt on every call into reusable buffers; boxes that
// are unbounded (half-spaces) are tested against every other box.
package geometry
