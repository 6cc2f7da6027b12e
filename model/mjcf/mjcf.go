package mjcf

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// DefaultTimestep is MuJoCo's default option timestep (s).
const DefaultTimestep = 0.002

// maxIncludeDepth bounds nested <include>s.
const maxIncludeDepth = 16

// Read imports the MJCF file at path.
func Read(path string, opts model.Options) (*model.Import, error) {
	data, err := xmlutil.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mjcf: %w", err)
	}
	return Parse(path, data, opts)
}

// Parse imports the MJCF document in data; path names it in messages and
// locates included and mesh files.
func Parse(path string, data []byte, opts model.Options) (*model.Import, error) {
	root, err := xmlutil.Parse(path, data)
	if err != nil {
		return nil, err
	}
	c := &compiler{
		r: &xmlutil.Reader{File: path}, opts: opts, dir: filepath.Dir(path), root: root,
		out: &model.Import{Format: "mjcf"}, classes: map[string]*class{},
		degrees: true, autolimits: true, inertiaFromGeom: "auto", groupRange: [2]int{0, 5}, eulerseq: "xyz",
		meshes: map[string]*meshAsset{}, materials: map[string][4]float64{}, joints: map[string]*jointRef{}, spatialTendons: map[string]bool{}, tendonLength0: map[string]float64{},
		bodies: map[string]int{},
	}
	if root.Name != "mujoco" {
		return nil, c.r.Errorf(root, "", "the root element must be <mujoco>, not <%s>", root.Name)
	}
	root.MarkUsed()
	if err := c.include(root, 0, []string{path}); err != nil {
		return nil, err
	}
	if err := c.expandComposites(); err != nil {
		return nil, err
	}
	if err := c.compile(); err != nil {
		return nil, err
	}
	c.markDefaults()
	s := c.out.Scene
	s.ApplyDefaults()
	if err := s.Validate(path); err != nil {
		return nil, fmt.Errorf("%s: the imported scene is invalid: %w", path, err)
	}
	if len(c.eqs) > 0 || c.softFriction() || softTendonLimits(s) {
		if err := c.equalityCompliance(); err != nil {
			return nil, err
		}
		if err := s.Validate(path); err != nil {
			return nil, fmt.Errorf("%s: the imported scene is invalid: %w", path, err)
		}
	}
	c.out.Warnings = append(c.r.Warnings, xmlutil.Unused(path, root, "not supported (ignored)")...)
	return c.out, nil
}

// compiler carries one MJCF import.
type compiler struct {
	// weights are MuJoCo's translational body_invweight0 by scene body,
	// once weighed (bodyWeights).
	weights []float64
	weighed bool
	r       *xmlutil.Reader
	opts    model.Options
	dir     string
	root    *xmlutil.Element
	out     *model.Import

	classes                 map[string]*class
	degrees, autolimits     bool
	inertiaFromGeom         string // false, true, auto
	groupRange              [2]int
	eulerseq                string
	meshdir                 string
	boundMass, boundInertia float64
	mjMeshes                map[string]*geometry.MuJoCoMesh // MuJoCo's compiled meshes by asset name (mujocoCollisionMesh)
	exactMeshInertia        bool                            // <compiler exactmeshinertia> (MuJoCo 2.2.2: false by default; meshmass.go)
	dt                      float64
	flags                   map[string]string // <option><flag> values other than MuJoCo's defaults (flags.go)
	totalMass               float64           // <compiler settotalmass>; ≤ 0: off
	totalMassElem           *xmlutil.Element
	maxMargin               float64         // largest collision geom margin (geomMargin)
	pairGeoms               map[string]bool // geoms named by <contact><pair> (pair.go)
	geomIndex               map[string]int  // collision geom name → index in pending
	marginWarned            bool

	meshes    map[string]*meshAsset
	hfields   map[string]*hfieldAsset // hfield.go
	materials map[string][4]float64
	meshCache mesh.Cache
	joints    map[string]*jointRef // by MJCF joint name
	// spatialTendons are the names of the <spatial> tendons (their
	// equalities are not simulated).
	spatialTendons map[string]bool
	// tendonLength0 is each fixed tendon's length at qpos0, Σ coef_k ref_k
	// (MuJoCo's tendon_length0, from which tendon equalities measure).
	tendonLength0 map[string]float64
	// implicitActuators: MuJoCo's integrator (implicit, implicitfast)
	// treats actuators' velocity terms implicitly; Euler and RK4 do not.
	implicitActuators bool
	jointList         []*jointRef    // in model order (MuJoCo's qpos order)
	bodies            map[string]int // MJCF body name → scene body index
	bodyMass          []float64      // per scene body
	bodyPose          []spatial.Pose // world pose at qpos0, per scene body
	pending           []pendingGeom  // collision geoms, materials assigned after all masses are known
	fluidGeoms        []fluidGeom    // geoms with fluidshape="ellipsoid" (fluid.go)
	unnamed           int
	ctrl              []string    // per MJCF actuator (MuJoCo's ctrl order): its scene actuator's name, "" if not simulated
	hasAct            []bool      // per MJCF actuator: whether MuJoCo gives it an activation (an entry of act)
	eqs               []pendingEq // equality constraints whose stiffness comes from solref (equality.go)

	skippedSensors int // sensors not imported so far (sensors.go), for MuJoCo's sensor index
}

// meshAsset is a <mesh> of <asset>.
type meshAsset struct {
	path     string
	vertices []scene.Vec // a mesh given by <mesh vertex>: its convex hull
	scale    spatial.Vec3
	e        *xmlutil.Element
	// density is the geom density of the mesh's default class, which
	// MuJoCo 2.2.2 scales the mesh's inertia by (meshmass.go).
	density float64
}

// jointRef is a joint of the model with the scene body that carries it.
type jointRef struct {
	name, typ string
	body      int
	dof       int     // first velocity of the joint within its body's (compound) joint
	springref float64 // springref (rad for a hinge), for tendons' default spring length
	ref       float64 // ref (rad for a hinge): MuJoCo's qpos0, for tendon_length0
	e         *xmlutil.Element
}

// include splices every <include file> under e (recursively) in place:
// the children of the included file's <mujoco> replace the element.
func (c *compiler) include(e *xmlutil.Element, depth int, stack []string) error {
	var out []*xmlutil.Element
	for _, ch := range e.Children {
		if ch.Name != "include" {
			if err := c.include(ch, depth, stack); err != nil {
				return err
			}
			out = append(out, ch)
			continue
		}
		ch.MarkUsed()
		file, err := c.r.Required(ch, "file")
		if err != nil {
			return err
		}
		path := file
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(ch.File), file)
		}
		if c.opts.Access != nil {
			if path, err = c.opts.Access(path); err != nil {
				return c.r.Errorf(ch, "file", "%v", err)
			}
		}
		for _, s := range stack {
			if s == path {
				return c.r.Errorf(ch, "file", "include cycle: %s", strings.Join(append(stack, path), " → "))
			}
		}
		if depth >= maxIncludeDepth {
			return c.r.Errorf(ch, "file", "includes nested deeper than %d", maxIncludeDepth)
		}
		data, err := xmlutil.ReadFile(path)
		if err != nil {
			return c.r.Errorf(ch, "file", "%v", err)
		}
		sub, err := xmlutil.Parse(path, data)
		if err != nil {
			return err
		}
		if sub.Name != "mujoco" {
			return c.r.Errorf(sub, "", "an included file's root element must be <mujoco>, not <%s>", sub.Name)
		}
		sub.MarkUsed()
		sub.Attr("model")
		if err := c.include(sub, depth+1, append(stack, path)); err != nil {
			return err
		}
		for _, s := range sub.Children {
			s.Parent = e
			out = append(out, s)
		}
	}
	e.Children = out
	return nil
}

// compile reads the spliced document in MuJoCo's order: compiler, option,
// defaults, assets, then the world body tree and the sections that refer to
// it.
func (c *compiler) compile() error {
	name, _ := c.root.Attr("model")
	if strings.TrimSpace(name) == "" {
		name = strings.TrimSuffix(filepath.Base(c.r.File), filepath.Ext(c.r.File))
	}
	for _, e := range c.root.All("compiler") {
		if err := c.compilerSettings(e); err != nil {
			return err
		}
	}
	c.dt = DefaultTimestep
	s := model.NewScene(name, c.dt)
	s.Scheme = "mujoco-euler"     // MuJoCo's default integrator, Euler
	s.Contact.Cone = "pyramidal"  // and friction cone (<option cone>)
	s.Contact.Collider = "mujoco" // MuJoCo's convex collider for its mjc_Convex pairs
	delete(s.Materials, model.DefaultMaterial)
	c.out.Scene = s
	tol := DefaultTolerance // MuJoCo's <option tolerance> (optionTolerance)
	s.Solver.Tolerance = &tol
	whole := false // MuJoCo solves each problem whole: islands, each stopped by its own εr, move its trajectories (manipulator 4.9e-13 → 4e-9 from MuJoCo over 1000 steps)
	s.Solver.Islands = &whole
	c.setSolver("Newton", DefaultIterations, DefaultTolerance) // MuJoCo's default solver (optionSolver)
	for _, e := range c.root.All("option") {
		if err := c.option(e); err != nil {
			return err
		}
		if err := c.readFlags(e); err != nil {
			return err
		}
	}
	for _, d := range c.root.All("default") {
		if err := c.readDefaults(d, nil); err != nil {
			return err
		}
	}
	for _, a := range c.root.All("asset") {
		if err := c.assets(a); err != nil {
			return err
		}
	}
	c.pairGeoms, c.geomIndex = c.pairGeomNames(), map[string]int{}
	for _, w := range c.root.All("worldbody") {
		if err := c.worldbody(w); err != nil {
			return err
		}
	}
	c.contactMargin()
	if err := c.setTotalMass(); err != nil {
		return err
	}
	for _, e := range c.root.All("contact") {
		if err := c.contact(e); err != nil {
			return err
		}
	}
	c.weldExcludes()
	if err := c.pairs(); err != nil {
		return err
	}
	if err := c.assignMaterials(); err != nil { // after the exclusions: friction depends on the pairs
		return err
	}
	c.bodyWeights()                          // model.Link.InvWeight0 of every body, also without contacts
	for _, e := range c.root.All("tendon") { // before the equalities and actuators that name tendons
		if err := c.tendons(e); err != nil {
			return err
		}
	}
	for _, e := range c.root.All("equality") {
		if err := c.equality(e); err != nil {
			return err
		}
	}
	for _, e := range c.root.All("actuator") {
		if err := c.actuators(e); err != nil {
			return err
		}
	}
	for _, e := range c.root.All("sensor") {
		if err := c.sensors(e); err != nil {
			return err
		}
	}
	for _, e := range c.root.All("keyframe") {
		if err := c.keyframes(e); err != nil {
			return err
		}
	}
	c.fluidEllipsoids()
	c.applyFlags()
	if len(s.Materials) == 0 {
		s.Materials[model.DefaultMaterial] = model.NewMaterial(model.DefaultStiffness, model.DefaultDissipation, model.DefaultFriction)
	}
	return nil
}

// compilerSettings reads <compiler>.
func (c *compiler) compilerSettings(e *xmlutil.Element) error {
	v := view{e: e}
	a, err := c.keyword(v, "angle", "degree", "degree", "radian")
	if err != nil {
		return err
	}
	if e.Has("angle") {
		c.degrees = a == "degree"
	}
	if e.Has("autolimits") {
		if c.autolimits, err = c.r.Bool(e, "autolimits", true); err != nil {
			return err
		}
	}
	if e.Has("inertiafromgeom") {
		if c.inertiaFromGeom, err = c.r.Keyword(e, "inertiafromgeom", "auto", "false", "true", "auto"); err != nil {
			return err
		}
	}
	if g, ok, err := c.r.Floats(e, "inertiagrouprange", 2); err != nil {
		return err
	} else if ok {
		c.groupRange = [2]int{int(g[0]), int(g[1])}
	}
	if s, ok := e.Attr("eulerseq"); ok {
		s = strings.TrimSpace(s)
		if len(s) != 3 || strings.Trim(strings.ToLower(s), "xyz") != "" {
			return c.r.Errorf(e, "eulerseq", "want three of x, y, z (lower case: moving axes, upper case: fixed axes)")
		}
		c.eulerseq = s
	}
	for _, attr := range []string{"meshdir", "assetdir"} {
		if d, ok := e.Attr(attr); ok && (attr == "meshdir" || c.meshdir == "") {
			c.meshdir = d
		}
	}
	if c.boundMass, err = c.r.Float(e, "boundmass", c.boundMass); err != nil {
		return err
	}
	if c.boundInertia, err = c.r.Float(e, "boundinertia", c.boundInertia); err != nil {
		return err
	}
	if c.exactMeshInertia, err = c.r.Bool(e, "exactmeshinertia", c.exactMeshInertia); err != nil {
		return err
	}
	if e.Has("settotalmass") {
		if c.totalMass, err = c.r.Float(e, "settotalmass", -1); err != nil {
			return err
		}
		c.totalMassElem = e
	}
	if coord, ok := e.Attr("coordinate"); ok && strings.TrimSpace(coord) != "local" {
		return c.r.Errorf(e, "coordinate", "only local coordinates are supported (global was removed from MuJoCo)")
	}
	return nil
}

// option reads <option>: timestep, gravity, the integrator and the
// friction cone.
func (c *compiler) option(e *xmlutil.Element) error {
	s := c.out.Scene
	dt, err := c.r.Float(e, "timestep", c.dt)
	if err != nil {
		return err
	}
	if !(dt > 0) {
		return c.r.Errorf(e, "timestep", "must be positive")
	}
	c.dt, s.DT = dt, dt
	if g, ok, err := c.r.Floats(e, "gravity", 3); err != nil {
		return err
	} else if ok {
		gv := scene.Vec(g)
		s.Gravity = &gv
	}
	if err := c.fluid(e); err != nil {
		return err
	}
	integ, err := c.r.Keyword(e, "integrator", "Euler", "Euler", "implicit", "implicitfast", "RK4")
	if err != nil {
		return err
	}
	s.Scheme = integratorScheme[integ]
	if e.Has("cone") {
		if s.Contact.Cone, err = c.r.Keyword(e, "cone", "pyramidal", "pyramidal", "elliptic"); err != nil {
			return err
		}
	}
	if err := c.optionTolerance(e); err != nil {
		return err
	}
	if err := c.optionImpRatio(e); err != nil {
		return err
	}
	if err := c.optionMPR(e); err != nil {
		return err
	}
	if err := c.optionSolver(e); err != nil {
		return err
	}
	if err := c.optionNoSlip(e); err != nil {
		return err
	}
	c.implicitActuators = integ == "implicit" || integ == "implicitfast"
	if integ == "implicitfast" {
		c.r.Warnf(e, "integrator", "mapped to mujoco-euler, which treats joint damping implicitly (actuators act through the contact solve, implicitly) but not tendon damping or the fluid forces")
	}
	return nil
}

// optionNoSlip reads <option noslip_iterations noslip_tolerance>
// (MuJoCo's defaults 0 and 1e-6) into the scene's contact.noslip_iterations
// and contact.noslip_tolerance: MuJoCo 2.2.2's noslip pass after the main
// solver on MuJoCo's rows of the pyramidal cone (contact.Params.NoSlipIterations;
// package sim). With the elliptic cone a warning says it is not applied.
func (c *compiler) optionNoSlip(e *xmlutil.Element) error {
	s := c.out.Scene
	if e.Has("noslip_iterations") {
		it, err := c.r.Int(e, "noslip_iterations", 0)
		if err != nil {
			return err
		}
		if it < 0 {
			return c.r.Errorf(e, "noslip_iterations", "%d: want an integer ≥ 0", it)
		}
		s.Contact.NoSlipIterations = &it
		if it > 0 && s.Contact.Cone == "elliptic" {
			c.r.Warnf(e, "noslip_iterations", "noslip applies to the pyramidal cone: the elliptic cone's contacts keep the main solver's friction")
		}
	}
	if e.Has("noslip_tolerance") {
		tol, err := c.r.Float(e, "noslip_tolerance", 1e-6)
		if err != nil {
			return err
		}
		if !(tol > 0) || math.IsInf(tol, 0) {
			return c.r.Errorf(e, "noslip_tolerance", "%g: want a finite value > 0", tol)
		}
		s.Contact.NoSlipTolerance = &tol
	}
	return nil
}

// optionMPR reads <option mpr_tolerance mpr_iterations> (MuJoCo's
// defaults 1e-6 and 50) into the scene's contact.mpr_tolerance and
// contact.mpr_iterations: the stopping rule of MuJoCo's convex collider
// (libccd's MPR in mjc_Convex, package geometry/mjccd), which MJCF pairs
// use (contact.Params.MuJoCoCollider).
func (c *compiler) optionMPR(e *xmlutil.Element) error {
	if e.Has("mpr_tolerance") {
		tol, err := c.r.Float(e, "mpr_tolerance", 1e-6)
		if err != nil {
			return err
		}
		if !(tol > 0) || math.IsInf(tol, 0) {
			return c.r.Errorf(e, "mpr_tolerance", "%g: want a finite value > 0", tol)
		}
		c.out.Scene.Contact.MPRTolerance = &tol
	}
	if e.Has("mpr_iterations") {
		it, err := c.r.Int(e, "mpr_iterations", 50)
		if err != nil {
			return err
		}
		if it < 1 {
			return c.r.Errorf(e, "mpr_iterations", "%d: want at least 1", it)
		}
		c.out.Scene.Contact.MPRIterations = &it
	}
	return nil
}

// optionImpRatio reads <option impratio> (MuJoCo's default 1; > 0) into
// the scene's contact.impratio: the pyramid of MuJoCo's soft contacts
// takes it (contact.Params.ImpRatio), as do the elliptic cone's contacts
// (R_1 = R_0/impratio, of every condim: package sim's elliptic.go).
func (c *compiler) optionImpRatio(e *xmlutil.Element) error {
	if !e.Has("impratio") {
		return nil
	}
	r, err := c.r.Float(e, "impratio", 1)
	if err != nil {
		return err
	}
	if !(r > 0) || math.IsInf(r, 0) {
		return c.r.Errorf(e, "impratio", "%g: want a finite value > 0", r)
	}
	if r != 1 {
		c.out.Scene.Contact.ImpRatio = &r
	}
	return nil
}

// DefaultIterations is MuJoCo's default <option iterations>.
const DefaultIterations = 100

// optionSolver reads <option solver iterations tolerance>. MuJoCo's
// default, Newton, runs MuJoCo 2.2.2's Newton on MuJoCo's rows, and CG
// MuJoCo 2.2.2's CG, for at most iterations iterations at tolerance, as
// MuJoCo does (scene contact.mujoco_newton, mujoco_cg, pgs_iterations,
// pgs_tolerance; package sim: sim/mujoco_newton.go, sim/mujoco_cg.go);
// the scene's contact.mujoco_newton: false (`--set
// contact.mujoco_newton=false`) solves them to convergence (SAP) instead.
// PGS runs MuJoCo 2.2.2's PGS for at most iterations sweeps on MuJoCo's
// rows: Stiction then gives MuJoCo's unconverged answer. PGS applies to
// the pyramidal cone's contacts under mujoco-euler and rk4; a warning
// says when the cone is elliptic.
func (c *compiler) optionSolver(e *xmlutil.Element) error {
	ct := c.out.Scene.Contact
	was := "PGS" // the solver an earlier <option> (or the default) set
	switch {
	case ct.MuJoCoNewton != nil && *ct.MuJoCoCG:
		was = "CG"
	case ct.MuJoCoNewton != nil:
		was = "Newton"
	}
	sol, err := c.r.Keyword(e, "solver", was, "Newton", "CG", "PGS")
	if err != nil {
		return err
	}
	it, err := c.r.Int(e, "iterations", *ct.PGSIterations)
	if err != nil {
		return err
	}
	if it < 1 {
		return c.r.Errorf(e, "iterations", "%d: want an integer ≥ 1", it)
	}
	tol, err := c.r.Float(e, "tolerance", *ct.PGSTolerance)
	if err != nil {
		return err
	}
	if sol == "PGS" && ct.Cone == "elliptic" {
		c.r.Warnf(e, "solver", "PGS applies to the pyramidal cone: the elliptic cone's contacts are solved to convergence")
	}
	c.setSolver(sol, it, tol)
	return nil
}

// setSolver sets the scene's solver of MuJoCo's rows: MuJoCo 2.2.2's
// Newton, CG or PGS (sol) for at most it iterations at tolerance tol.
func (c *compiler) setSolver(sol string, it int, tol float64) {
	ct := &c.out.Scene.Contact
	ct.PGSIterations, ct.PGSTolerance = &it, &tol
	ct.MuJoCoNewton, ct.MuJoCoCG = nil, nil
	if sol != "PGS" {
		on, cg := true, sol == "CG"
		ct.MuJoCoNewton, ct.MuJoCoCG = &on, &cg
	}
}

// DefaultTolerance is MuJoCo's default <option tolerance>, the solver's
// relative tolerance.
const DefaultTolerance = 1e-8

// optionTolerance reads <option tolerance> into the scene's SAP tolerance
// εr (SAP eq. 26; scene.SolverParams.Tolerance): MuJoCo's default 1e-8
// rather than the scene default 1e-6, so that the rows MuJoCo solves
// (limits, friction loss, equalities) are solved as precisely as MuJoCo's
// Newton solver does: with εr = 1e-6 dm_control's humanoid_CMU is 6.6e-3
// rad off MuJoCo after 52 steps through its limit rows, with 1e-8 1.8e-10
// (internal/mjref, TestParity). MuJoCo's criterion is on the cost's
// improvement and gradient, SAP's on the gradient relative to the momentum:
// the same number, not the same test. A tolerance of 0 (MuJoCo: run every
// iteration) keeps 1e-8.
func (c *compiler) optionTolerance(e *xmlutil.Element) error {
	tol, err := c.r.Float(e, "tolerance", *c.out.Scene.Solver.Tolerance)
	if err != nil {
		return err
	}
	if tol < 0 || math.IsNaN(tol) || math.IsInf(tol, 0) {
		return c.r.Errorf(e, "tolerance", "%g: want a finite value ≥ 0", tol)
	}
	if tol > 0 {
		c.out.Scene.Solver.Tolerance = &tol
	}
	return nil
}

// fluid reads <option density viscosity wind> into the scene's fluid
// (forces.Fluid, MuJoCo's inertia-box model), set when density or
// viscosity is positive: MuJoCo applies no fluid force otherwise, wind
// included.
func (c *compiler) fluid(e *xmlutil.Element) error {
	rho, err := c.r.Float(e, "density", 0)
	if err != nil {
		return err
	}
	eta, err := c.r.Float(e, "viscosity", 0)
	if err != nil {
		return err
	}
	if rho < 0 || eta < 0 {
		return c.r.Errorf(e, "density", "density %g and viscosity %g must be ≥ 0", rho, eta)
	}
	w, ok, err := c.r.Floats(e, "wind", 3)
	if err != nil {
		return err
	}
	if !(rho > 0 || eta > 0) {
		return nil
	}
	f := &scene.Fluid{Density: rho, Viscosity: eta}
	if ok {
		wv := scene.Vec(w)
		f.Wind = &wv
	}
	c.out.Scene.Fluid = f
	return nil
}

// integratorScheme maps MuJoCo's <option integrator> to a scheme of package
// sim. Euler is MuJoCo 2.2.2's mj_Euler exactly (only joint damping
// implicit; sim.MuJoCoEuler), RK4 its mj_RungeKutta (sim.RK4, which takes
// steps with contacts or acting constraints with mujoco-euler), implicit
// its mj_implicit ((M − h ∂f/∂v) qacc = f with the damping's, the fluid's
// and the Coriolis forces' velocity derivatives, the actuators' forces
// explicit and only their velocity derivative kv in the matrix;
// sim.MuJoCoImplicit). implicitfast (MuJoCo ≥ 3.0,
// without the Coriolis derivative) is closest to mujoco-euler.
var integratorScheme = map[string]string{"Euler": "mujoco-euler", "RK4": "rk4", "implicit": "mujoco-implicit", "implicitfast": "mujoco-euler"}

// assets reads <mesh> and <material> assets; textures and other assets are
// reported unsupported.
func (c *compiler) assets(a *xmlutil.Element) error {
	if err := c.hfieldAssets(a); err != nil {
		return err
	}
	for _, m := range a.All("mesh") {
		v, err := c.view(m, "mesh", "main")
		if err != nil {
			return err
		}
		file := v.str("file", "")
		var verts []scene.Vec
		if vs := m.Has("vertex"); vs || file == "" {
			if !vs {
				return c.r.Errorf(m, "file", "missing (give file or vertex)")
			}
			if file != "" {
				return c.r.Errorf(m, "vertex", "file and vertex given; a mesh takes one of them")
			}
			xs, _, err := c.r.Floats(m, "vertex", -1)
			if err != nil {
				return err
			}
			if len(xs)%3 != 0 || len(xs) < 12 {
				return c.r.Errorf(m, "vertex", "has %d numbers; give at least 4 points, 3 numbers each", len(xs))
			}
			for i := 0; i < len(xs); i += 3 {
				verts = append(verts, scene.Vec{xs[i], xs[i+1], xs[i+2]})
			}
			for _, a := range []string{"face", "normal", "texcoord"} {
				if m.Has(a) {
					c.r.Warnf(m, a, "ignored: a mesh given by vertices is their convex hull")
					m.Attr(a)
				}
			}
		}
		name := assetName(v, file)
		if name == "" {
			return c.r.Errorf(m, "name", "missing (a mesh given by vertices needs a name)")
		}
		if c.meshes[name] != nil {
			return c.r.Errorf(m, "name", "a second mesh named %q", name)
		}
		sc, err := c.floats(v, "scale", 3, []float64{1, 1, 1})
		if err != nil {
			return err
		}
		if sc[0] == 0 || sc[1] == 0 || sc[2] == 0 {
			return c.r.Errorf(m, "scale", "a scale of 0 flattens the mesh")
		}
		gv, err := c.view(m, "geom", "main")
		if err != nil {
			return err
		}
		density, err := c.float(gv, "density", 1000)
		if err != nil {
			return err
		}
		if verts != nil {
			c.meshes[name] = &meshAsset{vertices: verts, scale: spatial.Vec3(sc), e: m, density: density}
			continue
		}
		dir := filepath.Dir(m.File)
		if c.meshdir != "" {
			dir = c.meshdir
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(filepath.Dir(c.r.File), dir)
			}
		}
		path, err := c.opts.ResolveURI(file, dir)
		if err != nil {
			return c.r.Errorf(m, "file", "%v", err)
		}
		pts, err := objPoints(path)
		if err != nil {
			return c.r.Errorf(m, "file", "%v", err)
		}
		if pts != nil { // its convex hull, as a <mesh vertex>
			c.meshes[name] = &meshAsset{vertices: pts, scale: spatial.Vec3(sc), e: m, density: density}
			continue
		}
		c.meshes[name] = &meshAsset{path: path, scale: spatial.Vec3(sc), e: m, density: density}
	}
	for _, m := range a.All("material") {
		v, err := c.view(m, "material", "main")
		if err != nil {
			return err
		}
		name := v.str("name", "")
		if name == "" {
			return c.r.Errorf(m, "name", "missing (required)")
		}
		rgba, err := c.floats(v, "rgba", 4, []float64{1, 1, 1, 1})
		if err != nil {
			return err
		}
		c.materials[name] = [4]float64(rgba)
	}
	return nil
}

// bodyName returns a scene body name for an MJCF body (unnamed bodies are
// numbered), checking it can name a scene body.
func (c *compiler) bodyName(e *xmlutil.Element) (string, error) {
	name, ok := e.Attr("name")
	if !ok || strings.TrimSpace(name) == "" {
		c.unnamed++
		return fmt.Sprintf("body%d", c.unnamed), nil
	}
	if strings.ContainsAny(name, ".=[],\"\n\r") || name == "world" || name == "worldbody" {
		return "", c.r.Errorf(e, "name", "a body name must not contain '.', '=', '[', ']', commas, quotes or line breaks, nor be world or worldbody")
	}
	if _, dup := c.bodies[name]; dup {
		return "", c.r.Errorf(e, "name", "a second body with this name")
	}
	return name, nil
}

// assetName is an asset's name: its own, or (MuJoCo's rule) its file's
// base name without the extension.
func assetName(v view, file string) string {
	if name := v.str("name", ""); name != "" || file == "" {
		return name
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// objPoints returns the points of an OBJ mesh file without faces, which
// MuJoCo 2.2.2 meshes as their convex hull (mjCMesh::Compile runs qhull
// when a mesh has no faces), as a <mesh vertex> list; nil for any other
// file. An OBJ file whose faces have inconsistent orientation is refused,
// as MuJoCo refuses it (mesh.CheckOBJOrientation).
func objPoints(path string) ([]scene.Vec, error) {
	if !strings.EqualFold(filepath.Ext(path), ".obj") {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil // the mesh loader reports a file it cannot read
	}
	if hasOBJFace(data) {
		return nil, mesh.CheckOBJOrientation(path, data)
	}
	pts, err := mesh.ReadOBJPoints(path, data)
	if err != nil || pts == nil {
		return nil, err
	}
	out := make([]scene.Vec, len(pts))
	for i, p := range pts {
		out[i] = scene.Vec(p)
	}
	return out, nil
}

// hasOBJFace reports whether OBJ data has a line starting with "f "
// (a face), without parsing it.
func hasOBJFace(data []byte) bool {
	return bytes.HasPrefix(data, []byte("f ")) || bytes.Contains(data, []byte("\nf ")) ||
		bytes.Contains(data, []byte("\nf\t")) || bytes.HasPrefix(data, []byte("f\t"))
}
