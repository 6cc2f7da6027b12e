package multibody

import "github.com/stiction-sim/stiction/spatial"

// BiasAcceleration returns the classical angular and linear acceleration of
// body b's origin when every generalized acceleration is zero: the
// velocity-product terms accumulated from the root, α_B = α_P + κ_α and
// a_B = a_P + α_P × (x_B − x_P) + κ_a (see Update), at the (q, v) of the
// last Update (which must have had a velocity). The root's own joint
// acceleration is zero, so for a free root both are zero. Bodies welded to
// the world have zero bias.
func (ws *Workspace) BiasAcceleration(b int) (alpha, a spatial.Vec3) {
	m := ws.m
	if m.Bodies[b].Tree < 0 {
		return spatial.Vec3{}, spatial.Vec3{}
	}
	// Walk to the root, then accumulate downwards without a stack: the
	// recursion is linear, so sum each body's κ shifted to b's origin.
	// a_b = Σ_k (κ_a,k + (Σ_{j<k} κ_α,j) × (x_k − x_parent(k))): with
	// α_k = Σ_{j≤k} κ_α,j along the path, a_b = Σ_k κ_a,k + Σ_k α_parent(k) × (x_k − x_parent(k)).
	// Summing the second term by parts: Σ_j κ_α,j × (x_b − x_j).
	xb := ws.x[b].P
	for k := b; k >= 0; k = m.Bodies[k].Joint.Parent {
		alpha = alpha.Add(ws.kin[k].kw)
		a = a.Add(ws.kin[k].kl).Add(ws.kin[k].kw.Cross(xb.Sub(ws.x[k].P)))
	}
	return alpha, a
}
