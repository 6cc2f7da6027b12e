package mjcf

import (
	"fmt"
	"slices"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// condimNeeds is, per friction coefficient (sliding, torsional, rolling),
// the smallest condim that uses it.
var condimNeeds = [3]int{3, 4, 6}

// minMu is MuJoCo 2.2.2's mjMINMU: mj_contactParam raises every friction
// coefficient of a contact to at least 1e-5.
const minMu = 1e-5

// usedCoef returns friction coefficient k of value x as a pair that uses
// it has it: the torsional and rolling ones at least minMu, as MuJoCo's
// (a condim-6 pair with rolling friction 0 rolls against 1e-5 m); the
// sliding one as given (a frictionless condim-3 pair keeps the normal row
// alone, where MuJoCo's four edges of μ = 1e-5 make a near-rigid contact).
func usedCoef(k int, x float64) float64 {
	if k > 0 {
		return max(x, minMu)
	}
	return x
}

// frictionCoefficients returns, per pending collision geom, its sliding,
// torsional (spin) and rolling friction for the scene material.
//
// MuJoCo gives a pair of geoms (of equal priority) the larger of their two
// condims: 1 is frictionless, 3 adds sliding friction (friction's first
// value), 4 torsional friction (the second, a length in m: our
// spin_friction), 6 rolling friction (the third, a length in m: our
// rolling_friction). Our materials are per geom, so a geom gets a
// coefficient from its own friction when at least one of the pairs it can
// form uses it, and 0 otherwise: a condim-1 limb that can touch the
// condim-3 floor keeps its sliding friction, and the floor gets torsional
// friction if a condim-4 ball can touch it. The materials combine as
// MuJoCo's geoms of equal priority do, by the larger of the two
// coefficients (friction_combine: max, contact.Material.MaxFriction), and
// each material keeps its geom's own condim (contact.Material.Condim): a
// pair takes the larger of the two and drops the coefficients it does not
// use, so two condim-1 limbs that both touch the floor slide freely on
// each other, as in MuJoCo.
func (c *compiler) frictionCoefficients() [][3]float64 {
	n := len(c.pending)
	coef := make([][3]float64, n)
	var pairs [][2]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			if c.mayTouch(i, j) {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	for i, g := range c.pending {
		for k, need := range condimNeeds {
			if g.condim >= need {
				coef[i][k] = usedCoef(k, g.friction[k])
			}
		}
	}
	for _, p := range pairs {
		g, h := c.pending[p[0]], c.pending[p[1]]
		if g.priority != h.priority {
			continue // the higher one's own coefficients, set above (contact.Material.Priority)
		}
		d := max(g.condim, h.condim)
		for k, need := range condimNeeds {
			if d >= need {
				coef[p[0]][k] = usedCoef(k, g.friction[k])
				coef[p[1]][k] = usedCoef(k, h.friction[k])
			}
		}
	}
	return coef
}

// mayTouch reports whether pending geoms i and j can form a contact: on
// different bodies, not both welded to the world, not a body and its
// parent, with matching contype and conaffinity bits, and not excluded.
func (c *compiler) mayTouch(i, j int) bool {
	g, h := c.pending[i], c.pending[j]
	if g.body == h.body || (c.out.Links[g.body].Welded && c.out.Links[h.body].Welded) {
		return false
	}
	if g.contype&h.conaffinity == 0 && h.contype&g.conaffinity == 0 {
		return false
	}
	return !c.excludedPair(g.body, h.body)
}

// materialFor returns the name of a material of s with stiffness k,
// dissipation tau, MuJoCo's soft friction slip time, K and weight, the
// geom's solref and solimp (contact.Material.SlipTime, SlipStiffness,
// SlipWeight, SlipRef, SlipImp; anchors off) and the friction
// coefficients f (sliding, spin, rolling), adding one named prefix + a
// number if none matches.
func materialFor(s *scene.Scene, prefix string, k, tau float64, slip [3]float64, ref, imp []float64, f [3]float64, condim, priority int) string {
	val := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	for i := 0; ; i++ {
		n := fmt.Sprintf("%s%d", prefix, i)
		m, ok := s.Materials[n]
		if !ok {
			mat := model.NewMaterial(k, tau, f[0])
			mat.Anchors, mat.SlipTime, mat.SlipStiffness, mat.SlipSolImp = model.Ptr(false), model.Ptr(slip[0]), model.Ptr(slip[1]), slices.Clone(imp)
			mat.SlipWeight, mat.SlipSolRef = model.Ptr(slip[2]), slices.Clone(ref)
			mat.FrictionCombine = "max" // MuJoCo's pair friction: the larger of the two geoms'
			mat.Condim = condim         // and the pair's condim, the larger of the two
			mat.Priority = priority     // or the higher-priority geom's everything (contact.Material.Priority)
			if f[1] > 0 {
				mat.SpinFriction = model.Ptr(f[1])
			}
			if f[2] > 0 {
				mat.RollingFriction = model.Ptr(f[2])
			}
			s.Materials[n] = mat
			return n
		}
		if *m.Stiffness == k && *m.Dissipation == tau && val(m.SlipTime) == slip[0] && val(m.SlipStiffness) == slip[1] && val(m.SlipWeight) == slip[2] && m.FrictionCombine == "max" && slices.Equal(m.SlipSolImp, imp) && slices.Equal(m.SlipSolRef, ref) && *m.Friction == f[0] && val(m.SpinFriction) == f[1] && val(m.RollingFriction) == f[2] && m.Condim == condim && m.Priority == priority {
			return n
		}
	}
}
