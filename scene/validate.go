package scene

import (
	"errors"
	"fmt"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/solver/stack"
)

// Defaults applied by ApplyDefaults to fields left out of a scene file.
const (
	DefaultGravityZ    = -9.81 // m/s²; gravity defaults to [0, 0, DefaultGravityZ]
	DefaultRecordEvery = 1
	DefaultBeta        = 1.0
	DefaultSigma       = 1e-3
	DefaultMargin      = 1e-3 // m
	DefaultDelassus    = "diagonal"
	// DefaultApproximation is the contact approximation (docs/CONTACT.md
	// gives the measurements behind the choice).
	DefaultApproximation     = "lagged"
	DefaultStictionTolerance = 1e-4 // m/s
	DefaultSpeculative       = true
	DefaultLagIterations     = stack.DefaultLagResolves
	DefaultLoadAware         = true
	DefaultMaxRecoverySpeed  = 0.3
	DefaultSubstepTolerance  = 1e-4 // m
	DefaultSpeculativeMax    = 0.1  // m
	// DefaultSleep is the engine's (contact.SleepByDefault), for
	// θ-method schemes (docs/SCENES.md).
	DefaultSleep         = contact.SleepByDefault
	DefaultSolver        = "sap"
	DefaultTolerance     = 1e-6
	DefaultAbsTolerance  = 1e-16
	DefaultLineSearch    = "exact"
	DefaultMaxIterations = 100
	// DefaultPGSIterations is the default solver.max_iterations of
	// solver.type pgs (sweeps; docs/SOLVERS.md measures how many a stiff
	// problem needs).
	DefaultPGSIterations = 10000
)

// MaxSteps bounds duration/dt.
const MaxSteps = 1e8

// shapeTypes lists the shape types in the order the documentation gives them.
var shapeTypes = []string{"halfspace", "sphere", "box", "capsule", "cylinder", "ellipsoid", "mesh", "heightfield"}

// ApplyDefaults fills every optional scene-level field that is unset (nil, or
// "" / 0 where the field is not a pointer) with its default: gravity
// [0, 0, -9.81], record_every 1, contact beta 1, sigma 1e-3, margin 1e-3,
// delassus "diagonal", solver type "sap", tolerance 1e-6, abs_tolerance
// 1e-16, line_search "exact", max_iterations 100. Body fields have no
// defaults here: an absent pose is the identity at the origin, an absent
// velocity is zero, and mass properties come from density or mass.
func (s *Scene) ApplyDefaults() {
	if s.Gravity == nil {
		s.Gravity = &Vec{0, 0, DefaultGravityZ}
	}
	if s.RecordEvery == 0 {
		s.RecordEvery = DefaultRecordEvery
	}
	c := &s.Contact
	setDefault(&c.Beta, DefaultBeta)
	setDefault(&c.Sigma, DefaultSigma)
	setDefault(&c.Margin, DefaultMargin)
	if c.Delassus == "" {
		c.Delassus = DefaultDelassus
	}
	if c.Approximation == "" {
		c.Approximation = DefaultApproximation
	}
	if c.ParentFilter == "" {
		c.ParentFilter = "adjacent"
	}
	setDefault(&c.StictionTolerance, DefaultStictionTolerance)
	setDefault(&c.Speculative, DefaultSpeculative)
	setDefault(&c.LagIterations, DefaultLagIterations)
	setDefault(&c.LoadAware, DefaultLoadAware)
	setDefault(&c.MaxRecoverySpeed, DefaultMaxRecoverySpeed)
	setDefault(&c.SubstepTolerance, DefaultSubstepTolerance)
	setDefault(&c.SpeculativeMax, DefaultSpeculativeMax)
	setDefault(&c.Sleep, DefaultSleep && thetaScheme(s.Scheme)) // MuJoCo's schemes: MuJoCo 2.2.2 has no sleeping
	setDefault(&c.SleepSpeed, contact.DefaultSleepSpeed)
	setDefault(&c.SleepSteps, contact.DefaultSleepSteps)
	v := &s.Solver
	if v.Type == "" {
		v.Type = DefaultSolver
	}
	setDefault(&v.Tolerance, DefaultTolerance)
	setDefault(&v.AbsTolerance, DefaultAbsTolerance)
	if v.LineSearch == "" {
		v.LineSearch = DefaultLineSearch
	}
	if v.MaxIterations == nil {
		n := DefaultMaxIterations
		if v.Type == "pgs" {
			n = DefaultPGSIterations
		}
		v.MaxIterations = &n
	}
}

func setDefault[T any](p **T, v T) {
	if *p == nil {
		*p = &v
	}
}

// Validate checks the scene and returns every problem found, joined with
// errors.Join, or nil. Each problem is a *FieldError naming file, the field
// path and the offending value. Unset optional fields (nil pointers, "" and a
// zero record_every) are accepted, since defaults apply to them; Parse
// applies the defaults before validating and adds line numbers.
func (s *Scene) Validate(file string) error {
	return s.validate(file, nil, nil)
}

// validator collects problems.
type validator struct {
	file string
	locs locs // nil when validating a Scene not read from a file
	errs []error
}

func (v *validator) add(path, format string, args ...any) {
	l := v.locs.find(path)
	v.errs = append(v.errs, &FieldError{File: v.file, Line: l.line, Path: path, Msg: fmt.Sprintf(format, args...), Set: l.set})
}

// required reports a required number that is zero: "missing" when the file
// has no such key, "0 must be positive" when it has (or when validating a
// Scene not read from a file).
func (v *validator) required(path, zero string) {
	if v.locs != nil && !v.locs.has(path) {
		v.add(path, "missing (required)")
		return
	}
	v.add(path, "%s must be positive", zero)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// positive checks x > 0 (non-finite values are reported once, by the
// generic finiteness check).
func (v *validator) positive(path string, x float64) {
	if finite(x) && x <= 0 {
		v.add(path, "%s must be positive", fnum(x))
	}
}

func (v *validator) nonNegative(path string, x float64) {
	if finite(x) && x < 0 {
		v.add(path, "%s must be ≥ 0", fnum(x))
	}
}

// oneOf checks that x is "" (the default applies) or one of allowed.
func (v *validator) oneOf(path, x string, allowed ...string) {
	if x == "" {
		return
	}
	for _, a := range allowed {
		if x == a {
			return
		}
	}
	v.add(path, "%q must be one of %s", x, strings.Join(allowed, ", "))
}

func (s *Scene) validate(file string, l locs, pre []error) error {
	v := &validator{file: file, locs: l, errs: pre}
	v.nonFinite(reflect.ValueOf(s).Elem(), "")

	if !finite(s.DT) || s.DT <= 0 {
		if s.DT == 0 {
			v.required("dt", "0")
		} else {
			v.positive("dt", s.DT)
		}
	}
	if !finite(s.Duration) || s.Duration <= 0 {
		if s.Duration == 0 {
			v.required("duration", "0")
		} else {
			v.positive("duration", s.Duration)
		}
	}
	if finite(s.DT) && finite(s.Duration) && s.DT > 0 && s.Duration > 0 && s.Duration/s.DT > MaxSteps {
		v.add("duration", "%s s at dt = %s s is %s steps, more than the limit of %s",
			fnum(s.Duration), fnum(s.DT), fnum(math.Ceil(s.Duration/s.DT)), fnum(MaxSteps))
	}
	if s.RecordEvery < 0 {
		v.add("record_every", "%d must be ≥ 1", s.RecordEvery)
	}
	if s.Relinearizations < 0 {
		v.add("relinearizations", "%d must be ≥ 0", s.Relinearizations)
	}
	if f := s.Fluid; f != nil {
		v.nonNegative("fluid.density", f.Density)
		v.nonNegative("fluid.viscosity", f.Viscosity)
		for i, fb := range f.Boxes {
			p := fmt.Sprintf("fluid.boxes[%d]", i)
			v.nonNegative(p+".mass", fb.Mass)
			switch {
			case fb.Inertia != nil:
				v.inertia(p+".inertia", fb.Inertia)
			case fb.Mass > 0:
				v.add(p+".inertia", "required when mass > 0")
			}
		}
		for i, fe := range f.Ellipsoids {
			p := fmt.Sprintf("fluid.ellipsoids[%d]", i)
			for k, x := range fe.SemiAxes {
				v.positive(fmt.Sprintf("%s.semi_axes[%d]", p, k), x)
			}
			if fe.Coefs != nil {
				for k, x := range fe.Coefs {
					v.nonNegative(fmt.Sprintf("%s.coefs[%d]", p, k), x)
				}
			}
			v.pose(p+".pose", fe.Pose)
		}
	}

	c := s.Contact
	if c.Beta != nil {
		v.positive("contact.beta", *c.Beta)
	}
	if c.Sigma != nil {
		v.positive("contact.sigma", *c.Sigma)
	}
	if c.Margin != nil {
		v.nonNegative("contact.margin", *c.Margin)
	}
	v.oneOf("contact.delassus", c.Delassus, "diagonal", "rms")
	v.oneOf("contact.approximation", c.Approximation, "sap", "lagged", "similar")
	v.oneOf("contact.parent_filter", c.ParentFilter, "adjacent", "mujoco", "none")
	if c.Cone != "" {
		v.oneOf("contact.cone", c.Cone, "elliptic", "pyramidal")
	}
	if c.StictionTolerance != nil {
		v.positive("contact.stiction_tolerance", *c.StictionTolerance)
	}
	if c.LagIterations != nil && (*c.LagIterations < 0 || *c.LagIterations > 100) {
		v.add("contact.lag_iterations", "%d must be in [0, 100]", *c.LagIterations)
	}
	if c.MaxRecoverySpeed != nil {
		v.nonNegative("contact.max_recovery_speed", *c.MaxRecoverySpeed)
	}
	if c.SubstepTolerance != nil {
		v.nonNegative("contact.substep_tolerance", *c.SubstepTolerance)
	}
	if c.SpeculativeMax != nil {
		v.nonNegative("contact.speculative_max", *c.SpeculativeMax)
	}
	if c.SleepSpeed != nil {
		v.nonNegative("contact.sleep_speed", *c.SleepSpeed)
	}
	if c.SleepSteps != nil && *c.SleepSteps < 1 {
		v.add("contact.sleep_steps", "%d must be at least 1", *c.SleepSteps)
	}
	if c.ImpRatio != nil {
		v.positive("contact.impratio", *c.ImpRatio)
	}
	if c.PGSIterations != nil && *c.PGSIterations < 1 {
		v.add("contact.pgs_iterations", "%d must be ≥ 1", *c.PGSIterations)
	}
	if c.MPRTolerance != nil && !(*c.MPRTolerance > 0 && !math.IsInf(*c.MPRTolerance, 0)) {
		v.add("contact.mpr_tolerance", "%v must be finite and > 0", *c.MPRTolerance)
	}
	if c.MPRIterations != nil && *c.MPRIterations < 1 {
		v.add("contact.mpr_iterations", "%d must be ≥ 1", *c.MPRIterations)
	}
	if c.PGSTolerance != nil {
		v.nonNegative("contact.pgs_tolerance", *c.PGSTolerance)
	}
	if c.NoSlipIterations != nil && *c.NoSlipIterations < 0 {
		v.add("contact.noslip_iterations", "%d must be ≥ 0", *c.NoSlipIterations)
	}
	if c.NoSlipTolerance != nil {
		v.positive("contact.noslip_tolerance", *c.NoSlipTolerance)
	}
	if c.Collider != "" {
		v.oneOf("contact.collider", c.Collider, "stiction", "mujoco")
	}

	sv := s.Solver
	v.oneOf("solver.type", sv.Type, solver.Names()...)
	if t := sv.Tolerance; t != nil && finite(*t) && (*t <= 0 || *t >= 1) {
		v.add("solver.tolerance", "%s must be in (0, 1)", fnum(*t))
	}
	if sv.AbsTolerance != nil {
		v.nonNegative("solver.abs_tolerance", *sv.AbsTolerance)
	}
	v.oneOf("solver.line_search", sv.LineSearch, "exact", "backtracking")
	if m := sv.MaxIterations; m != nil && *m < 1 {
		v.add("solver.max_iterations", "%d must be ≥ 1", *m)
	}
	if w := sv.Omega; w != nil && !(*w > 0 && *w < 2) {
		v.add("solver.omega", "%s must be in (0, 2)", fnum(*w))
	}

	if len(s.Materials) == 0 {
		v.add("materials", "no materials defined; define at least one, e.g. default: {stiffness: 1e12, dissipation: 0.01, friction: 1}")
	}
	for _, name := range sortedKeys(s.Materials) {
		m := s.Materials[name]
		p := joinPath("materials", name)
		v.checkName(p, name, "material")
		if m.Stiffness == nil {
			v.add(p+".stiffness", "missing (required)")
		} else {
			v.positive(p+".stiffness", *m.Stiffness)
		}
		if m.Dissipation == nil {
			v.add(p+".dissipation", "missing (required)")
		} else {
			v.nonNegative(p+".dissipation", *m.Dissipation)
		}
		if m.Friction == nil {
			v.add(p+".friction", "missing (required)")
		} else {
			v.nonNegative(p+".friction", *m.Friction)
		}
		if m.RollingFriction != nil {
			v.nonNegative(p+".rolling_friction", *m.RollingFriction)
		}
		if m.SpinFriction != nil {
			v.nonNegative(p+".spin_friction", *m.SpinFriction)
		}
		if m.SlipTime != nil {
			v.nonNegative(p+".slip_time", *m.SlipTime)
		}
		if m.SlipStiffness != nil {
			v.nonNegative(p+".slip_stiffness", *m.SlipStiffness)
		}
		if m.SlipWeight != nil {
			v.nonNegative(p+".slip_weight", *m.SlipWeight)
		}
		if c := m.Condim; c != 0 && c != 1 && c != 3 && c != 4 && c != 6 {
			v.add(p+".condim", "%d: want 1, 3, 4 or 6 (or none)", c)
		}
		if c := m.FrictionCombine; c != "" && c != "harmonic" && c != "max" {
			v.add(p+".friction_combine", "%q: want \"harmonic\" (default) or \"max\"", c)
		}
		if s := m.SlipSolImp; s != nil && (len(s) != 5 || !(s[0] > 0 && s[0] < 1 && s[1] > 0 && s[1] < 1 && s[2] >= 0 && s[3] > 0 && s[3] < 1 && s[4] >= 1)) {
			v.add(p+".slip_solimp", "%v: want 5 numbers dmin, dmax in (0, 1), width ≥ 0, midpoint in (0, 1), power ≥ 1", s)
		}
		if s := m.SlipSolRef; s != nil && (len(s) != 2 || !(s[0] > 0 && s[1] > 0 && !math.IsInf(s[0], 0) && !math.IsInf(s[1], 0) || s[0] <= 0 && s[1] <= 0 && !math.IsInf(s[0], 0) && !math.IsInf(s[1], 0))) {
			v.add(p+".slip_solref", "%v: want 2 finite numbers, time constant and damping ratio > 0 or −stiffness and −damping ≤ 0", s)
		}
	}

	if len(s.Bodies) == 0 {
		v.add("bodies", "no bodies defined; define at least one")
	}
	names := map[string]int{}
	jointNames := map[string]int{}
	for i := range s.Bodies {
		if j := s.Bodies[i].Joint; j != nil && j.Name != "" {
			p := indexPath("bodies", i) + ".joint.name"
			if k, dup := jointNames[j.Name]; dup {
				v.add(p, "%q is already the name of the joint of bodies[%d]; joint names must be unique", j.Name, k)
			} else if strings.ContainsAny(j.Name, ",\"\n\r") {
				v.add(p, "%q: a joint name must not contain commas, quotes or line breaks (it is a column of joints.csv)", j.Name)
			}
			jointNames[j.Name] = i
		}
		b := &s.Bodies[i]
		p := indexPath("bodies", i)
		if v.checkName(p+".name", b.Name, "body") {
			if j, dup := names[b.Name]; dup {
				v.add(p+".name", "%q is already the name of bodies[%d]; body names must be unique", b.Name, j)
			} else {
				names[b.Name] = i
			}
		}
		if _, ok := s.Materials[b.Material]; !ok && (b.Material != "" || b.needsMaterial()) {
			defined := strings.Join(sortedKeys(s.Materials), ", ")
			switch {
			case b.Material == "" && !v.locs.has(p+".material"):
				v.add(p+".material", "missing (required; defined materials: %s)", defined)
			case len(s.Materials) > 0:
				v.add(p+".material", "%q is not a defined material (defined: %s)", b.Material, defined)
			}
		}
		v.body(p, b)
		v.collisions(p, b, s.Materials)
		v.visuals(p, b)
		v.joint(p, i, b, s.Bodies)
	}
	v.oneOf("scheme", s.Scheme, schemeNames...)
	if c := s.Contact; c.Sleep != nil && *c.Sleep && !thetaScheme(s.Scheme) {
		v.add("contact.sleep", "true needs a θ-method scheme, not %q (MuJoCo 2.2.2 has no sleeping)", s.Scheme) // an unknown scheme is reported as such too
	}
	for i := range s.Forces {
		v.force(indexPath("forces", i), &s.Forces[i], s.Bodies)
	}
	v.tendons(s)
	v.actuators(s)
	v.constraints(s)
	v.exclude(s)
	v.keyframes(s)
	for i, inc := range s.Include {
		v.add(indexPath("include", i), "%q is not resolved: a scene that includes models must be loaded with model/load (stiction run does this)", inc.File)
	}
	return errors.Join(v.errs...)
}

// checkName checks a body or material name; it must be usable as a --set
// path segment.
func (v *validator) checkName(path, name, what string) bool {
	switch {
	case strings.TrimSpace(name) == "":
		v.add(path, "%q: a %s name must not be empty", name, what)
	case strings.ContainsAny(name, ".=[]"):
		v.add(path, "%q: a %s name must not contain '.', '=', '[' or ']' (it is a --set path segment)", name, what)
	case what == "body" && strings.ContainsAny(name, ",\"\n\r"):
		v.add(path, "%q: a body name must not contain commas, quotes or line breaks (it is a column of the trajectory output)", name)
	case what == "body" && isDigits(name):
		v.add(path, "%q: a body name must not be all digits (it would read as an index in --set paths)", name)
	default:
		return true
	}
	return false
}

func (v *validator) body(p string, b *Body) {
	if b.Shape == nil {
		weldedToWorld := b.Joint != nil && b.Joint.Type == "weld" && isWorld(b.Joint.Parent)
		if len(b.Collisions) == 0 && len(b.Visuals) == 0 && b.Inertia == nil && !b.Fixed && !weldedToWorld && !b.massless() {
			v.add(p+".shape", "missing (required)")
		}
	} else {
		v.shape(p+".shape", b.Shape)
	}
	v.collisionBits(p, b.Contype, b.Conaffinity)
	if b.COM != nil && b.Inertia == nil {
		v.add(p+".com", "%s given without mass and inertia; the centre of mass otherwise comes from the shapes", fvec(b.COM[:]))
	}
	isHalfspace := b.Shape != nil && (b.Shape.Type == "halfspace" || b.Shape.Type == "heightfield")
	if b.Fixed || (b.Joint != nil && b.Joint.Type == "weld" && isWorld(b.Joint.Parent)) {
		if b.Density != nil {
			v.add(p+".density", "%s given for a fixed body; fixed bodies have no mass properties", fnum(*b.Density))
		}
		if b.Mass != nil {
			v.add(p+".mass", "%s given for a fixed body; fixed bodies have no mass properties", fnum(*b.Mass))
		}
		if b.Inertia != nil {
			v.add(p+".inertia", "given for a fixed body; fixed bodies have no mass properties")
		}
		if b.Velocity != nil {
			v.add(p+".velocity", "given for a fixed body; fixed bodies do not move")
		}
	} else {
		if isHalfspace && b.Joint != nil {
			v.add(p+".shape.type", "%s on a body with a %s joint to %q; a %s must be fixed to the world", b.Shape.Type, b.Joint.Type, b.Joint.Parent, b.Shape.Type)
		} else if isHalfspace {
			v.add(p+".fixed", "false, but a %s body must be fixed (add fixed: true)", b.Shape.Type)
		}
		switch {
		case b.Density != nil && b.Mass != nil:
			v.add(p+".mass", "%s given together with density %s; a free body needs exactly one of density or mass",
				fnum(*b.Mass), fnum(*b.Density))
		case b.Density == nil && b.Mass == nil && !isHalfspace && !b.massless():
			v.add(p, "a free body needs density or mass (or fixed: true)")
		}
		if b.Density != nil && b.Shape == nil && len(b.Collisions) == 0 {
			v.add(p+".density", "%s given for a body without collision shapes; give mass and inertia", fnum(*b.Density))
		}
		if b.Mass != nil && b.Inertia == nil && b.Shape == nil && len(b.Collisions) == 0 {
			v.add(p+".inertia", "missing: a body without collision shapes needs mass and inertia")
		}
		if b.Density != nil {
			v.positive(p+".density", *b.Density)
		}
		if b.Mass != nil {
			v.positive(p+".mass", *b.Mass)
		}
		if b.Inertia != nil {
			if b.Mass == nil {
				v.add(p+".inertia", "given without mass; give inertia only together with mass (with density it comes from the shape)")
			}
			v.inertia(p+".inertia", b.Inertia)
		}
	}
	v.pose(p+".pose", b.Pose)
}

// shapeFields says which of radius, length, size, radii, file, scale each
// shape type takes (file is required for a mesh, scale optional).
var shapeFields = map[string][6]bool{
	"halfspace":   {},
	"sphere":      {true},
	"box":         {false, false, true},
	"capsule":     {true, true},
	"cylinder":    {true, true},
	"ellipsoid":   {false, false, false, true},
	"mesh":        {false, false, false, false, true, true},
	"heightfield": {false, false, true},
}

func (v *validator) shape(p string, sh *Shape) {
	want, ok := shapeFields[sh.Type]
	if !ok {
		if sh.Type == "" && v.locs != nil && !v.locs.has(p+".type") {
			v.add(p+".type", "missing (required; one of %s)", strings.Join(shapeTypes, ", "))
		} else {
			v.add(p+".type", "%q must be one of %s", sh.Type, strings.Join(shapeTypes, ", "))
		}
		return
	}
	takes := func() string {
		var f []string
		for i, n := range []string{"radius", "length", "size", "radii", "file", "scale"} {
			if want[i] {
				f = append(f, n)
			}
		}
		if len(f) == 0 {
			return "no dimensions"
		}
		return strings.Join(f, " and ")
	}
	check := func(i int, name string, given bool, value string, positive func()) {
		switch {
		case want[i] && !given:
			v.add(p+"."+name, "missing (required for a %s)", sh.Type)
		case !want[i] && given:
			v.add(p+"."+name, "%s not allowed for a %s (it takes %s)", value, sh.Type, takes())
		case given:
			positive()
		}
	}
	var r, l float64
	var size Vec
	if sh.Radius != nil {
		r = *sh.Radius
	}
	if sh.Length != nil {
		l = *sh.Length
	}
	if sh.Size != nil {
		size = *sh.Size
	}
	check(0, "radius", sh.Radius != nil, fnum(r), func() { v.positive(p+".radius", r) })
	check(1, "length", sh.Length != nil, fnum(l), func() { v.positive(p+".length", l) })
	check(2, "size", sh.Size != nil, fvec(size[:]), func() {
		for i, x := range size {
			if finite(x) && x <= 0 {
				v.add(p+".size", "%s: every side must be positive (side %d is %s)", fvec(size[:]), i, fnum(x))
				return
			}
		}
	})
	v.shapeExtra(p, sh, want, check)
}

func (v *validator) inertia(p string, in *Inertia) {
	switch {
	case in.Diagonal == nil && in.Matrix == nil:
		v.add(p, "give exactly one of diagonal or matrix")
		return
	case in.Diagonal != nil && in.Matrix != nil:
		v.add(p, "both diagonal and matrix given; give exactly one")
		return
	}
	if in.Diagonal != nil {
		d := *in.Diagonal
		if !allFinite(d[:]) {
			return
		}
		for i, x := range d {
			if x <= 0 {
				v.add(p+".diagonal", "%s: every principal moment must be positive (element %d is %s)", fvec(d[:]), i, fnum(x))
				return
			}
		}
		if !triangle(d) {
			v.add(p+".diagonal", "%s violates the triangle inequality (each moment must be at most the sum of the other two)", fvec(d[:]))
		}
		return
	}
	m := *in.Matrix
	flat := []float64{m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2]}
	if !allFinite(flat) {
		return
	}
	text := fmt.Sprintf("[%s, %s, %s]", fvec(m[0][:]), fvec(m[1][:]), fvec(m[2][:]))
	scale := 0.0
	for _, x := range flat {
		scale = max(scale, math.Abs(x))
	}
	for i := range 3 {
		for j := i + 1; j < 3; j++ {
			if math.Abs(m[i][j]-m[j][i]) > 1e-12*scale {
				v.add(p+".matrix", "%s is not symmetric (element [%d][%d] = %s, [%d][%d] = %s)", text, i, j, fnum(m[i][j]), j, i, fnum(m[j][i]))
				return
			}
		}
	}
	ev := symEigen3(m)
	if ev[0] <= 0 {
		v.add(p+".matrix", "%s is not positive definite (smallest eigenvalue %s)", text, fnum(ev[0]))
		return
	}
	if !triangle(Vec(ev)) {
		v.add(p+".matrix", "%s: its principal moments %s violate the triangle inequality", text, fvec(ev[:]))
	}
}

// triangle reports whether positive principal moments d satisfy
// d_i ≤ d_j + d_k for all permutations (with a relative tolerance for
// rounding: thin rods and plates sit exactly on the boundary).
func triangle(d Vec) bool {
	sum := d[0] + d[1] + d[2]
	for i := range 3 {
		if d[i] > sum-d[i]+1e-12*sum {
			return false
		}
	}
	return true
}

// symEigen3 returns the eigenvalues of the symmetric 3×3 matrix a in
// ascending order (closed form, Smith 1961).
func symEigen3(a [3]Vec) [3]float64 {
	p1 := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
	q := (a[0][0] + a[1][1] + a[2][2]) / 3
	if p1 == 0 {
		e := [3]float64{a[0][0], a[1][1], a[2][2]}
		sortFloat3(&e)
		return e
	}
	p2 := (a[0][0]-q)*(a[0][0]-q) + (a[1][1]-q)*(a[1][1]-q) + (a[2][2]-q)*(a[2][2]-q) + 2*p1
	p := math.Sqrt(p2 / 6)
	var b [3]Vec
	for i := range 3 {
		for j := range 3 {
			b[i][j] = a[i][j] / p
			if i == j {
				b[i][j] = (a[i][j] - q) / p
			}
		}
	}
	det := b[0][0]*(b[1][1]*b[2][2]-b[1][2]*b[2][1]) -
		b[0][1]*(b[1][0]*b[2][2]-b[1][2]*b[2][0]) +
		b[0][2]*(b[1][0]*b[2][1]-b[1][1]*b[2][0])
	r := math.Max(-1, math.Min(1, det/2))
	phi := math.Acos(r) / 3
	e1 := q + 2*p*math.Cos(phi)
	e3 := q + 2*p*math.Cos(phi+2*math.Pi/3)
	e2 := 3*q - e1 - e3
	e := [3]float64{e1, e2, e3}
	sortFloat3(&e)
	return e
}

func sortFloat3(e *[3]float64) {
	if e[0] > e[1] {
		e[0], e[1] = e[1], e[0]
	}
	if e[1] > e[2] {
		e[1], e[2] = e[2], e[1]
	}
	if e[0] > e[1] {
		e[0], e[1] = e[1], e[0]
	}
}

func allFinite(xs []float64) bool {
	for _, x := range xs {
		if !finite(x) {
			return false
		}
	}
	return true
}

func (v *validator) pose(p string, ps Pose) {
	var given []string
	if ps.Quaternion != nil {
		given = append(given, "quaternion")
	}
	if ps.AxisAngle != nil {
		given = append(given, "axis_angle")
	}
	if ps.RPYDeg != nil {
		given = append(given, "rpy_deg")
	}
	if len(given) > 1 {
		v.add(p, "%s given together; give at most one of quaternion, axis_angle, rpy_deg", strings.Join(given, " and "))
	}
	if q := ps.Quaternion; q != nil && allFinite(q[:]) && q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0 {
		v.add(p+".quaternion", "%s must be non-zero", fvec(q[:]))
	}
	if a := ps.AxisAngle; a != nil && allFinite(a.Axis[:]) && a.Axis == (Vec{}) {
		v.add(p+".axis_angle.axis", "%s must be non-zero", fvec(a.Axis[:]))
	}
}

// nonFinite reports every NaN or ±Inf number anywhere in the scene, with its
// field path.
func (v *validator) nonFinite(x reflect.Value, path string) {
	switch x.Kind() {
	case reflect.Pointer:
		if !x.IsNil() {
			v.nonFinite(x.Elem(), path)
		}
	case reflect.Struct:
		t := x.Type()
		for i := range t.NumField() {
			if name := yamlName(t.Field(i)); name != "" {
				v.nonFinite(x.Field(i), joinPath(path, name))
			}
		}
	case reflect.Map:
		keys := make([]string, 0, x.Len())
		for _, k := range x.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		for _, k := range keys {
			e := x.MapIndex(reflect.ValueOf(k))
			v.nonFinite(e, joinPath(path, k))
		}
	case reflect.Slice, reflect.Array:
		for i := range x.Len() {
			v.nonFinite(x.Index(i), indexPath(path, i))
		}
	case reflect.Float64:
		if f := x.Float(); !finite(f) {
			v.add(path, "%s is not a finite number", fnum(f))
		}
	}
}

// thetaScheme reports whether the scheme name is a θ-method preset, not
// MuJoCo's mujoco-euler, mujoco-implicit or rk4 nor the mechanics notes'
// other integrators: the schemes that may put islands to sleep
// (contact.sleep, sim.Config.Validate).
func thetaScheme(name string) bool {
	sc, err := sim.ParseScheme(name)
	return err == nil && sc.Method == sim.ThetaMethod
}
