// Package mjcf reads MuJoCo MJCF models into a model.Import.
//
// Supported: <include> (spliced in), <compiler> (angle, meshdir, assetdir,
// autolimits, inertiafromgeom, inertiagrouprange, eulerseq, boundmass,
// boundinertia), nested <default> classes with class and childclass,
// <option> (timestep, gravity, integrator: Euler → mujoco-euler, RK4 → rk4),
// <asset> meshes (file, scale) and material colours, the <worldbody> tree of
// bodies with pos and every orientation form (quat, unnormalised too,
// axisangle, euler with eulerseq, xyaxes, zaxes), <inertial> (diaginertia,
// fullinertia), one <joint> per body (hinge, slide, ball, free, and
// <freejoint>) with range (limits; a ball joint's as its cone limit),
// damping, stiffness, armature, frictionloss (joint friction) and
// actuatorfrcrange (effort limit), <geom> (plane,
// sphere, capsule, ellipsoid, cylinder, box, mesh; size, fromto, density or
// mass, contype and conaffinity, friction, solref), <site>, <contact>
// <exclude>, <keyframe> (qpos, qvel, ctrl), <actuator> (motor, position,
// velocity, and general where it is one of those: control.go) and
// <equality> (connect → ball, weld → weld, joint → coupler or a locked
// joint; equality.go).
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
//     impedance; at full penetration width its effect cancels). friction's
//     first (sliding) value is μ; torsional and rolling friction are not
//     simulated.
//   - Equality constraints: the same solref mapping, with m the
//     constraint's effective mass 1/λ_max(J M⁻¹ Jᵀ) at the reference
//     configuration (for a point on a free body, the body's mass).
//   - Contacts between welded bodies follow MuJoCo's parent filter
//     (weldExcludes).
//   - Elements or attributes not read are warnings naming file, line,
//     element and attribute; malformed ones are errors.
package mjcf
