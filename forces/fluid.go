package forces

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Fluid is MuJoCo's inertia-box fluid model (MuJoCo 2.2.2,
// engine_passive.c: mj_passive calls mj_inertiaBoxFluidModel for every body
// of mass ≥ mjMINVAL = 1e-15 when density or viscosity is positive). Each
// body is replaced by the box with its mass and principal moments
// I_0, I_1, I_2: sides b_k = √(6 max(1e-15, I_{k+1} + I_{k+2} − I_k)/m),
// along the principal axes. With ω and v the body's angular velocity and
// the velocity of its centre of mass relative to the wind, both in the
// principal frame, the force and torque on the centre of mass are
//
//	f_k = −3π d η v_k − ½ ρ b_{k+1} b_{k+2} |v_k| v_k,
//	τ_k = −π d³ η ω_k − ρ b_k (b_{k+1}⁴ + b_{k+2}⁴) |ω_k| ω_k / 64,
//
// d = (b_0 + b_1 + b_2)/3 (Stokes drag on a sphere of diameter d, and the
// quadratic drag of the box's faces), turned to the world and applied as
// τ = J_comᵀ f + J_ωᵀ τ. With Jacobians it adds its exact velocity
// derivative to D (J_comᵀ R diag(−∂f_k/∂v_k) Rᵀ J_com and the same for the
// torque, as MuJoCo 2.2.2's mjd_inertiaBoxFluid, which its implicit
// integrator uses); K = 0. MuJoCo's Euler and RK4 treat it explicitly, and
// so do mujoco-euler and rk4 (they weight D by 0).
type Fluid struct {
	Density   float64 // ρ, kg/m³
	Viscosity float64 // η, Pa·s
	Wind      spatial.Vec3

	bodies []fluidBody
	geoms  []fluidGeom // the ellipsoid model's geoms (fluid_ellipsoid.go)
	jac    []float64   // 6×NV_t scratch of the ellipsoid derivative
	tmp    []float64
}

// fluidBody is one body's box: its principal axes (the columns of Axes, in
// the body frame) and sides.
type fluidBody struct {
	body int
	com  spatial.Vec3 // the box's centre, in the body frame
	axes spatial.Mat3
	box  spatial.Vec3
}

// mjMinVal is MuJoCo's mjMINVAL.
const mjMinVal = 1e-15

// NewFluid returns the fluid model of density rho, viscosity eta and wind
// for the bodies of m that move with a tree and have mass ≥ 1e-15.
func NewFluid(m *multibody.Model, rho, eta float64, wind spatial.Vec3) *Fluid {
	f := &Fluid{Density: rho, Viscosity: eta, Wind: wind}
	for b := range m.Bodies {
		if m.Bodies[b].Tree >= 0 {
			f.SetBox(b, m.Bodies[b].Inertia)
		}
	}
	return f
}

// SetBox makes in (mass, centre of mass and inertia about it, in the body
// frame) the mass properties whose equivalent box feels the fluid on body
// b, instead of the body's own (none on a body with ellipsoid geoms,
// AddEllipsoid): MuJoCo's box of a body whose mass our
// model carries elsewhere (a massless moving body whose welded children's
// mass was moved onto it). A mass below 1e-15 takes the body out.
func (e *Fluid) SetBox(b int, in spatial.SpatialInertia) {
	e.bodies = slices.DeleteFunc(e.bodies, func(fb fluidBody) bool { return fb.body == b })
	if in.Mass < mjMinVal || e.hasEllipsoid(b) {
		return
	}
	I, axes := principal(in.Icom)
	var box spatial.Vec3
	for k := range 3 {
		s := I[(k+1)%3] + I[(k+2)%3] - I[k]
		box[k] = math.Sqrt(math.Max(mjMinVal, s) / in.Mass * 6)
	}
	e.bodies = append(e.bodies, fluidBody{body: b, com: in.Com, axes: axes, box: box})
}

// principal returns the principal moments of the symmetric I and its
// principal axes as the columns of a rotation; a diagonal I keeps the
// frame's own axes.
func principal(I spatial.Mat3) (spatial.Vec3, spatial.Mat3) {
	if I[0][1] == 0 && I[0][2] == 0 && I[1][2] == 0 && I[1][0] == 0 && I[2][0] == 0 && I[2][1] == 0 {
		return spatial.Vec3{I[0][0], I[1][1], I[2][2]}, spatial.Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	}
	ev, V := spatial.EigSym3(I)
	return spatial.Vec3(ev), spatial.Mat3(V)
}

// Apply adds the fluid forces of every body.
func (e *Fluid) Apply(c *Context, out *Output) {
	if !(e.Density > 0 || e.Viscosity > 0) {
		return
	}
	for i := range e.bodies {
		e.applyBody(c, out, &e.bodies[i])
	}
	for i := range e.geoms {
		e.applyGeom(c, out, &e.geoms[i])
	}
}

// applyBody adds one body's force and torque (mj_inertiaBoxFluidModel).
// The velocities and drags are on scalar locals, each component's products
// and sums in the order of the Vec3 form (R = ximat, u_c = v + ω × (c − x)
// − wind, (ω_l, v_l) = Rᵀ(ω, u_c), the drags of boxDrag, then R f and R τ);
// the bits are the same, as TestFluidBodyMatchesVectorForm checks: Go keeps
// a Vec3 (an array) in memory, so the chained form went through the stack.
func (e *Fluid) applyBody(c *Context, out *Output, fb *fluidBody) {
	b := fb.body
	x := c.WS.Pose(b)
	R := x.R.RotMat().Mul(fb.axes) // the principal frame in the world (MuJoCo's ximat)
	com := x.Apply(fb.com)
	w, v := c.WS.Velocity(b)
	rx, ry, rz := com[0]-x.P[0], com[1]-x.P[1], com[2]-x.P[2]
	ux := (v[0] + (w[1]*rz - w[2]*ry)) - e.Wind[0]
	uy := (v[1] + (w[2]*rx - w[0]*rz)) - e.Wind[1]
	uz := (v[2] + (w[0]*ry - w[1]*rx)) - e.Wind[2]
	lw0, lw1, lw2 := mulT(&R, w[0], w[1], w[2])
	lv0, lv1, lv2 := mulT(&R, ux, uy, uz)
	f0, f1, f2, t0, t1, t2 := e.boxDrag(&fb.box, lv0, lv1, lv2, lw0, lw1, lw2)
	f, t := mulR(&R, f0, f1, f2), mulR(&R, t0, t1, t2)
	if out.Jacobians || !c.WS.AddWrench(b, &com, &f, &t, out.F) {
		e.applyBodyJac(c, out, fb, &R, com, f, t, spatial.Vec3{lv0, lv1, lv2}, spatial.Vec3{lw0, lw1, lw2})
	}
}

// applyBodyJac adds body fb's force f at com and torque t (in the world)
// through the Jacobians, and with out.Jacobians their derivatives to D,
// lv and lw the local velocities: for applyBody, when its force is not
// added by Workspace.AddWrench (which gives the same F). It is out of line:
// a step without Jacobians does not run it.
//
//go:noinline
func (e *Fluid) applyBodyJac(c *Context, out *Output, fb *fluidBody, R *spatial.Mat3, com, f, t, lv, lw spatial.Vec3) {
	b, box := fb.body, &fb.box
	out.pointJacobian(c, b, com, out.jac[0])
	out.addJtF(out.jac[0], f)
	if out.Jacobians {
		out.addJtXJ(out.D, out.jac[0], rotDiag(*R, e.dragSlopes(*box, lv, 3*math.Pi*(box[0]+box[1]+box[2])/3, true)), 1)
	}
	out.angularJacobian(c, b, out.jac[0])
	out.addJtF(out.jac[0], t)
	if out.Jacobians {
		d := (box[0] + box[1] + box[2]) / 3
		out.addJtXJ(out.D, out.jac[0], rotDiag(*R, e.dragSlopes(*box, lw, math.Pi*d*d*d, false)), 1)
	}
}

// boxDrag returns the force f and torque τ of the fluid on the equivalent
// box in its principal frame, for the local velocities v (of the centre of
// mass) and ω (MuJoCo 2.2.2's mj_inertiaBoxFluidModel): the Stokes terms
// −3πdμ v and −πd³μ ω, d the mean side, and the quadratic drags of
// quadForce and quadTorque.
func (e *Fluid) boxDrag(box *spatial.Vec3, v0, v1, v2, w0, w1, w2 float64) (f0, f1, f2, t0, t1, t2 float64) {
	if e.Viscosity > 0 {
		d := (box[0] + box[1] + box[2]) / 3
		st, sf := -math.Pi*d*d*d*e.Viscosity, -3*math.Pi*d*e.Viscosity
		t0, t1, t2 = st*w0, st*w1, st*w2
		f0, f1, f2 = sf*v0, sf*v1, sf*v2
	}
	if rho := e.Density; rho > 0 {
		f0 -= quadForce(rho, box[1], box[2], v0)
		t0 -= quadTorque(rho, box[0], box[1], box[2], w0)
		f1 -= quadForce(rho, box[2], box[0], v1)
		t1 -= quadTorque(rho, box[1], box[2], box[0], w1)
		f2 -= quadForce(rho, box[0], box[1], v2)
		t2 -= quadTorque(rho, box[2], box[0], box[1], w2)
	}
	return f0, f1, f2, t0, t1, t2
}

// quadForce is the magnitude ½ρ b₁b₂ |u| u of the quadratic drag force
// along a principal axis whose cross-section is b₁ × b₂.
func quadForce(rho, b1, b2, u float64) float64 { return 0.5 * rho * b1 * b2 * math.Abs(u) * u }

// quadTorque is the magnitude ρ b (b₁⁴ + b₂⁴) |ω| ω / 64 of the quadratic
// drag torque about a principal axis of side b, the other sides b₁, b₂.
func quadTorque(rho, b, b1, b2, w float64) float64 {
	return rho * b * (pow4(b1) + pow4(b2)) * math.Abs(w) * w / 64
}

// mulT returns Rᵀ (x, y, z), spatial.Mat3.MulTVec on scalars.
func mulT(R *spatial.Mat3, x, y, z float64) (float64, float64, float64) {
	return R[0][0]*x + R[1][0]*y + R[2][0]*z,
		R[0][1]*x + R[1][1]*y + R[2][1]*z,
		R[0][2]*x + R[1][2]*y + R[2][2]*z
}

// mulR returns R (x, y, z), spatial.Mat3.MulVec on scalars.
func mulR(R *spatial.Mat3, x, y, z float64) spatial.Vec3 {
	return spatial.Vec3{
		R[0][0]*x + R[0][1]*y + R[0][2]*z,
		R[1][0]*x + R[1][1]*y + R[1][2]*z,
		R[2][0]*x + R[2][1]*y + R[2][2]*z,
	}
}

// dragSlopes returns −∂f_k/∂u_k, the slopes of the drag along the
// principal axes for the local velocity u (linear if force, else angular):
// the Stokes term visc·η plus the quadratic term's derivative 2|u_k| times
// its coefficient (MuJoCo 2.2.2's mjd_inertiaBoxFluid, the exact
// derivative).
func (e *Fluid) dragSlopes(box, u spatial.Vec3, visc float64, force bool) spatial.Vec3 {
	var s spatial.Vec3
	for k := range 3 {
		s[k] = visc * e.Viscosity
		b1, b2 := box[(k+1)%3], box[(k+2)%3]
		if force {
			s[k] += e.Density * b1 * b2 * math.Abs(u[k])
		} else {
			s[k] += e.Density * box[k] * (pow4(b1) + pow4(b2)) * 2 * math.Abs(u[k]) / 64
		}
	}
	return s
}

// rotDiag returns R diag(s) Rᵀ.
func rotDiag(R spatial.Mat3, s spatial.Vec3) spatial.Mat3 {
	var X spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				X[i][j] += R[i][k] * s[k] * R[j][k]
			}
		}
	}
	return X
}

func pow4(x float64) float64 { return (x * x) * (x * x) }

// PotentialEnergy is 0: fluid forces dissipate.
func (e *Fluid) PotentialEnergy(*Context) float64 { return 0 }
