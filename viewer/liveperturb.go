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
//	f = Λ′ (k (x_target − x_p) − 2√k v_p)      (critically damped, per unit mass)
//	τ = I′ (k θ(R_target R⁻¹) − 2√k ω)          (θ: rotation vector)
//
// with x_p and v_p the world position and velocity of the grabbed point.
// MuJoCo takes Λ′ = m 1, m the mass of the body and of the bodies it
// carries, and I′ = I 1, I the mean principal moment of the body's inertia
// about its centre of mass. Applied explicitly, that diverges where the
// point is lighter than m in some direction: the damping rate per step is
// 2√k δt m/m_eff there, unstable above 2, with m_eff an eigenvalue of the
// operational-space inertia Λ = (J M⁻¹ Jᵀ)⁻¹ at the point (J its 3×n
// Jacobian, M the tree's mass matrix; Khatib 1987): a light body grabbed
// far from its centre of mass (m_eff = m/(1 + m r²/I) across the lever),
// or a thin body twisted about its axis (smallest moment ≪ I). Here Λ′ is
// Λ with its eigenvalues capped at m (and I′ the same for J_ω, capped at I),
// at the state of each evaluation, so that every direction sees k and 2√k
// per unit of its effective mass at most: critically damped where the
// point is light, stable for √k δt < 1 whatever the body (δt < 0.1 s at
// k = 100), and MuJoCo's force where it is not light.
//
// It is a forces.Element (put it in sim.Config.Forces), evaluated at the
// state the step evaluates its forces at, so that it acts in the physics;
// it is explicit (it hands no stiffness or damping matrix to the solver). A
// warmed-up step allocates nothing.
type Perturb struct {
	on, torque bool
	point      spatial.Vec3 // grabbed point, body frame
	target     spatial.Vec3 // world
	rot        spatial.Quat // target orientation (torque mode)
	mass, iner float64      // m and I, MuJoCo's gains per unit k
	gain       spatial.Mat3 // Λ′ or I′ at the last evaluation
	k          float64
	last       spatial.Vec3 // the force (or torque) at the state of the last evaluation
	w          forces.BodyWrench
	jac, minvJ []float64 // 3×n Jacobian and M⁻¹ Jᵀ (n×3) of the body's tree
	mm         []float64 // n×n mass matrix and its Cholesky factor
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
	p.size(m, b)
}

// Twist starts (or moves) a torque perturbation of body b toward the world
// orientation rot.
func (p *Perturb) Twist(m *multibody.Model, b int, rot spatial.Quat) {
	p.on, p.torque = true, true
	p.w.Body, p.rot = b, rot.Normalize()
	p.iner = meanMoment(m.Bodies[b].Inertia)
	p.size(m, b)
}

// size makes the buffers fit body b's tree (outside the step, so that the
// step allocates nothing).
func (p *Perturb) size(m *multibody.Model, b int) {
	n := 0
	if t := m.Bodies[b].Tree; t >= 0 {
		n = m.Trees[t].NV
	}
	if cap(p.mm) < n*n {
		p.mm, p.jac, p.minvJ = make([]float64, n*n), make([]float64, 3*n), make([]float64, 3*n)
	}
}

// Release ends the perturbation.
func (p *Perturb) Release() { p.on, p.last = false, spatial.Vec3{} }

// Active reports whether a perturbation is applied, and to which body.
func (p *Perturb) Active() (body int, on bool) { return p.w.Body, p.on }

// Last returns the force (N, world) or torque (N·m, world) at the state of
// the last evaluation, and whether it is a torque.
func (p *Perturb) Last() (spatial.Vec3, bool) { return p.last, p.torque }

// Gain returns Λ′ (kg) or I′ (kg·m²), world frame, of the last evaluation.
func (p *Perturb) Gain() spatial.Mat3 { return p.gain }

// Target returns the world target point of a force perturbation.
func (p *Perturb) Target() spatial.Vec3 { return p.target }

// Point returns the grabbed body-frame point.
func (p *Perturb) Point() spatial.Vec3 { return p.point }

// Apply adds the perturbation's generalized force at the context's state.
func (p *Perturb) Apply(c *forces.Context, out *forces.Output) {
	if !p.on {
		return
	}
	b := p.w.Body
	x := c.WS.Pose(b)
	w, v := c.WS.Velocity(b)
	d := 2 * math.Sqrt(p.k)
	if p.torque {
		p.gain = p.capped(c, b, spatial.Vec3{}, true, p.iner)
		e := rotationVector(p.rot.Mul(x.R.Conj()))
		p.last = p.gain.MulVec(e.Scale(p.k).Sub(w.Scale(d)))
		p.w.Point, p.w.Force, p.w.Torque = spatial.Vec3{}, spatial.Vec3{}, p.last
	} else {
		xp := x.Apply(p.point)
		p.gain = p.capped(c, b, xp, false, p.mass)
		vp := v.Add(w.Cross(xp.Sub(x.P)))
		p.last = p.gain.MulVec(p.target.Sub(xp).Scale(p.k).Sub(vp.Scale(d)))
		p.w.Point, p.w.Force, p.w.Torque = p.point, p.last, spatial.Vec3{}
	}
	p.w.Apply(c, out)
}

// PotentialEnergy is 0: the perturbation is an external input.
func (p *Perturb) PotentialEnergy(*forces.Context) float64 { return 0 }

// capped returns the operational-space inertia Λ = (J M⁻¹ Jᵀ)⁻¹ at body
// b's material point at world position xp (angular: of its angular
// velocity) with its eigenvalues capped at limit; limit·1 when it cannot be
// computed.
func (p *Perturb) capped(c *forces.Context, b int, xp spatial.Vec3, angular bool, limit float64) spatial.Mat3 {
	iso := spatial.Identity3().Scale(limit)
	ws := c.WS
	var t int
	if angular {
		t = ws.AngularJacobian(b, p.jac)
	} else {
		t = ws.PointJacobian(b, xp, p.jac)
	}
	if t < 0 {
		return iso
	}
	n := c.Model.Trees[t].NV
	if n*n > len(p.mm) {
		return iso
	}
	mm := p.mm[:n*n]
	ws.MassMatrix(t, mm)
	if !cholesky(mm, n) {
		return iso
	}
	// Columns of M⁻¹ Jᵀ, one per row of J, then A = J M⁻¹ Jᵀ = Λ⁻¹ (3×3).
	var a spatial.Mat3
	for r := range 3 {
		col := p.minvJ[r*n : (r+1)*n]
		copy(col, p.jac[r*n:(r+1)*n])
		choleskySolve(mm, n, col)
		for s := range 3 {
			for i := range n {
				a[s][r] += p.jac[s*n+i] * col[i]
			}
		}
	}
	ev, vec := jacobiEig3(a)
	var out spatial.Mat3
	for k := range 3 {
		g := limit
		if ev[k] > 1/limit { // an effective mass 1/λ below the limit
			g = 1 / ev[k]
		}
		for i := range 3 {
			for j := range 3 {
				out[i][j] += g * vec[i][k] * vec[j][k]
			}
		}
	}
	return out
}

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

// cholesky factors the symmetric positive definite n×n matrix a (row-major)
// in place into L Lᵀ (L in the lower triangle) and reports whether it is
// positive definite.
func cholesky(a []float64, n int) bool {
	for j := range n {
		d := a[j*n+j]
		for k := range j {
			d -= a[j*n+k] * a[j*n+k]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := range j {
				s -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = s / d
		}
	}
	return true
}

// choleskySolve solves L Lᵀ x = x in place with the factor of cholesky.
func choleskySolve(l []float64, n int, x []float64) {
	for i := range n {
		s := x[i]
		for k := range i {
			s -= l[i*n+k] * x[k]
		}
		x[i] = s / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < n; k++ {
			s -= l[k*n+i] * x[k]
		}
		x[i] = s / l[i*n+i]
	}
}

// jacobiEig3 returns the eigenvalues of the symmetric 3×3 matrix a and
// its unit eigenvectors (the columns of v), by cyclic Jacobi rotations
// (Golub and Van Loan, Matrix Computations, §8.5).
func jacobiEig3(a spatial.Mat3) (ev [3]float64, v spatial.Mat3) {
	v = spatial.Identity3()
	for range 50 {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		diag := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2]
		if off <= 1e-30*diag {
			break
		}
		for _, pq := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			i, j := pq[0], pq[1]
			if a[i][j] == 0 {
				continue
			}
			theta := (a[j][j] - a[i][i]) / (2 * a[i][j])
			t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
			c := 1 / math.Sqrt(t*t+1)
			s := t * c
			for k := range 3 { // A ← A G
				aki, akj := a[k][i], a[k][j]
				a[k][i], a[k][j] = c*aki-s*akj, s*aki+c*akj
			}
			for k := range 3 { // A ← Gᵀ A
				aik, ajk := a[i][k], a[j][k]
				a[i][k], a[j][k] = c*aik-s*ajk, s*aik+c*ajk
			}
			for k := range 3 {
				vki, vkj := v[k][i], v[k][j]
				v[k][i], v[k][j] = c*vki-s*vkj, s*vki+c*vkj
			}
		}
	}
	return [3]float64{a[0][0], a[1][1], a[2][2]}, v
}
