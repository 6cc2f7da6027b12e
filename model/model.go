package model

import (
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// Import is the result of reading a robot model file.
type Import struct {
	Format string       // "mjcf", "urdf" or "sdf"
	Scene  *scene.Scene // validated; mesh paths are absolute
	// Warnings name file, line, element and attribute of everything that
	// was not supported (ignored), adjusted, or parsed but not simulated.
	Warnings []xmlutil.Warning
	// Links are the mass properties of every body as the file gives them
	// (after MJCF's inertiafromgeom), including bodies welded to the world,
	// whose mass the model drops (they do not move).
	Links []Link
	// The actuators, equality constraints and joint couplers, and joint
	// friction as the file describes them. Those the engine simulates are
	// also in Scene (actuators, constraints, joint friction and armature;
	// docs/MODELS.md gives the mapping); the others are warnings.
	Actuators     []Actuator
	Equalities    []Equality
	JointFriction []JointFriction
	// Sites are named frames on bodies (MJCF site).
	Sites []Site
	// SchemeChoice, when not nil, is the scheme the importer chose for
	// what the file holds (URDF: damped joints) and why; the command line
	// prints it unless --scheme or --set overrides it.
	SchemeChoice *SchemeChoice
}

// SchemeChoice is an importer's choice of integrator.
type SchemeChoice struct {
	Scheme string // a sim preset name
	Why    string // names the file and what in it asks for the scheme
}

// Link is one body's mass properties from the file.
type Link struct {
	Name    string
	Mass    float64
	COM     spatial.Vec3 // in the body frame
	Inertia spatial.Mat3 // about the centre of mass, in the body frame
	Welded  bool         // welded to the world (does not move)
	// Repaired says how the importer changed the file's mass or inertia
	// to make it physical ("" when taken as written).
	Repaired string
	// InvWeight0 is MuJoCo's body_invweight0 of the body (MJCF only; zero
	// for other formats, the world and bodies that do not move): the mean
	// of the diagonal of the translational and of the rotational block of
	// J M⁻¹ Jᵀ at qpos0, J its centre of mass's Jacobian (mj_setConst). The
	// translational part weighs MuJoCo's contact rows
	// (contact.Material.SlipWeight).
	InvWeight0 [2]float64
}

// Source locates an element in its file.
type Source struct {
	File string
	Line int
}

// Actuator is an actuator as the file describes it. Joint is the scene
// body whose joint it drives (Joint is also the joint's name in JointName).
type Actuator struct {
	Name      string
	Kind      string // MJCF motor, position, velocity, general; URDF/SDF transmission
	Body      string // scene body whose joint is driven
	DOF       int    // the driven degree of freedom of that body's joint (a part of a compound joint)
	JointName string
	Tendon    string // MJCF: the scene tendon driven instead of a joint
	Gear      float64
	// Kp, Kv are the position and velocity gains (MJCF position/velocity,
	// or general with an affine bias that amounts to a PD servo).
	Kp, Kv float64
	// GainPrm, BiasPrm, GainType, BiasType are MJCF general's parameters.
	// A <muscle> has GainType and BiasType "muscle", GainPrm = BiasPrm =
	// (range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax), DynPrm its
	// timeconst and LengthRange its lengthrange (nil: computed).
	GainPrm, BiasPrm   []float64
	GainType, BiasType string
	DynPrm             []float64
	// DynType is MJCF's dyntype (none, integrator, filter, muscle, user;
	// a <muscle> leaves it empty), ActRange the activation range where
	// it is limited (actlimited).
	DynType     string
	ActRange    *[2]float64
	LengthRange *[2]float64
	CtrlRange   *[2]float64
	ForceRange  *[2]float64
	// GearRatio and RotorInertia are Drake's drake:gear_ratio and
	// drake:rotor_inertia (reflected inertia = ratio² × rotor inertia).
	GearRatio, RotorInertia float64
	Source                  Source
}

// Equality is an equality constraint or joint coupler.
type Equality struct {
	Name string
	// Kind is "connect" (ball joint between two bodies at Anchor), "weld"
	// (RelPose between two bodies), "joint" (q1 = Σ PolyCoef_k q2^k) or
	// "mimic" (URDF: q1 = Multiplier·q2 + Offset).
	Kind         string
	Body1, Body2 string // scene body names ("" for the world)
	Joint1       string // scene body names of the coupled joints
	Joint2       string
	// DOF1, DOF2 are the coupled joints' degrees of freedom within their
	// bodies' joints (MJCF: the part of a compound joint; 0 otherwise).
	DOF1, DOF2  int
	Anchor      spatial.Vec3 // connect: in Body1's frame
	RelPose     *spatial.Pose
	TorqueScale float64 // MJCF weld: MuJoCo's torquescale (default 1)
	PolyCoef    []float64
	Multiplier  float64
	Offset      float64
	SolRef      []float64
	SolImp      []float64
	Active      bool
	Source      Source
}

// JointFriction is a joint's dry friction (MJCF frictionloss, URDF and
// SDF dynamics friction), a force or torque magnitude.
type JointFriction struct {
	Body   string // scene body of the joint
	Value  float64
	Source Source
}

// Site is a named frame on a body.
type Site struct {
	Name string
	Body string
	Pose spatial.Pose
	// Type and Size are MJCF's site type and size (MuJoCo's defaults:
	// sphere, 0.005), the zone of a touch sensor.
	Type string
	Size [3]float64
}

// Options configure an import.
type Options struct {
	// PackagePaths are searched for package://NAME/...: each entry is a
	// package directory (holding package.xml with <name>NAME</name>, or
	// named NAME) or a directory holding package directories.
	PackagePaths []string
	// ModelPaths are searched for SDFormat model://NAME/... URIs.
	ModelPaths []string
	// Floating makes the root body of a URDF or SDFormat model free (six
	// degrees of freedom) instead of welded to the world. MJCF files say
	// it themselves (freejoint).
	Floating bool
	// SelfCollision lets the links of a URDF robot that are not joined by
	// a joint or welded together collide with each other (default off, as
	// PyBullet without URDF_USE_SELF_COLLISION and Gazebo's
	// <self_collide> false; Drake turns it on). Pairs that overlap in the
	// initial pose stay excluded, with a warning.
	SelfCollision bool
	// Access, if set, is called with every file or directory a model
	// names before it is looked for or read (includes, meshes,
	// heightfields, and the package.xml, model.config and directories of
	// the packages and models searched): it returns the path to use, or an
	// error that refuses the file. A sweep worker confines a job to the
	// files it carries with it; the sweep lists those files with it
	// (package sweep).
	Access func(path string) (string, error) `json:"-" yaml:"-"`
}

// Warn adds a warning.
func (im *Import) Warn(w xmlutil.Warning) { im.Warnings = append(im.Warnings, w) }
