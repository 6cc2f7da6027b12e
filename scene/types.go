package scene

import "github.com/stiction-sim/stiction/geometry"

// Scene is the in-memory form of a scene file. Field tags give the YAML keys;
// docs/SCENES.md documents every field with its unit and default.
type Scene struct {
	Name        string  `yaml:"name"`
	Description string  `yaml:"description,omitempty"`
	Gravity     *Vec    `yaml:"gravity,omitempty"`      // m/s², default [0, 0, -9.81]
	DT          float64 `yaml:"dt"`                     // time step δt in s, > 0
	Duration    float64 `yaml:"duration"`               // simulated time in s, > 0
	RecordEvery int     `yaml:"record_every,omitempty"` // write trajectory rows every N steps, default 1
	// Scheme is the θ-method preset: symplectic-euler (default),
	// explicit-euler, implicit-euler or midpoint (SAP §II-C).
	Scheme string `yaml:"scheme,omitempty"`
	// Relinearizations bounds how often an implicit scheme's step is
	// linearized again at its solution (sim.Config.Relinearizations),
	// default 0.
	Relinearizations int `yaml:"relinearizations,omitempty"`

	// Fluid is MuJoCo's inertia-box fluid model (<option density
	// viscosity wind>; forces.Fluid), off when nil.
	Fluid *Fluid `yaml:"fluid,omitempty"`

	Contact   ContactParams       `yaml:"contact,omitempty"`
	Solver    SolverParams        `yaml:"solver,omitempty"`
	Materials map[string]Material `yaml:"materials"`
	Bodies    []Body              `yaml:"bodies"`
	Forces    []Force             `yaml:"forces,omitempty"`
	// Actuators drive joints (motor, position, velocity and PD actuators,
	// docs/SCENES.md#actuators); Constraints hold welds, ball and distance
	// constraints, joint couplers, attachments and prescribed motions
	// (docs/SCENES.md#constraints).
	Actuators   []Actuator   `yaml:"actuators,omitempty"`
	Constraints []Constraint `yaml:"constraints,omitempty"`
	// Tendons are fixed tendons: linear combinations of joint coordinates
	// with a spring–damper, limits and actuators (docs/SCENES.md#tendons).
	Tendons []Tendon `yaml:"tendons,omitempty"`
	// Sensors are read after every recorded step into sensors.csv
	// (docs/OUTPUT.md; package sensor).
	Sensors []Sensor `yaml:"sensors,omitempty"`

	// Exclude lists pairs of bodies whose shapes never collide.
	Exclude [][2]string `yaml:"exclude,omitempty"`
	// Keyframes are named initial states (stiction run --keyframe NAME).
	Keyframes []Keyframe `yaml:"keyframes,omitempty"`
	// Include adds robot models (MJCF, URDF, SDFormat) or other scenes;
	// they are resolved by a loader (package model/load) before
	// validation.
	Include []Include `yaml:"include,omitempty"`

	// Dir is the directory relative to which mesh files are found (the
	// scene file's directory); it is not part of the file.
	Dir string `yaml:"-"`
}

// Fluid is the medium every body moves in (forces.Fluid): each body feels
// the viscous and quadratic drag of its equivalent inertia box.
type Fluid struct {
	Density   float64 `yaml:"density,omitempty"`   // kg/m³, ≥ 0
	Viscosity float64 `yaml:"viscosity,omitempty"` // Pa·s, ≥ 0
	Wind      *Vec    `yaml:"wind,omitempty"`      // m/s, world frame, default 0
	// Boxes replaces, for the bodies named, the mass properties whose
	// equivalent inertia box feels the fluid (by default the body's own).
	// The MJCF importer sets them where it moved the mass of welded child
	// bodies onto a massless moving parent: MuJoCo's fluid acts on each
	// body's own box.
	Boxes []FluidBox `yaml:"boxes,omitempty"`
	// Ellipsoids are shapes that feel the fluid as MuJoCo's ellipsoid
	// model (MJCF fluidshape="ellipsoid"; forces.Fluid.AddEllipsoid); a
	// body with one no longer feels its inertia box's forces.
	Ellipsoids []FluidEllipsoid `yaml:"ellipsoids,omitempty"`
}

// FluidEllipsoid is one shape under the fluid's ellipsoid model: the
// ellipsoid of semi-axes SemiAxes at Pose in the body's frame, with
// MuJoCo's fluidcoef (blunt drag, slender drag, angular drag, Kutta lift,
// Magnus lift; default 0.5 0.25 1.5 1 1).
type FluidEllipsoid struct {
	Body     string      `yaml:"body"`
	Pose     Pose        `yaml:"pose,omitempty"`
	SemiAxes Vec         `yaml:"semi_axes"`       // m, > 0
	Coefs    *[5]float64 `yaml:"coefs,omitempty"` // ≥ 0
}

// FluidBox is the mass whose equivalent box feels the fluid on one body:
// mass, centre of mass and inertia about it in the body's frame. Mass 0
// gives the body no fluid force.
type FluidBox struct {
	Body    string   `yaml:"body"`
	Mass    float64  `yaml:"mass"`              // kg, ≥ 0
	COM     *Vec     `yaml:"com,omitempty"`     // m, default the body origin
	Inertia *Inertia `yaml:"inertia,omitempty"` // kg·m², required when mass > 0
}

// Keyframe is a named state: per body, its joint's coordinates q and
// velocities v (the joint's own convention, see Joints), replacing the
// joint's q0 and v0, or for a free body its pose and velocity.
type Keyframe struct {
	Name   string                `yaml:"name"`
	Joints map[string]JointState `yaml:"joints"`
	// Controls sets actuators' control inputs, by actuator name: each
	// becomes the constant target of its actuator (MuJoCo's keyframe
	// ctrl).
	Controls map[string]float64 `yaml:"controls,omitempty"`
	// Activations sets actuators' initial activations (Actuator.Act0),
	// by actuator name (MuJoCo's keyframe act).
	Activations map[string]float64 `yaml:"activations,omitempty"`
}

// JointState is one body's joint coordinates and velocities in a keyframe.
type JointState struct {
	Q []float64 `yaml:"q,omitempty"`
	V []float64 `yaml:"v,omitempty"`
}

// Include places a model file in the scene: its bodies, materials,
// exclusions, keyframes and forces are added with names prefixed by
// Prefix, its root bodies placed at Pose in the frame of Parent.
type Include struct {
	File   string `yaml:"file"`             // .xml (MJCF), .urdf, .sdf or .yaml, relative to this scene
	Prefix string `yaml:"prefix,omitempty"` // prepended to every name of the model
	Pose   Pose   `yaml:"pose,omitempty"`   // of the model's frame in Parent's frame
	Parent string `yaml:"parent,omitempty"` // a body of an earlier include, or world (default)
	// Floating makes the model's root body free instead of welded (URDF,
	// SDFormat: their roots have no joint to the world).
	Floating bool `yaml:"floating,omitempty"`
	// Set overrides fields of the included model, as --set does for a
	// scene (path=value, in the model's own names, before the prefix).
	Set []string `yaml:"set,omitempty"`
}

// Vec is a 3-vector written as a YAML flow sequence [x, y, z].
type Vec [3]float64

// ContactParams are the contact-model parameters shared by all contacts.
type ContactParams struct {
	Beta   *float64 `yaml:"beta,omitempty"`   // near-rigid parameter β of SAP eq. 29, default 1
	Sigma  *float64 `yaml:"sigma,omitempty"`  // stiction parameter σ of SAP eq. 30, default 1e-3
	Margin *float64 `yaml:"margin,omitempty"` // distance in m below which a pair becomes a contact, default 1e-3
	// Delassus selects the Delassus estimate w of eq. 29–30: "diagonal"
	// (default: per-direction diagonal entries of W_ii) or "rms" (the
	// paper's ‖W_ii‖_F/3 for both directions).
	Delassus string `yaml:"delassus,omitempty"`
	// Approximation is the convex approximation of contact with friction:
	// "sap" (the SAP paper's cone), "lagged" or "similar" (Castro, Han and
	// Masterjohn 2023); see docs/CONTACT.md.
	Approximation string `yaml:"approximation,omitempty"`
	// StictionTolerance is v_s in m/s, the regularization of Lagged and
	// Similar friction, default 1e-4.
	StictionTolerance *float64 `yaml:"stiction_tolerance,omitempty"`
	// LagIterations is how many times a step may re-solve the Lagged
	// problem with its normal impulses as the new lagged impulses (default
	// 2; see sim.Config.LagIterations).
	LagIterations *int `yaml:"lag_iterations,omitempty"`
	// LoadAware turns on the load-aware near-rigid regularization (default
	// true): a contact's normal compliance uses the mass it carries.
	LoadAware *bool `yaml:"load_aware,omitempty"`
	// ParentFilter is the rule by which bodies joined by a joint never
	// collide: "adjacent" (default: a body and its parent, including a
	// parent welded to the world, as Drake), "mujoco" (MuJoCo's filter on
	// weld groups, which lets a body touch a parent welded to the world;
	// MJCF files set it) or "none". Bodies welded together, directly or
	// through massless bodies, never collide (multibody.RigidGroup).
	ParentFilter string `yaml:"parent_filter,omitempty"`
	// SoftFriction (default true) keeps the materials' soft friction
	// (Material.SlipTime, MuJoCo's, which the MJCF import sets); false
	// turns it off: a material with a slip time then has SAP's friction
	// with anchors (static friction that does not creep), as if slip_time
	// were 0 and anchors true.
	SoftFriction *bool `yaml:"soft_friction,omitempty"`
	// MaxRecoverySpeed caps the speed at which a penetration is pushed out,
	// m/s (default 0: no cap).
	MaxRecoverySpeed *float64 `yaml:"max_recovery_speed,omitempty"`
	// SubstepTolerance bounds the gap error, m, that fast rotation in
	// contact may cause within a step before the step is split into
	// substeps (contact.Params.SubstepTolerance; 0: never).
	SubstepTolerance *float64 `yaml:"substep_tolerance,omitempty"`
	// Sleep puts settled islands to sleep (contact.Params.Sleep; default
	// false): an island of bodies joined by contacts whose velocities all
	// stayed at most sleep_speed (m/s, rad/s; default
	// contact.DefaultSleepSpeed) for sleep_steps steps (default
	// contact.DefaultSleepSteps) is frozen until a contact with an awake
	// body or a force wakes it. θ-method schemes only.
	Sleep      *bool    `yaml:"sleep,omitempty"`
	SleepSpeed *float64 `yaml:"sleep_speed,omitempty"`
	SleepSteps *int     `yaml:"sleep_steps,omitempty"`
	// Speculative turns speculative contact on (default true): a pair
	// becomes a contact when its gap can close within one step.
	Speculative *bool `yaml:"speculative,omitempty"`
	// SpeculativeMax caps each geometry's speculative margin, in m
	// (default 0.1).
	SpeculativeMax *float64 `yaml:"speculative_max,omitempty"`
	// Cone is the friction cone of MuJoCo's soft contacts (materials with
	// a slip time, slip stiffness and slip weight, as the MJCF import
	// sets) where the rk4 scheme solves MuJoCo's own rows at its stages:
	// "elliptic" (default: the approximation's cone) or "pyramidal"
	// (MuJoCo's default, <option cone>; contact.Pyramidal).
	Cone string `yaml:"cone,omitempty"`
	// ImpRatio (> 0, default 1) is MuJoCo's <option impratio> for the
	// pyramidal cone of MuJoCo's soft contacts (contact.Params.ImpRatio).
	ImpRatio *float64 `yaml:"impratio,omitempty"`
	// PGSIterations (≥ 1; unset: off) is MuJoCo's <option solver="PGS"
	// iterations>: MuJoCo's rows of its soft contacts with the pyramidal
	// cone are solved by MuJoCo 2.2.2's PGS for at most that many sweeps
	// (contact.Params.PGSIterations), and PGSTolerance (≥ 0, default
	// 1e-8) is its <option tolerance>.
	PGSIterations *int     `yaml:"pgs_iterations,omitempty"`
	PGSTolerance  *float64 `yaml:"pgs_tolerance,omitempty"`
	// NoSlipIterations (≥ 0; unset: 0, off) is MuJoCo's <option
	// noslip_iterations>: MuJoCo 2.2.2's noslip pass after the solve of
	// MuJoCo's rows (contact.Params.NoSlipIterations), and
	// NoSlipTolerance (> 0, default 1e-6) is its <option noslip_tolerance>.
	NoSlipIterations *int     `yaml:"noslip_iterations,omitempty"`
	NoSlipTolerance  *float64 `yaml:"noslip_tolerance,omitempty"`
	// MuJoCoNewton (default unset, off; the MJCF import sets it for
	// solver="Newton", MuJoCo's default, and "CG", at every size: from 60
	// velocities the port takes MuJoCo's sparse path, sim.MuJoCoSparse) solves MuJoCo's rows
	// (contacts of either cone, limits, friction loss, equalities) with
	// MuJoCo 2.2.2's Newton solver rather than PGS, for at most
	// pgs_iterations (default 100) iterations and MuJoCo's tolerance
	// pgs_tolerance (default 1e-8), as MuJoCo does (contact.Params.Newton).
	// Set to false it solves them to convergence (SAP), PGS included
	// (pgs_iterations ignored): `--set contact.mujoco_newton=false` returns
	// an MJCF file to the converged solve.
	MuJoCoNewton *bool `yaml:"mujoco_newton,omitempty"`
	// MuJoCoCG (default false; MJCF sets it for solver="CG"), with
	// mujoco_newton, runs MuJoCo 2.2.2's CG solver instead of its Newton
	// solver (contact.Params.CG), with the same iterations and tolerance.
	MuJoCoCG *bool `yaml:"mujoco_cg,omitempty"`
	// Collider selects the narrow phase of MuJoCo's soft contacts where
	// their own rows are solved: "stiction" (default: Stiction's narrow
	// phase) or "mujoco" (MuJoCo 2.2.2's convex collider for the pairs
	// MuJoCo sends to it; contact.Params.MuJoCoCollider; MJCF files set it).
	Collider string `yaml:"collider,omitempty"`
	// MultiCCD is MuJoCo's <flag multiccd>: the "mujoco" collider's extra
	// contacts (contact.Params.MultiCCD; default false).
	MultiCCD *bool `yaml:"multiccd,omitempty"`
	// MPRTolerance (> 0, default 1e-6) and MPRIterations (≥ 1, default
	// 50) are MuJoCo's <option mpr_tolerance mpr_iterations>: the "mujoco"
	// collider's MPR stopping rule (contact.Params.MPRTolerance).
	MPRTolerance  *float64 `yaml:"mpr_tolerance,omitempty"`
	MPRIterations *int     `yaml:"mpr_iterations,omitempty"`
}

// SolverParams select and tune the contact solver.
type SolverParams struct {
	Type          string   `yaml:"type,omitempty"`           // "sap" (default)
	Tolerance     *float64 `yaml:"tolerance,omitempty"`      // relative tolerance εr of SAP eq. 26, default 1e-6
	AbsTolerance  *float64 `yaml:"abs_tolerance,omitempty"`  // absolute tolerance εa, default 1e-16
	LineSearch    string   `yaml:"line_search,omitempty"`    // "exact" (default) or "backtracking"
	MaxIterations *int     `yaml:"max_iterations,omitempty"` // default 100 (10000 sweeps for pgs)
	Omega         *float64 `yaml:"omega,omitempty"`          // PGS over-relaxation ω in (0, 2), default 1
	// Islands (default true; false in MJCF imports, whose MuJoCo solves
	// each problem whole) splits each contact problem into the islands of
	// its contact graph (solver/island, stack.DefaultWorkers workers).
	Islands *bool `yaml:"islands,omitempty"`
}

// Material is a contact material (per geometry). Two materials combine into
// a pair's parameters by the rule documented in package contact.
type Material struct {
	Stiffness   *float64 `yaml:"stiffness"`   // k in N/m, > 0
	Dissipation *float64 `yaml:"dissipation"` // τd in s, ≥ 0
	Friction    *float64 `yaml:"friction"`    // μ, ≥ 0
	// RollingFriction is the rolling-resistance length μ_r in m (≥ 0,
	// default 0: off): rolling torque ≤ μ_r × normal force.
	RollingFriction *float64 `yaml:"rolling_friction,omitempty"`
	// SpinFriction is the torsional friction length μ_s in m (≥ 0, default
	// 0: off): torque about the normal ≤ μ_s × normal force.
	SpinFriction *float64 `yaml:"spin_friction,omitempty"`
	// Anchors turns friction with memory on (default true): a sticking
	// contact keeps the material points where sticking began and feeds
	// their tangential displacement back, so static friction does not creep
	// (docs/CONTACT.md). false gives the SAP paper's regularized friction.
	Anchors *bool `yaml:"anchors,omitempty"`
	// SlipTime (s, ≥ 0, default 0: off) makes the friction soft as
	// MuJoCo's: a sticking contact under a tangential force f slips at
	// slip_time (1 − d)/d · W_t f, d the impedance SlipSolImp at its depth
	// (contact.Material.SlipTime; the MJCF import sets both from solref
	// and solimp, with anchors off).
	SlipTime *float64 `yaml:"slip_time,omitempty"`
	// SlipSolImp is MuJoCo's solimp of the soft friction (dmin, dmax,
	// width, midpoint, power); default MuJoCo's 0.9 0.95 0.001 0.5 2.
	SlipSolImp []float64 `yaml:"slip_solimp,omitempty"`
	// SlipSolRef is MuJoCo's solref of the soft contact: (time constant
	// > 0, damping ratio > 0) or the direct form (−stiffness ≤ 0,
	// −damping ≤ 0). Optional (the MJCF import sets it): MuJoCo's contact
	// rows of mujoco-euler and rk4 then take a pair's K and B from the two
	// materials' solref mixed as MuJoCo's (contact.Material.SlipRef).
	SlipSolRef []float64 `yaml:"slip_solref,omitempty"`
	// SlipStiffness (1/s², ≥ 0, default 0) is MuJoCo's K of the soft
	// friction's solref: when set, d is taken at the depth where MuJoCo's
	// contact would rest under the contact's load, not at its own depth.
	SlipStiffness *float64 `yaml:"slip_stiffness,omitempty"`
	// SlipWeight (kg⁻¹, ≥ 0, default 0) is MuJoCo's translational
	// body_invweight0 of the material's body: when set, the soft friction's
	// R uses the sum of the two sides' weights (MuJoCo's diagApprox) in
	// place of the contact's Delassus diagonal W_t. Given as 0 on both
	// sides of a pair, the pair is still MuJoCo's soft contact
	// (contact.Material.WeightSet), with MuJoCo's R = mjMINVAL.
	SlipWeight *float64 `yaml:"slip_weight,omitempty"`
	// FrictionCombine is how this material's friction coefficients combine
	// with another's: "harmonic" (default: 2 μ_A μ_B/(μ_A + μ_B), as Drake)
	// or "max" (MuJoCo's larger of the two; the MJCF import sets it). A
	// pair takes the max only when both of its materials say "max".
	FrictionCombine string `yaml:"friction_combine,omitempty"`
	// Condim (1, 3, 4 or 6; default 0: unset) is MuJoCo's condim of the
	// geom this material was made for (the MJCF import sets it): a pair
	// of two "max" materials with it takes the larger of the two and
	// drops the friction coefficients that condim does not use (1:
	// sliding, spin and rolling; 3: spin and rolling; 4: rolling).
	Condim int `yaml:"condim,omitempty"`
	// Priority (default 0) is MuJoCo's geom priority of the geom this
	// material was made for (the MJCF import sets it): a pair of two
	// "max" materials of different priorities takes the higher one's
	// condim, friction coefficients and soft parameters
	// (contact.Material.Priority).
	Priority int `yaml:"priority,omitempty"`
}

// Body is one rigid body with its collision shapes (Shape, and any number
// of Collisions) and visual shapes.
type Body struct {
	Name     string    `yaml:"name"`
	Fixed    bool      `yaml:"fixed,omitempty"` // welded to the world (ground, walls, incline)
	Shape    *Shape    `yaml:"shape,omitempty"`
	Material string    `yaml:"material,omitempty"`
	Density  *float64  `yaml:"density,omitempty"` // kg/m³; mass and inertia from the shape
	Mass     *float64  `yaml:"mass,omitempty"`    // kg; with Inertia, or alone (inertia from the shape)
	Inertia  *Inertia  `yaml:"inertia,omitempty"` // about the centre of mass, body frame, kg·m²
	Pose     Pose      `yaml:"pose,omitempty"`
	Velocity *Velocity `yaml:"velocity,omitempty"`
	// Joint connects the body to a parent body (or the world). Without it a
	// body is free (or welded to the world with fixed: true).
	Joint *Joint `yaml:"joint,omitempty"`
	// ShapePose is the shape's pose in the body frame (default identity),
	// e.g. to put a link's origin at its joint. The centre of mass follows
	// the shape.
	ShapePose *Pose `yaml:"shape_pose,omitempty"`
	// COM is the centre of mass in the body frame; it needs mass and
	// inertia (default: from the shapes).
	COM *Vec `yaml:"com,omitempty"`
	// Contype and Conaffinity are the collision bits of Shape (default 1).
	Contype     *int `yaml:"contype,omitempty"`
	Conaffinity *int `yaml:"conaffinity,omitempty"`
	// Collisions are further collision shapes, each with its own pose in the
	// body frame, material and collision bits.
	Collisions []Collision `yaml:"collisions,omitempty"`
	// Visuals are drawn by the viewer and the glTF export only.
	Visuals []Visual `yaml:"visuals,omitempty"`
}

// Collision is one collision shape of a body.
type Collision struct {
	Name        string `yaml:"name,omitempty"`
	Shape       *Shape `yaml:"shape"`
	Pose        *Pose  `yaml:"pose,omitempty"`     // in the body frame, default identity
	Material    string `yaml:"material,omitempty"` // default: the body's material
	Contype     *int   `yaml:"contype,omitempty"`  // default 1
	Conaffinity *int   `yaml:"conaffinity,omitempty"`
	// Standoff is how far apart the shape's contacts hold the surfaces, m
	// (≥ 0, default 0: at touch; MuJoCo's geom margin − gap). A pair takes
	// the larger of its two shapes'.
	Standoff *float64 `yaml:"standoff,omitempty"`
	// Margin is the distance below which the shape's pairs are contacts
	// that an adhesion actuator counts, m (≥ 0, default 0; MuJoCo's geom
	// margin, multibody.Geometry.Margin). A pair takes the larger of its
	// two shapes'.
	Margin *float64 `yaml:"margin,omitempty"`
}

// Visual is a shape that is only drawn.
type Visual struct {
	Name  string      `yaml:"name,omitempty"`
	Shape *Shape      `yaml:"shape"`
	Pose  *Pose       `yaml:"pose,omitempty"`  // in the body frame, default identity
	Color *[4]float64 `yaml:"color,omitempty"` // RGBA in [0, 1], default: the mesh's own or the body's palette colour
}

// Joint is a body's joint to its parent: type is one of weld, free,
// revolute, prismatic, ball, planar, universal.
type Joint struct {
	Type string `yaml:"type"`
	Name string `yaml:"name,omitempty"` // the joint's own name (default: the body's), unique

	Parent      string    `yaml:"parent,omitempty"`       // body name; default "world"
	ParentFrame *Pose     `yaml:"parent_frame,omitempty"` // joint frame F in the parent's frame (world frame for the world)
	ChildFrame  *Pose     `yaml:"child_frame,omitempty"`  // joint frame M in this body's frame
	Axis        *Vec      `yaml:"axis,omitempty"`         // revolute, prismatic: axis in F, default [0, 0, 1]
	Q0          []float64 `yaml:"q0,omitempty"`           // initial coordinates (degrees are not used: radians, metres)
	V0          []float64 `yaml:"v0,omitempty"`           // initial velocities
	Damping     *float64  `yaml:"damping,omitempty"`      // per degree of freedom, ≥ 0
	Stiffness   *float64  `yaml:"stiffness,omitempty"`    // per coordinate, ≥ 0 (not for free, ball)
	Limits      *Limits   `yaml:"limits,omitempty"`       // position limits (enforced), cone limit, effort limit
	// Friction is the joint's dry friction (MuJoCo's frictionloss): the
	// largest friction torque (N·m) or force (N) on each degree of
	// freedom, ≥ 0.
	Friction *float64 `yaml:"friction,omitempty"`
	// FrictionSolRef (timeconst, dampratio, or −stiffness, −damping) and
	// FrictionSolImp (dmin, dmax, width, midpoint, power; default
	// MuJoCo's) make the friction MuJoCo's soft friction loss (its
	// solreffriction, solimpfriction): under a load below the friction
	// the joint creeps as in MuJoCo instead of sticking.
	FrictionSolRef []float64 `yaml:"friction_solref,omitempty"`
	FrictionSolImp []float64 `yaml:"friction_solimp,omitempty"`
	// FrictionWeight is the weight w of the soft friction rows in
	// R = (1 − d)/d · w: MuJoCo's dof_invweight0 (M⁻¹ at qpos0, averaged
	// over a ball joint's three), which the MJCF importer sets; default
	// the Delassus estimate at each step's start.
	FrictionWeight *float64 `yaml:"friction_weight,omitempty"`
	Armature       *float64 `yaml:"armature,omitempty"` // rotor inertia per degree of freedom, ≥ 0 (kg·m² or kg)
	// Ref is the coordinate of a revolute or prismatic joint at which the
	// body is at the joint frames' pose (MuJoCo's ref; default 0); the
	// neutral configuration is q = ref.
	Ref *float64 `yaml:"ref,omitempty"`
	// SpringRef is the stiffness's rest configuration, one value per
	// coordinate (default zero).
	SpringRef []float64 `yaml:"springref,omitempty"`
	// Parts are a compound joint's joints, in the order they apply.
	Parts []JointPart `yaml:"parts,omitempty"`
}

// Limits are a joint's position and effort limits. Lower and upper bound
// each coordinate of a revolute, prismatic, planar or universal joint; cone
// bounds the rotation angle of a ball joint. They are enforced as
// constraints, near-rigid unless a stiffness is given.
type Limits struct {
	Lower  []float64 `yaml:"lower,omitempty"`  // rad or m, one per coordinate
	Upper  []float64 `yaml:"upper,omitempty"`  // rad or m, one per coordinate
	Effort *float64  `yaml:"effort,omitempty"` // |joint torque or force| of its actuators, N·m or N, ≥ 0
	// Cone is the largest rotation angle of a ball joint, rad, in (0, π].
	Cone *float64 `yaml:"cone,omitempty"`
	// Stiffness (N·m/rad or N/m, > 0) makes the limits compliant; without
	// it they are near-rigid (SAP eq. 29).
	Stiffness   *float64 `yaml:"stiffness,omitempty"`
	Dissipation *float64 `yaml:"dissipation,omitempty"` // τd in s, ≥ 0, default 0
	// SolRef (timeconst, dampratio, or −stiffness, −damping) and SolImp
	// (dmin, dmax, width, midpoint, power; default 0.9 0.95 0.001 0.5 2)
	// make the limits MuJoCo's soft constraint (its solreflimit and
	// solimplimit) while violated, in place of Stiffness and Dissipation
	// (constraint.Compliance).
	SolRef []float64 `yaml:"solref,omitempty"`
	SolImp []float64 `yaml:"solimp,omitempty"`
	// Weight, with SolRef, fixes the weight w of the violated limit's
	// R = (1 − d)/d · w: MuJoCo's dof_invweight0, which the MJCF importer
	// sets; default the Delassus estimate at each step's start.
	Weight *float64 `yaml:"weight,omitempty"`
	// Margin (m or rad, default 0) is MuJoCo's joint margin: each bound
	// (and the cone) acts within Margin of it, on its distance less
	// Margin (constraint.Limit.Margin).
	Margin *float64 `yaml:"margin,omitempty"`
}

// Force is a force element: type is one of spring (axial spring–damper
// between two points), path (spring–damper through two or more points),
// bushing (frame spring between two frames), wrench (applied force and
// torque on a body), motor (joint torques).
type Force struct {
	Name       string    `yaml:"name,omitempty"`
	Type       string    `yaml:"type"`
	Bodies     []string  `yaml:"bodies,omitempty"`      // spring, path, bushing: body names ("world" allowed)
	Points     []Vec     `yaml:"points,omitempty"`      // spring, path: one body-frame point per body
	Frames     []Pose    `yaml:"frames,omitempty"`      // bushing: one body-frame pose per body
	Stiffness  *float64  `yaml:"stiffness,omitempty"`   // N/m (spring, path, bushing translation)
	Damping    *float64  `yaml:"damping,omitempty"`     // N·s/m
	RestLength *float64  `yaml:"rest_length,omitempty"` // m (spring, path)
	RotStiff   *float64  `yaml:"rot_stiffness,omitempty"`
	RotDamp    *float64  `yaml:"rot_damping,omitempty"`
	Body       string    `yaml:"body,omitempty"`    // wrench, motor
	Point      *Vec      `yaml:"point,omitempty"`   // wrench: body-frame point
	Force      *Vec      `yaml:"force,omitempty"`   // wrench: N, world frame
	Torque     *Vec      `yaml:"torque,omitempty"`  // wrench: N·m, world frame
	Effort     []float64 `yaml:"effort,omitempty"`  // motor: one per degree of freedom
	Profile    *Profile  `yaml:"profile,omitempty"` // time profile, default constant 1
}

// Profile scales an applied force in time: offset + amplitude·sin(2π
// frequency t + phase) for start ≤ t < stop (stop 0: no end), else 0.
type Profile struct {
	Offset    *float64 `yaml:"offset,omitempty"` // default 1 if amplitude is 0, else 0
	Amplitude float64  `yaml:"amplitude,omitempty"`
	Frequency float64  `yaml:"frequency,omitempty"` // Hz
	Phase     float64  `yaml:"phase,omitempty"`     // rad
	Start     float64  `yaml:"start,omitempty"`     // s
	Stop      float64  `yaml:"stop,omitempty"`      // s
}

// Shape is a collision (or visual) shape: type is one of halfspace,
// sphere, box, capsule, cylinder, ellipsoid, mesh.
type Shape struct {
	Type   string   `yaml:"type"`
	Radius *float64 `yaml:"radius,omitempty"` // sphere, capsule, cylinder
	Length *float64 `yaml:"length,omitempty"` // capsule (cylindrical part), cylinder
	Size   *Vec     `yaml:"size,omitempty"`   // box: full side lengths
	Radii  *Vec     `yaml:"radii,omitempty"`  // ellipsoid: semi-axes along x, y, z
	File   string   `yaml:"file,omitempty"`   // mesh: .stl, .obj, .gltf or .glb (relative to the scene file)
	Scale  *Vec     `yaml:"scale,omitempty"`  // mesh: per-axis scale, default [1, 1, 1]
	// Vertices give a mesh by its points instead of a file (MuJoCo's
	// <mesh vertex>): the shape is their convex hull (at least 4 points
	// not in one plane).
	Vertices []Vec `yaml:"vertices,omitempty"`
	// heightfield: a grid of Rows × Cols elevations (rows along y, columns
	// along x) over size[0] × size[1], Heights in [0, 1] scaled by size[2]
	// (row-major, row 0 at −y; omitted: flat at z = 0), on a base reaching
	// Base below z = 0.
	Rows    *int      `yaml:"rows,omitempty"`
	Cols    *int      `yaml:"cols,omitempty"`
	Heights []float64 `yaml:"heights,omitempty,flow"`
	Base    *float64  `yaml:"base,omitempty"`
	// MuJoCo is a mesh as MuJoCo compiles it, for MuJoCo's convex
	// collider (contact.collider "mujoco"); set by the MJCF import only.
	MuJoCo *geometry.MuJoCoMesh `yaml:"-"`
}

// Inertia is either the principal moments (diagonal) or a full symmetric
// 3×3 matrix given by rows; exactly one must be set.
type Inertia struct {
	Diagonal *Vec    `yaml:"diagonal,omitempty"`
	Matrix   *[3]Vec `yaml:"matrix,omitempty"`
}

// Pose places a body: position of its origin (its centre of mass) and
// orientation, given by at most one of quaternion [w, x, y, z] (normalised by
// Pose.Quat), axis_angle {axis, angle_deg}, or rpy_deg [roll, pitch, yaw] (extrinsic
// x-y-z, degrees).
type Pose struct {
	Position   *Vec        `yaml:"position,omitempty"`
	Quaternion *[4]float64 `yaml:"quaternion,omitempty"`
	AxisAngle  *AxisAngle  `yaml:"axis_angle,omitempty"`
	RPYDeg     *Vec        `yaml:"rpy_deg,omitempty"`
}

// AxisAngle is a rotation of AngleDeg degrees about Axis.
type AxisAngle struct {
	Axis     Vec     `yaml:"axis"`
	AngleDeg float64 `yaml:"angle_deg"`
}

// Velocity is a body's initial velocity in the world frame.
type Velocity struct {
	Linear  *Vec `yaml:"linear,omitempty"`  // m/s, of the centre of mass
	Angular *Vec `yaml:"angular,omitempty"` // rad/s
}
