package viewer

import (
	"math"

	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// PerturbStiffness is k of the perturbation spring, per unit of the
// perturbed mass (or rotational inertia), s⁻²: a natural frequency of
// √k = 10 rad/s, as MuJoCo's default vis.map.stiffness = 100.
const PerturbStiffness = 100.0

// Perturb is the spring–damper that a user applies with the mouse between
// a world point (the target) and a material point of a body, or, in torque
// mode, between a target orientation and the body's orientation, as MuJoCo's
// mjv_applyPerturbForce does:
//
//	f = m (k (x_target − x_p) − 2√k v_p)      (critically damped, per unit mass)
//	τ = I (k θ(R_target R⁻¹) − 2√k ω)          (θ: rotation vector)
//
// with m the mass of the body and of the bodies it carries, I the mean
// principal moment of the body's inertia about its centre of mass, x_p and
// v_p the world position and velocity of the grabbed point. It is a
// forces.Element (put it in sim.Config.Forces), evaluated at the state the
// step evaluates its forces at, so that it acts in the physics. It hands
// over no stiffness or damping matrix: it is explicit, stable while
// 2√k δt < 2 (δt < 0.1 s at k = 100). It allocates nothing.
type Perturb struct {
	on, torque bool
	point      spatial.Vec3 // grabbed point, body frame
	target     spatial.Vec3 // world
	rot        spatial.Quat // target orientation (torque mode)
	mass, iner float64
	k          float64
	last       spatial.Vec3 // the force (or torque) of the last evaluation
	w          forces.BodyWrench
}

// NewPerturb returns an inactive perturbation.
func NewPerturb() *Perturb {
	return &Perturb{k: PerturbStiffness, w: forces.BodyWrench{Profile: forces.Profile{Offset: 1}}}
}

// Grab starts (or moves) a force perturbation of body b of model m at the
// body-frame point p, pulled toward the world point target.
func (p *Perturb) Grab(m *multibody.Model, b int, point, target spatial.Vec3) {
	p.on, p.torque = true, false
	p.w.Body, p.point, p.target = b, point, target
	p.mass = SubtreeMass(m, b)
}

// Twist starts (or moves) a torque perturbation of body b toward the world
// orientation rot.
func (p *Perturb) Twist(m *multibody.Model, b int, rot spatial.Quat) {
	p.on, p.torque = true, true
	p.w.Body, p.rot = b, rot.Normalize()
	p.iner = meanMoment(m.Bodies[b].Inertia)
}

// Release ends the perturbation.
func (p *Perturb) Release() { p.on, p.last = false, spatial.Vec3{} }

// Active reports whether a perturbation is applied, and to which body.
func (p *Perturb) Active() (body int, on bool) { return p.w.Body, p.on }

// Last returns the force (N, world) or torque (N·m, world) of the last
// evaluation, and whether it is a torque.
func (p *Perturb) Last() (spatial.Vec3, bool) { return p.last, p.torque }

// Target returns the world target point of a force perturbation.
func (p *Perturb) Target() spatial.Vec3 { return p.target }

// Point returns the grabbed body-frame point.
func (p *Perturb) Point() spatial.Vec3 { return p.point }

// Apply adds the perturbation's generalized force at the context's state.
func (p *Perturb) Apply(c *forces.Context, out *forces.Output) {
	if !p.on {
		return
	}
	x := c.WS.Pose(p.w.Body)
	w, v := c.WS.Velocity(p.w.Body)
	d := 2 * math.Sqrt(p.k)
	if p.torque {
		e := rotationVector(p.rot.Mul(x.R.Conj()))
		p.last = e.Scale(p.k).Sub(w.Scale(d)).Scale(p.iner)
		p.w.Point, p.w.Force, p.w.Torque = spatial.Vec3{}, spatial.Vec3{}, p.last
	} else {
		xp := x.Apply(p.point)
		vp := v.Add(w.Cross(xp.Sub(x.P)))
		p.last = p.target.Sub(xp).Scale(p.k).Sub(vp.Scale(d)).Scale(p.mass)
		p.w.Point, p.w.Force, p.w.Torque = p.point, p.last, spatial.Vec3{}
	}
	p.w.Apply(c, out)
}

// PotentialEnergy is 0: the perturbation is an external input.
func (p *Perturb) PotentialEnergy(*forces.Context) float64 { return 0 }

// SubtreeMass returns the mass of body b and of every body below it.
func SubtreeMass(m *multibody.Model, b int) float64 {
	total := 0.0
	for c := range m.Bodies {
		for a := c; a >= 0; a = m.Bodies[a].Joint.Parent {
			if a == b {
				total += m.Bodies[c].Inertia.Mass
				break
			}
		}
	}
	return total
}

// meanMoment is the mean of the diagonal of the inertia about the centre of
// mass (trace/3, the mean principal moment).
func meanMoment(si spatial.SpatialInertia) float64 {
	return (si.Icom[0][0] + si.Icom[1][1] + si.Icom[2][2]) / 3
}

// rotationVector returns θ n of the unit quaternion q = (cos θ/2, n sin θ/2),
// taking the shorter way (θ ≤ π).
func rotationVector(q spatial.Quat) spatial.Vec3 {
	if q.W < 0 {
		q = q.Scale(-1)
	}
	s := q.Vec().Norm()
	if s < 1e-12 {
		return q.Vec().Scale(2)
	}
	return q.Vec().Scale(2 * math.Atan2(s, q.W) / s)
}
