// Package geometry provides Stiction's collision shapes, their mass
// properties, a broad phase over axis-aligned bounding boxes, and a narrow
// phase that turns a pair of posed shapes into contact points.
//
// # Shapes
//
// Every shape is described in its own frame and placed in the world by a
// spatial.Pose (the shape frame seen from the world):
//
//   - HalfSpace is the region z ≤ 0 of its frame. Its boundary is the plane
//     z = 0 and its outward normal is the frame's +z axis.
//   - Sphere is the ball of radius Radius centred at the origin.
//   - Box is centred at the origin with its edges along x, y and z;
//     HalfExtents holds half the side lengths.
//   - Capsule is the set of points within Radius of the segment from
//     (0, 0, −HalfLength) to (0, 0, +HalfLength): a cylinder along z capped by
//     two hemispheres.
//   - Cylinder is the solid cylinder of radius Radius around the z axis with
//     flat caps at z = ±HalfLength.
//
// Volume and UnitInertia describe the uniform solid, about its centroid
// (the frame origin), in the shape frame. Lengths are in metres, but
// nothing depends on the unit.
//
// # Contacts
//
// Collide reports contacts between geometry A and geometry B as Contact
// values in world coordinates:
//
//   - Normal is a unit vector pointing from A towards B.
//   - Phi is the signed distance along Normal: positive when the shapes are
//     separated, negative when they overlap (the penetration depth is −Phi).
//     Translating B by ε·Normal increases Phi by ε to first order. The
//     deepest contact's Phi is the signed distance of the pair: the distance
//     when apart, minus the minimum translation distance when overlapping.
//   - Point is midway between the witness points on the two surfaces, so for
//     touching shapes it lies on both surfaces.
//
// Only contacts with Phi ≤ margin are reported. Swapping A and B reports the
// same points and Phi with negated normals, exactly: the pair is processed
// in a canonical order (by kind; for equal kinds the shape lower along the
// axis of largest centre separation first). The result is a deterministic
// function of the input (the same input gives bit-identical output) and
// never contains NaN; Collide does not allocate when out has room for 8
// contacts and is safe for concurrent use.
//
// Pairs with flat faces return several points where faces touch: a box on
// a half-space up to 4 (its vertices within the margin, the deepest four),
// a box on a box up to 8 (the separating axis test over 15 axes picks the
// reference face, against which the incident face of the other box is
// clipped; crossing edges give 1 point), a capsule on a half-space or on a
// box face 2 (the ends of its axis, clipped to the face), a cylinder on a
// half-space 4 when a cap rests on it, 2 when it lies on its side and 1
// otherwise. Pairs of a cylinder with a sphere, box, capsule or cylinder use
// GJK for the distance between separated shapes and EPA for the penetration
// depth, both on the shapes' cores (a point for a sphere, a segment for a
// capsule, whose radius is added afterwards), and return one point; a short
// direction search polishes the normal where GJK or EPA stop short of
// convergence on a curved surface. Their Phi is accurate to about 1e-12
// times the size of the pair and their normal to about 1e-6 rad (1e-5 in
// nearly symmetric configurations, where the depth hardly depends on the
// direction); the other pairs are exact up to rounding.
//
// # Broad phase
//
// BroadPhase finds the overlapping pairs in a set of AABBs with a bounding
// volume hierarchy rebuilt on every call into reusable buffers; boxes that
// are unbounded (those of half-spaces) are tested against every other box.
package geometry
