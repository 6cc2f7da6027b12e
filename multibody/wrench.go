package multibody

import "github.com/stiction-sim/stiction/spatial"

// AddWrench adds J_pᵀ f + J_ωᵀ τ to the generalized forces F (length NV,
// global velocity indices): the force f applied at the world point p of
// body b and the moment τ, with J_p and J_ω the Jacobians PointJacobian
// and AngularJacobian write, at the kinematics of the last Update. Each
// velocity i on b's path to the root gets
//
//	F[i] = (F[i] + ((J_p,x f_x + J_p,y f_y) + J_p,z f_z)) + ((W_x τ_x + W_y τ_y) + W_z τ_z),
//
// J_p's column L + W × (p − x_a) made as PointJacobian makes it: the
// products and sums of adding Jᵀ f for the two 3×NV Jacobians in turn,
// without making them. The other velocities' columns are zeros, whose
// products with a finite f and τ add ±0, which leaves F[i] as it is unless
// it is −0 (a sum of forces from +0, as the simulator's, never is): they
// are not touched. AddWrench adds nothing and returns false for a body
// welded to the world, a lone free body (whose PointJacobian is
// freePointJacobian's, which differs from the general column by the
// sign of a zero and on non-finite points) and a non-finite p, f or τ
// (whose NaNs the Jacobians spread to every velocity): the caller then
// adds Jᵀ f from the Jacobians. A nil t adds J_pᵀ f alone (no J_ωᵀ τ term).
func (ws *Workspace) AddWrench(b int, p, f, t *spatial.Vec3, F []float64) bool {
	tb := ws.top[b]
	if tb.tree < 0 || ws.kind[b] == kindFreeRoot && ws.m.Trees[tb.tree].NV == 6 ||
		!(vec3{p[0], p[1], p[2]}).finite() || !(vec3{f[0], f[1], f[2]}).finite() || t != nil && !(vec3{t[0], t[1], t[2]}).finite() {
		return false
	}
	f0, f1, f2 := f[0], f[1], f[2]
	col, top, x := ws.col, ws.top, ws.x
	x = x[:len(top)] // one length: top[a]'s check covers x[a]
	for a := b; a >= 0; {
		tp := top[a]
		xa := &x[a].P
		r0, r1, r2 := p[0]-xa[0], p[1]-xa[1], p[2]-xa[2]
		for i, end := int(tp.voff), int(tp.voff)+int(tp.nv); i < end; i++ {
			j0, j1, j2 := col[i].at(r0, r1, r2) // as PointJacobian
			v := F[i] + (j0*f0 + j1*f1 + j2*f2)
			if t != nil {
				W := &col[i].w
				v += W[0]*t[0] + W[1]*t[1] + W[2]*t[2]
			}
			F[i] = v
		}
		a = int(tp.parent)
	}
	return true
}
