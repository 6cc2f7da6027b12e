package sim

import (
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// planeCulling turns beyondHalfSpace's culling on for the simulators
// made afterwards (on by default; tests compare with it off).
var planeCulling = true

// planeCullTol is the tolerance, relative to the coordinates' magnitude,
// by which beyondHalfSpace's bound must clear the slack: it covers the
// rounding of the colliders' own gaps and the single-precision vertices
// of MuJoCo's compiled meshes (relative error 6e-8), which may stick out
// of the double-precision hull's box by that much.
const planeCullTol = 1e-6

// beyondHalfSpace reports whether one of the candidate geometries i and j
// is a half-space and the other's bounding box (c.boxes, already inflated
// by its margins) lies above the half-space's plane by more than slack,
// the narrow phase's margin for the pair: every point of the other
// geometry then has a gap above slack, and every half-space collider
// (geometry.Collide's halfSpacePair, MuJoCo's plane colliders in
// mujocoConvex) returns no point unless the geometry's lowest point is
// within the margin it is given, so the pair has no contact and the
// narrow phase can skip it. The broad phase cannot tell this: a plane
// that is not perpendicular to a world axis has an unbounded box that
// overlaps every other (a walled arena's walls, dm_control's
// manipulator: 35 of 38 plane pairs a step give nothing).
//
// The lowest point of a box of centre m and half-extents e over the plane
// through p with unit normal n is n·(m − p) − Σ_k |n_k| e_k. A box with an
// infinite side gives NaN or −Inf there, and is never culled. A
// half-space whose material is an elastic foundation (contact.Collide's
// element points) is not culled either.
func (sim *Simulator) beyondHalfSpace(c *collider, i, j int, slack float64) bool {
	gs := sim.Model.Geometries
	h, o := i, j
	if gs[h].Shape.Kind != geometry.HalfSpace {
		h, o = j, i
		if gs[h].Shape.Kind != geometry.HalfSpace {
			return false
		}
	}
	if c.fixed[h] { // its normal and material looked at once (fixedPoses)
		return c.planes[h] && aboveHalfSpace(&c.boxes[o], &c.halves[h], slack)
	}
	if foundation(sim.cfg.Materials, gs[h].Material) {
		return false
	}
	n := halfSpaceNormal(&c.poses[h])
	hp := newHalfPlane(&n, &c.poses[h].P)
	return aboveHalfSpace(&c.boxes[o], &hp, slack)
}

// setCull makes the listed pair of the half-space h and geometry o (of
// the geometries gs) one that planeCull tests, with the first two terms of
// its slack, margin + max(standoffs), as pairSlack sums them; unless h is
// a fixed half-space that beyondHalfSpace never culls against (c.planes:
// an elastic foundation).
func (lp *listedPair) setCull(c *collider, gs []multibody.Geometry, margin float64, h, o int32) {
	if c.fixed[h] && !c.planes[h] {
		return
	}
	lp.h, lp.o, lp.fixed = h, o, c.fixed[h]
	lp.slack = margin + max(gs[h].Standoff, gs[o].Standoff)
}

// meetKeeps reports whether planeCull keeps every pair of lp's half-space
// and geometry (lp set by setCull, its half-space fixed) whose inflated
// boxes meet, so that filteredBroadPhase need not ask it (the floor pairs
// of the MJCF robots: half_cheetah's eight, two of which meet a step, kept
// every time). It holds for a plane whose unit normal n is a world axis
// e_k to the bit (±1 there, 0 elsewhere) and whose box is bounded at p_k
// on that axis (halfSpaceAABB: for n_k = +1, Max_k = p_k), with
// margin + standoff ≥ 0 for both geometries and
// |margin| + |standoffs| ≤ meetKeepsMax, and speculative margins ≥ 0 (a
// cap ≥ 0; a NaN margin makes a NaN box, which meets nothing). For n_k =
// +1 (−1 mirrors it): the boxes meet only if the geometry's lower bound
// L = l − d_o (d_o = margin + s_o + spec_o, its exact lower bound l)
// is ≤ p_k + d_h (d_h = margin + s_h); halfSpaceGap's low is then
// L − p_k (its other axes' terms are ±0, or NaN, which culls nothing)
// ≤ d_h, while planeCull culls only when low > slack + planeCullTol·(1 +
// scale), slack = margin + max(s_h, s_o) + spec_o ≥ d_h, scale ≥ |p_k| +
// |m_k| + e_k ≥ 0 (e_k ≥ d_o ≥ 0). In floating point low, the bound and
// slack err by some 20ε·(scale + |margin| + |standoffs|), under 1e-8
// against planeCullTol·(1 + scale) ≥ 1e-6 (TestCol22MeetKeepsFloorPairs
// tries the boundary to the ulp).
func (sim *Simulator) meetKeeps(c *collider, lp *listedPair, gs []multibody.Geometry) bool {
	hp, b := &c.halves[lp.h], &c.fixedBox[lp.h]
	k := -1
	for a := range 3 {
		switch {
		case k < 0 && ((hp.n[a] == 1 && b.Max[a] == hp.p[a]) || (hp.n[a] == -1 && b.Min[a] == hp.p[a])):
			k = a
		case hp.n[a] != 0:
			return false
		}
	}
	prm, sh, so := &sim.cfg.Contact, gs[lp.h].Standoff, gs[lp.o].Standoff
	return k >= 0 && prm.Margin+sh >= 0 && prm.Margin+so >= 0 &&
		math.Abs(prm.Margin)+math.Abs(sh)+math.Abs(so) <= meetKeepsMax &&
		(!prm.Speculative || prm.SpeculativeMax >= 0) && sim.cfg.DT > 0
}

// meetKeepsMax bounds the margin and standoffs (their magnitudes' sum,
// in m) for which meetKeeps' rounding argument holds with room to spare.
const meetKeepsMax = 1e6

// slackAt returns pairSlack(lp.h, lp.o, spec) of a pair set by setCull:
// its sum, left to right, from the first two terms kept once.
func (lp *listedPair) slackAt(spec []float64) float64 {
	if spec == nil {
		return lp.slack
	}
	return lp.slack + spec[lp.h] + spec[lp.o]
}

// unbounded reports whether the box b is unbounded on every side: the
// box of a half-space not perpendicular to a world axis, which meets
// every box of finite bounds.
func unbounded(b *geometry.AABB) bool {
	for k := range 3 {
		if !(math.IsInf(b.Min[k], -1) && math.IsInf(b.Max[k], 1)) {
			return false
		}
	}
	return true
}

// planeCull is beyondHalfSpace for the half-space lp.h and geometry lp.o
// of a listed pair (listedPair.setCull) with the speculative margins spec
// (nil: none), as filteredBroadPhase tests it: the same test on the same
// numbers, without looking up which geometry is the half-space.
func (sim *Simulator) planeCull(c *collider, lp *listedPair, spec []float64) bool {
	if !lp.fixed {
		return sim.beyondHalfSpace(c, int(lp.h), int(lp.o), lp.slackAt(spec))
	}
	return c.fixedCull(lp, spec, false)
}

// fixedCull is aboveHalfSpace (bound false) or boundAboveHalfSpace (bound
// true) for the box of lp.o against lp's fixed half-space, with the slack
// lp.slackAt(spec): halfSpaceGap's sums, then the same thresholds summed
// left to right, in one frame; cullPairs' tests (dm stacker's walls, some
// 36 a step) had gone through two calls each to reach halfSpaceGap.
//
// With bound it is the boundCull of a pair of a fixed half-space whose box
// is unbounded (listedPair.wide) and a geometry bounded by its ball bound
// (coarse, filteredBroadPhase): it reports whether the bound clears the
// plane (boundAboveHalfSpace), so that planeCull would cull the pair on
// the geometry's exact box, whose box meets the half-space's as every
// finite box does.
func (c *collider) fixedCull(lp *listedPair, spec []float64, bound bool) bool {
	slack := lp.slackAt(spec)
	low, scale := halfSpaceGap(&c.boxes[lp.o], &c.halves[lp.h])
	t := slack + planeCullTol*(1+scale)
	if bound {
		t += boundCullTol * (1 + scale + math.Abs(slack))
	}
	return low > t
}

// aboveHalfSpace reports whether the box b lies above the plane hp by
// more than slack and the tolerance planeCullTol (beyondHalfSpace).
func aboveHalfSpace(b *geometry.AABB, hp *halfPlane, slack float64) bool {
	low, scale := halfSpaceGap(b, hp)
	return low > slack+planeCullTol*(1+scale)
}

// halfPlane is the plane of a half-space as the cull tests read it: a
// point p of it, its outward unit normal n, and their components'
// magnitudes ap = |p_k| and an = |n_k| (exact, so taken once: fixedPoses
// sets a fixed half-space's).
type halfPlane struct{ n, an, p, ap spatial.Vec3 }

// newHalfPlane returns the plane through p with unit normal n.
func newHalfPlane(n, p *spatial.Vec3) halfPlane {
	return halfPlane{
		n: *n, an: spatial.Vec3{math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2])},
		p: *p, ap: spatial.Vec3{math.Abs(p[0]), math.Abs(p[1]), math.Abs(p[2])},
	}
}

// halfSpaceGap returns the lowest point over the plane hp of the box b,
// low = Σ_k t_k with t_k = n_k·(m_k − p_k) − |n_k| e_k for its centre m
// and half-extents e, and the scale of its terms' magnitudes,
// Σ_k |n_k| (|m_k| + e_k + |p_k|): aboveHalfSpace's sums, each axis's
// terms as the three-axis loop formed them and summed in its order,
// t_0 + t_1 + t_2 (the loop's 0 + t_0 differs from t_0 only in the sign
// of a zero, which the comparisons of low do not see;
// TestCol10HalfSpaceGapMatchesLoop). Unrolled, with |n_k| and |p_k| read:
// the loop ran some 130 instructions a call (callgrind, dm stacker).
func halfSpaceGap(b *geometry.AABB, hp *halfPlane) (low, scale float64) {
	m0, e0 := 0.5*(b.Min[0]+b.Max[0]), 0.5*(b.Max[0]-b.Min[0])
	m1, e1 := 0.5*(b.Min[1]+b.Max[1]), 0.5*(b.Max[1]-b.Min[1])
	m2, e2 := 0.5*(b.Min[2]+b.Max[2]), 0.5*(b.Max[2]-b.Min[2])
	n, an, p, ap := &hp.n, &hp.an, &hp.p, &hp.ap
	low = (n[0]*(m0-p[0]) - an[0]*e0) + (n[1]*(m1-p[1]) - an[1]*e1) + (n[2]*(m2-p[2]) - an[2]*e2)
	scale = an[0]*(math.Abs(m0)+e0+ap[0]) + an[1]*(math.Abs(m1)+e1+ap[1]) + an[2]*(math.Abs(m2)+e2+ap[2])
	return low, scale
}

// boundCullTol is the margin, relative to the magnitudes of the terms,
// by which boundAboveHalfSpace's box must clear aboveHalfSpace's bound.
const boundCullTol = 1e-12

// boundAboveHalfSpace reports whether the ball bound B
// (filteredBroadPhase) of a box b lies above the plane through p with
// unit normal n by so much that aboveHalfSpace(b, n, p, slack) holds,
// without b: b ⊆ B, so the lowest point of b over the plane is at least
// B's, and scale(b) ≤ scale(B) (|m_k| + e_k is the larger of a side's
// |bounds|); computed in floating point, low and scale err by some
// 10ε·(1 + scale(B)) and the bound's sum by 3ε(|slack| + …), which
// boundCullTol·(1 + scale + |slack|), 1e-12 against some 1e-14, covers. A NaN or infinite slack clears
// nothing (the comparison or the sum is false or NaN).
func boundAboveHalfSpace(bound *geometry.AABB, hp *halfPlane, slack float64) bool {
	low, scale := halfSpaceGap(bound, hp)
	return low > slack+planeCullTol*(1+scale)+boundCullTol*(1+scale+math.Abs(slack))
}

// foundation reports whether material k of mats is an elastic foundation,
// whose half-spaces beyondHalfSpace does not cull.
func foundation(mats []contact.Material, k int) bool {
	return k < len(mats) && mats[k].Foundation != nil
}

// halfSpaceNormal returns the outward unit normal of a half-space at world
// pose x: its local z axis rotated into the world.
func halfSpaceNormal(x *spatial.Pose) spatial.Vec3 { return x.R.Rotate(spatial.Vec3{0, 0, 1}) }
