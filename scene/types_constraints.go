package scene

// Actuator drives one degree of freedom of a joint (docs/SCENES.md,
// "Actuators"), or a fixed tendon (tendon, instead of joint). type is one
// of motor, position, velocity, pd, general. Its control input u comes
// from target (or from Go, sim.Simulator.SetControl):
//
//	motor:    force f = u
//	position: f = kp (u − l) − kd l̇          (MuJoCo's position actuator)
//	velocity: f = kd (u − l̇)                 (MuJoCo's velocity actuator)
//	pd:       f = kp (u − l) + kd (u̇ − l̇)     (Drake's PD controller)
//	general:  f = gain u + bias[0] + bias[1] l + bias[2] l̇ (MuJoCo's
//	          general actuator with an affine bias; with Dynamics, gain act
//	          in place of gain u)
//
// with the actuator length l = gear·q (gear·L for a tendon) and the joint
// torque gear·f (gear·coef_k·f on each coordinate of a tendon). The PD
// forms, and general when it damps, are implicit in the time step;
// |f| ≤ effort.
type Actuator struct {
	Name  string `yaml:"name,omitempty"`
	Type  string `yaml:"type"`
	Joint string `yaml:"joint,omitempty"` // the body whose joint it drives
	// Tendon names the fixed or spatial tendon it drives instead of a
	// joint.
	Tendon string `yaml:"tendon,omitempty"`
	// SliderCrank is the slider-crank it drives instead of a joint.
	SliderCrank *SliderCrank `yaml:"slider_crank,omitempty"`
	// Site is the site transmission it drives instead of a joint.
	Site *SiteTransmission `yaml:"site,omitempty"`
	// Adhesion names the body whose contacts drive a general actuator
	// instead of a joint (MuJoCo's <adhesion>, a body transmission:
	// tendon.BodyTransmission): its force pulls the body onto what it
	// touches along the mean of its contacts' normals.
	Adhesion string `yaml:"adhesion,omitempty"`
	// JointGear makes the actuator drive joint's ball joint (3 values: a
	// torque per unit force) or free joint (6 values: a force on the body
	// origin in the world frame, then a torque), the torque in the body's
	// frame, or in the joint's parent frame with GearInParent (MuJoCo's
	// joint transmission on a ball or free joint, jointinparent;
	// tendon.JointTransmission). Gear then scales it.
	JointGear    []float64 `yaml:"joint_gear,omitempty"`
	GearInParent bool      `yaml:"gear_in_parent,omitempty"`
	DOF          *int      `yaml:"dof,omitempty"`  // degree of freedom of that joint, default 0
	Gear         *float64  `yaml:"gear,omitempty"` // gear ratio, non-zero, default 1
	Kp           *float64  `yaml:"kp,omitempty"`   // position, pd: N/m or N·m/rad (actuator units), ≥ 0
	Kd           *float64  `yaml:"kd,omitempty"`   // position, velocity, pd: N·s/m or N·m·s/rad, ≥ 0
	// Effort bounds the actuator force: |f| ≤ effort (> 0; default none,
	// or the joint's limits.effort / |gear|).
	Effort *float64 `yaml:"effort,omitempty"`
	// CtrlRange clamps the control input u to [lo, hi].
	CtrlRange *[2]float64 `yaml:"ctrl_range,omitempty"`
	Target    *Target     `yaml:"target,omitempty"` // control input in time, default constant 0
	// Gain and Bias are a general actuator's gain (default 1) and affine
	// bias (b0, b1, b2), up to 3 values, missing ones 0.
	Gain *float64  `yaml:"gain,omitempty"`
	Bias []float64 `yaml:"bias,omitempty"`
	// GainAffine makes a general actuator's gain affine in its length and
	// rate: gain + gain_affine[0]·l + gain_affine[1]·l̇ (MuJoCo's gaintype
	// affine, gainprm[1] and gainprm[2]; up to 2 values, missing ones 0).
	// A gain that depends on l̇ makes the force explicit.
	GainAffine []float64 `yaml:"gain_affine,omitempty"`
	// Explicit makes a general actuator's damping term bias[2]·l̇ explicit,
	// and a position or velocity actuator's whole force (evaluated at the
	// start of the step, as MuJoCo's Euler and RK4 do; default false:
	// implicit).
	Explicit *bool `yaml:"explicit,omitempty"`
	// Muscle holds a muscle actuator's parameters (type muscle; MuJoCo's
	// muscle, docs/SCENES.md).
	Muscle *Muscle `yaml:"muscle,omitempty"`
	// Dynamics gives a general actuator an activation state act, whose
	// value its force takes in place of u: f = gain act + bias (MuJoCo's
	// dyntype; docs/SCENES.md).
	Dynamics *Dynamics `yaml:"dynamics,omitempty"`
	// Act0 is the initial activation of an actuator with a state (a
	// muscle, or a general one with dynamics); default 0.
	Act0 *float64 `yaml:"act0,omitempty"`
}

// Dynamics is a general actuator's activation dynamics (MuJoCo 2.2.2's
// dyntype, dynprm, actrange; constraint.ActDynamics).
type Dynamics struct {
	// Type is integrator (acṫ = u) or filter (acṫ = (u − act)/time_const).
	Type string `yaml:"type"`
	// TimeConst is a filter's time constant τ in s (> 0, default 1).
	TimeConst *float64 `yaml:"time_const,omitempty"`
	// ActRange, when given, clamps act to [lo, hi] after each step.
	ActRange *[2]float64 `yaml:"act_range,omitempty"`
}

// Muscle is a muscle actuator's parameters, each defaulting to MuJoCo
// 2.2.2's: force f = FLV(l, l̇)·act + FP(l) with the activation act a
// state, acṫ = (clamp(u, 0, 1) − act)/τ (constraint.MuscleParams).
type Muscle struct {
	TimeConst *[2]float64 `yaml:"time_const,omitempty"` // activation, deactivation (0.01 0.04 s)
	Range     *[2]float64 `yaml:"range,omitempty"`      // normalized operating range (0.75 1.05)
	// Force is the peak force F0; negative (the default, −1) for
	// scale / acc0, acc0 = ‖M⁻¹ moment‖ at the model's initial pose.
	Force *float64 `yaml:"force,omitempty"`
	Scale *float64 `yaml:"scale,omitempty"` // 200
	LMin  *float64 `yaml:"lmin,omitempty"`  // 0.5
	LMax  *float64 `yaml:"lmax,omitempty"`  // 1.6
	VMax  *float64 `yaml:"vmax,omitempty"`  // 1.5
	FPMax *float64 `yaml:"fpmax,omitempty"` // 1.3
	FVMax *float64 `yaml:"fvmax,omitempty"` // 1.2
	// LengthRange is the actuator's length range; when not given it is
	// found by MuJoCo's simulation (sim.ActuatorLengthRange).
	LengthRange *[2]float64 `yaml:"length_range,omitempty"`
	// ActRange, when given, clamps the activation to [lo, hi] after each
	// step (MuJoCo 2.2.2's actlimited and actrange on a <general> muscle).
	ActRange *[2]float64 `yaml:"act_range,omitempty"`
}

// Target is a function of time given by exactly one of a constant, a
// piecewise-linear table of [t, value] rows (times increasing; the first
// and last values hold outside the table) or a sinusoid.
type Target struct {
	Constant *float64     `yaml:"constant,omitempty"`
	Table    [][2]float64 `yaml:"table,omitempty"`
	Sine     *Sine        `yaml:"sine,omitempty"`
}

// Sine is offset + amplitude·sin(2π frequency t + phase).
type Sine struct {
	Offset    float64 `yaml:"offset,omitempty"`
	Amplitude float64 `yaml:"amplitude,omitempty"`
	Frequency float64 `yaml:"frequency,omitempty"` // Hz, ≥ 0
	Phase     float64 `yaml:"phase,omitempty"`     // rad
}

// Constraint is a constraint between bodies (docs/SCENES.md,
// "Constraints"). type is one of:
//
//	weld:       bodies [A, B] move as one; frames (body-frame poses) default to B's initial pose in A
//	ball:       points[0] on A and points[1] on B coincide (point-on-point)
//	distance:   the points stay length apart
//	coupler:    q_i = ratio·q_j + offset for joints [i, j] (URDF mimic, MuJoCo joint equality)
//	attach:     body B is rigidly attached to A (or, with point, B's point is), by elimination
//	prescribed: the joint of body follows motion (one target per listed dof)
//
// A may be "world" (weld, ball, distance, attach). Weld, ball, distance and
// coupler are regularized (near-rigid unless stiffness is given); attach
// and prescribed are exact.
type Constraint struct {
	Name   string   `yaml:"name,omitempty"`
	Type   string   `yaml:"type"`
	Bodies []string `yaml:"bodies,omitempty"` // weld, ball, distance, attach: [A, B]
	Points []Vec    `yaml:"points,omitempty"` // ball, distance: one body-frame point per body
	Frames []Pose   `yaml:"frames,omitempty"` // weld: one body-frame pose per body
	Length *float64 `yaml:"length,omitempty"` // distance: m, > 0, default the initial distance
	// Point is attach's point in B's frame: with it only that point
	// follows A (B still turns freely); without it all of B does.
	Point  *Vec     `yaml:"point,omitempty"`
	Joints []string `yaml:"joints,omitempty"` // coupler: [i, j], the bodies whose joints are coupled
	DOFs   []int    `yaml:"dofs,omitempty"`   // coupler: one per joint, default 0; prescribed: the dofs moved, default all
	Ratio  *float64 `yaml:"ratio,omitempty"`  // coupler ρ, default 1
	// Coefs make a coupler Σ coefs_k q_k = offset over its joints (any
	// number, one coefficient each; ratio and scale are then not
	// allowed): a fixed tendon's length held, MuJoCo's tendon equality.
	Coefs  []float64 `yaml:"coefs,omitempty"`
	Offset *float64  `yaml:"offset,omitempty"` // coupler offset (rad or m), default 0
	// Stiffness makes weld, ball, distance and coupler compliant: N/m (or
	// N·m/rad for a coupler of revolute joints), > 0; without it they are
	// near-rigid. RotStiffness is a weld's rotational stiffness, N·m/rad.
	Stiffness    *float64 `yaml:"stiffness,omitempty"`
	RotStiffness *float64 `yaml:"rot_stiffness,omitempty"`
	Dissipation  *float64 `yaml:"dissipation,omitempty"` // τd in s, ≥ 0, default 0
	// SolRef and SolImp make a coupler, a ball or a weld MuJoCo's soft
	// constraint (its joint and tendon equalities', its connect's and its
	// weld's solref and solimp; default solimp 0.9 0.95 0.001 0.5 2)
	// instead of stiffness and dissipation; Weight is then the rows'
	// weight w in R = (1 − d)/d · w (MuJoCo's diagApprox at qpos0; default
	// the Delassus estimate at each step's start; a ball's and a weld's d
	// is taken at the norm of its error), and Scale multiplies a coupler's
	// row (default 1; constraint.Coupler) or a weld's orientation rows'
	// Jacobian (MuJoCo's torquescale, ≥ 0, default 1; constraint.Weld).
	SolRef []float64 `yaml:"solref,omitempty"`
	SolImp []float64 `yaml:"solimp,omitempty"`
	Weight *float64  `yaml:"weight,omitempty"`
	Scale  *float64  `yaml:"scale,omitempty"`
	Body   string    `yaml:"body,omitempty"` // prescribed: the body whose joint moves
	// Motion gives prescribed's coordinates in time, one target per dof in
	// dofs: q(t) for joint coordinates; for a free body, the position
	// x, y, z of its origin (its orientation is held).
	Motion []Target `yaml:"motion,omitempty"`
}
