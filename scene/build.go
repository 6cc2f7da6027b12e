package scene

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	_ "github.com/stiction-sim/stiction/solver/all" // registers every solver for solver.type
	"github.com/stiction-sim/stiction/solver/stack"
	"github.com/stiction-sim/stiction/spatial"
)

// Built is a validated scene turned into the engine's objects.
type Built struct {
	Name        string
	Model       *multibody.Model
	State       *multibody.State
	Config      sim.Config
	Duration    float64
	RecordEvery int
	Steps       int // number of steps: round(duration/dt)
	// Stack describes the scene's solver stack (Config.Solver is
	// Stack.Build()'s: the island solver with stack.DefaultWorkers around
	// the refined solver, unless solver.islands is false); set
	// Stack.Workers and build it again for more workers, or 0 for one
	// solve of the whole problem.
	Stack stack.Spec
	// NewSolver makes a new contact solver of the scene's kind and
	// parameters with its refiner (Stack.Refined(); Config.Solver's
	// islands are solved by one).
	NewSolver func() solver.Solver
	// AbsTolerance and RelTolerance are εa and εr of SAP eq. 26.
	AbsTolerance, RelTolerance float64
	// SolverName is the registered name of the contact solver (solver.type).
	SolverName string
	// Sensors are the scene's sensors (sensor.NewSet builds their set).
	Sensors []sensor.Spec
}

// Tolerance returns εa and εr of SAP eq. 26 (for island.Solver.SetTolerance).
func (b *Built) Tolerance() (abs, rel float64) { return b.AbsTolerance, b.RelTolerance }

// Build turns a scene into a model, an initial state and a simulator
// configuration: BuildModel, then BuildConfig. It works on a copy of s
// with its defaults applied (ApplyDefaults; s itself is not changed) and
// returns Validate's error for a scene that is not valid, so that a Scene
// made in Go needs neither call first.
func Build(s *Scene) (*Built, error) {
	s, err := prepared(s)
	if err != nil {
		return nil, err
	}
	m, st, err := buildModel(s)
	if err != nil {
		return nil, err
	}
	cfg, stk, err := buildConfig(s, m, st)
	if err != nil {
		return nil, err
	}
	sensors, err := BuildSensors(s, m)
	if err != nil {
		return nil, err
	}
	return &Built{
		Name: s.Name, Model: m, State: st, Config: cfg,
		Duration: s.Duration, RecordEvery: s.RecordEvery,
		Steps: int(math.Round(s.Duration / s.DT)), Stack: stk, NewSolver: stk.Refined(),
		AbsTolerance: *s.Solver.AbsTolerance, RelTolerance: *s.Solver.Tolerance,
		SolverName: s.Solver.Type, Sensors: sensors,
	}, nil
}

// BuildModel turns a scene into the static model (bodies, joints,
// collision geometries with their materials' indices in sorted name
// order, collision filters, visuals, gravity) and the initial state. Mesh
// files are read (relative paths from s.Dir) and each collision mesh
// becomes its convex hull. It applies the defaults to a copy of s (s is
// not changed); the rest of s must be valid (Validate): importers build
// the model of partial scenes with it.
func BuildModel(s *Scene) (*multibody.Model, *multibody.State, error) {
	if s == nil {
		return nil, nil, errors.New("scene: nil *Scene")
	}
	return buildModel(withDefaults(s))
}

// withDefaults returns a copy of s with its defaults applied; s is not
// changed.
func withDefaults(s *Scene) *Scene {
	c := *s
	c.ApplyDefaults()
	return &c
}

// prepared returns a copy of s with its defaults applied, or Validate's
// error; s is not changed.
func prepared(s *Scene) (*Scene, error) {
	if s == nil {
		return nil, errors.New("scene: nil *Scene")
	}
	c := withDefaults(s)
	if err := c.Validate(strings.TrimSpace("scene " + c.Name)); err != nil {
		return nil, err
	}
	return c, nil
}

// buildModel is BuildModel of a prepared scene.
func buildModel(s *Scene) (*multibody.Model, *multibody.State, error) {
	m := &multibody.Model{Gravity: spatial.Vec3(*s.Gravity), ParentFilter: parentFilter(s.Contact.ParentFilter)}
	bb := &builder{m: m, s: s, mats: materialNames(s)}
	type init struct {
		body int
		b    *Body
	}
	var free []init
	for i := range s.Bodies {
		b := &s.Bodies[i]
		idx, err := bb.addBody(b)
		if err != nil {
			return nil, nil, fmt.Errorf("scene %s: bodies[%d] (%s): %w", s.Name, i, b.Name, err)
		}
		if !b.Fixed && (b.Joint == nil || b.Joint.Type == "free") {
			free = append(free, init{idx, b})
		}
	}
	for i, pair := range s.Exclude {
		if err := m.ExcludePair(m.BodyByName(pair[0]), m.BodyByName(pair[1])); err != nil {
			return nil, nil, fmt.Errorf("scene %s: exclude[%d]: %w", s.Name, i, err)
		}
	}
	st := m.NewState()
	for _, f := range free {
		m.SetFreeBodyPose(st, f.body, pose(f.b.Pose))
		if v := f.b.Velocity; v != nil {
			m.SetFreeBodyVelocity(st, f.body, vecOr(v.Angular), vecOr(v.Linear))
		}
	}
	return m, st, nil
}

// BuildConfig builds the simulator configuration of a scene whose model m
// and initial state st were built by BuildModel: time step, scheme, contact
// parameters, the materials (indexed in sorted name order, as BuildModel's
// geometries refer to them), the solver, the force elements, and the
// constraints and actuators. It also returns a maker of new solvers of the
// configured kind (solver/island makes one per worker).
// It applies the defaults to a copy of s (s is not changed); the rest of
// s must be valid (Validate).
func BuildConfig(s *Scene, m *multibody.Model, st *multibody.State) (sim.Config, func() solver.Solver, error) {
	if s == nil || m == nil || st == nil {
		return sim.Config{}, nil, errors.New("scene: BuildConfig needs a scene and the model and state of BuildModel")
	}
	cfg, stk, err := buildConfig(withDefaults(s), m, st)
	if err != nil {
		return sim.Config{}, nil, err
	}
	return cfg, stk.Refined(), nil
}

// buildConfig is BuildConfig of a prepared scene, with the description of
// its solver stack.
func buildConfig(s *Scene, m *multibody.Model, st *multibody.State) (sim.Config, stack.Spec, error) {
	var none stack.Spec
	names := materialNames(s)
	mats := make([]contact.Material, len(names))
	for i, n := range names {
		mt := s.Materials[n]
		mats[i] = contact.Material{Stiffness: *mt.Stiffness, Dissipation: *mt.Dissipation, Friction: *mt.Friction,
			Rolling: valueOr(mt.RollingFriction, 0), Spin: valueOr(mt.SpinFriction, 0), Anchors: mt.Anchors == nil || *mt.Anchors,
			SlipTime: valueOr(mt.SlipTime, 0), SlipImp: [5]float64{0.9, 0.95, 0.001, 0.5, 2}, SlipStiffness: valueOr(mt.SlipStiffness, 0),
			SlipWeight: valueOr(mt.SlipWeight, 0), WeightSet: mt.SlipWeight != nil, MaxFriction: mt.FrictionCombine == "max", Condim: mt.Condim, Priority: mt.Priority}
		if len(mt.SlipSolImp) == 5 {
			mats[i].SlipImp = [5]float64(mt.SlipSolImp)
		}
		if len(mt.SlipSolRef) == 2 {
			mats[i].SlipRef = [2]float64(mt.SlipSolRef)
		}
		if sf := s.Contact.SoftFriction; sf != nil && !*sf && mats[i].SlipTime > 0 {
			mats[i].SlipTime, mats[i].Anchors = 0, true // contact.soft_friction: false
		}
	}
	cfg, stk, err := config(s, mats)
	if err != nil {
		return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	if cfg.Forces, err = buildForces(m, s.Forces); err != nil {
		return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	tf, err := tendonForces(m, st, s.Tendons)
	if err != nil {
		return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	cfg.Forces = append(cfg.Forces, tf...)
	if f := s.Fluid; f != nil {
		var wind spatial.Vec3
		if f.Wind != nil {
			wind = spatial.Vec3(*f.Wind)
		}
		fl := forces.NewFluid(m, f.Density, f.Viscosity, wind)
		if err := fluidBoxes(m, fl, f.Boxes); err != nil {
			return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
		}
		if err := fluidEllipsoids(m, fl, f.Ellipsoids); err != nil {
			return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
		}
		cfg.Forces = append(cfg.Forces, fl)
	}
	if cfg.Constraints, err = buildConstraints(s, m, st); err != nil {
		return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	if err := setupMuscles(m, &cfg, st); err != nil {
		return sim.Config{}, none, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	initialActivations(s, &cfg, st)
	return cfg, stk, nil
}

// materialNames returns the material names in sorted order: a geometry's
// material index is its name's position here.
func materialNames(s *Scene) []string {
	names := make([]string, 0, len(s.Materials))
	for n := range s.Materials {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// builder carries what BuildModel shares between bodies: the model, the
// scene, the material names and the meshes read so far.
type builder struct {
	m      *multibody.Model
	s      *Scene
	mats   []string
	meshes mesh.Cache
	hulls  map[string]geometry.Shape
}

// addBody adds one body, its collision geometries and its visuals to the
// model and returns its index.
func (bb *builder) addBody(b *Body) (int, error) {
	m := bb.m
	if strings.ContainsAny(b.Name, ",\"\n\r") {
		return -1, fmt.Errorf("name %q must not contain commas, quotes or line breaks", b.Name)
	}
	geoms, err := bb.collisionShapes(b)
	if err != nil {
		return -1, err
	}
	var idx int
	switch {
	case b.Fixed:
		idx = m.AddWeldedBody(b.Name, pose(b.Pose))
	case b.Joint != nil && b.Joint.Type == "weld" && isWorld(b.Joint.Parent), b.massless():
		idx, err = m.AddBody(b.Name, spatial.SpatialInertia{}, joint(m, b.Joint))
	default:
		idx, err = bb.addMovingBody(b, geoms)
	}
	if err != nil {
		return -1, err
	}
	for _, g := range geoms {
		gi, err := m.AddGeometry(idx, g.shape, g.pose, g.mat)
		if err != nil {
			return -1, err
		}
		m.Geometries[gi].Contype, m.Geometries[gi].Conaffinity, m.Geometries[gi].Name = g.contype, g.conaffinity, g.name
		m.Geometries[gi].Standoff, m.Geometries[gi].Margin = g.standoff, g.margin
	}
	return idx, bb.addVisuals(idx, b)
}

// geom is one collision shape of a body, ready for AddGeometry.
type geom struct {
	name                 string
	shape                geometry.Shape
	pose                 spatial.Pose
	mat                  int
	contype, conaffinity uint32
	standoff, margin     float64
}

// collisionShapes converts the body's shape (at shape_pose) and its
// collisions.
func (bb *builder) collisionShapes(b *Body) ([]geom, error) {
	var out []geom
	if b.Shape != nil {
		g, err := bb.toShape(b.Shape)
		if err != nil {
			return nil, fmt.Errorf("shape: %w", err)
		}
		xs := spatial.PoseIdentity()
		if b.ShapePose != nil {
			xs = pose(*b.ShapePose)
		}
		out = append(out, geom{shape: g, pose: xs, mat: slices.Index(bb.mats, b.Material), contype: bits(b.Contype), conaffinity: bits(b.Conaffinity)})
	}
	for i := range b.Collisions {
		c := &b.Collisions[i]
		g, err := bb.toShape(c.Shape)
		if err != nil {
			return nil, fmt.Errorf("collisions[%d]: %w", i, err)
		}
		mat := c.Material
		if mat == "" {
			mat = b.Material
		}
		out = append(out, geom{name: c.Name, shape: g, pose: poseOr(c.Pose), mat: slices.Index(bb.mats, mat),
			contype: bits(c.Contype), conaffinity: bits(c.Conaffinity), standoff: orZero(c.Standoff), margin: orZero(c.Margin)})
	}
	return out, nil
}

// orZero returns *p, or 0 when p is nil.
func orZero(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// bits returns a collision mask, 1 by default.
func bits(p *int) uint32 {
	if p == nil {
		return 1
	}
	return uint32(*p)
}

func poseOr(p *Pose) spatial.Pose {
	if p == nil {
		return spatial.PoseIdentity()
	}
	return pose(*p)
}

// addMovingBody adds a body with mass: on a free joint when it has no joint
// block (the core convention, origin at the centre of mass unless a shape
// pose or com moves it), else on its joint.
func (bb *builder) addMovingBody(b *Body, geoms []geom) (int, error) {
	in, err := bodyInertia(b, geoms)
	if err != nil {
		return -1, err
	}
	m := bb.m
	if b.Joint == nil && in.Com == (spatial.Vec3{}) {
		return m.AddFreeBody(b.Name, in)
	}
	j := multibody.Joint{Type: multibody.JointFree, Parent: -1}
	if b.Joint != nil {
		j = joint(m, b.Joint)
	}
	return m.AddBody(b.Name, in, j)
}

// joint converts a validated scene joint.
func joint(m *multibody.Model, j *Joint) multibody.Joint {
	t, _ := multibody.ParseJointType(j.Type)
	out := multibody.Joint{Type: t, Parent: -1, ParentFrame: spatial.PoseIdentity(), ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 0, 1}}
	if !isWorld(j.Parent) {
		out.Parent = m.BodyByName(j.Parent)
	}
	if j.ParentFrame != nil {
		out.ParentFrame = pose(*j.ParentFrame)
	}
	if j.ChildFrame != nil {
		out.ChildFrame = pose(*j.ChildFrame)
	}
	if j.Axis != nil {
		out.Axis = spatial.Vec3(*j.Axis)
	}
	out.Name = j.Name
	out.Q0, out.V0 = j.Q0, j.V0
	out.Ref, out.SpringRef = valueOr(j.Ref, 0), j.SpringRef
	if t == multibody.JointCompound {
		out.Parts = compoundParts(j.Parts)
	}
	if j.Damping != nil {
		out.Damping = *j.Damping
	}
	if j.Stiffness != nil {
		out.Stiffness = *j.Stiffness
	}
	if j.Armature != nil {
		out.Armature = *j.Armature
	}
	if l := j.Limits; l != nil {
		out.Lower, out.Upper = l.Lower, l.Upper
		if l.Effort != nil {
			out.Effort = *l.Effort
		}
	}
	return out
}

// pose converts a scene pose.
func pose(p Pose) spatial.Pose {
	q := p.Quat()
	return spatial.Pose{R: spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}, P: spatial.Vec3(p.Pos())}
}

func vecOr(v *Vec) spatial.Vec3 {
	if v == nil {
		return spatial.Vec3{}
	}
	return spatial.Vec3(*v)
}

// config builds the simulator configuration and the description of its
// solver stack (Config.Solver is the stack built).
func config(s *Scene, mats []contact.Material) (sim.Config, stack.Spec, error) {
	var none stack.Spec
	approx, err := contact.ParseApproximation(s.Contact.Approximation)
	if err != nil {
		return sim.Config{}, none, fmt.Errorf("contact.approximation: %w", err)
	}
	d, err := contact.ParseDelassus(s.Contact.Delassus)
	if err != nil {
		return sim.Config{}, none, err
	}
	cone, err := contact.ParseCone(s.Contact.Cone)
	if err != nil {
		return sim.Config{}, none, fmt.Errorf("contact.cone: %w", err)
	}
	switch s.Solver.LineSearch {
	case "", "exact", "backtracking":
	default:
		return sim.Config{}, none, fmt.Errorf("solver.line_search: unknown line search %q", s.Solver.LineSearch)
	}
	sp := solver.DefaultParams()
	sp.Tolerance, sp.AbsTolerance = *s.Solver.Tolerance, *s.Solver.AbsTolerance
	sp.MaxIterations, sp.LineSearch, sp.DT = *s.Solver.MaxIterations, s.Solver.LineSearch, s.DT
	if s.Solver.Omega != nil {
		sp.Omega = *s.Solver.Omega
	}
	inner, err := solver.Maker(s.Solver.Type, sp)
	if err != nil {
		return sim.Config{}, none, fmt.Errorf("solver.type: %w", err)
	}
	if err := checkSolverApproximation(s.Solver.Type, inner(), approx, sp); err != nil {
		return sim.Config{}, none, err
	}
	scheme, err := sim.ParseScheme(s.Scheme)
	if err != nil {
		return sim.Config{}, none, err
	}
	lag := stack.DefaultLag()
	lag.Resolves = *s.Contact.LagIterations
	stk := stack.Spec{Solver: inner, Lag: lag, AbsTolerance: sp.AbsTolerance, RelTolerance: sp.Tolerance}
	if s.Solver.Islands == nil || *s.Solver.Islands {
		stk.Workers = stack.DefaultWorkers
	}
	sv, err := stk.Build()
	if err != nil {
		return sim.Config{}, none, err
	}
	return sim.Config{
		DT:     s.DT,
		Scheme: scheme,
		Contact: contact.Params{
			Beta: *s.Contact.Beta, Sigma: *s.Contact.Sigma, Margin: *s.Contact.Margin, Delassus: d,
			Approximation: approx, StictionTolerance: *s.Contact.StictionTolerance,
			Speculative: *s.Contact.Speculative, SpeculativeMax: *s.Contact.SpeculativeMax,
			LoadAware: *s.Contact.LoadAware, AnchorRadius: 1e-3, MaxRecoverySpeed: *s.Contact.MaxRecoverySpeed,
			SubstepTolerance: *s.Contact.SubstepTolerance, Sleep: sleepParams(s.Contact), Cone: cone, ImpRatio: valueOr(s.Contact.ImpRatio, 0),
			PGSIterations: pgsIterations(s.Contact), PGSTolerance: pgsTolerance(s.Contact),
			NoSlipIterations: intOr(s.Contact.NoSlipIterations, 0), NoSlipTolerance: valueOr(s.Contact.NoSlipTolerance, 0),
			Newton:         mujocoNewton(s.Contact),
			CG:             mujocoNewton(s.Contact) && s.Contact.MuJoCoCG != nil && *s.Contact.MuJoCoCG,
			MuJoCoCollider: s.Contact.Collider == "mujoco", MultiCCD: s.Contact.MultiCCD != nil && *s.Contact.MultiCCD,
			MPRTolerance: valueOr(s.Contact.MPRTolerance, 0), MPRIterations: intOr(s.Contact.MPRIterations, 0),
		},
		Materials:        mats,
		Solver:           sv,
		Relinearizations: s.Relinearizations,
	}, stk, nil
}

// LagTolerance is the relative change of a Lagged contact's normal impulse
// that makes the solver solve the step again with it (solver.LaggedRefiner;
// the engine's default, stack.DefaultLagTolerance).
const LagTolerance = stack.DefaultLagTolerance

// LagSlideTolerance is LagTolerance for a sliding contact, whose friction
// is μ times its lagged normal impulse (stack.DefaultLagSlideTolerance).
const LagSlideTolerance = stack.DefaultLagSlideTolerance

// pgsIterations returns contact.pgs_iterations; when unset, MuJoCo's
// default 100 with mujoco_newton, else 0 (PGS off). mujoco_newton: false
// (set, not left unset) turns MuJoCo's solvers off, PGS too: the MJCF
// import sets pgs_iterations for its Newton and CG (model/mjcf), and this
// is how a user returns such a file to the converged solve.
func pgsIterations(c ContactParams) int {
	if c.PGSIterations == nil || mujocoSolversOff(c) {
		if mujocoNewton(c) {
			return 100 // MuJoCo's default <option iterations>
		}
		return 0
	}
	return *c.PGSIterations
}

// mujocoNewton reports contact.mujoco_newton (default false).
func mujocoNewton(c ContactParams) bool {
	return c.MuJoCoNewton != nil && *c.MuJoCoNewton
}

// mujocoSolversOff reports contact.mujoco_newton set to false.
func mujocoSolversOff(c ContactParams) bool {
	return c.MuJoCoNewton != nil && !*c.MuJoCoNewton
}

// pgsTolerance returns contact.pgs_tolerance, MuJoCo's default 1e-8 when
// unset with PGS on, 0 with PGS off.
func pgsTolerance(c ContactParams) float64 {
	if pgsIterations(c) == 0 {
		return 0
	}
	return valueOr(c.PGSTolerance, 1e-8)
}

// valueOr returns *p, or def when p is nil.
func valueOr(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// parentFilter maps contact.parent_filter (validated) to the model's rule.
func parentFilter(s string) multibody.ParentFilter {
	switch s {
	case "mujoco":
		return multibody.FilterMuJoCo
	case "none":
		return multibody.FilterNone
	}
	return multibody.FilterAdjacent
}

// fluidEllipsoids adds the shapes under the fluid's ellipsoid model.
func fluidEllipsoids(m *multibody.Model, fl *forces.Fluid, es []FluidEllipsoid) error {
	for i, fe := range es {
		b := m.BodyByName(fe.Body)
		if b < 0 || m.Bodies[b].Tree < 0 {
			return fmt.Errorf("fluid.ellipsoids[%d].body: %q is not a moving body", i, fe.Body)
		}
		coef := forces.DefaultEllipsoidCoefs
		if fe.Coefs != nil {
			coef = forces.EllipsoidCoefs(*fe.Coefs)
		}
		fl.AddEllipsoid(m, b, pose(fe.Pose), spatial.Vec3(fe.SemiAxes), coef)
	}
	return nil
}

// fluidBoxes sets the fluid's boxes of the bodies that fluid.boxes names.
func fluidBoxes(m *multibody.Model, fl *forces.Fluid, boxes []FluidBox) error {
	for i, fb := range boxes {
		b := m.BodyByName(fb.Body)
		if b < 0 || m.Bodies[b].Tree < 0 {
			return fmt.Errorf("fluid.boxes[%d].body: %q is not a moving body", i, fb.Body)
		}
		in := spatial.SpatialInertia{Mass: fb.Mass}
		if fb.COM != nil {
			in.Com = spatial.Vec3(*fb.COM)
		}
		if fb.Inertia != nil {
			in.Icom = givenInertia(fb.Inertia)
		}
		fl.SetBox(b, in)
	}
	return nil
}

// sleepParams returns the sleeping of settled islands that the scene's
// contact section asks for (the zero contact.Sleep, off, unless sleep).
func sleepParams(c ContactParams) contact.Sleep {
	if c.Sleep == nil || !*c.Sleep {
		return contact.Sleep{}
	}
	return contact.Sleep{Speed: *c.SleepSpeed, Steps: *c.SleepSteps}
}
