package scene

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
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
	// NewSolver makes a new contact solver of the scene's kind and
	// parameters (Config.Solver is one); solver/island uses it to make one
	// per worker.
	NewSolver func() solver.Solver
	// AbsTolerance and RelTolerance are εa and εr of SAP eq. 26.
	AbsTolerance, RelTolerance float64
}

// Tolerance returns εa and εr of SAP eq. 26 (for island.Solver.SetTolerance).
func (b *Built) Tolerance() (abs, rel float64) { return b.AbsTolerance, b.RelTolerance }

// Build turns a validated scene into a model, an initial state and a
// simulator configuration. Materials are indexed in sorted name order.
func Build(s *Scene) (*Built, error) {
	m := &multibody.Model{Gravity: spatial.Vec3(*s.Gravity)}
	names := make([]string, 0, len(s.Materials))
	for n := range s.Materials {
		names = append(names, n)
	}
	slices.Sort(names)
	mats := make([]contact.Material, len(names))
	for i, n := range names {
		mt := s.Materials[n]
		mats[i] = contact.Material{Stiffness: *mt.Stiffness, Dissipation: *mt.Dissipation, Friction: *mt.Friction,
			Rolling: valueOr(mt.RollingFriction, 0), Spin: valueOr(mt.SpinFriction, 0), Anchors: mt.Anchors == nil || *mt.Anchors}
	}
	type init struct {
		body int
		b    *Body
	}
	var free []init
	for i := range s.Bodies {
		b := &s.Bodies[i]
		idx, err := addBody(m, b, slices.Index(names, b.Material))
		if err != nil {
			return nil, fmt.Errorf("scene %s: bodies[%d] (%s): %w", s.Name, i, b.Name, err)
		}
		if !b.Fixed && (b.Joint == nil || b.Joint.Type == "free") {
			free = append(free, init{idx, b})
		}
	}
	st := m.NewState()
	for _, f := range free {
		m.SetFreeBodyPose(st, f.body, pose(f.b.Pose))
		if v := f.b.Velocity; v != nil {
			m.SetFreeBodyVelocity(st, f.body, vecOr(v.Angular), vecOr(v.Linear))
		}
	}
	cfg, newSolver, err := config(s, mats)
	if err != nil {
		return nil, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	if cfg.Forces, err = buildForces(m, s.Forces); err != nil {
		return nil, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	if cfg.Constraints, err = buildConstraints(s, m, st); err != nil {
		return nil, fmt.Errorf("scene %s: %w", s.Name, err)
	}
	return &Built{
		Name: s.Name, Model: m, State: st, Config: cfg,
		Duration: s.Duration, RecordEvery: s.RecordEvery,
		Steps: int(math.Round(s.Duration / s.DT)), NewSolver: newSolver,
		AbsTolerance: *s.Solver.AbsTolerance, RelTolerance: *s.Solver.Tolerance,
	}, nil
}

// addBody adds one body and its geometry to m and returns its index.
func addBody(m *multibody.Model, b *Body, mat int) (int, error) {
	if strings.ContainsAny(b.Name, ",\"\n\r") {
		return -1, fmt.Errorf("name %q must not contain commas, quotes or line breaks", b.Name)
	}
	shape, err := toShape(b.Shape)
	if err != nil {
		return -1, err
	}
	xs := spatial.PoseIdentity()
	if b.ShapePose != nil {
		xs = pose(*b.ShapePose)
	}
	var idx int
	switch {
	case b.Fixed:
		idx = m.AddWeldedBody(b.Name, pose(b.Pose))
	case b.Joint != nil && b.Joint.Type == "weld" && isWorld(b.Joint.Parent):
		idx, err = m.AddBody(b.Name, spatial.SpatialInertia{}, joint(m, b.Joint))
	default:
		idx, err = addMovingBody(m, b, shape, xs)
	}
	if err != nil {
		return -1, err
	}
	_, err = m.AddGeometry(idx, shape, xs, mat)
	return idx, err
}

// addMovingBody adds a body with mass: on a free joint when it has no joint
// block (the core convention, origin at the centre of mass unless a shape
// pose moves it), else on its joint.
func addMovingBody(m *multibody.Model, b *Body, shape geometry.Shape, xs spatial.Pose) (int, error) {
	in, err := inertia(b, shape)
	if err != nil {
		return -1, err
	}
	R := xs.R.RotMat()
	in.Icom, in.Com = spatial.RotateInertia(R, in.Icom), xs.P
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
	out.Q0, out.V0 = j.Q0, j.V0
	if j.Damping != nil {
		out.Damping = *j.Damping
	}
	if j.Stiffness != nil {
		out.Stiffness = *j.Stiffness
	}
	if l := j.Limits; l != nil {
		out.Lower, out.Upper = l.Lower, l.Upper
		if l.Effort != nil {
			out.Effort = *l.Effort
		}
	}
	return out
}

// toShape converts a scene shape to a geometry shape.
func toShape(s *Shape) (geometry.Shape, error) {
	kind, err := geometry.ParseKind(s.Type)
	if err != nil {
		return geometry.Shape{}, err
	}
	f := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	var g geometry.Shape
	switch kind {
	case geometry.HalfSpace:
		g = geometry.NewHalfSpace()
	case geometry.Sphere:
		g = geometry.NewSphere(f(s.Radius))
	case geometry.Box:
		g = geometry.NewBox(spatial.Vec3(vecOr(s.Size)))
	case geometry.Capsule:
		g = geometry.NewCapsule(f(s.Radius), f(s.Length))
	case geometry.Cylinder:
		g = geometry.NewCylinder(f(s.Radius), f(s.Length))
	}
	return g, g.Validate()
}

// inertia returns the spatial inertia of a free body: from density and
// shape, from mass and shape, or from mass and the given inertia.
func inertia(b *Body, shape geometry.Shape) (spatial.SpatialInertia, error) {
	var mass float64
	switch {
	case b.Density != nil:
		mass = *b.Density * shape.Volume()
	case b.Mass != nil:
		mass = *b.Mass
	default:
		return spatial.SpatialInertia{}, errors.New("a free body needs density or mass")
	}
	in := spatial.SpatialInertia{Mass: mass}
	switch {
	case b.Inertia != nil && b.Inertia.Diagonal != nil:
		in.Icom = spatial.Diag3(spatial.Vec3(*b.Inertia.Diagonal))
	case b.Inertia != nil && b.Inertia.Matrix != nil:
		for i, row := range b.Inertia.Matrix {
			in.Icom[i] = row
		}
	default:
		unit, err := shape.UnitInertia()
		if err != nil {
			return in, err
		}
		in.Icom = unit.Scale(mass)
	}
	if err := in.Validate(); err != nil {
		return in, err
	}
	return in, physical(in)
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

// config builds the simulator configuration and a maker of its solver.
func config(s *Scene, mats []contact.Material) (sim.Config, func() solver.Solver, error) {
	approx, err := contact.ParseApproximation(s.Contact.Approximation)
	if err != nil {
		return sim.Config{}, nil, fmt.Errorf("contact.approximation: %w", err)
	}
	d, err := contact.ParseDelassus(s.Contact.Delassus)
	if err != nil {
		return sim.Config{}, nil, err
	}
	sp := sap.DefaultParams()
	sp.RelTolerance = *s.Solver.Tolerance
	sp.AbsTolerance = *s.Solver.AbsTolerance
	sp.MaxIterations = *s.Solver.MaxIterations
	switch s.Solver.LineSearch {
	case "", "exact":
		sp.LineSearch = sap.ExactLineSearch
	case "backtracking":
		sp.LineSearch = sap.BacktrackingLineSearch
	default:
		return sim.Config{}, nil, fmt.Errorf("solver.line_search: unknown line search %q", s.Solver.LineSearch)
	}
	scheme, err := sim.ParseScheme(s.Scheme)
	if err != nil {
		return sim.Config{}, nil, err
	}
	lag := *s.Contact.LagIterations
	newSolver := func() solver.Solver {
		return &solver.LaggedRefiner{Inner: sap.New(sp), Tolerance: LagTolerance, MaxResolves: lag}
	}
	return sim.Config{
		DT:     s.DT,
		Scheme: scheme,
		Contact: contact.Params{
			Beta: *s.Contact.Beta, Sigma: *s.Contact.Sigma, Margin: *s.Contact.Margin, Delassus: d,
			Approximation: approx, StictionTolerance: *s.Contact.StictionTolerance,
			Speculative: *s.Contact.Speculative, SpeculativeMax: *s.Contact.SpeculativeMax,
			LoadAware: *s.Contact.LoadAware, AnchorRadius: 1e-3, MaxRecoverySpeed: *s.Contact.MaxRecoverySpeed,
		},
		Materials:        mats,
		Solver:           newSolver(),
		Relinearizations: s.Relinearizations,
	}, newSolver, nil
}

// LagTolerance is the relative change of a Lagged contact's normal impulse
// that makes the solver solve the step again with it (solver.LaggedRefiner).
const LagTolerance = 0.01

// valueOr returns *p, or def when p is nil.
func valueOr(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}
