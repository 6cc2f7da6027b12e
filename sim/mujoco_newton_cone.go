package sim

import "math"

// The elliptic cone in MuJoCo 2.2.2's Newton and CG solvers
// (mujoco_newton.go): each of MuJoCo's elliptic contacts
// (mjCNSTR_CONTACT_ELLIPTIC, pgsConeBlock) is one block of dim rows
// (normal, tangents, torsional, rolling) whose cost has three zones
// (engine_core_constraint.c, mj_constraintUpdate). Over
// U = (μ̃ jar_0, μ_1 jar_1, …, μ_{dim−1} jar_{dim−1}), N = U_0,
// T = ‖U_1…‖ and μ̃ = μ_1 √(R_1/R_0) (contact->mu, mj_makeImpedance):
//
//	top    N ≥ μ̃ T:     s = 0                       (inside the dual cone)
//	bottom μ̃ N + T ≤ 0: s = ½ Σ_j D_j jar_j²        (every row quadratic)
//	middle otherwise:    s = ½ D_m (N − μ̃ T)²,  D_m = D_0/(μ̃²(1 + μ̃²))
//
// The middle zone's force is −∂s/∂jar and its Hessian block
// diag(μ̃, μ_j) H_U diag(μ̃, μ_j) D_m with H_U's first row (1, −μ̃ U_j/T)
// and its tangent block μ̃ N/T³ U Uᵀ + (μ̃² − μ̃ N/T) I, which HessianCone
// adds to the factor of H by rank-1 updates with the rows of Lᵀ J
// (L Lᵀ the block). The line search (CGprepare, CGeval) evaluates the
// middle zone's cost along the search exactly from N(α) = U_0 + α V_0 and
// T(α)² = UU + 2α UV + α² VV.

// nwCone is the state of a row of an elliptic contact in its middle zone
// (mjCNSTRSTATE_CONE).
const nwCone int8 = nwLinearPos + 1

// coneUpdate is mj_constraintUpdate for elliptic contact c (block cb) at
// J qacc − aref = jaref (rowsUpdate's): it sets its rows' states and
// forces (−D jar, then the top or middle zone's), its middle zone's
// Hessian block in nw.coneH, and returns the cost s with its own added
// (in MuJoCo's order).
func (nw *newtonWork) coneUpdate(c int, cb *pgsConeBlock, s float64, jaref []float64) float64 {
	k0, dim, mu := cb.k0, cb.dim, nw.coneMu[c]
	jar, force, state := jaref[k0:k0+dim], nw.force[k0:k0+dim], nw.state[k0:k0+dim]
	for j, d := range nw.d[k0 : k0+dim] {
		force[j] = -d * jar[j]
	}
	var u [6]float64
	u[0] = jar[0] * mu
	for j := 1; j < dim; j++ {
		u[j] = jar[j] * cb.fr[j-1]
	}
	n, t := u[0], math.Sqrt(dot4(u[1:dim], u[1:dim]))
	switch {
	case n >= mu*t || t <= 0 && n >= 0: // top zone
		clear(force)
		state[0] = nwSatisfied
	case mu*n+t <= 0 || t <= 0 && n < 0: // bottom zone
		for j := range dim {
			s += 0.5 * nw.d[k0+j] * jar[j] * jar[j]
		}
		state[0] = nwQuadratic
	default: // middle zone
		dm := nw.d[k0] / (mu * mu * (1 + mu*mu))
		nmt := n - mu*t
		s += 0.5 * dm * nmt * nmt
		force[0] = -dm * nmt * mu
		for j := 1; j < dim; j++ {
			force[j] = -force[0] / t * u[j] * cb.fr[j-1]
		}
		state[0] = nwCone
		nw.coneHessian(nw.coneH[36*c:36*c+dim*dim], &u, cb, mu, n, t, dm)
	}
	for j := 1; j < dim; j++ {
		state[j] = state[0]
	}
	return s
}

// coneHessian sets h (dim×dim) to the middle zone's Hessian block of a
// contact (mj_constraintUpdate's cone Hessian).
func (nw *newtonWork) coneHessian(h []float64, u *[6]float64, cb *pgsConeBlock, mu, n, t, dm float64) {
	dim := cb.dim
	scl := -mu / t
	h[0] = 1
	for j := 1; j < dim; j++ {
		h[j] = scl * u[j]
	}
	scl = mu * n / (t * t * t)
	for k := 1; k < dim; k++ {
		for j := k; j < dim; j++ {
			h[k*dim+j] = scl * u[j] * u[k]
		}
	}
	scl = mu*mu - mu*n/t
	for j := 1; j < dim; j++ {
		h[j*(dim+1)] += scl
	}
	coef := func(j int) float64 {
		if j == 0 {
			return mu
		}
		return cb.fr[j-1]
	}
	for k := range dim {
		scl = dm * coef(k)
		for j := k; j < dim; j++ {
			h[k*dim+j] *= scl * coef(j)
		}
	}
	for k := range dim {
		for j := k + 1; j < dim; j++ {
			h[j*dim+k] = h[k*dim+j]
		}
	}
}

// hessianCone is HessianCone (dense): Hcone = H plus, for each contact in
// its middle zone, Jᵀ H_c J by dim rank-1 updates (mju_cholUpdate) with
// the rows of Lᵀ J, L Lᵀ the Cholesky factor of its block H_c.
func (nw *newtonWork) hessianCone(w *pgsWork) {
	nv := nw.nv
	copy(nw.hcone, nw.h)
	for c := range w.cones {
		k0, dim, local := nw.coneFactor(w, c)
		if local == nil {
			continue
		}
		ltj := nw.ltj[:dim*nv]
		clear(ltj)
		for r := range dim {
			row := nw.j[(k0+r)*nv : (k0+r+1)*nv]
			for cc := 0; cc <= r; cc++ {
				l := local[r*dim+cc]
				dst := ltj[cc*nv : (cc+1)*nv]
				for i := range nv {
					dst[i] += row[i] * l
				}
			}
		}
		for r := range dim {
			cholUpdate(nw.hcone, ltj[r*nv:(r+1)*nv], nv, true)
		}
	}
}

// prepareCone is CGprepare's elliptic part for contact c (block cb) at
// its rows' quadratic q (3 per row from q[0], the rows' own set by the
// caller, not yet halved): q[0…2] become the sum over the block's rows
// (the bottom zone), q[3…8] hold U_0, V_0, UU, UV, VV and D_m.
func (nw *newtonWork) prepareCone(c int, cb *pgsConeBlock, q []float64) {
	k0, dim, mu := cb.k0, cb.dim, nw.coneMu[c]
	jar, jv, d := nw.jaref[k0:k0+dim], nw.jv[k0:k0+dim], nw.d[k0:k0+dim]
	for j := 1; j < dim; j++ {
		dj := d[j] * jar[j]
		q[0] += jar[j] * dj
		q[1] += jv[j] * dj
		q[2] += jv[j] * d[j] * jv[j]
	}
	var uu, uv, vv float64
	for j := 1; j < dim; j++ {
		u, v := jar[j]*cb.fr[j-1], jv[j]*cb.fr[j-1]
		uu += u * u
		uv += u * v
		vv += v * v
	}
	q[3], q[4], q[5], q[6], q[7] = jar[0]*mu, jv[0]*mu, uu, uv, vv
	q[8] = d[0] / (mu * mu * (1 + mu*mu))
}

// evalCone is CGeval's elliptic part for contact c at α: it reports the
// bottom zone (quadratic: the caller adds the block's quadratic q[0…2],
// halved), or returns the middle zone's cost and first two derivatives.
func (nw *newtonWork) evalCone(c int, q []float64, alpha float64) (cost, d0, d1 float64, quadratic bool) {
	mu := nw.coneMu[c]
	u0, v0, uu, uv, vv, dm := q[3], q[4], q[5], q[6], q[7], q[8]
	n := u0 + alpha*v0
	tsqr := uu + alpha*(2*uv+alpha*vv)
	if tsqr <= 0 {
		return 0, 0, 0, n < 0
	}
	t := math.Sqrt(tsqr)
	switch {
	case n >= mu*t:
		return 0, 0, 0, false
	case mu*n+t <= 0:
		return 0, 0, 0, true
	}
	n1 := v0
	t1 := (uv + alpha*vv) / t
	t2 := vv/t - (uv+alpha*vv)*t1/(t*t)
	nmt := n - mu*t
	return 0.5 * dm * nmt * nmt, dm * nmt * (n1 - mu*t1), dm * ((n1-mu*t1)*(n1-mu*t1) + nmt*(-mu*t2)), false
}
