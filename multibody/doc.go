// Package multibody holds the static Model of a multibody system (bodies,
// their joints and kinematic trees, inertias and attached collision
// geometries), its State (q, v, t), and the kinematics and dynamics computed
// from them: body poses and velocities, point Jacobians, the per-tree mass
// matrix (CRBA), inverse dynamics and bias forces (RNEA), forward dynamics
// (ABA), the kinematic map q̇ = N(q) v, and energies.
//
// The model is a forest of kinematic trees. Each body hangs from its parent
// (an earlier body, or the world) by a Joint: weld, free, revolute,
// prismatic, ball (quaternion), planar or universal, with parent and child
// joint frames, an axis, initial q and v, damping, stiffness, armature
// (a rotor inertia added to M's diagonal, in CRBA, RNEA, ABA and the
// kinetic energy) and stored limits. A body connected to the world by a non-weld joint starts a tree;
// bodies welded to the world belong to no tree and carry no velocities. q and
// v are laid out tree by tree (Tree.QOffset, NV, …), so the mass matrix is
// block diagonal by tree and the contact solver sees one clique per tree.
//
// A free body is a one-body tree on a free joint: q = (qw, qx, qy, qz, x, y,
// z), the unit quaternion of its orientation (scalar first) then the
// position of its origin, and v = (ω, v), its angular velocity and the
// velocity of its origin, both in the world frame. The origin need not be the
// centre of mass (SpatialInertia.Com); with Com = 0 the dynamics reduce to
// the core's free-body code bit for bit.
//
// Workspace computes the kinematics of one (q, v) and runs CRBA, RNEA and
// ABA without allocating. Its spatial quantities are in the world
// orientation and referred to each body's origin (Featherstone, RBDA, with
// classical accelerations), so lever arms are link lengths, not distances
// from the world origin.
//
// Collision geometries carry MuJoCo-style contype/conaffinity bits, and body
// pairs can be excluded (ExcludePair); Collidable says whether two
// geometries may touch. Visuals are shapes and triangle meshes that are
// only drawn.
package multibody
