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
//   - Ellipsoid is the solid ellipsoid with semi-axes Radii along x, y, z.
//   - ConvexHull is the convex polyhedron Hull built once (at model build
//     time) by NewConvexHull from a point cloud, in the frame of the points:
//     immutable, shared by pointer between copies of the Shape, with its
//     vertices, polygonal faces (outward normals) and triangles for
//     rendering. Quickhull runs in a fixed order; coplanar triangles (to
//     1e-6 of the cloud's size) merge into one face; clouds without volume
//     (collinear, coplanar, coincident) and non-finite points are errors.
//   - HeightField is terrain, the immutable grid Field built by
//     NewHeightMap: Rows × Cols heights over the rectangle [−hx, hx] ×
//     [−hy, hy] (rows along y, columns along x, as MuJoCo's hfield), each
//     cell split along its diagonal from (r, c) to (r+1, c+1) into two
//     triangles, on a base reaching down to z = −Base. It is static (it has
//     no mass properties) and only touches the other kinds.
//
// Volume, Centroid and UnitInertia describe the uniform solid: its volume,
// its centroid in the shape frame (the origin for every kind but
// ConvexHull), and its inertia per unit mass about the centroid in the
// shape frame; MassProperties combines them for a density. A hull's are
// exact (sums over tetrahedra). Lengths are in metres, but nothing depends
// on the unit.
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
// Contacts have Phi ≤ margin, except the points of a face manifold (below)
// whose deepest point is within the margin. Swapping A and B reports the
// same points, Phi and Features with negated normals, exactly: the pair is
// processed in a canonical order (by kind; for equal kinds the shape lower
// along the axis of largest centre separation first). The result is a
// deterministic function of the input (the same input gives bit-identical
// output) and never contains NaN; Collide does not allocate when out has
// room for 8 contacts (for a height field, for all of its contacts) and is
// safe for concurrent use.
//
// # Face manifolds
//
// Where a face meets a face (box–box, box–half-space, hull–half-space,
// hull–box, hull–hull, a cylinder's cap or side on a half-space or box
// face) the incident face
// is clipped against the reference face (a polygon of up to 2·64+8
// corners) and at most 5 points of it are reported (manifold.go): slots
// 0–3, the points of the polygon nearest far targets along the fixed
// directions ±u±v of the reference face's frame, which move continuously
// with the pose (they slide along an edge instead of jumping between
// corners); slot 4, the deepest point, only when deeper than them all by
// min(1% of the face width, margin/2) (on a half-space, also when it
// penetrates more than twice as deep as all of them). Every point up to margin +
// min(0.05·w, margin) is kept once the deepest is within the margin (w
// the smaller face width), so a face tilting by about a degree keeps its
// far corners, whose positive Phi leaves them inactive in the solver.
// Nearly parallel faces (within 1°) keep the first shape's face as the
// reference unless the other's, or an edge axis, is deeper by more than
// margin/2: so the reported depth may exceed the exact one by up to
// margin/2 (and sin 1° of the size) but the reference face, and with it
// every feature, does not swap from step to step. At margin 0 the depth is
// exact. A cylinder's cap on a half-space uses four rim points at fixed
// angles of its own frame as slots; on a box face (when GJK/EPA's normal
// is within 1° of the face's and the cap or side within 1° of flat on it:
// cylbox.go) the 12-gon inscribed in its rim at fixed angles, clipped to
// the face, with the rim's exact deepest point as slot 4 when over the
// face, or the line of contact along its side clipped to the face.
// Capsules give the ends of their axis (clipped to a box
// face) within the margin, crossing box edges one point, and pairs with a
// sphere, ellipsoid or cylinder (except a cylinder flat on a half-space or
// box face) one point.
// A hull on a half-space also reports up to 3 tipping vertices
// (polytope.go): the ends of hull edges that leave the incident face at
// most 30° upward and lie within the margin, so that a hull tipping onto a
// neighbouring face has speculative points at that face's far corners
// before they reach the plane.
//
// # Features
//
// Contact.Feature identifies a point within its pair's manifold and is
// unique within one call for one pair. It is stable under small changes of
// pose: the same slot of the same pair of faces keeps its value from step
// to step, so a simulator can key persistent contacts by (A, B, Feature).
// It refers to the canonical order of the pair:
//
//   - face manifold: bit 31 set; bit 30 when the reference face is the
//     second shape's; bits 16–28 the reference face; bits 3–15 the incident
//     face; bits 0–2 the slot (0–4; for capsule ends 0 and 1). Faces: a
//     half-space is face 0; a box's face with outward normal ±axis i is
//     2i+1 (+) or 2i (−); a hull's faces are numbered as in Hull.Faces; a
//     cylinder's caps at local −z and +z are faces 0 and 1 and its side is
//     face 2 (slots 0 and 1 for the ends of the line of contact at the caps
//     at −z and +z, or its first and second end clipped to a box face); a capsule's axis on a half-space or box face is face 0
//     (slot 0 for the end at −z or the first clipped end, 1 for the other).
//   - crossing box edges: bit 28, then the edge of A (4·axis + corner bits)
//     in bits 14–27 and that of B in bits 0–13.
//   - any other single point: 0.
//
// # Narrow phase of curved shapes
//
// Pairs of a cylinder, ellipsoid or hull with another shape not listed
// above use GJK for the distance between separated shapes and EPA for the
// penetration depth, both on the shapes' cores (a point for a sphere, a
// segment for a capsule, whose radius is added afterwards), and return one
// point; a short direction search polishes the normal where GJK or EPA
// stop short of convergence on a curved surface. Their Phi is accurate to
// about 1e-12 times the size of the pair (1e-7 with an ellipsoid) and their
// normal to about 1e-6 rad (1e-5 in nearly symmetric configurations, where
// the depth hardly depends on the direction); the other pairs are exact up
// to rounding.
//
// # Height fields
//
// A height field touches a shape through its top surface only (its sides
// and base are not surfaces; anything under the surface within the
// rectangle is pushed up, as by a half-space), with contacts of three
// kinds (heightfield.go), limited to the cells under the shape's bounding
// box:
//
//   - each triangle acts as the half-space of its plane, with that pair's
//     points (face manifolds included), keeping those whose foot on the
//     plane lies in the triangle's own footprint (each point of the
//     rectangle belongs to exactly one triangle);
//   - each grid edge, as a segment, against the shape by GJK/EPA, kept when
//     the normal is orthogonal to it and strictly between the normals of
//     its two triangles (a convex ridge);
//   - each grid point likewise, kept when the normal is strictly inside the
//     point's normal cone (a peak).
//
// So a shape on a flat field has exactly the contacts it has on the
// half-space of the same pose, and a sphere's deepest contact is the
// nearest point of the triangulated surface. Points of a face manifold
// beyond the margin are kept only when some point of the pair is within
// it. Features: bits 29–30 give the kind (1 triangle, 2 edge, 3 grid
// point), bits 3–28 its index, bits 0–2 the slot of a triangle's point, and
// bit 31 marks face-manifold points. A pair may have more than 8 contacts
// (up to a few per cell under the shape).
//
// # Broad phase
//
// BroadPhase finds the overlapping pairs in a set of AABBs with a bounding
// volume hierarchy rebuilt on every call into reusable buffers; boxes that
// are unbounded (those of half-spaces) are tested against every other box.
package geometry
