package mjcf

import (
	"github.com/stiction-sim/stiction/contact"
	"math"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// massPart is one geom's contribution to its body's mass properties, in
// the body frame.
type massPart struct {
	m float64
	c spatial.Vec3
	I spatial.Mat3 // about c
}

// pendingGeom is a collision geom whose material is assigned once every
// body's mass is known (solref's stiffness scales with it).
type pendingGeom struct {
	name                 string
	body, index          int
	friction             [3]float64 // sliding, torsional, rolling (MuJoCo's friction)
	condim               int        // 1, 3, 4 or 6
	priority             int        // MuJoCo's geom priority (mj_contactParam)
	contype, conaffinity int
	solref               []float64
	solimp               []float64 // 5 values
	e                    *xmlutil.Element
}

var geomTypes = []string{"plane", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh", "hfield", "sdf"}

// geoms reads the <geom>s of a body into its collisions and visuals and
// returns their mass contributions.
func (c *compiler) geoms(e *xmlutil.Element, idx int, b *scene.Body, cls string, fixed bool) ([]massPart, error) {
	var parts []massPart
	for _, g := range e.All("geom") {
		v, err := c.view(g, "geom", cls)
		if err != nil {
			return nil, err
		}
		typ, err := c.keyword(v, "type", "sphere", geomTypes...)
		if err != nil {
			return nil, err
		}
		if typ == "sdf" {
			return nil, c.r.Errorf(v.src("type"), "type", "%s geoms are not supported", typ)
		}
		sh, x, err := c.geomShape(v, typ)
		if err != nil {
			return nil, err
		}
		if err := c.fluidShape(v, idx, sh, x); err != nil {
			return nil, err
		}
		if typ == "plane" && !fixed {
			return nil, c.r.Errorf(g, "type", "a plane is a half-space: it must be on the world body or a body welded to it")
		}
		if typ == "hfield" && !fixed {
			return nil, c.r.Errorf(g, "type", "a height field is static terrain: it must be on the world body or a body welded to it")
		}
		ct, err := c.float(v, "contype", 1)
		if err != nil {
			return nil, err
		}
		ca, err := c.float(v, "conaffinity", 1)
		if err != nil {
			return nil, err
		}
		if ct < 0 || ca < 0 || ct != math.Trunc(ct) || ca != math.Trunc(ca) || ct > math.MaxUint32 || ca > math.MaxUint32 {
			return nil, c.r.Errorf(g, "contype", "contype and conaffinity must be integers in [0, 2³²)")
		}
		group, err := c.float(v, "group", 0)
		if err != nil {
			return nil, err
		}
		if typ != "plane" && typ != "hfield" && int(group) >= c.groupRange[0] && int(group) <= c.groupRange[1] {
			p, err := c.geomMass(v, sh, x)
			if err != nil {
				return nil, err
			}
			parts = append(parts, p)
		} else {
			for _, a := range []string{"mass", "density"} {
				v.str(a, "")
			}
		}
		name := v.str("name", "")
		if ct == 0 && ca == 0 && !c.pairGeoms[name] {
			if typ != "plane" && typ != "hfield" {
				b.Visuals = append(b.Visuals, scene.Visual{Name: name, Shape: sh, Pose: model.PoseToScene(x), Color: c.geomColor(v)})
			}
			c.ignoreContact(v)
			continue
		}
		if typ == "mesh" {
			sh.MuJoCo = c.mujocoCollisionMesh(v, sh) // for MuJoCo's convex collider
		}
		if err := c.collisionGeom(v, idx, b, sh, x, name, int(ct), int(ca)); err != nil {
			return nil, err
		}
	}
	return parts, nil
}

// collisionGeom adds a collision geom and queues its material.
func (c *compiler) collisionGeom(v view, idx int, b *scene.Body, sh *scene.Shape, x spatial.Pose, name string, ct, ca int) error {
	fr, err := c.floats(v, "friction", -1, []float64{1, 0.005, 0.0001})
	if err != nil {
		return err
	}
	if len(fr) < 1 || len(fr) > 3 || fr[0] < 0 || (len(fr) > 1 && fr[1] < 0) || (len(fr) > 2 && fr[2] < 0) {
		return c.r.Errorf(v.src("friction"), "friction", "want 1 to 3 non-negative numbers (sliding, torsional, rolling)")
	}
	fr3 := [3]float64{1, 0.005, 0.0001} // MuJoCo's defaults for the values not given
	copy(fr3[:], fr)
	sr, err := c.floats(v, "solref", 2, []float64{0.02, 1})
	if err != nil {
		return err
	}
	if (sr[0] > 0) != (sr[1] > 0) || sr[0] == 0 {
		return c.r.Errorf(v.src("solref"), "solref", "want (timeconst > 0, dampratio > 0) or (−stiffness < 0, −damping < 0)")
	}
	cd, err := c.float(v, "condim", 3)
	if err != nil {
		return err
	}
	if cd != 1 && cd != 3 && cd != 4 && cd != 6 {
		return c.r.Errorf(v.src("condim"), "condim", "want 1 (frictionless), 3 (sliding), 4 (and torsional) or 6 (and rolling friction)")
	}
	si, err := c.solimp(v, "solimp")
	if err != nil {
		return err
	}
	prio, err := c.float(v, "priority", 0)
	if err != nil {
		return err
	}
	if prio != math.Trunc(prio) || math.Abs(prio) > 1e9 {
		return c.r.Errorf(v.src("priority"), "priority", "want an integer")
	}
	if v.e.Has("solmix") {
		v.str("solmix", "")
		c.r.Warnf(v.e, "solmix", "not supported (ignored)")
	}
	margin, standoff, err := c.geomMargin(v)
	if err != nil {
		return err
	}
	col := scene.Collision{Name: name, Shape: sh, Pose: model.PoseToScene(x)}
	if standoff > 0 {
		col.Standoff = &standoff
	}
	if margin > 0 {
		col.Margin = &margin // the contacts an adhesion actuator counts (tendon.BodyTransmission)
	}
	if ct != 1 {
		col.Contype = &ct
	}
	if ca != 1 {
		col.Conaffinity = &ca
	}
	if name != "" {
		if _, dup := c.geomIndex[name]; dup {
			return c.r.Errorf(v.e, "name", "a second geom named %q", name)
		}
		c.geomIndex[name] = len(c.pending)
	}
	b.Collisions = append(b.Collisions, col)
	c.pending = append(c.pending, pendingGeom{name: name, body: idx, index: len(b.Collisions) - 1, friction: fr3, condim: int(cd), priority: int(prio), contype: ct, conaffinity: ca, solref: sr, solimp: si, e: v.e})
	v.str("rgba", "")
	v.str("material", "")
	return nil
}

// geomMargin reads margin and gap and returns the margin and the geom's
// standoff, margin − gap (0 when gap ≥ margin). MuJoCo detects a pair within the
// larger of its geoms' margins, and its contact acts when the distance is
// below margin − gap (the pair's larger margin less its larger gap),
// holding the surfaces that far apart. The scene's contact margin (a pair
// closer than it becomes a contact) is raised to the largest geom margin,
// so contacts are detected as in MuJoCo, and each collision shape's
// standoff is its margin − gap, so the force acts where MuJoCo's does: a
// pair takes the larger standoff, which is MuJoCo's max margin − max gap
// when the gaps are equal (all the public suites' gaps are 0). Geoms whose
// gaps differ warn once.
func (c *compiler) geomMargin(v view) (margin, standoff float64, err error) {
	m, err := c.float(v, "margin", 0)
	if err != nil {
		return 0, 0, err
	}
	gap, err := c.float(v, "gap", 0)
	if err != nil {
		return 0, 0, err
	}
	if m < 0 || gap < 0 {
		a := "margin"
		if m >= 0 {
			a = "gap"
		}
		return 0, 0, c.r.Errorf(v.src(a), a, "must be ≥ 0")
	}
	c.maxMargin = math.Max(c.maxMargin, m)
	if gap > 0 && !c.marginWarned {
		c.marginWarned = true
		c.r.Warnf(v.src("gap"), "gap", "margin %g, gap %g: the contact acts at the standoff margin − gap = %g; a pair takes the larger of its geoms' standoffs, where MuJoCo takes the larger margin less the larger gap (warned once)", m, gap, max(m-gap, 0))
	}
	return m, max(m-gap, 0), nil
}

// contactMargin raises the scene's contact margin to the largest geom
// margin (geomMargin).
func (c *compiler) contactMargin() {
	if c.maxMargin > scene.DefaultMargin {
		m := c.maxMargin
		c.out.Scene.Contact.Margin = &m
	}
}

// ignoreContact marks the contact attributes of a visual geom read.
func (c *compiler) ignoreContact(v view) {
	for _, a := range []string{"friction", "solref", "solimp", "condim", "priority", "solmix", "margin", "gap"} {
		v.str(a, "")
	}
}

// geomColor returns a visual geom's colour: rgba, else its material's.
func (c *compiler) geomColor(v view) *[4]float64 {
	if s := v.src("rgba"); s != nil {
		if x, _, err := c.r.Floats(s, "rgba", 4); err == nil {
			col := [4]float64(x)
			return &col
		}
	}
	if m := v.str("material", ""); m != "" {
		if col, ok := c.materials[m]; ok {
			return &col
		}
		c.r.Warnf(v.src("material"), "material", "no material %q in <asset>", m)
	}
	return nil
}

// geomShape reads a geom's shape and its pose in the body frame. fromto
// replaces pos and orientation and, as in MuJoCo 2.2.2, gives the
// half-length along z: a capsule's or cylinder's size is then its radius
// alone, a box's or ellipsoid's size[0] is its x and y half-size (further
// size values are ignored).
func (c *compiler) geomShape(v view, typ string) (*scene.Shape, spatial.Pose, error) {
	x, err := c.pose(v)
	if err != nil {
		return nil, x, err
	}
	if typ == "hfield" {
		sh, err := c.hfieldShape(v)
		return sh, x, err
	}
	size, err := c.floats(v, "size", -1, nil)
	if err != nil {
		return nil, x, err
	}
	var half float64 // half length along z, from fromto
	if v.has("fromto") {
		if typ != "capsule" && typ != "cylinder" && typ != "box" && typ != "ellipsoid" {
			return nil, x, c.r.Errorf(v.src("fromto"), "fromto", "fromto is for capsule, cylinder, box and ellipsoid geoms, not %s", typ)
		}
		ft, err := c.floats(v, "fromto", 6, nil)
		if err != nil {
			return nil, x, err
		}
		a, b := spatial.Vec3{ft[0], ft[1], ft[2]}, spatial.Vec3{ft[3], ft[4], ft[5]}
		d := b.Sub(a)
		if d.Norm() < 1e-12 {
			return nil, x, c.r.Errorf(v.src("fromto"), "fromto", "the two points coincide")
		}
		// MuJoCo turns the geom's z axis from "to" towards "from"
		// (mjuu_z2quat of from − to); the shapes are symmetric, but the
		// frame is MuJoCo's.
		x = spatial.Pose{R: rotateZTo(d.Scale(-1)), P: a.Add(b).Scale(0.5)}
		half = d.Norm() / 2
	}
	need := map[string]int{"sphere": 1, "capsule": 2, "cylinder": 2, "box": 3, "ellipsoid": 3, "plane": 0, "mesh": 0}[typ]
	if half > 0 {
		need = 1 // MuJoCo: size[0] is the radius, or the x and y half-sizes
	}
	if len(size) < need {
		src := v.src("size")
		if src == nil {
			src = v.e
		}
		return nil, x, c.r.Errorf(src, "size", "a %s geom needs %d size values, has %d", typ, need, len(size))
	}
	for i := range need {
		if !(size[i] > 0) {
			return nil, x, c.r.Errorf(v.src("size"), "size", "size values must be positive")
		}
	}
	pos := func(i int) *float64 { return &size[i] }
	switch typ {
	case "sphere":
		return &scene.Shape{Type: "sphere", Radius: pos(0)}, x, nil
	case "capsule", "cylinder":
		if half == 0 {
			half = size[1]
		}
		l := 2 * half
		return &scene.Shape{Type: typ, Radius: pos(0), Length: &l}, x, nil
	case "box", "ellipsoid":
		var h spatial.Vec3
		if half > 0 { // MuJoCo: size[0] for x and y, the half-length for z
			h = spatial.Vec3{size[0], size[0], half}
		} else {
			h = spatial.Vec3{size[0], size[1], size[2]}
		}
		if typ == "box" {
			full := scene.Vec(h.Scale(2))
			return &scene.Shape{Type: "box", Size: &full}, x, nil
		}
		r := scene.Vec(h)
		return &scene.Shape{Type: "ellipsoid", Radii: &r}, x, nil
	case "plane":
		return &scene.Shape{Type: "halfspace"}, x, nil
	}
	name := v.str("mesh", "")
	ma := c.meshes[name]
	if ma == nil {
		src := v.src("mesh")
		if src == nil {
			return nil, x, c.r.Errorf(v.e, "mesh", "missing (a mesh geom needs a mesh)")
		}
		return nil, x, c.r.Errorf(src, "mesh", "no mesh of this name in <asset>")
	}
	sh := &scene.Shape{Type: "mesh", File: ma.path, Vertices: ma.vertices}
	if ma.scale != (spatial.Vec3{1, 1, 1}) {
		sc := scene.Vec(ma.scale)
		sh.Scale = &sc
	}
	return sh, x, nil
}

// geomMass returns a geom's mass properties in the body frame: mass
// (given, or density × volume) at the centroid, and the inertia of the
// uniform solid. Meshes use their own triangles (divergence theorem).
func (c *compiler) geomMass(v view, sh *scene.Shape, x spatial.Pose) (massPart, error) {
	var vol float64
	var com spatial.Vec3
	var unit spatial.Mat3 // per unit mass, about com, geom frame
	if sh.Type == "mesh" {
		shell, err := c.keyword(v, "shellinertia", "false", "false", "true")
		if err != nil {
			return massPart{}, err
		}
		var p mjMeshProps
		if shell == "true" {
			p, err = c.meshShellMass(v, sh)
		} else {
			p, err = c.meshMass(v, sh)
		}
		if err != nil {
			return massPart{}, err
		}
		vol, com, unit = p.Volume, p.COM, p.Unit
	} else {
		g := primitive(sh)
		vol = g.Volume()
		var err error
		if unit, err = g.UnitInertia(); err != nil {
			return massPart{}, c.r.Errorf(v.e, "size", "%v", err)
		}
	}
	var mass float64
	if v.has("mass") {
		m, err := c.float(v, "mass", 0)
		if err != nil {
			return massPart{}, err
		}
		if m < 0 {
			return massPart{}, c.r.Errorf(v.src("mass"), "mass", "must be ≥ 0")
		}
		mass = m
		v.str("density", "")
	} else {
		d, err := c.float(v, "density", 1000)
		if err != nil {
			return massPart{}, err
		}
		if d < 0 {
			return massPart{}, c.r.Errorf(v.src("density"), "density", "must be ≥ 0")
		}
		mass = d * vol
	}
	R := x.R.RotMat()
	return massPart{m: mass, c: x.Apply(com), I: spatial.RotateInertia(R, unit.Scale(mass))}, nil
}

// primitive converts a scene primitive shape for its mass properties.
func primitive(sh *scene.Shape) geometry.Shape {
	f := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	switch sh.Type {
	case "sphere":
		return geometry.NewSphere(f(sh.Radius))
	case "capsule":
		return geometry.NewCapsule(f(sh.Radius), f(sh.Length))
	case "cylinder":
		return geometry.NewCylinder(f(sh.Radius), f(sh.Length))
	case "box":
		return geometry.NewBox(spatial.Vec3(*sh.Size))
	case "ellipsoid":
		return geometry.NewEllipsoid(spatial.Vec3(*sh.Radii))
	}
	return geometry.Shape{Kind: -1}
}

// compose sums mass parts: total mass, centre of mass and the inertia
// about it (parallel-axis theorem).
func compose(parts []massPart) (float64, spatial.Vec3, spatial.Mat3) {
	var m float64
	var first spatial.Vec3
	for _, p := range parts {
		m += p.m
		first = first.AddScaled(p.m, p.c)
	}
	if m == 0 {
		return 0, spatial.Vec3{}, spatial.Mat3{}
	}
	com := first.Scale(1 / m)
	var I spatial.Mat3
	for _, p := range parts {
		d := p.c.Sub(com)
		I = I.Add(p.I).Add(spatial.Identity3().Scale(p.m * d.Dot(d)).Sub(spatial.Outer(d, d).Scale(p.m)))
	}
	return m, com, I
}

// Stiffness of geoms on bodies that do not move: effectively rigid, so the
// pair's stiffness is the moving geom's.
const rigidStiffness = 1e12

// assignMaterials gives every collision geom its contact material from
// solref and solimp (package doc: k = κ/w', κ and τd from contactRate,
// with the pair's parameters from restPair)
// and from friction and condim (frictionCoefficients).
func (c *compiler) assignMaterials() error {
	s := c.out.Scene
	if c.disabled("contact") { // no collision geometry (applyFlags)
		return nil
	}
	g0 := 9.81
	if gv := s.Gravity; gv != nil {
		g0 = math.Sqrt(gv[0]*gv[0] + gv[1]*gv[1] + gv[2]*gv[2])
	}
	coef := c.frictionCoefficients()
	weights := c.bodyWeights()
	for i, g := range c.pending {
		m := c.refMass(g.body)
		// The depth at which κ is taken is the one where the geom's whole
		// tree rests on it: a foot carries the robot, not only itself
		// (the load acceleration is g M_tree/m; g for a lone body).
		var bw float64 // MuJoCo's diagApprox of the geom's side (body_invweight0); 0: the contact's Delassus diagonal
		if weights != nil {
			bw = weights[g.body]
		}
		// MuJoCo's static law f = K d² r/((1 − d) w') with w' its
		// diagApprox w (body_invweight0; 1/m without it) times the
		// pyramid's factor (restPair); at rest K d r = (1 − d)/d · w' f.
		sr, si, factor := c.restPair(i)
		inv := 0.0
		if m > 0 {
			inv = 1 / m
			if bw > 0 {
				inv = bw
			}
			inv *= factor
		}
		load := g0
		if m > 0 {
			load = g0 * c.treeMass(g.body) * inv
		}
		k, tau := contactRate(sr, si, c.solrefDT(), load)
		slip, sk := slipTime(g.solref, g.solimp, coef[i][0], c.solrefDT()) // a pair takes the means (contact.Combine), as MuJoCo's solmix
		if m > 0 {
			k /= inv
		} else {
			k = rigidStiffness
		}
		name := materialFor(s, "mj_", k, tau, [3]float64{slip, sk, bw}, g.solref, g.solimp, coef[i], g.condim, g.priority)
		s.Bodies[g.body].Collisions[g.index].Material = name
	}
	return nil
}

// restPair returns the contact parameters MuJoCo 2.2.2 gives the pair
// that geom i rests on (mj_contactParam, geoms of equal priority): the
// two geoms' solref mixed (standard form: the mean, solmix being 1;
// direct form: the smaller of each), solimp the mean, and the pyramid's
// factor μ²(1 + μ²)/2, μ the larger of the two frictions (at least
// mjMINMU = 1e-5), 1 for a pair of condim 1 (one normal row). MuJoCo's
// pyramidal cone scales a contact's static compliance by that factor: its
// four edge rows n ± μ t_i have R = 2μ²(1 − d)/d · (1 + μ²) w
// (mj_makeImpedance), each carries f_n/4 at rest with R f_n/4 = K d r, so
// f_n = K d² r/((1 − d) w) divided by it: a 1 kg sphere rests 0.367 mm
// deep at μ = 1, 0.040 mm at 0.4 and 1.96 mm at 2 in MuJoCo 2.2.2. Our
// stiffness is per geom, so the pair is one of those geom i may form:
// with a geom welded to the world (the floor it rests on) if any, the one
// with the largest factor (the softest).
func (c *compiler) restPair(i int) (solref, solimp []float64, factor float64) {
	g := c.pending[i]
	pyramid := func(h pendingGeom) float64 {
		if max(g.condim, h.condim) < 3 {
			return 1
		}
		mu := max(g.friction[0], h.friction[0], 1e-5)
		return mu * mu * (1 + mu*mu) / 2
	}
	best, static := -1, false
	for j := range c.pending {
		if j == i || !c.mayTouch(i, j) {
			continue
		}
		welded := c.out.Links[c.pending[j].body].Welded
		switch {
		case best < 0, welded && !static, welded == static && pyramid(c.pending[j]) > pyramid(c.pending[best]):
			best, static = j, welded
		}
	}
	if best < 0 {
		return g.solref, g.solimp, pyramid(g) // no pair: its own parameters
	}
	h := c.pending[best]
	mixed := contact.MixSolRef([2]float64(g.solref), [2]float64(h.solref))
	solref, solimp = mixed[:], make([]float64, 5)
	for k := range solimp {
		solimp[k] = 0.5 * (g.solimp[k] + h.solimp[k])
	}
	return solref, solimp, pyramid(h)
}

// refMass is the mass that scales a geom's stiffness: its body's, or its
// nearest ancestor's with mass when the body is a massless frame; 0 for
// bodies welded to the world.
func (c *compiler) refMass(idx int) float64 {
	s := c.out.Scene
	for idx >= 0 {
		if c.out.Links[idx].Welded {
			return 0
		}
		if c.bodyMass[idx] > 0 {
			return c.bodyMass[idx]
		}
		j := s.Bodies[idx].Joint
		if j == nil || j.Parent == "world" || j.Parent == "" {
			return 0
		}
		idx = c.bodies[j.Parent]
	}
	return 0
}

// treeMass is the mass of the moving tree that body idx belongs to: the
// bodies that share its root (the last ancestor whose parent is the world
// or a body welded to it).
func (c *compiler) treeMass(idx int) float64 {
	root := func(i int) int {
		s := c.out.Scene
		for {
			j := s.Bodies[i].Joint
			if j == nil || j.Parent == "world" || j.Parent == "" {
				return i
			}
			p := c.bodies[j.Parent]
			if c.out.Links[p].Welded {
				return i
			}
			i = p
		}
	}
	r, total := root(idx), 0.0
	for i := range c.out.Scene.Bodies {
		if !c.out.Links[i].Welded && root(i) == r {
			total += c.bodyMass[i]
		}
	}
	return total
}

// meshLabel names a mesh shape in messages: its file, or "given by
// vertices".
func meshLabel(sh *scene.Shape) string {
	if sh.Vertices != nil {
		return "given by vertices"
	}
	return shortName(sh.File)
}
