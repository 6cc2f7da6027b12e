// Package mjccd is MuJoCo 2.2.2's convex–convex narrow phase, reproduced
// for MJCF scenes whose contacts must be MuJoCo's own: mjc_Convex
// (engine_collision_convex.c) with libccd 2.1's minkowski portal
// refinement (ccdMPRPenetration, src/mpr.c of libccd at the commit MuJoCo
// 2.2.2 pins, 7931e76, in double precision as Debian's libccd2 builds it),
// MuJoCo's support and centre functions (mjccd_support, mjccd_center) for
// spheres, capsules, ellipsoids, cylinders, boxes and meshes (with the
// mesh's vertex graph walk when MuJoCo compiled one), the contact normal
// correction (mjc_fixNormal) and the multiccd flag's extra contacts.
//
// Geoms are given as MuJoCo holds them (Geom): type, size, world position
// and row-major rotation matrix (geom_xpos, geom_xmat), and for a mesh its
// single-precision vertices in MuJoCo's mesh frame (mesh_vert) and its
// graph (mesh_graph). The arithmetic follows the C code's order of
// operations, so that results agree with MuJoCo's to the last bit when the
// inputs do. Which geom type pairs MuJoCo 2.2.2 sends here is Table
// (mjCOLLISIONFUNC of engine_collision_driver.c). PlaneBox is MuJoCo's
// plane–box collider (mjc_PlaneBox, engine_collision_primitive.c): the
// first four box corners below the plane in MuJoCo's corner order.
// PlaneConvex is mjc_PlaneConvex (engine_collision_convex.c), a plane with
// an ellipsoid or a mesh: the support point along the plane's −normal and,
// for a mesh, up to two more vertices within the margin (the support
// vertex's graph neighbours, or all vertices without a graph).
// PlaneCylinder is mjc_PlaneCylinder (engine_collision_primitive.c): up
// to four rim points. ConvexHField is mjc_ConvexHField: MPR between a
// convex geom and each triangular prism of the height-field cells under
// it, up to mjMAXCONPAIR contacts.
//
// Nothing allocates; loops are bounded (MPR by Options.Iterations and a
// fixed cap, the mesh graph walk by the number of vertices), so degenerate
// input ends with no contact rather than a hang.
package mjccd
