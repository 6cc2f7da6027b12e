package forces

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// MuJoCo 2.2.2's ellipsoid fluid model (engine_core_smooth.c:
// mj_ellipsoidFluidModel, mj_addedMassForces, mj_viscousForces; the
// virtual mass and inertia of user_objects.cc, mjCGeom::SetFluidCoefs;
// the velocity derivative of engine_derivative.c, mjd_ellipsoidFluid).
// A geom with fluidshape="ellipsoid" feels, as the ellipsoid of its
// semi-axes s (sphere r r r, capsule r r h+r, cylinder r r h, box and
// ellipsoid their sizes) in its own frame, with ω and v its angular
// velocity and the velocity of its origin relative to the wind, both in
// the geom frame, and ρ, η the fluid's density and viscosity:
//
//   - added mass: τ += (ρ m_v∘v) × v + (ρ I_v∘ω) × ω, f += (ρ m_v∘v) × ω,
//     m_v and I_v from the potential-flow coefficients κ_i of the
//     ellipsoid (a 15-point Gauss–Kronrod quadrature, as MuJoCo's);
//   - Magnus lift f += c_M ρ V ω × v (V = 4π s0 s1 s2/3);
//   - Kutta lift f += c_K ρ cos α A_proj ((n × v) × v), n = (s1²s2² v0,
//     s2²s0² v1, s0²s1² v2), A_proj the ellipsoid's area projected along v;
//   - drag f −= (3π D η + ρ |v| (A_proj c_b + c_s (A_max − A_proj))) v,
//     τ −= (π D³ η + ρ |m|) ω, D = 2(s0+s1+s2)/3, m_i = ω_i (c_a I_i +
//     c_s (I_max − I_i)) with I_i = 8π/15 s_i max(s_j, s_k)⁴;
//
// with fluidcoef (c_b, c_s, c_a, c_K, c_M), default 0.5 0.25 1.5 1 1. The
// force and torque act at the geom's origin. Its velocity derivative is
// MuJoCo's (which its implicit integrator uses). It is neither symmetric
// nor definite, so −∂f/∂v goes to Output.N, not D: mujoco-implicit takes
// it into its LU solve as MuJoCo's mj_implicit does, and the other
// schemes treat the ellipsoid model explicitly.

// EllipsoidCoefs are a geom's fluidcoef: blunt drag, slender drag,
// angular drag, Kutta lift and Magnus lift coefficients.
type EllipsoidCoefs [5]float64

// DefaultEllipsoidCoefs are MuJoCo's fluidcoef defaults.
var DefaultEllipsoidCoefs = EllipsoidCoefs{0.5, 0.25, 1.5, 1.0, 1.0}

// fluidGeom is one geom under the ellipsoid model.
type fluidGeom struct {
	body     int
	pose     spatial.Pose // the geom frame in the body frame
	semi     spatial.Vec3
	coef     EllipsoidCoefs
	vmass    spatial.Vec3 // virtual mass per unit density
	vinertia spatial.Vec3 // virtual moments of inertia per unit density
}

// AddEllipsoid makes the geom at pose (in body b's frame) with semi-axes
// semi feel the fluid as MuJoCo's ellipsoid model; body b then no longer
// feels its inertia box's forces (MuJoCo: any geom of a body with the
// ellipsoid model disables the box model for the body).
func (e *Fluid) AddEllipsoid(m *multibody.Model, b int, pose spatial.Pose, semi spatial.Vec3, coef EllipsoidCoefs) {
	e.SetBox(b, spatial.SpatialInertia{})
	vm, vi := virtualInertia(semi)
	e.geoms = append(e.geoms, fluidGeom{body: b, pose: pose, semi: semi, coef: coef, vmass: vm, vinertia: vi})
	n := 0
	for _, t := range m.Trees {
		n = max(n, t.NV)
	}
	if len(e.jac) < 6*n {
		e.jac = make([]float64, 6*n)
		e.tmp = make([]float64, 6*n)
	}
}

// hasEllipsoid reports whether body b has a geom under the ellipsoid model.
func (e *Fluid) hasEllipsoid(b int) bool {
	for i := range e.geoms {
		if e.geoms[i].body == b {
			return true
		}
	}
	return false
}

// Kronrod nodes of GetAddedMassKappa: l = x³/(1−x)² at the 15 K15 points,
// dl/dx there, and the weights (user_objects.cc).
var (
	kronrodW = [15]float64{0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236,
		0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529,
		0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766}
	kronrodL = [15]float64{7.865151709349917e-08, 1.7347976913907274e-05, 0.0003548008144506193,
		0.002846636252924549, 0.014094260903596077, 0.053063261727396636,
		0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642,
		11.644841677041734, 39.53187807410903, 177.5711362220801,
		1429.4772912937397, 54087.416549217705}
	kronrodD = [15]float64{5.538677720489877e-05, 0.002080868285293228, 0.016514126520723166,
		0.07261900344370877, 0.23985243401862602, 0.6868318249020725,
		1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009,
		156.58546376397112, 747.9826085305024, 5827.4042950027115,
		116754.0197944512, 25482945.327264845}
)

// addedMassKappa is κ_x = dx dy dz ∫₀^∞ dl / √((dx²+l)³ (dy²+l)(dz²+l)),
// the ellipsoid's potential-flow coefficient along x, by MuJoCo's
// quadrature (GetAddedMassKappa).
func addedMassKappa(dx, dy, dz float64) float64 {
	ix, iy, iz := 1/(dx*dx), 1/(dy*dy), 1/(dz*dz)
	scale := math.Pow(dx*dx*dx*dy*dz, 0.4)
	var k float64
	for i := range 15 {
		l := scale * kronrodL[i]
		den := (1 + l*ix) * math.Sqrt((1+l*ix)*(1+l*iy)*(1+l*iz))
		k += scale * kronrodD[i] / den * kronrodW[i]
	}
	return k * ix
}

// virtualInertia returns the ellipsoid's virtual mass and moments of
// inertia per unit fluid density (SetFluidCoefs).
func virtualInertia(s spatial.Vec3) (spatial.Vec3, spatial.Vec3) {
	dx, dy, dz := s[0], s[1], s[2]
	vol := 4.0 / 3.0 * math.Pi * dx * dy * dz
	kx, ky, kz := addedMassKappa(dx, dy, dz), addedMassKappa(dy, dz, dx), addedMassKappa(dz, dx, dy)
	fac := func(a, b, ka, kb float64) float64 { // a, b the other two semi-axes
		return sq(a*a-b*b) * math.Abs(kb-ka) / math.Max(mjMinVal, math.Abs(2*(a*a-b*b)+(a*a+b*b)*(ka-kb)))
	}
	vm := spatial.Vec3{vol * kx / math.Max(mjMinVal, 2-kx), vol * ky / math.Max(mjMinVal, 2-ky), vol * kz / math.Max(mjMinVal, 2-kz)}
	vi := spatial.Vec3{vol * fac(dy, dz, ky, kz) / 5, vol * fac(dz, dx, kz, kx) / 5, vol * fac(dx, dy, kx, ky) / 5}
	return vm, vi
}

func sq(x float64) float64 { return x * x }

// geomVelocity returns the geom's world frame and its local velocity
// (ω, v − wind in the geom frame: MuJoCo's lvel).
func (e *Fluid) geomVelocity(c *Context, g *fluidGeom) (spatial.Pose, spatial.Mat3, [6]float64) {
	xb := c.WS.Pose(g.body)
	x := xb.Compose(g.pose)
	R := x.R.RotMat()
	w, v := c.WS.Velocity(g.body)
	vp := v.Add(w.Cross(x.P.Sub(xb.P))).Sub(e.Wind)
	lw, lv := R.MulTVec(w), R.MulTVec(vp)
	return x, R, [6]float64{lw[0], lw[1], lw[2], lv[0], lv[1], lv[2]}
}

// applyGeom adds one geom's force and torque, and with Jacobians its
// velocity derivative.
func (e *Fluid) applyGeom(c *Context, out *Output, g *fluidGeom) {
	x, R, lvel := e.geomVelocity(c, g)
	var lfrc [6]float64
	e.addedMassForces(&lvel, g, &lfrc)
	e.viscousForces(&lvel, g, &lfrc)
	out.addWrench(c, g.body, x.P, R.MulVec(spatial.Vec3{lfrc[3], lfrc[4], lfrc[5]}), R.MulVec(spatial.Vec3{lfrc[0], lfrc[1], lfrc[2]}))
	if out.Jacobians {
		e.addDerivative(c, out, g, x.P, R, &lvel)
	}
}

// addedMassForces is mj_addedMassForces without the acceleration terms.
func (e *Fluid) addedMassForces(lv *[6]float64, g *fluidGeom, f *[6]float64) {
	rho := e.Density
	ang := spatial.Vec3{lv[0], lv[1], lv[2]}
	lin := spatial.Vec3{lv[3], lv[4], lv[5]}
	linMom := spatial.Vec3{rho * g.vmass[0] * lin[0], rho * g.vmass[1] * lin[1], rho * g.vmass[2] * lin[2]}
	angMom := spatial.Vec3{rho * g.vinertia[0] * ang[0], rho * g.vinertia[1] * ang[1], rho * g.vinertia[2] * ang[2]}
	fo := linMom.Cross(ang)
	t1 := linMom.Cross(lin)
	t2 := angMom.Cross(ang)
	for i := range 3 {
		f[i] += t1[i]
	}
	for i := range 3 {
		f[i] += t2[i]
	}
	for i := range 3 {
		f[3+i] += fo[i]
	}
}

// ellipsoidMaxMoment is 8π/15 s_d max(s_{d+1}, s_{d+2})⁴.
func ellipsoidMaxMoment(s spatial.Vec3, d int) float64 {
	return 8.0 / 15.0 * math.Pi * s[d] * pow4(math.Max(s[(d+1)%3], s[(d+2)%3]))
}

// axesOrder returns the largest, middle and smallest semi-axes.
func axesOrder(s spatial.Vec3) (dmax, dmid, dmin float64) {
	dmax = math.Max(math.Max(s[0], s[1]), s[2])
	dmin = math.Min(math.Min(s[0], s[1]), s[2])
	return dmax, s[0] + s[1] + s[2] - dmax - dmin, dmin
}

// viscousForces is mj_viscousForces: Magnus and Kutta lift, linear and
// quadratic drag.
func (e *Fluid) viscousForces(lv *[6]float64, g *fluidGeom, f *[6]float64) {
	rho, eta, s := e.Density, e.Viscosity, g.semi
	cb, cs, ca, ck, cm := g.coef[0], g.coef[1], g.coef[2], g.coef[3], g.coef[4]
	lin := spatial.Vec3{lv[3], lv[4], lv[5]}
	ang := spatial.Vec3{lv[0], lv[1], lv[2]}
	vol := 4.0 / 3.0 * math.Pi * s[0] * s[1] * s[2]
	dmax, dmid, _ := axesOrder(s)
	aMax := math.Pi * dmax * dmid
	magnus := ang.Cross(lin)
	for i := range 3 {
		magnus[i] *= cm * rho * vol
	}
	projDenom := pow4(s[1]*s[2])*sq(lin[0]) + pow4(s[2]*s[0])*sq(lin[1]) + pow4(s[0]*s[1])*sq(lin[2])
	projNum := sq(s[1]*s[2]*lin[0]) + sq(s[2]*s[0]*lin[1]) + sq(s[0]*s[1]*lin[2])
	aProj := math.Pi * math.Sqrt(projDenom/math.Max(mjMinVal, projNum))
	norm := spatial.Vec3{sq(s[1]*s[2]) * lin[0], sq(s[2]*s[0]) * lin[1], sq(s[0]*s[1]) * lin[2]}
	speed := lin.Norm()
	cosAlpha := projNum / math.Max(mjMinVal, speed*projDenom)
	circ := norm.Cross(lin)
	for i := range 3 {
		circ[i] *= ck * rho * cosAlpha * aProj
	}
	kutta := circ.Cross(lin)
	eqD := 2.0 / 3.0 * (s[0] + s[1] + s[2])
	linVisc := 3.0 * math.Pi * eqD
	angVisc := math.Pi * eqD * eqD * eqD
	iMax := 8.0 / 15.0 * math.Pi * dmid * pow4(dmax)
	var momVisc spatial.Vec3
	for i := range 3 {
		ii := ellipsoidMaxMoment(s, i)
		momVisc[i] = ang[i] * (ca*ii + cs*(iMax-ii))
	}
	dragLin := eta*linVisc + rho*speed*(aProj*cb+cs*(aMax-aProj))
	dragAng := eta*angVisc + rho*momVisc.Norm()
	for i := range 3 {
		f[i] -= dragAng * ang[i]
	}
	for i := range 3 {
		f[3+i] += magnus[i] + kutta[i] - dragLin*lin[i]
	}
}

// The derivative, ported from engine_derivative.c: B (6×6, row-major) is
// ∂lfrc/∂lvel with lfrc = (torque, force) and lvel = (ω, v) in the geom
// frame; the generalized derivative is J_locᵀ B J_loc, J_loc the geom's
// (rotational, translational) Jacobian in the geom frame.

// crossDerivs returns ∂(a×b)/∂a and ∂(a×b)/∂b, row-major (mjd_cross).
func crossDerivs(a, b spatial.Vec3) (da, db [9]float64) {
	da[1], da[2], da[3], da[5], da[6], da[7] = b[2], -b[1], -b[2], b[0], b[1], -b[0]
	db[1], db[2], db[3], db[5], db[6], db[7] = -a[2], a[1], a[2], -a[0], -a[1], a[0]
	return da, db
}

// addQuadrant adds the 3×3 D to the block of B at block row rq and block
// column cq (MuJoCo's addToQuadrant(B, D, rq, cq)).
func addQuadrant(B *[36]float64, D *[9]float64, rq, cq int) {
	r, c := 3*rq, 3*cq
	for i := range 3 {
		for j := range 3 {
			B[6*(r+i)+c+j] += D[3*i+j]
		}
	}
}

// ellipsoidB returns MuJoCo's B for one geom (mjd_ellipsoidFluid).
func (e *Fluid) ellipsoidB(g *fluidGeom, lv *[6]float64) [36]float64 {
	var B [36]float64
	var D [9]float64
	e.magnusB(&B, lv, g)
	e.kuttaD(&D, lv, g)
	addQuadrant(&B, &D, 1, 1)
	e.dragD(&D, lv, g)
	addQuadrant(&B, &D, 1, 1)
	e.torqueD(&D, lv, g)
	addQuadrant(&B, &D, 0, 0)
	e.addedMassB(&B, lv, g)
	return B
}

// addedMassB is mjd_addedMassForces.
func (e *Fluid) addedMassB(B *[36]float64, lv *[6]float64, g *fluidGeom) {
	rho := e.Density
	ang := spatial.Vec3{lv[0], lv[1], lv[2]}
	lin := spatial.Vec3{lv[3], lv[4], lv[5]}
	linMom := spatial.Vec3{rho * g.vmass[0] * lin[0], rho * g.vmass[1] * lin[1], rho * g.vmass[2] * lin[2]}
	angMom := spatial.Vec3{rho * g.vinertia[0] * ang[0], rho * g.vinertia[1] * ang[1], rho * g.vinertia[2] * ang[2]}
	da, db := crossDerivs(angMom, ang)
	addQuadrant(B, &db, 0, 0)
	for i := range 9 {
		da[i] *= rho * g.vinertia[i%3]
	}
	addQuadrant(B, &da, 0, 0)
	da, db = crossDerivs(linMom, lin)
	addQuadrant(B, &db, 0, 1)
	for i := range 9 {
		da[i] *= rho * g.vmass[i%3]
	}
	addQuadrant(B, &da, 0, 1)
	da, db = crossDerivs(linMom, ang)
	addQuadrant(B, &db, 1, 0)
	for i := range 9 {
		da[i] *= rho * g.vmass[i%3]
	}
	addQuadrant(B, &da, 1, 1)
}

// torqueD is mjd_viscous_torque.
func (e *Fluid) torqueD(D *[9]float64, lv *[6]float64, g *fluidGeom) {
	s, cs, ca := g.semi, g.coef[1], g.coef[2]
	dmax, dmid, _ := axesOrder(s)
	eqD := 2.0 / 3.0 * (s[0] + s[1] + s[2])
	angVisc := math.Pi * eqD * eqD * eqD
	iMax := 8.0 / 15.0 * math.Pi * dmid * (dmax * dmax) * (dmax * dmax)
	w := [3]float64{lv[0], lv[1], lv[2]}
	var coef, mom, momSq [3]float64
	for i := range 3 {
		ii := ellipsoidMaxMoment(s, i)
		coef[i] = ca*ii + cs*(iMax-ii)
		mom[i] = w[i] * coef[i]
	}
	dens := e.Density / math.Max(mjMinVal, math.Sqrt(mom[0]*mom[0]+mom[1]*mom[1]+mom[2]*mom[2]))
	for i := range 3 {
		momSq[i] = -dens * w[i] * coef[i] * coef[i]
	}
	lin := e.Viscosity * angVisc
	*D = [9]float64{}
	D[0] = w[0]*momSq[0] + w[1]*momSq[1] + w[2]*momSq[2] - lin
	D[4], D[8] = D[0], D[0]
	for r := range 3 {
		for c := range 3 {
			D[3*r+c] += momSq[c] * w[r]
		}
	}
}

// dragD is mjd_viscous_drag.
func (e *Fluid) dragD(D *[9]float64, lv *[6]float64, g *fluidGeom) {
	s, cb, cs := g.semi, g.coef[0], g.coef[1]
	dmax, dmid, _ := axesOrder(s)
	eqD := 2.0 / 3.0 * (s[0] + s[1] + s[2])
	aMax := math.Pi * dmax * dmid
	a, b, c := sq(s[1]*s[2]), sq(s[2]*s[0]), sq(s[0]*s[1])
	aa, bb, cc := a*a, b*b, c*c
	x, y, z := lv[3], lv[4], lv[5]
	xx, yy, zz, xy, yz, xz := x*x, y*y, z*z, x*y, y*z, x*z
	projDenom := aa*xx + bb*yy + cc*zz
	projNum := a*xx + b*yy + c*zz
	dA := math.Pi / math.Max(mjMinVal, math.Sqrt(projNum*projNum*projNum*projDenom))
	aProj := math.Pi * math.Sqrt(projDenom/math.Max(mjMinVal, projNum))
	norm := math.Sqrt(xx + yy + zz)
	invNorm := 1.0 / math.Max(mjMinVal, norm)
	lin := e.Viscosity * 3.0 * math.Pi * eqD
	quad := e.Density * (aProj*cb + cs*(aMax-aProj))
	ac := e.Density * norm * (cb - cs)
	dAdv := [3]float64{
		ac * dA * a * x * (b*yy*(a-b) + c*zz*(a-c)),
		ac * dA * b * y * (a*xx*(b-a) + c*zz*(b-c)),
		ac * dA * c * z * (a*xx*(c-a) + b*yy*(c-b)),
	}
	*D = [9]float64{xx, xy, xz, xy, yy, yz, xz, yz, zz}
	inner := xx + yy + zz
	D[0] += inner
	D[4] += inner
	D[8] += inner
	for i := range 9 {
		D[i] *= -quad * invNorm
	}
	v := [3]float64{x, y, z}
	for r := range 3 {
		for k := range 3 {
			D[3*r+k] += dAdv[k] * -v[r]
		}
	}
	D[0] -= lin
	D[4] -= lin
	D[8] -= lin
}

// kuttaD is mjd_kutta_lift.
func (e *Fluid) kuttaD(D *[9]float64, lv *[6]float64, g *fluidGeom) {
	s := g.semi
	a, b, c := sq(s[1]*s[2]), sq(s[2]*s[0]), sq(s[0]*s[1])
	aa, bb, cc := a*a, b*b, c*c
	x, y, z := lv[3], lv[4], lv[5]
	xx, yy, zz, xy, yz, xz := x*x, y*y, z*z, x*y, y*z, x*z
	projDenom := aa*xx + bb*yy + cc*zz
	projNum := a*xx + b*yy + c*zz
	norm2 := xx + yy + zz
	dfDenom := math.Pi * g.coef[3] * e.Density / math.Max(mjMinVal, math.Sqrt(projDenom*projNum*norm2))
	dfx := yy*(a-b) + zz*(a-c)
	dfy := xx*(b-a) + zz*(b-c)
	dfz := xx*(c-a) + yy*(c-b)
	projTerm := projNum / math.Max(mjMinVal, projDenom)
	cosTerm := projNum / math.Max(mjMinVal, norm2)
	*D = [9]float64{a - a, b - a, c - a, a - b, b - b, c - b, a - c, b - c, c - c}
	for i := range 9 {
		D[i] *= 2 * projNum
	}
	inner := [3]float64{aa*projTerm - a + cosTerm, bb*projTerm - b + cosTerm, cc*projTerm - c + cosTerm}
	for k, f := range [3]float64{dfx, dfy, dfz} {
		for j := range 3 {
			D[3*k+j] += inner[j] * f
		}
	}
	mul := [9]float64{xx, xy, xz, xy, yy, yz, xz, yz, zz}
	for i := range 9 {
		D[i] *= mul[i]
	}
	D[0] -= dfx * projNum
	D[4] -= dfy * projNum
	D[8] -= dfz * projNum
	for i := range 9 {
		D[i] *= dfDenom
	}
}

// magnusB is mjd_magnus_force.
func (e *Fluid) magnusB(B *[36]float64, lv *[6]float64, g *fluidGeom) {
	s := g.semi
	vol := 4.0 / 3.0 * math.Pi * s[0] * s[1] * s[2]
	k := g.coef[4] * e.Density * vol
	lin := spatial.Vec3{k * lv[3], k * lv[4], k * lv[5]}
	ang := spatial.Vec3{k * lv[0], k * lv[1], k * lv[2]}
	dAng, dLin := crossDerivs(ang, lin)
	addQuadrant(B, &dAng, 1, 0)
	addQuadrant(B, &dLin, 1, 1)
}

// addDerivative adds −J_locᵀ B J_loc to out.N (tree blocks).
func (e *Fluid) addDerivative(c *Context, out *Output, g *fluidGeom, p spatial.Vec3, R spatial.Mat3, lv *[6]float64) {
	t := c.WS.AngularJacobian(g.body, out.local)
	if t < 0 {
		return
	}
	n := c.Model.Trees[t].NV
	J := e.jac[:6*n] // rows: ω then v, in the geom frame
	for k := range n {
		w := spatial.Vec3{out.local[k], out.local[n+k], out.local[2*n+k]}
		lw := R.MulTVec(w)
		J[k], J[n+k], J[2*n+k] = lw[0], lw[1], lw[2]
	}
	c.WS.PointJacobian(g.body, p, out.local)
	for k := range n {
		v := spatial.Vec3{out.local[k], out.local[n+k], out.local[2*n+k]}
		lv := R.MulTVec(v)
		J[3*n+k], J[4*n+k], J[5*n+k] = lv[0], lv[1], lv[2]
	}
	B := e.ellipsoidB(g, lv)
	BJ := e.tmp[:6*n]
	for i := range 6 {
		for k := range n {
			var sum float64
			for j := range 6 {
				sum += B[6*i+j] * J[j*n+k]
			}
			BJ[i*n+k] = sum
		}
	}
	off := out.Off[t]
	for r := range n {
		for k := range n {
			var x float64 // (Jᵀ B J)[r][k]
			for i := range 6 {
				x += J[i*n+r] * BJ[i*n+k]
			}
			out.N[off+r*n+k] -= x
		}
	}
}
