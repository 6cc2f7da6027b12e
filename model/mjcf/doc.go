// Package mjcf reads MuJoCo MJCF models into a model.Import.
//
// Supported: <include> (spliced in), <compiler> (angle, meshdir, assetdir,
// autolimits, inertiafromgeom, inertiagrouprange, eulerseq, boundmass,
// boundinertia, settotalmass, exactmeshinertia: mesh masses as MuJoCo
// 2.2.2 computes them, meshmass.go), nested <default> classes with class and
// childclass, <option> (timestep, gravity, integrator: Euler →
// mujoco-euler, RK4 → rk4; <flag>: flags.go), <asset> meshes (file, scale),
// material colours and hfields (hfield.go), the <worldbody> tree of bodies with pos and every
// orientation form (quat, unnormalised too, axisangle, euler with
// eulerseq, xyaxes, zaxis), <inertial> (diaginertia, fullinertia),
// <joint> (hinge, slide, ball, free, and <freejoint>; several on one body
// become one compound joint whose parts keep the file's order) with ref,
// springref, range
// (limits; a ball joint's as its cone limit; solreflimit, solimplimit,
// margin),
// damping, stiffness,
// armature, frictionloss (joint friction) and actuatorfrcrange (effort
// limit), <geom> (plane, hfield, sphere, capsule, ellipsoid, cylinder, box, mesh;
// size, fromto, density or mass, contype and conaffinity, condim,
// friction, solref, solimp, margin and gap; fluidshape and fluidcoef:
// MuJoCo's ellipsoid fluid model, fluid.go), <site>, <contact> <exclude> and
// <pair> (pair.go), <keyframe> (qpos, qvel, ctrl, act), <actuator> (motor,
// position, velocity, muscle, damper, and general with a fixed or affine
// gain and an affine bias, with dyntype none, integrator or filter, or all
// three types muscle, intvelocity and cylinder: actdyn.go,
// on hinge and slide joints (joint, jointinparent), ball and free joints
// (MuJoCo's joint transmission with a 3- or 6-vector gear: jointGear),
// tendons,
// slider-cranks and sites, with or without refsite: control.go), <tendon>
// <fixed> and <spatial> (stiffness, damping, springlength, range, margin;
// sites, sphere and cylinder wraps and pulleys: tendon.go, spatial.go;
// limits weighted by MuJoCo's tendon_invweight0), meshes given by vertex lists (their convex hull),
// <equality> (connect → ball, weld → weld, joint → MuJoCo's soft coupler
// over one or two joints, tendon on a fixed tendon → MuJoCo's soft
// coupler; equality.go) and
// <sensor> (jointpos, jointvel, actuatorfrc, frame sensors on sites,
// bodies and geoms, gyro, velocimeter, accelerometer, touch, force,
// torque, subtreecom, subtreelinvel, subtreeangmom: sensors.go; package
// sensor).
//
// Mapping choices, documented in docs/MODELS.md:
//   - A geom with contype = conaffinity = 0 is visual only; it still
//     carries mass (inertiafromgeom), as in MuJoCo.
//   - Mass properties of a mesh geom come from the mesh's own triangles
//     (package mesh, divergence theorem); its collision shape is its
//     convex hull, as MuJoCo's.
//   - Contact: solref and solimp give each geom the stiffness k = κ/w' and
//     the dissipation time τd = 2ζ/√κ (k = 10¹² for geoms on bodies that
//     do not move). κ is the static stiffness of MuJoCo's contact at rest:
//     its force gives a = (1 − d) a0 + d a_ref, a_ref = −B v − K d r
//     (mj_makeImpedance; K = 1/(dmax² T² ζ²), B = 2/(dmax T) for solref
//     (T, ζ), T at least two time steps; K = k'/dmax², B = b'/dmax for
//     (−k', −b'); d = d(r) from solimp), and its row's R = (1 − d)/d · w'
//     with w' its diagApprox, so at rest R f = K d r: f = K d² r/((1 − d)
//     w'). w' is the geom's body's translational body_invweight0 (1/m for
//     a free body) times the pyramidal cone's factor μ²(1 + μ²)/2 (1 for
//     condim 1); the load is the geom's whole tree, f = M_tree g (a foot
//     bears the robot), so the depth solves K d(r)² r/(1 − d(r)) = w' M_tree g
//     and κ = K d²/(1 − d) there; ζ = B/(2√K) is MuJoCo's damping ratio
//     (contactRate). solref, solimp and μ are those MuJoCo gives the pair
//     the geom forms with the floor (restPair: solref and solimp mixed,
//     μ the larger). A lone sphere rests as deep as in MuJoCo (0.367 mm
//     with the defaults, 0.040 mm at μ = 0.4); the residual
//     differences (dynamics, loads shared by several contacts) are
//     measured in docs/MODELS.md. Friction is soft as
//     MuJoCo's: a geom's material has friction anchors off, SlipTime =
//     (1 + μ²)/B, SlipStiffness = K, SlipImp its solimp and SlipWeight its
//     body's body_invweight0 (slipTime, bodyWeights: MuJoCo's pyramidal
//     rows' R = 2μ² (1 − d)/d (1 + μ²) w make a contact under a tangential
//     force f slip at (1 − d)/d · w SlipTime f; contact.Material). condim and friction's
//     three values give each geom its sliding, spin and rolling friction
//     (friction.go: a geom has a coefficient when a pair it can form uses
//     it, MuJoCo's pair condim being the larger); a pair takes the larger
//     of the two geoms' coefficients, as MuJoCo (friction_combine: max),
//     and the larger of their condims (the material's condim), dropping
//     the coefficients that condim does not use.
//   - Joint limits: solreflimit and solimplimit make a violated limit
//     MuJoCo's soft constraint (constraint.Compliance.SolRef).
//   - Equality constraints: joint, tendon, connect and weld equalities
//     are MuJoCo's soft constraint (solref, solimp and MuJoCo's weight at
//     qpos0; a connect's and a weld's d at the norm of its error). A weld
//     is MuJoCo 2.2.2's: three position rows and the vector part of the
//     relative quaternion, its Jacobian times torquescale, all six rows
//     weighted by the bodies' translational body_invweight0
//     (constraint.Weld, softBody).
//   - Contacts follow MuJoCo's filter (contact.parent_filter "mujoco",
//     multibody.FilterMuJoCo): bodies of one weld group never touch, nor a
//     body and its parent's group unless either is the world's
//     (weldExcludes).
//   - Geom margin: the scene's contact margin is the largest geom margin
//     (detection as in MuJoCo), and each collision shape's standoff is its
//     margin − gap, where MuJoCo's contact force holds the surfaces (a
//     pair takes the larger standoff; MuJoCo the larger margin less the
//     larger gap, the same when the gaps agree; a gap warns).
//   - <freejoint> takes nothing from the default classes (defaults.go).
//   - <option><flag> disables features as MuJoCo's mjDSBL flags (flags.go);
//     <compiler settotalmass> scales every body's mass and inertia.
//   - Elements or attributes not read are warnings naming file, line,
//     element and attribute; malformed ones are errors.
package mjcf
