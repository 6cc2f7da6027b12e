// Package mjcf reads MuJoCo MJCF models into a model.Import.
//
// Supported: <include> (spliced in), <compiler> (angle, meshdir, assetdir,
// autolimits, inertiafromgeom, inertiagrouprange, eulerseq, boundmass,
// boundinertia, settotalmass), nested <default> classes with class and
// childclass, <option> (timestep, gravity, integrator: Euler →
// mujoco-euler, RK4 → rk4; <flag>: flags.go), <asset> meshes (file, scale) and
// material colours, the <worldbody> tree of bodies with pos and every
// orientation form (quat, unnormalised too, axisangle, euler with
// eulerseq, xyaxes, zaxis), <inertial> (diaginertia, fullinertia),
// <joint> (hinge, slide, ball, free, and <freejoint>; several on one body
// become one compound joint whose parts keep the file's order) with ref,
// springref, range
// (limits; a ball joint's as its cone limit), damping, stiffness,
// armature, frictionloss (joint friction) and actuatorfrcrange (effort
// limit), <geom> (plane, sphere, capsule, ellipsoid, cylinder, box, mesh;
// size, fromto, density or mass, contype and conaffinity, condim,
// friction, solref, margin and gap), <site>, <contact> <exclude> and
// <pair> (pair.go), <keyframe> (qpos, qvel, ctrl), <actuator> (motor,
// position, velocity, and general where it is one of those: control.go),
// <equality> (connect → ball, weld → weld, joint → coupler or a
// locked joint; equality.go) and <sensor> (jointpos, jointvel,
// actuatorfrc, frame sensors on sites, bodies and geoms, gyro, velocimeter,
// accelerometer, touch, force, torque, subtreecom, subtreelinvel,
// subtreeangmom: sensors.go; package sensor).
//
// Mapping choices, documented in docs/MODELS.md:
//   - A geom with contype = conaffinity = 0 is visual only; it still
//     carries mass (inertiafromgeom), as in MuJoCo.
//   - Mass properties of a mesh geom come from the mesh's own triangles
//     (package mesh, divergence theorem); its collision shape is its
//     convex hull, as MuJoCo's.
//   - Contact: solref (timeconst T, dampratio ζ) gives each geom the
//     stiffness k = m/(T ζ)² and the dissipation time τd = 2 T ζ², with m
//     the mass of the geom's body (k = 10¹² for geoms on bodies that do not
//     move), so that the series combination of two geoms' stiffnesses has
//     the natural frequency 1/(T ζ) and the damping ratio ζ of MuJoCo's
//     reference acceleration for the pair's reduced mass. T is at least 2
//     time steps, as MuJoCo enforces. solref's direct form (−k, −b) gives
//     k = m k', τd = b'/k'. solimp is not used (it shapes MuJoCo's
//     impedance; at full penetration width its effect cancels). condim
//     and friction's three values give each geom its sliding, spin and
//     rolling friction (friction.go: a geom has a coefficient when a
//     pair it can form uses it, MuJoCo's pair condim being the larger).
//   - Equality constraints: the same solref mapping, with m the
//     constraint's effective mass 1/λ_max(J M⁻¹ Jᵀ) at the reference
//     configuration (for a point on a free body, the body's mass).
//   - Contacts between welded bodies follow MuJoCo's parent filter
//     (weldExcludes).
//   - Geom margin: the scene's contact margin is the largest geom margin
//     (detection as in MuJoCo); MuJoCo's force offset of margin − gap is
//     not reproduced (a warning).
//   - <freejoint> takes nothing from the default classes (defaults.go).
//   - <option><flag> disables features as MuJoCo's mjDSBL flags (flags.go);
//     <compiler settotalmass> scales every body's mass and inertia.
//   - Elements or attributes not read are warnings naming file, line,
//     element and attribute; malformed ones are errors.
package mjcf
