package mjcf

import (
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
)

// solimp reads a solimp attribute (MuJoCo's default 0.9 0.95 0.001 0.5 2;
// three values keep the default midpoint and power) and clamps it as
// MuJoCo 2.2.2 does before use (getsolparam): dmin, dmax and the midpoint
// to [mjMINIMP, mjMAXIMP] = [0.0001, 0.9999], width ≥ 0, power ≥ 1, so
// dm_control's solimp "0 0.99 0.01" means dmin = 0.0001.
func (c *compiler) solimp(v view, attr string) ([]float64, error) {
	imp, err := c.floats(v, attr, -1, []float64{0.9, 0.95, 0.001, 0.5, 2})
	if err != nil {
		return nil, err
	}
	if len(imp) == 3 {
		imp = append(imp, 0.5, 2)
	}
	if len(imp) != 5 {
		return nil, c.r.Errorf(v.src(attr), attr, "want 3 or 5 numbers (dmin, dmax, width[, midpoint, power])")
	}
	const minImp, maxImp = 0.0001, 0.9999
	for _, k := range []int{0, 1, 3} {
		imp[k] = math.Min(maxImp, math.Max(minImp, imp[k]))
	}
	imp[2], imp[4] = math.Max(0, imp[2]), math.Max(1, imp[4])
	return imp, nil
}

// contactRate returns the stiffness per unit effective mass κ and the
// dissipation time τd of a contact with MuJoCo's solref and solimp under
// the gravity g (m/s²), such that a body resting on it sinks as deep as in
// MuJoCo (docs/MODELS.md, "Contact: solref and solimp"). MuJoCo's force
// on a contact in its quadratic zone gives the acceleration
// a = (1 − d) a0 + d a_ref, a_ref = −B v − K d r (mj_makeImpedance,
// mj_referenceConstraint; K, B from solref, d = d(r) from solimp). At rest
// (a = v = 0) under the load acceleration a0 = A_nn f (g for a sphere on
// a plane) that is K d r = (1 − d)/d · a0: the depth r solves
// r = g (1 − d(r))/(K d(r)²), and the static stiffness per unit effective
// mass is κ = K d²/(1 − d) at that depth. MuJoCo's damping ratio
// B/(2√K) (ζ for the standard form) is kept: τd = B/(√K √κ).
func contactRate(sr, si []float64, dt, g float64) (kappa, tau float64) {
	ref, imp := [2]float64{sr[0], sr[1]}, [5]float64{si[0], si[1], si[2], si[3], si[4]}
	K, B := constraint.SolRefKB(ref, imp[1], dt)
	rate := func(r float64) float64 {
		d := constraint.Impedance(imp, r)
		return K * d * d / (1 - d)
	}
	lo, hi := 0.0, g/rate(0) // d ≥ dmin bounds the depth: r·κ(r) − g is increasing in r
	if imp[0] > imp[1] {
		hi = g / math.Min(rate(0), rate(math.Inf(1)))
	}
	for range 100 {
		mid := 0.5 * (lo + hi)
		if mid*rate(mid) < g {
			lo = mid
		} else {
			hi = mid
		}
	}
	kappa = rate(0.5 * (lo + hi))
	return kappa, B / (math.Sqrt(K) * math.Sqrt(kappa))
}

// slipTime returns contact.Material.SlipTime and SlipStiffness (MuJoCo's
// K) for MuJoCo's soft friction of a geom with solref sr, solimp si and
// sliding friction mu (the contact takes d = d(r) from solimp at the depth
// r where MuJoCo's contact rests under its load). MuJoCo 2.2.2's
// pyramidal cone (its default) gives each of a contact's 2(condim − 1)
// edge rows n ± μ t_i the regularization Rpy = 2μ² (1 − d)/d · (1 + μ²) w
// (mj_makeImpedance, with impratio 1 and diagApprox (1 + μ²) w for an edge
// row, w the contact's translational inverse weight) and the reference
// acceleration −B J_row v − K d r. A contact sticking under a tangential
// force f_t = μ (f₊ − f₋) has zero acceleration on both edges, so
// R f± = −B (v_n ± μ v_t) − K d r, and subtracting: v_t = −Rpy f_t /(2 B μ²)
// = −(1 + μ²)(1 − d)/(d B) · w f_t. SAP's friction with v̂_t = 0 slips at
// v_t = −R_t γ_t = −R_t δt f_t: R_t = SlipTime (1 − d)/d · w / δt with
// SlipTime = (1 + μ²)/B. (MuJoCo's transient, v̂_t = (1 − δt B) v_t0, is
// not reproduced; its steady slip is. w is the contact's Delassus
// diagonal, MuJoCo's diagApprox the bodies' translational invweight0.)
func slipTime(sr, si []float64, mu, dt float64) (slip, k float64) {
	K, B := constraint.SolRefKB([2]float64{sr[0], sr[1]}, si[1], dt)
	if !(B > 0) || !(K > 0) {
		return 0, 0
	}
	return (1 + mu*mu) / B, K
}

// bodyWeights returns MuJoCo's translational body_invweight0 of every
// scene body (mj_setM0: the trace of J M⁻¹ Jᵀ over 3, J the translational
// Jacobian of the body's centre of mass, at qpos0; 0 for bodies that do
// not move), the diagApprox of its contacts' rows (mj_diagApprox), and
// sets every link's InvWeight0 to both parts, translational and
// rotational (comInvWeights). nil if the model cannot be built without
// shapes. It computes them once (after the bodies, their masses and the
// welds to the world are final) and returns the same slice after.
func (c *compiler) bodyWeights() []float64 {
	if !c.weighed {
		c.weighed, c.weights = true, c.computeBodyWeights()
	}
	return c.weights
}

// computeBodyWeights is bodyWeights' computation.
func (c *compiler) computeBodyWeights() []float64 {
	m, st, err := scene.BuildModel(massOnly(c.out.Scene))
	if err != nil {
		return nil
	}
	ws := multibody.NewWorkspace(m)
	ws.Update(st.Q, st.V)
	minv, err := inverseMass(m, ws)
	if err != nil {
		return nil
	}
	out := make([]float64, len(c.out.Scene.Bodies))
	for i, b := range c.out.Scene.Bodies {
		if i < len(c.out.Links) {
			w := comInvWeights(m, ws, minv, b.Name, c.out.Links[i].COM)
			out[i], c.out.Links[i].InvWeight0 = w[0], w
		}
	}
	return out
}
