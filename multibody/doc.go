// Package multibody holds the static Model of a multibody system (bodies,
// their trees, inertias and attached collision geometries), its State
// (q, v, t), and the kinematics and dynamics computed from them: body poses
// and velocities, point Jacobians, per-tree mass matrix blocks, bias forces,
// the kinematic map q̇ = N(q) v, and energies.
//
// The model is a forest of kinematic trees. In this version every tree is a
// single body on a free joint (6 velocities: angular then linear, both in the
// world frame, the linear one being the velocity of the body's centre of
// mass, which is its frame origin). Bodies welded to the world (ground, walls,
// an incline) belong to no tree and carry no velocities. The per-tree layout
// (QOffset, NQ, VOffset, NV) and the tree-indexed Jacobian and mass-matrix
// blocks are what articulated trees extend.
//
// Configuration of a free body: q = (qw, qx, qy, qz, x, y, z), the unit
// quaternion of its orientation (scalar first) then the position of its
// origin, in the world frame.
package multibody
