package sensor

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Type is a sensor type.
type Type int

// The sensor types, named as MJCF's elements.
const (
	JointPos Type = iota
	JointVel
	ActuatorFrc
	FramePos
	FrameQuat
	FrameXAxis
	FrameYAxis
	FrameZAxis
	FrameLinVel
	FrameAngVel
	Gyro
	Velocimeter
	Accelerometer
	Touch
	Force
	Torque
	SubtreeCom
	SubtreeLinVel
	SubtreeAngMom
	FrameLinAcc
	FrameAngAcc
	numTypes
)

var typeNames = [numTypes]string{"jointpos", "jointvel", "actuatorfrc", "framepos", "framequat",
	"framexaxis", "frameyaxis", "framezaxis", "framelinvel", "frameangvel", "gyro", "velocimeter",
	"accelerometer", "touch", "force", "torque", "subtreecom", "subtreelinvel", "subtreeangmom", "framelinacc", "frameangacc"}

// String returns the MJCF name of the type.
func (t Type) String() string {
	if t < 0 || t >= numTypes {
		return fmt.Sprintf("sensor.Type(%d)", int(t))
	}
	return typeNames[t]
}

// ParseType returns the type of an MJCF sensor element name.
func ParseType(s string) (Type, bool) {
	for i, n := range typeNames {
		if n == s {
			return Type(i), true
		}
	}
	return 0, false
}

// TypeNames lists the supported types.
func TypeNames() []string { return append([]string(nil), typeNames[:]...) }

// Dim is the number of values of a sensor of type t.
func (t Type) Dim() int {
	switch t {
	case JointPos, JointVel, ActuatorFrc, Touch:
		return 1
	case FrameQuat:
		return 4
	}
	return 3
}

// accStage reports whether a type describes the step (its accelerations
// and forces) rather than the state.
func (t Type) accStage() bool {
	switch t {
	case Accelerometer, Touch, Force, Torque, ActuatorFrc, FrameLinAcc, FrameAngAcc:
		return true
	}
	return false
}

// Zone is the sensing volume of a touch sensor, in its frame: MuJoCo's
// site type and size (sphere: radius; capsule, cylinder: radius and half
// length along z; ellipsoid: radii; box: half sizes).
type Zone struct {
	Shape string // sphere, capsule, cylinder, ellipsoid, box
	Size  spatial.Vec3
}

// Spec describes one sensor.
type Spec struct {
	Name string
	Type Type
	// Body is the body of the joint (jointpos, jointvel) or of the frame
	// (every other type but actuatorfrc); −1 is the world.
	Body int
	// DOF is the joint velocity, within Body's joint, that a jointpos or
	// jointvel sensor reads (a part of a compound joint); jointpos reads
	// the coordinate whose rate it is.
	DOF int
	// Frame is the sensor's frame in Body's frame (a site, a body's
	// inertial frame, a geom).
	Frame spatial.Pose
	// HasRef makes frame sensors relative to the frame RefFrame of body
	// RefBody (−1: the world), as MuJoCo's reftype and refname.
	HasRef   bool
	RefBody  int
	RefFrame spatial.Pose
	// Actuator is the name of the actuator an actuatorfrc sensor reads
	// (its constraint.Report name).
	Actuator string
	// Zone is a touch sensor's volume, in Frame.
	Zone Zone
	// Cutoff > 0 clamps the values (see the package documentation).
	Cutoff float64
}

// Step holds the results of the step that ended at the evaluated state.
type Step struct {
	DT float64
	// Q0 and V0 are the state at the start of the step.
	Q0, V0 []float64
	// Contacts and Impulses are the step's contact pairs and impulses
	// (sim.Simulator.Contacts, Impulses); Reports its constraint reports
	// (sim.Simulator.ConstraintReports).
	Contacts []contact.Pair
	Impulses []float64
	Reports  []constraint.Report
}

// Set evaluates a list of sensors.
type Set struct {
	m      *multibody.Model
	specs  []Spec
	adr    []int // first value of each sensor in the output
	n      int
	names  []string
	ws     *multibody.Workspace // end of step
	ws0    *multibody.Workspace // start of step
	a      []float64            // generalized accelerations of the step
	jac    []float64            // 3 × NV scratch
	subs   [][]int              // force/torque: the bodies of the site body's subtree
	act    []int                // actuatorfrc: report index, −1 unresolved
	hasAcc bool
	hasPV  bool
}

// NewSet checks the specs against m and returns their set.
func NewSet(m *multibody.Model, specs []Spec) (*Set, error) {
	s := &Set{m: m, specs: append([]Spec(nil), specs...), ws: multibody.NewWorkspace(m), ws0: multibody.NewWorkspace(m),
		a: make([]float64, m.NV), jac: make([]float64, 3*max(m.NV, 1))}
	seen := map[string]bool{}
	for i := range s.specs {
		sp := &s.specs[i]
		if sp.Name == "" {
			sp.Name = fmt.Sprintf("sensor%d", i)
		}
		if seen[sp.Name] {
			return nil, fmt.Errorf("sensor %q: the name is used twice", sp.Name)
		}
		seen[sp.Name] = true
		if sp.Type < 0 || sp.Type >= numTypes {
			return nil, fmt.Errorf("sensor %q: unknown type %d", sp.Name, int(sp.Type))
		}
		if sp.Body < -1 || sp.Body >= len(m.Bodies) || (sp.HasRef && (sp.RefBody < -1 || sp.RefBody >= len(m.Bodies))) {
			return nil, fmt.Errorf("sensor %q: body index out of range", sp.Name)
		}
		switch sp.Type {
		case JointPos, JointVel:
			if sp.Body < 0 {
				return nil, fmt.Errorf("sensor %q: %s needs a joint", sp.Name, sp.Type)
			}
			j := &m.Bodies[sp.Body].Joint
			if sp.DOF < 0 || sp.DOF >= j.NV() || j.ScalarCoordinate(sp.DOF) < 0 || m.Bodies[sp.Body].Tree < 0 {
				return nil, fmt.Errorf("sensor %q: %s needs a hinge or slide joint (body %q, dof %d)", sp.Name, sp.Type, m.Bodies[sp.Body].Name, sp.DOF)
			}
		case Touch:
			switch sp.Zone.Shape {
			case "sphere", "capsule", "cylinder", "ellipsoid", "box":
			default:
				return nil, fmt.Errorf("sensor %q: touch zone shape %q: want sphere, capsule, cylinder, ellipsoid or box", sp.Name, sp.Zone.Shape)
			}
		}
		s.adr = append(s.adr, s.n)
		s.n += sp.Type.Dim()
		if sp.Type.Dim() == 1 {
			s.names = append(s.names, sp.Name)
		} else {
			for k := range sp.Type.Dim() {
				s.names = append(s.names, fmt.Sprintf("%s[%d]", sp.Name, k))
			}
		}
		var sub []int
		switch sp.Type {
		case Force, Torque:
			if sp.Body >= 0 {
				sub = subtree(m, sp.Body)
			}
		case SubtreeCom, SubtreeLinVel, SubtreeAngMom:
			if sp.Body >= 0 {
				sub = subtree(m, sp.Body)
			} else {
				for b := range m.Bodies {
					sub = append(sub, b)
				}
			}
		}
		s.subs = append(s.subs, sub)
		s.act = append(s.act, -1)
		if sp.Type.accStage() {
			s.hasAcc = true
		} else {
			s.hasPV = true
		}
	}
	return s, nil
}

// subtree returns b and its descendants.
func subtree(m *multibody.Model, b int) []int {
	out := []int{b}
	for k := b + 1; k < len(m.Bodies); k++ {
		for p := m.Bodies[k].Joint.Parent; p >= 0; p = m.Bodies[p].Joint.Parent {
			if p == b {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// Len is the number of values (the length of Evaluate's out).
func (s *Set) Len() int { return s.n }

// Names are the column names of the values: a sensor's name, or name[i]
// for each of its values.
func (s *Set) Names() []string { return s.names }

// Specs returns the sensors.
func (s *Set) Specs() []Spec { return s.specs }

// Evaluate writes every sensor's values into out (length Len) for the
// state st at the end of a step whose results are step (nil before any
// step: acceleration and force sensors then read NaN). It does not
// allocate.
func (s *Set) Evaluate(st *multibody.State, step *Step, out []float64) {
	if s.hasPV {
		s.ws.Update(st.Q, st.V)
	}
	acc := step != nil && step.DT > 0 && len(step.Q0) == len(st.Q) && len(step.V0) == len(st.V)
	if s.hasAcc && acc {
		s.ws0.Update(step.Q0, step.V0)
		for i := range s.a {
			s.a[i] = (st.V[i] - step.V0[i]) / step.DT
		}
	}
	for i := range s.specs {
		sp := &s.specs[i]
		o := out[s.adr[i] : s.adr[i]+sp.Type.Dim()]
		if sp.Type.accStage() {
			if !acc {
				for k := range o {
					o[k] = math.NaN()
				}
				continue
			}
			s.evalAcc(i, step, o)
		} else {
			s.evalPV(i, st, o)
		}
		if c := sp.Cutoff; c > 0 {
			switch sp.Type {
			case FrameQuat, FrameXAxis, FrameYAxis, FrameZAxis:
			case Touch:
				o[0] = math.Min(o[0], c)
			default:
				for k := range o {
					o[k] = math.Max(-c, math.Min(c, o[k]))
				}
			}
		}
	}
}

// frame returns the world pose of frame x of body b in ws.
func (s *Set) frame(ws *multibody.Workspace, b int, x spatial.Pose) spatial.Pose {
	if b < 0 {
		return x
	}
	return ws.Pose(b).Compose(x)
}

// velocity returns the angular velocity of body b and the velocity of
// its material point at p, world frame.
func (s *Set) velocity(ws *multibody.Workspace, b int, p spatial.Vec3) (w, v spatial.Vec3) {
	if b < 0 || s.m.Bodies[b].Tree < 0 {
		return
	}
	w, vo := ws.Velocity(b)
	return w, vo.Add(w.Cross(p.Sub(ws.Pose(b).P)))
}

func put3(o []float64, v spatial.Vec3) { o[0], o[1], o[2] = v[0], v[1], v[2] }

// evalPV evaluates a position or velocity sensor at the end state.
func (s *Set) evalPV(i int, st *multibody.State, o []float64) {
	sp := &s.specs[i]
	ws := s.ws
	switch sp.Type {
	case JointPos:
		b := &s.m.Bodies[sp.Body]
		o[0] = st.Q[b.QOff+b.Joint.ScalarCoordinate(sp.DOF)]
		return
	case JointVel:
		o[0] = st.V[s.m.Bodies[sp.Body].VOff+sp.DOF]
		return
	}
	x := s.frame(ws, sp.Body, sp.Frame)
	var xr spatial.Pose
	if sp.HasRef {
		xr = s.frame(ws, sp.RefBody, sp.RefFrame)
	}
	switch sp.Type {
	case FramePos:
		p := x.P
		if sp.HasRef {
			p = xr.R.Conj().Rotate(p.Sub(xr.P))
		}
		put3(o, p)
	case FrameQuat:
		q := x.R
		if sp.HasRef {
			q = xr.R.Conj().Mul(q)
		}
		o[0], o[1], o[2], o[3] = q.W, q.X, q.Y, q.Z
	case FrameXAxis, FrameYAxis, FrameZAxis:
		var e spatial.Vec3
		e[sp.Type-FrameXAxis] = 1
		a := x.R.Rotate(e)
		if sp.HasRef {
			a = xr.R.Conj().Rotate(a)
		}
		put3(o, a)
	case FrameLinVel, FrameAngVel:
		w, v := s.velocity(ws, sp.Body, x.P)
		if sp.HasRef {
			// MuJoCo: relative velocity, with the linear part corrected by
			// the reference's rotation, projected into the reference frame.
			wr, vr := s.velocity(ws, sp.RefBody, xr.P)
			w, v = w.Sub(wr), v.Sub(vr).Add(x.P.Sub(xr.P).Cross(wr))
			w, v = xr.R.Conj().Rotate(w), xr.R.Conj().Rotate(v)
		}
		if sp.Type == FrameLinVel {
			put3(o, v)
		} else {
			put3(o, w)
		}
	case SubtreeCom, SubtreeLinVel, SubtreeAngMom:
		s.evalSubtree(sp, s.subs[i], o)
	case Gyro, Velocimeter:
		w, v := s.velocity(ws, sp.Body, x.P)
		if sp.Type == Gyro {
			put3(o, x.R.Conj().Rotate(w))
		} else {
			put3(o, x.R.Conj().Rotate(v))
		}
	}
}

// bodyAcc returns the angular acceleration of body b and the classical
// acceleration of its material point at p, at the step's start state with
// the step's accelerations.
func (s *Set) bodyAcc(b int, p spatial.Vec3) (alpha, acc spatial.Vec3) {
	if b < 0 || s.m.Bodies[b].Tree < 0 {
		return
	}
	ws := s.ws0
	t := s.m.Trees[s.m.Bodies[b].Tree]
	a := s.a[t.VOffset : t.VOffset+t.NV]
	mul := func(j []float64) (r spatial.Vec3) {
		for k := range 3 {
			row := j[k*t.NV : (k+1)*t.NV]
			for c, x := range row {
				r[k] += x * a[c]
			}
		}
		return r
	}
	ws.AngularJacobian(b, s.jac)
	alpha = mul(s.jac)
	ws.PointJacobian(b, p, s.jac)
	acc = mul(s.jac)
	ba, bl := ws.BiasAcceleration(b)
	w, _ := ws.Velocity(b)
	r := p.Sub(ws.Pose(b).P)
	alpha = alpha.Add(ba)
	acc = acc.Add(bl).Add(ba.Cross(r)).Add(w.Cross(w.Cross(r)))
	return alpha, acc
}

// contactForce returns the force of contact k on its body B (world frame).
func contactForce(step *Step, k int) spatial.Vec3 {
	n := step.Contacts[k].Normal
	g := step.Impulses[3*k : 3*k+3]
	t1, t2 := spatial.Orthonormal(n)
	return t1.Scale(g[0]).AddScaled(g[1], t2).AddScaled(g[2], n).Scale(1 / step.DT)
}

// evalAcc evaluates an acceleration or force sensor of the step.
func (s *Set) evalAcc(i int, step *Step, o []float64) {
	sp := &s.specs[i]
	if sp.Type == ActuatorFrc {
		o[0] = s.actuatorForce(i, step)
		return
	}
	x := s.frame(s.ws0, sp.Body, sp.Frame)
	g := s.m.Gravity
	switch sp.Type {
	case Accelerometer:
		_, a := s.bodyAcc(sp.Body, x.P)
		put3(o, x.R.Conj().Rotate(a.Sub(g)))
	case FrameLinAcc, FrameAngAcc:
		alpha, a := s.bodyAcc(sp.Body, x.P)
		if sp.Type == FrameAngAcc {
			put3(o, alpha)
		} else {
			put3(o, a.Sub(g)) // MuJoCo's cacc includes gravity's reaction
		}
	case Touch:
		o[0] = 0
		if sp.Body < 0 {
			return
		}
		for k := range step.Contacts {
			c := &step.Contacts[k]
			if c.BodyA != sp.Body && c.BodyB != sp.Body || 3*k+2 >= len(step.Impulses) {
				continue
			}
			fn := step.Impulses[3*k+2] / step.DT
			if !(fn > 0) {
				continue
			}
			d := c.Normal
			if c.BodyB == sp.Body {
				d = d.Neg()
			}
			if rayHitsZone(x.ApplyInv(c.Point), x.R.Conj().Rotate(d), sp.Zone) {
				o[0] += fn
			}
		}
	case Force, Torque:
		var f, tq spatial.Vec3
		for _, b := range s.subs[i] {
			body := &s.m.Bodies[b]
			if body.Tree < 0 || body.Inertia.Mass == 0 {
				continue
			}
			xb := s.ws0.Pose(b)
			c := xb.Apply(body.Inertia.Com)
			alpha, ac := s.bodyAcc(b, c)
			w, _ := s.ws0.Velocity(b)
			R := xb.R.RotMat()
			I := spatial.RotateInertia(R, body.Inertia.Icom)
			fb := ac.Sub(g).Scale(body.Inertia.Mass)
			f = f.Add(fb)
			tq = tq.Add(I.MulVec(alpha)).Add(w.Cross(I.MulVec(w))).Add(c.Sub(x.P).Cross(fb))
		}
		if len(s.subs[i]) > 0 {
			for k := range step.Contacts {
				if 3*k+2 >= len(step.Impulses) {
					break
				}
				c := &step.Contacts[k]
				inA, inB := s.inSubtree(i, c.BodyA), s.inSubtree(i, c.BodyB)
				if inA == inB {
					continue
				}
				fc := contactForce(step, k) // on B
				if inA {
					fc = fc.Neg()
				}
				f = f.Sub(fc)
				tq = tq.Sub(c.Point.Sub(x.P).Cross(fc))
			}
		}
		if sp.Type == Force {
			put3(o, x.R.Conj().Rotate(f))
		} else {
			put3(o, x.R.Conj().Rotate(tq))
		}
	}
}

func (s *Set) inSubtree(i, b int) bool {
	for _, k := range s.subs[i] {
		if k == b {
			return true
		}
	}
	return false
}

// actuatorForce returns the force of sensor i's actuator in the step's
// reports (NaN if it has none of that name).
func (s *Set) actuatorForce(i int, step *Step) float64 {
	k := s.act[i]
	if k < 0 || k >= len(step.Reports) || step.Reports[k].Type != constraint.TypeActuator || step.Reports[k].Name != s.specs[i].Actuator {
		k = -1
		for j := range step.Reports {
			if step.Reports[j].Type == constraint.TypeActuator && step.Reports[j].Name == s.specs[i].Actuator {
				k = j
				break
			}
		}
		s.act[i] = k
	}
	if k < 0 {
		return math.NaN()
	}
	return step.Reports[k].Impulse[0] / step.DT
}

// rayHitsZone reports whether the ray from p along d (zone frame) meets
// the zone at a distance ≥ 0 (MuJoCo's mju_rayGeom ≥ 0; always when p is
// inside).
func rayHitsZone(p, d spatial.Vec3, z Zone) bool {
	sz := z.Size
	switch z.Shape {
	case "sphere":
		return raySphere(p, d, spatial.Vec3{}, sz[0])
	case "ellipsoid":
		// Scale into the unit sphere.
		var ps, ds spatial.Vec3
		for k := range 3 {
			if !(sz[k] > 0) {
				return false
			}
			ps[k], ds[k] = p[k]/sz[k], d[k]/sz[k]
		}
		return raySphere(ps, ds, spatial.Vec3{}, 1)
	case "box":
		lo, hi := math.Inf(-1), math.Inf(1)
		for k := range 3 {
			if !slab(p[k], d[k], -sz[k], sz[k], &lo, &hi) {
				return false
			}
		}
		return lo <= hi && hi >= 0
	case "cylinder":
		return rayCylinder(p, d, sz[0], sz[1])
	case "capsule":
		return rayCylinder(p, d, sz[0], sz[1]) ||
			raySphere(p, d, spatial.Vec3{0, 0, sz[1]}, sz[0]) || raySphere(p, d, spatial.Vec3{0, 0, -sz[1]}, sz[0])
	}
	return false
}

// slab intersects [lo, hi] with the ray parameters for which p + s d lies
// in [a, b] along one axis; it reports whether the result is non-empty.
func slab(p, d, a, b float64, lo, hi *float64) bool {
	if d == 0 {
		return p >= a && p <= b
	}
	s0, s1 := (a-p)/d, (b-p)/d
	if s0 > s1 {
		s0, s1 = s1, s0
	}
	*lo, *hi = math.Max(*lo, s0), math.Min(*hi, s1)
	return *lo <= *hi
}

// raySphere reports whether the ray meets the ball of radius r about c at
// s ≥ 0.
func raySphere(p, d, c spatial.Vec3, r float64) bool {
	q := p.Sub(c)
	a, b, cc := d.Dot(d), q.Dot(d), q.Dot(q)-r*r
	if cc <= 0 {
		return true
	}
	if a == 0 {
		return false
	}
	disc := b*b - a*cc
	return disc >= 0 && (-b+math.Sqrt(disc))/a >= 0
}

// rayCylinder reports whether the ray meets the solid cylinder of radius
// r and half length h about z at s ≥ 0.
func rayCylinder(p, d spatial.Vec3, r, h float64) bool {
	lo, hi := math.Inf(-1), math.Inf(1)
	if !slab(p[2], d[2], -h, h, &lo, &hi) {
		return false
	}
	a := d[0]*d[0] + d[1]*d[1]
	b := p[0]*d[0] + p[1]*d[1]
	c := p[0]*p[0] + p[1]*p[1] - r*r
	if a == 0 {
		if c > 0 {
			return false
		}
	} else {
		disc := b*b - a*c
		if disc < 0 {
			return false
		}
		sq := math.Sqrt(disc)
		lo, hi = math.Max(lo, (-b-sq)/a), math.Min(hi, (-b+sq)/a)
	}
	return lo <= hi && hi >= 0
}

// evalSubtree evaluates a subtree sensor at the end state: the centre of
// mass of the bodies sub, its velocity, or their angular momentum about it
// (world frame, MuJoCo's subtree_com, subtree_linvel, subtree_angmom).
func (s *Set) evalSubtree(sp *Spec, sub []int, o []float64) {
	ws := s.ws
	var mass float64
	var com, vel spatial.Vec3
	for _, b := range sub {
		body := &s.m.Bodies[b]
		mb := body.Inertia.Mass
		if mb == 0 {
			continue
		}
		c := ws.Pose(b).Apply(body.Inertia.Com)
		_, v := s.velocity(ws, b, c)
		mass += mb
		com, vel = com.AddScaled(mb, c), vel.AddScaled(mb, v)
	}
	if mass > 0 {
		com, vel = com.Scale(1/mass), vel.Scale(1/mass)
	}
	switch sp.Type {
	case SubtreeCom:
		put3(o, com)
		return
	case SubtreeLinVel:
		put3(o, vel)
		return
	}
	var l spatial.Vec3
	for _, b := range sub {
		body := &s.m.Bodies[b]
		mb := body.Inertia.Mass
		if mb == 0 {
			continue
		}
		xb := ws.Pose(b)
		c := xb.Apply(body.Inertia.Com)
		w, v := s.velocity(ws, b, c)
		I := spatial.RotateInertia(xb.R.RotMat(), body.Inertia.Icom)
		l = l.Add(I.MulVec(w)).Add(c.Sub(com).Cross(v.Sub(vel).Scale(mb)))
	}
	put3(o, l)
}
