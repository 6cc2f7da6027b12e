package scene

// Scene is the in-memory form of a scene file. Field tags give the YAML keys;
// docs/SCENES.md documents every field with its unit and default.
type Scene struct {
	Name        string  `yaml:"name"`
	Description string  `yaml:"description,omitempty"`
	Gravity     *Vec    `yaml:"gravity,omitempty"`      // m/s², default [0, 0, -9.81]
	DT          float64 `yaml:"dt"`                     // time step δt in s, > 0
	Duration    float64 `yaml:"duration"`               // simulated time in s, > 0
	RecordEvery int     `yaml:"record_every,omitempty"` // write trajectory rows every N steps, default 1

	Contact   ContactParams       `yaml:"contact,omitempty"`
	Solver    SolverParams        `yaml:"solver,omitempty"`
	Materials map[string]Material `yaml:"materials"`
	Bodies    []Body              `yaml:"bodies"`
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
}

// SolverParams select and tune the contact solver.
type SolverParams struct {
	Type          string   `yaml:"type,omitempty"`           // "sap" (default)
	Tolerance     *float64 `yaml:"tolerance,omitempty"`      // relative tolerance εr of SAP eq. 26, default 1e-6
	AbsTolerance  *float64 `yaml:"abs_tolerance,omitempty"`  // absolute tolerance εa, default 1e-16
	LineSearch    string   `yaml:"line_search,omitempty"`    // "exact" (default) or "backtracking"
	MaxIterations *int     `yaml:"max_iterations,omitempty"` // default 100
}

// Material is a contact material (per geometry). Two materials combine into
// a pair's parameters by the rule documented in package contact.
type Material struct {
	Stiffness   *float64 `yaml:"stiffness"`   // k in N/m, > 0
	Dissipation *float64 `yaml:"dissipation"` // τd in s, ≥ 0
	Friction    *float64 `yaml:"friction"`    // μ, ≥ 0
}

// Body is one rigid body with one collision shape.
type Body struct {
	Name     string    `yaml:"name"`
	Fixed    bool      `yaml:"fixed,omitempty"` // welded to the world (ground, walls, incline)
	Shape    *Shape    `yaml:"shape"`
	Material string    `yaml:"material"`
	Density  *float64  `yaml:"density,omitempty"` // kg/m³; mass and inertia from the shape
	Mass     *float64  `yaml:"mass,omitempty"`    // kg; with Inertia, or alone (inertia from the shape)
	Inertia  *Inertia  `yaml:"inertia,omitempty"` // about the centre of mass, body frame, kg·m²
	Pose     Pose      `yaml:"pose,omitempty"`
	Velocity *Velocity `yaml:"velocity,omitempty"`
}

// Shape is a collision shape: type is one of halfspace, sphere, box,
// capsule, cylinder.
type Shape struct {
	Type   string   `yaml:"type"`
	Radius *float64 `yaml:"radius,omitempty"` // sphere, capsule, cylinder
	Length *float64 `yaml:"length,omitempty"` // capsule (cylindrical part), cylinder
	Size   *Vec     `yaml:"size,omitempty"`   // box: full side lengths
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
