package sim

import (
	"math"
	"math/bits"
	"slices"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// detectContacts finds the contact pairs at q0: broad phase on bounding
// boxes inflated by each geometry's margin, then the narrow phase on each
// candidate pair of geometries that multibody.Model.Collidable admits
// (different bodies, not both welded to the world, not joined by a joint as
// in Drake, matching contype and conaffinity bits, not an excluded body
// pair). Pairs keep the broad phase's deterministic (i, j) order, so
// geometry i is A and j is B.
//
// Speculative contact: a point whose gap can close within the step is a
// contact. Candidates come from a conservative margin per geometry, the
// static margin plus the distance its fastest point can travel in one step,
// s_i = min(cap, (‖v_b‖ + ‖ω_b‖ r_i) δt) with r_i the farthest the geometry
// reaches from its body's origin. A candidate point with gap φ0 is kept
// when φ0 ≤ margin + min(cap, ((−v_n)₊ + 2‖ω_A‖r_A + 2‖ω_B‖r_B) δt + ‖g‖δt²):
// v_n is the relative normal velocity of the two material points at the
// start of the step; other points of a rotating body may approach faster
// than the closest one, by at most ‖ω‖ times the body's diameter; gravity
// may add ‖g‖δt² of approach within the step. SAP's handling of φ0 > 0
// (v̂_n = −φ0/(δt + τd), §V-A) keeps such a contact inactive unless it
// would touch.
func (sim *Simulator) detectContacts() {
	m, w := sim.Model, &sim.ws
	// The last pairs' materials (pairmats.go) are not these pairs'.
	w.mj.staged.known = w.mj.staged.known[:0]
	sim.startKinematics() // one forward-kinematics pass at q0 for poses and Jacobians, unless the last step's end is still q0
	sim.wakeForced()      // a force on a sleeping body wakes its island (sleep.go)
	sim.lap(StageKinematics)
	if w.idle {
		sim.noContacts() // no two geometries can touch: no broad or narrow phase
		return
	}
	if f := &w.col.filter; f.direct {
		sim.filteredBroadPhase(&w.col, w.kin0, w.spec) // few collidable pairs: test them, build no tree
	} else {
		for i, g := range m.Geometries {
			w.spec[i] = sim.speculative(g.Body, w.reach[i])
		}
		sim.broadPhase(&w.col, w.kin0, w.spec)
	}
	sim.lap(StageBroadPhase)
	w.pairs = sim.narrowPhase(&w.col, w.spec, w.pairs[:0])
	sim.wakeTouched() // a contact with an awake body wakes a sleeping island (sleep.go)
	// MuJoCo's body transmissions read the contacts (adhesion.go).
	sim.ws.cons.adh.moments(m, w.kin0, w.pairs)
	sim.lap(StageNarrowPhase)
}

// noContacts is detectContacts' broad and narrow phase for a step of a
// model none of whose geometries can touch another (pairFilter.none), with
// an empty contact memory (Workspace.idle): no pair; the adhesion
// actuators' moments are those of no contact, as moments gives them for
// an empty list.
func (sim *Simulator) noContacts() {
	w := &sim.ws
	w.pairs = w.pairs[:0]
	w.cons.adh.moments(sim.Model, w.kin0, nil)
	sim.lap(StageNarrowPhase)
}

// collider is the scratch memory of one collision detection: the
// geometries' world poses and inflated bounding boxes, the broad phase's
// candidate pairs and the narrow phase's points of one pair.
type collider struct {
	poses []spatial.Pose
	boxes []geometry.AABB
	broad geometry.BroadPhase
	cand  [][2]int32
	hits  []geometry.Contact
	// env and envCand are the rk4 stages' envelopes (stageBroadPhase):
	// each geometry's box at the last rebuild grown by envelopeSlack, and
	// the pairs whose envelopes overlap.
	env     []geometry.AABB
	envCand [][2]int32
	// rebuilds counts the envelopes' rebuilds (for tests).
	rebuilds int

	// fixed marks the geometries on bodies welded to the world, whose
	// poses (in poses) and uninflated boxes (fixedBox) are computed once
	// (fixedPoses).
	fixed    []bool
	fixedBox []geometry.AABB
	// local holds which of each geometry's pose on its body has an
	// identity rotation or a zero translation (geometryPose).
	local []localShape
	// moved holds, per geometry on a moving body, its body's pose and its
	// uninflated box at the last computation (movingBox), so that a body
	// whose pose did not change to the bit (at rest, asleep, held) does
	// not have its geometries' poses and boxes computed again.
	moved []movedBox
	// kin is the kinematics of the last geometryBoxes: the body poses
	// from which MuJoCo's convex collider composes a mesh geom's pose
	// (mujocoConvex).
	kin *multibody.Workspace
	// filter is the model's collidable pairs, listed once (pairFilter).
	filter pairFilter
	// cull skips the candidate pairs of a half-space and a geometry whose
	// box lies beyond the narrow phase's slack above it (beyondHalfSpace;
	// planeCulling); culled counts them (for tests).
	cull   bool
	culled int
	// screened says that cand came from filteredBroadPhase: every pair
	// is collidable (pairFilter) and its half-space pairs have been culled
	// (cullPlanes), so that the narrow phase does neither again.
	screened bool
	// planes holds, per geometry, whether it is a half-space on a body
	// welded to the world that beyondHalfSpace may cull against (not an
	// elastic foundation), and halves its plane, both set once
	// (fixedPoses) rather than at every test.
	planes []bool
	halves []halfPlane
	// posed holds, per geometry, its shape (set once, fixedPoses) at its
	// pose in poses with the rotation matrix geometry.Collide would form
	// (posedAt), valid while its movedBox's posed is set: at the first
	// narrow-phase pair of a pose, once for a fixed geometry; movingBox
	// clears it with a new pose.
	// found marks the geometries whose material is an elastic foundation,
	// whose pairs take contact.Collide.
	posed []geometry.Posed
	found []bool
	// movers lists the moving geometries of the filter's pairs with what
	// filteredBroadPhase reads of them (filterSetup).
	movers []filterGeom
	// listed holds, per pair of the filter, what filteredBroadPhase reads
	// of it, gathered once (filterSetup); via holds the listed index of
	// each candidate in cand, by index, while screened.
	listed []listedPair
	via    []int32
	// meetAt holds, per pair of the filter, the addresses of its two
	// geometries' boxes in boxes (nextMeeting), set by filterSetup after
	// fixedPoses, which makes boxes once.
	meetAt [][2]*geometry.AABB
	// sweep finds the listed pairs whose boxes meet without testing
	// each, for a model with many pairs a geometry (pairSweep).
	sweep pairSweep
	// plain says that every listed pair is plain (listedPair.plain), set
	// by filterSetup: filteredBroadPhase then culls none.
	plain bool
}

// listedPair is a pair of the filter as filteredBroadPhase reads it,
// gathered once (filterSetup): its geometries, its standoff off (the
// larger of theirs, as narrowPhase adds it), its collider (route), and,
// when the pair may be culled (planeCull), its half-space h and other
// geometry o, with h < 0 when it may not (no half-space, culling off, a
// fixed elastic foundation, or a floor that keeps every pair whose boxes
// meet, meetKeeps), and the first two terms of its slack
// margin + max(standoffs) (pairSlack's, summed as it sums them); fixed
// says the half-space is on a body welded to the world, with its normal
// in collider.halves.
type listedPair struct {
	pr    [2]int32
	h, o  int32
	fixed bool
	wide  bool // fixed, and the half-space's box is unbounded on every side (boundCull)
	plain bool // neither wide nor culled (h < 0): kept whenever its exact boxes meet
	slack float64
	off   float64
	route pairRoute
}

// pairRoute is the narrow phase's collider of a listed pair, chosen once
// (filterSetup): geometry.Pair for the kinds of its geometries, or, when
// any is set, mujocoConvex and collidePair, which choose at each call: a
// pair that MuJoCo's convex collider may take (mj: mujocoMay, which
// combines the pair's materials, asked once rather than at each call) or
// one with an elastic foundation.
type pairRoute struct {
	pair    geometry.Pair
	any, mj bool
}

// pairFilter lists, once per simulator, the pairs of geometries that
// multibody.Model.Collidable admits: those the narrow phase keeps of the
// broad phase's candidates. The filter reads the model's geometries,
// bodies, collision bits and excluded pairs when the simulator is made,
// which, like the fixed geometries' poses (fixedPoses), are not to change
// after New. When the list is short against the number of geometries
// (direct), the step and the rk4 stages test the listed pairs' boxes and
// build no tree (filteredBroadPhase): a robot whose geometries cannot
// touch one another has no pair to test, a finger and its spinner a
// dozen, the manipulator 316.
type pairFilter struct {
	direct bool       // test pairs rather than build the broad phase's tree
	pairs  [][2]int32 // the collidable pairs (i, j), i < j, in increasing (i, j) order
	geoms  []int32    // the geometries in some pair, increasing
	// plane holds, per pair, which of its two geometries is a half-space
	// (0 or 1), or −1 when neither is: filteredBroadPhase culls the
	// pairs of a half-space (planeCull).
	plane []int8
}

// directPairsPerGeometry bounds the collidable pairs per geometry up to
// which filteredBroadPhase tests them one by one rather than building the
// broad phase's tree: one box overlap test per pair (a few ns) against a
// tree build of about one node per geometry plus its own tests and a sort
// (dm_control's manipulator, 29 geometries and 316 pairs: the tree took
// 15% of its step in a CPU profile, some 400 ns a geometry). 32 takes
// every MJCF robot of internal/mjref's speed set (humanoid_CMU: 22 a
// geometry) and clutter-40's 45 geometries, and leaves the tree to scenes
// of more than about 64 free bodies, whose pairs grow as n²/2.
const directPairsPerGeometry = 32

// maxFilteredGeometries bounds the geometries of a model whose collidable
// pairs pairFilter lists: the listing tests every pair once, n²/2 tests.
const maxFilteredGeometries = 256

// init lists m's collidable pairs and their geometries, and sets direct
// when they are few; it lists none for a model of more than
// maxFilteredGeometries geometries or once the pairs are too many.
func (f *pairFilter) init(m *multibody.Model) {
	n := len(m.Geometries)
	if n > maxFilteredGeometries {
		return
	}
	limit := directPairsPerGeometry * n
	in := make([]bool, n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if !m.Collidable(i, j) {
				continue
			}
			if len(f.pairs) == limit {
				f.pairs, f.plane = nil, nil // too many: the tree serves this model
				return
			}
			f.plane = append(f.plane, halfSpaceOf(m, i, j))
			f.pairs = append(f.pairs, [2]int32{int32(i), int32(j)})
			in[i], in[j] = true, true
		}
	}
	for i, ok := range in {
		if ok {
			f.geoms = append(f.geoms, int32(i))
		}
	}
	f.direct = true
}

// none reports whether f lists every collidable pair of its model and
// finds none: no geometry of the model can touch another (MJCF's
// <flag contact="disable"/>, or contype and conaffinity bits that never
// match, as in Gymnasium's reacher). Like the list, it is made once per
// simulator, from a model that does not change after New.
func (f *pairFilter) none() bool { return f.direct && len(f.pairs) == 0 }

// halfSpaceOf returns which of geometries i and j (0 for i, 1 for j) is
// a half-space, i's first, or −1 when neither is.
func halfSpaceOf(m *multibody.Model, i, j int) int8 {
	switch {
	case m.Geometries[i].Shape.Kind == geometry.HalfSpace:
		return 0
	case m.Geometries[j].Shape.Kind == geometry.HalfSpace:
		return 1
	}
	return -1
}

// localShape says whether a geometry's pose on its body (Geometry.Pose)
// has exactly the identity rotation (rotI) or a zero translation (pos0).
type localShape struct{ rotI, pos0 bool }

// geometryPose returns x.Compose(y) for the body pose x and a geometry's
// local pose y of shape s, without the products by an identity rotation
// or a zero translation: q·1 and x.Apply(0) are exact (R q + 0 = R q
// and R·0 + p = p componentwise, up to the sign of a zero), and the
// rotation is normalized as Compose normalizes it, so the pose has
// Compose's bits but for the sign of a zero (TestGeometryPoseMatchesCompose).
// Most geometries of the MJCF robots sit at their body's frame (walker:
// five of seven).
func geometryPose(x, y spatial.Pose, s localShape) spatial.Pose {
	var z spatial.Pose
	placeGeometry(&z, &x, &y, s)
	return z
}

// placeGeometry sets *z to geometryPose(*x, *y, s) without copying the
// poses in and out (z is neither x nor y). The translation is set before
// the rotation is formed, so that no value is kept across the calls
// (Quat.Rotate, Quat.Mul): with the product first, its four terms were
// spilled across Rotate's call and read back.
func placeGeometry(z, x, y *spatial.Pose, s localShape) {
	if s.pos0 {
		z.P = x.P
	} else { // x.Apply(y.P), the same sums: R y.P, then + x.P (Apply copied both poses)
		v := x.R.Rotate(y.P)
		z.P = spatial.Vec3{v[0] + x.P[0], v[1] + x.P[1], v[2] + x.P[2]}
	}
	r := x.R
	if !s.rotI {
		r = r.Mul(y.R)
	}
	z.R = r.Normalize()
}

// movedBox is a geometry's body pose at its last movingBox and the
// geometry's uninflated box there (ok false before the first), and
// whether collider.posed holds the geometry at its pose (posedAt).
// filteredBroadPhase keeps here too whether the geometry's kind may be
// bounded by its ball bound (ball, set once by fixedPoses; the bound is
// filteredBroadPhase's), whether its box in collider.boxes is that bound,
// not yet the exact box (coarse; exactBox),
// and the calls for which it takes its exact box at once (met: set to
// ballRetry when its box, exact or bound, meets a listed partner's and
// the pair is not culled on the bound, boundCull; for a slanted wall's
// pair, listedPair.wide, whose box every finite box meets, only when the
// pair is not culled on the exact box either, planeCull, so that a
// geometry clear of the walls returns to its bound).
type movedBox struct {
	body  spatial.Pose
	box   geometry.AABB
	ok    bool
	posed bool

	ball, coarse bool
	met          uint8
}

// movingBox sets geometry i's world pose in c.poses from its body's pose x
// and its inflated box c.boxes[i] to its uninflated bounding box grown by
// d (geometry.AABB.SetInflated). The pose and the uninflated box are
// functions of x alone (geometryPose, geometry.Shape.SetBox), so when x
// has the bits of the last call's they are the last call's, kept in
// c.moved, and not computed again; the translation's first coordinate,
// which differs first on a body that moves, is tested in line. One call
// for the pose, the box and its inflation: the callers' loops reloaded
// their values after a call that returned the box and then inflated it
// in line.
//
//go:noinline
func (c *collider) movingBox(i int, g *multibody.Geometry, x *spatial.Pose, d float64) {
	mb := &c.moved[i]
	if !(mb.ok && math.Float64bits(mb.body.P[0]) == math.Float64bits(x.P[0]) && samePoseBits(&mb.body, x)) {
		z := &c.poses[i]
		placeGeometry(z, x, &g.Pose, c.local[i])
		g.Shape.SetBox(&mb.box, z)
		mb.body, mb.ok, mb.posed = *x, true, false
	}
	c.boxes[i].SetInflated(&mb.box, d)
}

// samePoseBits reports whether a and b are the same pose to the bit (+0
// and −0 differ, as a NaN equals itself).
func samePoseBits(a, b *spatial.Pose) bool {
	// The translation first: it differs first on a body that moves.
	return math.Float64bits(a.P[0]) == math.Float64bits(b.P[0]) && math.Float64bits(a.P[1]) == math.Float64bits(b.P[1]) &&
		math.Float64bits(a.P[2]) == math.Float64bits(b.P[2]) && math.Float64bits(a.R.W) == math.Float64bits(b.R.W) &&
		math.Float64bits(a.R.X) == math.Float64bits(b.R.X) && math.Float64bits(a.R.Y) == math.Float64bits(b.R.Y) &&
		math.Float64bits(a.R.Z) == math.Float64bits(b.R.Z)
}

// broadPhase sets c's geometry poses from the kinematics kin and its
// candidate pairs: the pairs whose bounding boxes, each inflated by the
// contact margin, its standoff and its speculative margin spec[i] (none
// when spec is nil), overlap, in the broad phase's deterministic order.
func (sim *Simulator) broadPhase(c *collider, kin *multibody.Workspace, spec []float64) {
	sim.geometryBoxes(c, kin, spec)
	c.cand = c.broad.Pairs(c.boxes, c.cand[:0])
	c.screened = false
}

// geometryBoxes sets c's geometry poses from the kinematics kin and their
// bounding boxes, each inflated by the contact margin, its standoff and
// its speculative margin spec[i] (none when spec is nil).
func (sim *Simulator) geometryBoxes(c *collider, kin *multibody.Workspace, spec []float64) {
	c.kin = kin
	m, margin := sim.Model, sim.cfg.Contact.Margin
	if len(c.poses) != len(m.Geometries) {
		c.fixedPoses(m, kin, sim.cfg.Materials)
	}
	for i := range m.Geometries {
		g := &m.Geometries[i]
		s := 0.0
		if spec != nil {
			s = spec[i]
		}
		d := margin + g.Standoff + s
		if c.fixed[i] {
			c.boxes[i].SetInflated(&c.fixedBox[i], d)
			continue
		}
		x := kin.Pose(g.Body)
		c.movingBox(i, g, &x, d)
	}
}

// filteredBroadPhase is broadPhase for a model with few collidable pairs
// (pairFilter): it sets the speculative margins (none when spec is nil, as
// at the rk4 stages), poses and inflated boxes of the geometries in some
// pair alone, and keeps the listed pairs whose boxes overlap. Those are
// the pairs of broadPhase's candidates that the narrow phase keeps (the
// tree's leaves are the boxes, and a pair is a candidate when its two
// boxes overlap, geometry.BroadPhase.Pairs), in the same increasing
// (i, j) order, so the step's contacts are the same to the bit; the other
// geometries' poses and boxes are not computed. Nor are those of a
// moving geometry whose ball bound about its body's origin (below) meets
// no listed partner's box: its pairs are skipped on that bound, and a pair
// whose bounds meet gets its two exact boxes (exactBox) and is tested
// again, so the same pairs are kept; a bound that clears a slanted wall
// (boundCull) is culled without its exact box. A model with many pairs
// of two finite boxes finds the pairs that meet by a sweep (pairSweep)
// rather than by testing each.
//
// The ball bound of a geometry whose points lie within r of the origin of
// its body at pose x (its reach, filterGeom.reach), grown by d, is the cube
// of half-width r + d about x.P, widened for rounding, formed in place of
// the geometry's pose (placeGeometry) and exact box (geometry.Shape.SetBox).
// It holds the inflated exact box: the geometry's origin x.R·y.P + x.P lies
// within ‖y.P‖ of x.P for a unit x.R, and its box within the radius of its
// box at the identity about its origin (every kind that ballShape admits);
// a quaternion of squared norm s² within ballQuatTol of 1 stretches y.P by
// at most |1 − s²| + s² ≤ 1 + 2·ballQuatTol (Quat.Rotate gives
// (1 − s²)v + s²R̂v). The exact box, rounded, thus lies inside the bound
// whenever both are numbers: every bound is a number and none of the exact
// box's is larger (smaller for Min) than it, so a pair whose bound and the
// other's box do not meet would not meet with the exact box either (a NaN
// in the exact box meets nothing). A quaternion off unit length or a
// non-finite position, r or d takes the exact box.
func (sim *Simulator) filteredBroadPhase(c *collider, kin *multibody.Workspace, spec []float64) {
	c.kin = kin
	if len(c.poses) != len(sim.Model.Geometries) {
		sim.filterSetup(c, kin)
	}
	var sp bodySpeed
	sp.body = -1
	for k := range c.movers {
		fg := &c.movers[k]
		i := fg.geom
		s := 0.0
		if spec != nil {
			if fg.body != sp.body { // once per body: its geometries are listed together
				// bodySpeed of a body not welded to the world, in line
				// (a call reloaded the loop's values after it)
				wb, vb := sim.ws.kin0.VelocityOf(fg.body)
				sp = bodySpeed{body: fg.body, v: normAt(vb), w: normAt(wb), moving: sim.cfg.Contact.Speculative}
			}
			s = sim.speculativeAt(&sp, fg.reach)
			spec[i] = s
		}
		d := fg.off + s
		x := kin.PoseOf(fg.body)
		// A geometry whose box met no partner's in the last ballRetry
		// calls is bounded first (its ball bound, above), in line, at any
		// pose: at the last call's, too, where movingBox would only grow
		// the kept box (the bound, no larger a cost, gives the same pairs;
		// the pose's test here was a call, and its values' reloads, in
		// the loop's lines).
		mb := &c.moved[i]
		mb.coarse = false
		if mb.met == 0 && mb.ball {
			q := &x.R
			s2 := q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z
			p0, p1, p2 := x.P[0], x.P[1], x.P[2]
			r := fg.reach
			h := r + d
			if t := p0 + p1 + p2 + h; math.Abs(s2-1) <= ballQuatTol && t-t == 0 {
				m := math.Abs(p0) + math.Abs(p1) + math.Abs(p2) // at least each |p_k|
				w := h + ballWiden*(m+r+math.Abs(d)) + 1e-300   // rounding of the exact box, relative to its terms' size
				b := &c.boxes[i]
				b.Min = spatial.Vec3{p0 - w, p1 - w, p2 - w}
				b.Max = spatial.Vec3{p0 + w, p1 + w, p2 + w}
				mb.coarse = true // the exact box only if a pair needs it (exactBox)
				continue
			}
		}
		if mb.met > 0 {
			mb.met--
		}
		c.movingBox(int(i), &sim.Model.Geometries[i], x, d)
	}
	c.cand = c.cand[:len(c.listed)] // room for every pair made once (filterSetup)
	// With a sweep, the pairs it marked, in listed order; their boxes are
	// tested again, as an earlier pair's exactMeet may have replaced a
	// bound by its exact box since.
	sw := c.sweep.on && c.sweep.mark(c.boxes)
	n := 0
	if c.plain {
		// Every pair plain: cullPairs' loop without the culls, each
		// pair's met set once (cullPairs sets it again, to the same).
		for k := 0; ; k++ {
			if k = c.nextMeeting(k, sw); k >= len(c.listed) {
				break
			}
			lp := &c.listed[k]
			ma, mb := &c.moved[lp.pr[0]], &c.moved[lp.pr[1]]
			ma.met, mb.met = ballRetry, ballRetry
			if (ma.coarse || mb.coarse) && !sim.exactMeet(c, kin, lp.pr, spec) {
				continue
			}
			c.cand[n], c.via[n] = lp.pr, int32(k)
			n++
		}
	} else {
		n = sim.cullPairs(c, kin, spec, sw)
	}
	c.cand, c.screened = c.cand[:n], true
}

// cullPairs is filteredBroadPhase's scan of the listed pairs (sw as it
// passes to nextMeeting) for a model with a pair that is not plain
// (listedPair.plain: of a slanted wall or culled): it keeps in c.cand and
// c.via the pairs whose boxes meet, less those culled on a ball bound
// (boundCull) or on their exact boxes (planeCull), which it counts, and
// returns how many it kept. Out of line, for the models of such pairs
// alone (dm stacker's walls).
//
//go:noinline
func (sim *Simulator) cullPairs(c *collider, kin *multibody.Workspace, spec []float64, sw bool) int {
	n := 0
	for k := 0; ; k++ {
		if k = c.nextMeeting(k, sw); k >= len(c.listed) {
			break
		}
		lp := &c.listed[k]
		pr := lp.pr
		if lp.wide && c.moved[lp.o].coarse && c.fixedCull(lp, spec, true) { // boundCull
			c.culled++
			continue // the bound clears the plane: no exact box, and no retry (met) for it
		}
		ma, mb := &c.moved[pr[0]], &c.moved[pr[1]]
		if !lp.wide { // a wall's box meets every box: its pair sets met when it is a candidate
			ma.met, mb.met = ballRetry, ballRetry
		}
		if (ma.coarse || mb.coarse) && !sim.exactMeet(c, kin, pr, spec) {
			continue
		}
		if lp.h >= 0 && (lp.fixed && c.fixedCull(lp, spec, false) || !lp.fixed && sim.planeCull(c, lp, spec)) {
			c.culled++
			continue // no point of the other geometry within slack of the plane (as narrowPhase would)
		}
		ma.met, mb.met = ballRetry, ballRetry
		c.cand[n], c.via[n] = pr, int32(k)
		n++
	}
	return n
}

// nextMeeting returns the first listed index from k on whose pair's boxes
// meet, among the pairs the sweep marked when sw (pairSweep), or
// len(c.listed) when none: filteredBroadPhase's scan of its pairs, most
// of which do not meet (dm stacker: 36 of 193), as a loop of its own
// without calls, which keeps its values in registers, on the boxes'
// addresses (meetAt) rather than their indices (in filteredBroadPhase's
// loop, some 25 instructions a pair that does not meet, with the values
// reloaded from the stack and the indices' bounds checked).
//
//go:noinline
func (c *collider) nextMeeting(k int, sw bool) int {
	if sw {
		return c.nextMarkedMeeting(k)
	}
	at := c.meetAt
	for ; k < len(at); k++ {
		if p := &at[k]; meetsZXY(p[0], p[1]) {
			return k
		}
	}
	return len(at)
}

// meetsZXY is a.Meets(b) with its comparisons in another order: the z
// axis first, b's lower bound before a's, then x, then y. A conjunction
// of comparisons without side effects gives the same answer in any
// order (a NaN fails each), and this one fails sooner on the listed pairs
// that nextMeeting scans: a floor's box (a, geometry 0 of an MJCF model)
// is bounded on z alone, at its top, and the robots' and dm stacker's
// geometries lie in the x–z plane, where y separates nothing.
func meetsZXY(a, b *geometry.AABB) bool {
	return b.Min[2] <= a.Max[2] && a.Min[2] <= b.Max[2] &&
		a.Min[0] <= b.Max[0] && b.Min[0] <= a.Max[0] &&
		a.Min[1] <= b.Max[1] && b.Min[1] <= a.Max[1]
}

// nextMarkedMeeting is nextMeeting among the pairs the sweep marked, out
// of nextMeeting's loop (clutter-40: a model with many pairs).
//
//go:noinline
func (c *collider) nextMarkedMeeting(k int) int {
	at := c.meetAt
	for ; k < len(at); k++ {
		if k = c.sweep.nextMarked(k); k >= len(at) {
			break
		}
		if p := &at[k]; p[0].Meets(p[1]) {
			return k
		}
	}
	return len(at)
}

// pairSweep finds, for filteredBroadPhase, the listed pairs whose boxes
// meet without testing every pair. A half-space's box is unbounded on
// some axis (on every axis for a plane not perpendicular to one), so its
// pairs are tested one by one; the other pairs are found by sweep and
// prune along one world axis: their geometries sorted by their boxes'
// lower bounds on the axis (an insertion sort from the last call's order,
// nearly sorted when the geometries move little), each is tested against
// the geometries after it whose lower bound does not pass its upper one.
// A pair meets only if its boxes overlap on the axis, so it is among
// those (the one of lower bound a, b ≥ a, overlaps the other on the axis
// exactly when b ≤ its upper bound, and every geometry between them in
// the order has a lower bound ≤ b), and Meets decides as the plain loop
// does. The pairs found are marked in a bit set by listed index, read in
// increasing order (nextMarked). dm_control's stacker: 22 geometries,
// 193 listed pairs of which 72 of a half-space; of the other 121, about
// 35 overlap on the z axis.
type pairSweep struct {
	on    bool
	ax    int // the axis, −1 until the first call (chooseAxis)
	n     int // the model's geometries: index's stride
	swept int // the listed pairs without a half-space
	items []sweepItem
	// index holds the listed index of the pair of geometries i and j at
	// i·n + j and j·n + i, −1 for a pair not listed or of a half-space.
	index []int32
	// planes holds the listed pairs of a half-space with their indices.
	planes []sweepPlane
	hit    []uint64 // the marked listed indices, cleared as read
}

// sweepItem is a swept geometry g with its box's bounds on the axis.
type sweepItem struct {
	lo, hi float64
	g      int32
}

// sweepPlane is a listed pair pr of a half-space and its listed index k.
type sweepPlane struct {
	pr [2]int32
	k  int32
}

// sweepPairsPerGeometry is how many listed pairs without a half-space a
// swept geometry a model needs for filteredBroadPhase to sweep
// (pairSweep): a sweep costs some 80 instructions a geometry (its sort
// included), 30 a half-space pair and 25 a pair that overlaps on the
// axis, the plain loop 26 a listed pair (callgrind). clutter-40 (936
// pairs of 44 geometries) sweeps; dm_control's stacker (121 of 18, some
// 40 of which overlap on z) cost as much either way, and half_cheetah (8
// pairs, each of the floor) and manipulator (244 of 25) test their pairs
// one by one.
const sweepPairsPerGeometry = 12

// init sets sw for the listed pairs of the n geometries of a model, with
// plane[k] ≥ 0 for pairs[k] of a half-space (pairFilter), when those
// without one are at least sweepPairsPerGeometry a geometry they hold; it
// leaves sw off otherwise.
func (sw *pairSweep) init(n int, pairs [][2]int32, plane []int8) {
	*sw = pairSweep{}
	in := make([]bool, n)
	swept, items := 0, 0
	for k, pr := range pairs {
		if plane[k] >= 0 {
			continue
		}
		swept++
		for _, g := range pr {
			if !in[g] {
				in[g] = true
				items++
			}
		}
	}
	if swept > 0 && swept >= sweepPairsPerGeometry*items {
		sw.build(n, pairs, plane)
	}
}

// build turns sw on for the listed pairs of the n geometries of a model
// (plane as for init), its axis to be chosen at the first call.
func (sw *pairSweep) build(n int, pairs [][2]int32, plane []int8) {
	sw.on, sw.ax, sw.n = true, -1, n
	sw.index = make([]int32, n*n)
	for k := range sw.index {
		sw.index[k] = -1
	}
	in := make([]bool, n)
	for k, pr := range pairs {
		if plane[k] >= 0 {
			sw.planes = append(sw.planes, sweepPlane{pr: pr, k: int32(k)})
			continue
		}
		i, j := int(pr[0]), int(pr[1])
		sw.index[i*n+j], sw.index[j*n+i] = int32(k), int32(k)
		in[i], in[j] = true, true
		sw.swept++
	}
	for g, ok := range in {
		if ok {
			sw.items = append(sw.items, sweepItem{g: int32(g)})
		}
	}
	sw.hit = make([]uint64, (len(pairs)+63)/64)
}

// mark marks in sw.hit the listed pairs whose boxes meet and reports
// whether it did: not when a lower bound on the axis is NaN (no order to
// sweep in), nor when the sweep is not worth it (chooseAxis turns it
// off); the caller then tests every pair.
func (sw *pairSweep) mark(boxes []geometry.AABB) bool {
	if sw.ax < 0 {
		if sw.chooseAxis(boxes); !sw.on {
			return false
		}
	}
	if !sw.sort(boxes) {
		return false
	}
	for _, pl := range sw.planes {
		if boxes[pl.pr[0]].Meets(&boxes[pl.pr[1]]) {
			sw.set(pl.k)
		}
	}
	for a := range sw.items {
		hi, ga := sw.items[a].hi, int(sw.items[a].g)
		row := sw.index[ga*sw.n : ga*sw.n+sw.n]
		for _, it := range sw.items[a+1:] {
			if !(it.lo <= hi) {
				break // every later geometry starts beyond this one's end
			}
			if k := row[it.g]; k >= 0 && boxes[ga].Meets(&boxes[it.g]) {
				sw.set(k)
			}
		}
	}
	return true
}

// nextMarked returns the first marked listed index from k on, clearing
// the marks it passes and its own, or a number past the listed pairs
// when none is left.
func (sw *pairSweep) nextMarked(k int) int {
	for w := k >> 6; w < len(sw.hit); w++ {
		word := sw.hit[w] &^ (1<<(k&63) - 1) // the bits from k on
		sw.hit[w] = word
		if word != 0 {
			sw.hit[w] = word &^ (word & -word)
			return w<<6 | bits.TrailingZeros64(word)
		}
		k = (w + 1) << 6
	}
	return len(sw.hit) << 6
}

// set marks listed index k.
func (sw *pairSweep) set(k int32) { sw.hit[k>>6] |= 1 << (k & 63) }

// sort reads the items' bounds on the axis from boxes and sorts them by
// lower bound, by insertion from the last call's order, and reports
// whether the order is total: false when a lower bound is NaN, which
// compares with nothing.
func (sw *pairSweep) sort(boxes []geometry.AABB) bool {
	it, ax := sw.items, sw.ax
	for k := range it {
		b := &boxes[it[k].g]
		it[k].lo, it[k].hi = b.Min[ax], b.Max[ax]
	}
	for k := 1; k < len(it); k++ {
		x, j := it[k], k
		for ; j > 0 && it[j-1].lo > x.lo; j-- {
			it[j] = it[j-1]
		}
		it[j] = x
		// x moved to the front only past a lower bound above its own,
		// so a NaN shows as a pair in wrong order at j.
		if j > 0 && !(it[j-1].lo <= x.lo) {
			return false // a NaN: it[:k+1] is not known to be sorted
		}
	}
	return true
}

// chooseAxis sets sw.ax, at the first call, to the world axis on which
// the fewest pairs of swept geometries overlap at boxes, and turns sw off
// when the sweep would cost about as much as the plain loop: measured
// (callgrind), the loop takes some 26 instructions a pair, the sweep
// some 30 a geometry and 10 a pair that overlaps on the axis.
//
//go:noinline
func (sw *pairSweep) chooseAxis(boxes []geometry.AABB) {
	best, most := 0, -1
	for ax := range 3 {
		over := 0
		for a, ia := range sw.items {
			ba := &boxes[ia.g]
			for _, ib := range sw.items[a+1:] {
				if bb := &boxes[ib.g]; ba.Min[ax] <= bb.Max[ax] && bb.Min[ax] <= ba.Max[ax] {
					over++
				}
			}
		}
		if most < 0 || over < most {
			best, most = ax, over
		}
	}
	sw.ax = best
	sw.on = most+3*len(sw.items) <= 2*sw.swept
}

// filterGeom is what filteredBroadPhase reads of a listed geometry on a
// moving body, gathered once (filterSetup): its index, its body, its
// reach and margin + standoff, the first two terms of its inflation
// margin + standoff + spec (summed left to right, so the same bits).
type filterGeom struct {
	geom, body int
	reach, off float64
}

// filterSetup sizes c and computes its fixed geometries' poses and boxes
// (fixedPoses), lists the moving geometries of c's pairs (c.movers),
// chooses each pair's collider (c.routes) and sets the inflated boxes of
// the fixed ones once: a body welded to the
// world has no speculative margin (bodySpeed), so its geometries' boxes,
// margin + standoff + 0, are those of every call, and nothing else writes
// them while the filter is direct. It runs at the first call, before the
// loop rather than in it.
//
//go:noinline
func (sim *Simulator) filterSetup(c *collider, kin *multibody.Workspace) {
	m, margin := sim.Model, sim.cfg.Contact.Margin
	c.fixedPoses(m, kin, sim.cfg.Materials)
	c.movers = c.movers[:0]
	for _, i := range c.filter.geoms {
		g := &m.Geometries[i]
		off := margin + g.Standoff
		if c.fixed[i] {
			s := 0.0 // speculativeAt's margin of a body welded to the world
			c.boxes[i].SetInflated(&c.fixedBox[i], off+s)
			continue
		}
		c.movers = append(c.movers, filterGeom{geom: int(i), body: g.Body, reach: sim.ws.reach[i], off: off})
	}
	np := len(c.filter.pairs)
	c.sweep.init(len(m.Geometries), c.filter.pairs, c.filter.plane)
	c.listed, c.via = make([]listedPair, np), make([]int32, np)
	c.meetAt = make([][2]*geometry.AABB, np)
	if cap(c.cand) < np {
		c.cand = make([][2]int32, 0, np)
	}
	c.plain = true
	for k, pr := range c.filter.pairs {
		i, j := int(pr[0]), int(pr[1])
		lp := &c.listed[k]
		lp.pr, lp.h = pr, -1
		c.meetAt[k] = [2]*geometry.AABB{&c.boxes[i], &c.boxes[j]}
		lp.off = max(m.Geometries[i].Standoff, m.Geometries[j].Standoff)
		lp.route.mj = sim.mujocoMay(i, j)
		lp.route.any = c.found[i] || c.found[j] || lp.route.mj
		lp.route.pair = geometry.PairFor(m.Geometries[i].Shape.Kind, m.Geometries[j].Shape.Kind)
		if h := c.filter.plane[k]; h >= 0 && c.cull {
			lp.setCull(c, m.Geometries, margin, pr[h], pr[1-h])
			lp.wide = lp.h >= 0 && lp.fixed && unbounded(&c.fixedBox[lp.h])
			if lp.h >= 0 && lp.fixed && sim.meetKeeps(c, lp, m.Geometries) {
				lp.h = -1 // a floor's pair: planeCull keeps it whenever its boxes meet
			}
		}
		lp.plain = !lp.wide && lp.h < 0
		c.plain = c.plain && lp.plain
	}
}

// exactMeet gives the geometries of pair pr their exact boxes (exactBox)
// and reports whether these meet: filteredBroadPhase's test of a pair
// whose bounds met, kept out of its loop (a few pairs a step at most).
//
//go:noinline
func (sim *Simulator) exactMeet(c *collider, kin *multibody.Workspace, pr [2]int32, spec []float64) bool {
	sim.exactBox(c, kin, pr[0], spec)
	sim.exactBox(c, kin, pr[1], spec)
	return c.boxes[pr[0]].Meets(&c.boxes[pr[1]])
}

// exactBox replaces geometry i's coarse box (its ball bound), when it
// has one, by its inflated box as filteredBroadPhase's first loop forms
// it (movingBox): the same pose, the same d = margin + standoff +
// spec[i], so the same bits.
func (sim *Simulator) exactBox(c *collider, kin *multibody.Workspace, i int32, spec []float64) {
	if !c.moved[i].coarse {
		return
	}
	c.moved[i].coarse = false
	g := &sim.Model.Geometries[i]
	s := 0.0
	if spec != nil {
		s = spec[i]
	}
	c.movingBox(int(i), g, kin.PoseOf(g.Body), sim.cfg.Contact.Margin+g.Standoff+s)
}

// ballRetry is how many filteredBroadPhase calls a geometry whose box
// met a partner's takes its exact box without trying its ball bound
// first: a geometry near its partners (a foot near the floor, a box on a
// box) would mostly pay for both.
const ballRetry = 8

// ballQuatTol bounds how far from 1 the squared norm of a body's
// quaternion may be for filteredBroadPhase's ball bound; ballWiden is the
// relative widening of the bound (of the sizes of its terms), far above
// the 2·ballQuatTol stretch and the few ulps of rounding in
// placeGeometry, SetBox and SetInflated.
const (
	ballQuatTol = 1e-6
	ballWiden   = 1e-5
)

// ballShape reports whether filteredBroadPhase may bound a geometry of
// kind k by its ball bound: the kinds whose box at any pose lies inside
// the ball of its box at the identity (not a half-space, unbounded, nor a
// height field, static only).
func ballShape(k geometry.Kind) bool {
	switch k {
	case geometry.Sphere, geometry.Capsule, geometry.Box, geometry.Cylinder, geometry.Ellipsoid, geometry.ConvexHull:
		return true
	}
	return false
}

// fixedPoses sizes c for m's geometries and computes once the world poses
// and bounding boxes of those on bodies welded to the world (Body.Tree < 0),
// which every kinematics update leaves at their model poses: the same
// expressions as geometryBoxes', so the same bits; and which of them are
// half-spaces to cull against (beyondHalfSpace), with their normals.
func (c *collider) fixedPoses(m *multibody.Model, kin *multibody.Workspace, mats []contact.Material) {
	n := len(m.Geometries)
	c.poses, c.boxes = make([]spatial.Pose, n), make([]geometry.AABB, n)
	c.fixed, c.fixedBox = make([]bool, n), make([]geometry.AABB, n)
	c.local = make([]localShape, n)
	c.moved = make([]movedBox, n)
	c.planes, c.halves = make([]bool, n), make([]halfPlane, n)
	c.posed, c.found = make([]geometry.Posed, n), make([]bool, n)
	for i, g := range m.Geometries {
		c.moved[i].ball = ballShape(g.Shape.Kind)
		c.local[i] = localShape{rotI: g.Pose.R == spatial.QuatIdentity(), pos0: g.Pose.P == spatial.Vec3{}}
		c.found[i] = foundation(mats, g.Material)
		c.posed[i].SetShape(&g.Shape)
		if m.Bodies[g.Body].Tree < 0 {
			c.fixed[i] = true
			c.poses[i] = kin.Pose(g.Body).Compose(g.Pose)
			c.fixedBox[i] = g.Shape.AABB(c.poses[i])
			c.planes[i] = g.Shape.Kind == geometry.HalfSpace && !foundation(mats, g.Material)
			n := halfSpaceNormal(&c.poses[i])
			c.halves[i] = newHalfPlane(&n, &c.poses[i].P)
		}
	}
}

// stageBroadPhase is broadPhase without speculative margins for the rk4
// stages (stageContacts), with the same candidate pairs in the same order
// but without rebuilding the broad phase's tree while every geometry's
// box stays inside its envelope: the box at the last rebuild grown by
// envelopeSlack. The pairs whose boxes overlap are then a subset of the
// pairs whose envelopes overlap (c.envCand, in increasing (i, j) order as
// geometry.BroadPhase.Pairs returns them), and filtering c.envCand by
// geometry.AABB.Overlaps of the boxes yields broadPhase's list, in its
// order. MuJoCo re-collides at every stage too (mj_RungeKutta); only the
// tree is kept. A model with few collidable pairs (pairFilter.direct)
// tests them as the step does (filteredBroadPhase), without speculative
// margins: the same pairs after Collidable, in the same order.
func (sim *Simulator) stageBroadPhase(c *collider, kin *multibody.Workspace) {
	if c.filter.direct {
		sim.filteredBroadPhase(c, kin, nil) // few collidable pairs: test them as the step does
		return
	}
	sim.geometryBoxes(c, kin, nil)
	if !c.enveloped() {
		c.env = append(c.env[:0], c.boxes...)
		for i := range c.env {
			c.env[i] = c.env[i].Inflate(envelopeSlack(c.env[i]))
		}
		c.envCand = c.broad.Pairs(c.env, c.envCand[:0])
		c.rebuilds++
	}
	c.cand = c.cand[:0]
	for _, cd := range c.envCand {
		if c.boxes[cd[0]].Meets(&c.boxes[cd[1]]) {
			c.cand = append(c.cand, cd)
		}
	}
}

// enveloped reports whether every box of c lies inside its envelope.
func (c *collider) enveloped() bool {
	if len(c.env) != len(c.boxes) {
		return false
	}
	for i, b := range c.boxes {
		e := &c.env[i]
		for k := range 3 {
			if !(b.Min[k] >= e.Min[k] && b.Max[k] <= e.Max[k]) {
				return false
			}
		}
	}
	return true
}

// envelopeSlack returns how far a stage envelope grows the box b: half its
// largest finite extent (0 for a box with none, such as a half-space's),
// so that a geometry can move by half its size before the tree is
// rebuilt.
func envelopeSlack(b geometry.AABB) float64 {
	s := 0.0
	for k := range 3 {
		if e := b.Max[k] - b.Min[k]; e < math.Inf(1) {
			s = math.Max(s, 0.5*e)
		}
	}
	return s
}

// narrowPhase appends to pairs the contact points of c's candidate pairs
// that multibody.Model.Collidable admits, geometry i as A and j as B: each
// point whose gap, less the pair's standoff (MuJoCo's margin − gap), is
// within the contact margin and, with the speculative margins spec (nil:
// none), a farther one that can close within the step (closing). A
// candidate of filteredBroadPhase (screened) is a listed pair, whose
// standoff and collider were set once (filterSetup); the tree's are
// screened here (unscreened).
func (sim *Simulator) narrowPhase(c *collider, spec []float64, pairs []contact.Pair) []contact.Pair {
	m, margin := sim.Model, sim.cfg.Contact.Margin
	for n, cd := range c.cand {
		i, j := int(cd[0]), int(cd[1])
		if sim.sleep.skip(i, j) {
			continue
		}
		var off float64
		if c.screened {
			lp := &c.listed[c.via[n]]
			off = lp.off
			slack := margin + off // pairSlack's sum, left to right
			if spec != nil {
				slack = slack + spec[i] + spec[j]
			}
			if lp.route.any {
				c.hits = sim.collideAny(c, i, j, slack, lp.route.mj, c.hits[:0])
			} else { // the pair's collider chosen once (filterSetup)
				c.hits = lp.route.pair.Collide(c.posedAt(i), c.posedAt(j), slack, c.hits[:0])
			}
		} else {
			var ok bool
			if off, ok = sim.treePair(c, i, j, spec); !ok {
				continue // not collidable, or culled (unscreened)
			}
		}
		for k := range c.hits { // each point read in place, the pair's fields set in the list
			h := &c.hits[k]
			h.Phi -= off // the contact acts at the standoff
			chained := false
			if h.Phi > margin {
				if spec == nil {
					continue
				}
				var keep bool
				if keep, chained = sim.closingPair(i, j, h); !keep {
					continue
				}
			}
			if len(pairs) == cap(pairs) {
				pairs = growPairs(pairs)
			}
			pairs = pairs[:len(pairs)+1]
			pr := &pairs[len(pairs)-1]
			*pr = contact.Pair{}
			pr.GeomA, pr.GeomB, pr.BodyA, pr.BodyB = i, j, m.Geometries[i].Body, m.Geometries[j].Body
			pr.Contact, pr.Chained, pr.Standoff = *h, chained, off
		}
	}
	return pairs
}

// closingPair is closing for the point h of geometries i and j, their
// bodies and reaches read here: narrowPhase's test of a point beyond the
// contact margin, out of its loop.
//
//go:noinline
func (sim *Simulator) closingPair(i, j int, h *geometry.Contact) (keep, chained bool) {
	gs, r := sim.Model.Geometries, sim.ws.reach
	return sim.closing(gs[i].Body, gs[j].Body, r[i], r[j], h)
}

// growPairs returns pairs with room for one more: narrowPhase's growth,
// out of its loop.
//
//go:noinline
func growPairs(pairs []contact.Pair) []contact.Pair { return slices.Grow(pairs, 1) }

// treePair collides the candidate pair (i, j) of the broad phase's tree
// into c.hits and returns its standoff (the larger of its geometries'),
// unless the narrow phase drops the pair (unscreened): narrowPhase's path
// for a candidate not screened, out of line.
//
//go:noinline
func (sim *Simulator) treePair(c *collider, i, j int, spec []float64) (float64, bool) {
	slack := sim.pairSlack(i, j, spec)
	if sim.unscreened(c, i, j, slack) {
		return 0, false
	}
	c.hits = sim.collideAny(c, i, j, slack, sim.mujocoMay(i, j), c.hits[:0])
	gs := sim.Model.Geometries
	return max(gs[i].Standoff, gs[j].Standoff), true
}

// unscreened reports whether the narrow phase drops candidate pair (i, j)
// of a broad phase that did not screen it (collider.screened): one that
// multibody.Model.Collidable does not admit, or, when c culls, one with no
// point of the other geometry within slack of a half-space
// (beyondHalfSpace), which it counts.
func (sim *Simulator) unscreened(c *collider, i, j int, slack float64) bool {
	if !sim.Model.Collidable(i, j) {
		return true
	}
	if c.cull && sim.beyondHalfSpace(c, i, j, slack) {
		c.culled++
		return true
	}
	return false
}

// collideAny appends the points of geometries i and j within slack from
// MuJoCo's convex collider for its pairs (mujocoConvex, mjccd.go; may is
// mujocoMay(i, j)), else collidePair's: the narrow phase's collider of a
// pair not chosen once (pairRoute), out of line.
//
//go:noinline
func (sim *Simulator) collideAny(c *collider, i, j int, slack float64, may bool, out []geometry.Contact) []geometry.Contact {
	if !may {
		return sim.collidePair(c, i, j, slack, out)
	}
	if hits, mj := sim.mujocoConvex(c, i, j, slack, out); mj {
		return hits
	}
	return sim.collidePair(c, i, j, slack, out)
}

// collidePair appends the points of geometries i and j within slack:
// geometry.Collide's, with each geometry's rotation matrix formed once per
// pose (posedAt), or a foundation's elements (contact.Collide).
func (sim *Simulator) collidePair(c *collider, i, j int, slack float64, out []geometry.Contact) []geometry.Contact {
	gs := sim.Model.Geometries
	if c.found[i] || c.found[j] {
		return contact.Collide(sim.cfg.Materials, &gs[i], c.poses[i], &gs[j], c.poses[j], slack, out)
	}
	return geometry.CollidePosed(c.posedAt(i), c.posedAt(j), slack, out)
}

// posedAt returns geometry i at its pose in c.poses as geometry.Posed,
// moved there (geometry.Posed.Move) at the first call after the pose
// changed; its shape was set once (fixedPoses).
func (c *collider) posedAt(i int) *geometry.Posed {
	p, mb := &c.posed[i], &c.moved[i] // each indexed once
	if !mb.posed {
		p.Move(&c.poses[i]) // its shape set once (fixedPoses)
		mb.posed = true
	}
	return p
}

// pairSlack returns the narrow phase's margin for geometries i and j:
// the contact margin, the larger of their standoffs and, with the
// speculative margins spec (nil: none), the sum of theirs.
func (sim *Simulator) pairSlack(i, j int, spec []float64) float64 {
	gs, margin := sim.Model.Geometries, sim.cfg.Contact.Margin
	off := max(gs[i].Standoff, gs[j].Standoff)
	if spec != nil {
		return margin + off + spec[i] + spec[j]
	}
	return margin + off
}

// closing reports whether the gap φ0 of contact h between bodies a and b,
// whose geometries reach ra and rb from their origins, can close within the
// step (see detectContacts), with v_n = n̂·(v_b(p) − v_a(p)) at the start
// of the step, and whether only a chained impact can close it.
//
// Chained impacts: either body may be stopped by another contact within
// the step, so the pair may close at the speed at which either body moves
// toward the other even when their relative normal velocity is zero (a
// falling column whose bottom lands; counting only −v_n, spheres of a
// dropped 100-sphere column passed through each other). Such a pair is a
// contact with v̂_n = −φ0/δt (contact.Pair.Chained): it stops the bodies at
// the surface if one of them is stopped, and does nothing before.
func (sim *Simulator) closing(a, b int, ra, rb float64, h *geometry.Contact) (keep, chained bool) {
	prm := &sim.cfg.Contact
	if !prm.Speculative {
		return false, false
	}
	dt := sim.cfg.DT
	va, sa := sim.motionAt(a, &h.Point, ra)
	vb, sb := sim.motionAt(b, &h.Point, rb)
	n := &h.Normal
	vn := n[0]*(vb[0]-va[0]) + n[1]*(vb[1]-va[1]) + n[2]*(vb[2]-va[2]) // n̂·(v_b − v_a), as Vec3.Dot and Sub form it
	spin := 2 * (sa + sb)
	g := sim.Model.Gravity.Norm() * dt * dt
	// The approach speeds tested in turn: (−v_n)₊, then the chained one,
	// the larger of n̂·v_a and −n̂·v_b.
	us := [2]float64{max(0, -vn), max(n[0]*va[0]+n[1]*va[1]+n[2]*va[2], -(n[0]*vb[0] + n[1]*vb[1] + n[2]*vb[2]))}
	for k, u := range us {
		if h.Phi <= prm.Margin+min(prm.SpeculativeMax, (u+spin)*dt+g) {
			return true, k == 1
		}
	}
	return false, false
}

// motionAt returns, for body b at the start of the step, the velocity of
// its material point at world position p and ‖ω‖ r, r being how far its
// geometry reaches from its origin: v + ω × (p − x.P) and ‖ω‖ r as Vec3's
// Add, Cross, Sub and Norm form them; zero for a body welded to the world
// (whose half-spaces reach infinitely far). One copy for closing's two
// bodies.
//
//go:noinline
func (sim *Simulator) motionAt(b int, p *spatial.Vec3, r float64) (v spatial.Vec3, spin float64) {
	if sim.Model.Bodies[b].Tree < 0 {
		return spatial.Vec3{}, 0
	}
	w, vb := sim.ws.kin0.VelocityOf(b)
	x := &sim.ws.kin0.PoseOf(b).P
	d0, d1, d2 := p[0]-x[0], p[1]-x[1], p[2]-x[2]
	v = spatial.Vec3{vb[0] + (w[1]*d2 - w[2]*d1), vb[1] + (w[2]*d0 - w[0]*d2), vb[2] + (w[0]*d1 - w[1]*d0)}
	return v, normAt(w) * r
}

// speculative returns the speculative margin of a geometry on body b that
// reaches r from the body's origin: min(cap, (‖v‖ + ‖ω‖ r) δt), or 0 when
// speculative contact is off or the body is welded to the world.
func (sim *Simulator) speculative(b int, r float64) float64 {
	sp := sim.bodySpeed(b)
	return sim.speculativeAt(&sp, r)
}

// bodySpeed is what speculative reads of a body: its speed ‖v‖ and
// angular speed ‖ω‖ at the start of the step, and whether it has a
// speculative margin at all (on, and not welded to the world).
type bodySpeed struct {
	body   int
	v, w   float64
	moving bool
}

// bodySpeed returns body b's bodySpeed.
func (sim *Simulator) bodySpeed(b int) bodySpeed {
	if !sim.cfg.Contact.Speculative || sim.Model.Bodies[b].Tree < 0 {
		return bodySpeed{body: b}
	}
	wb, vb := sim.ws.kin0.VelocityOf(b)
	return bodySpeed{body: b, v: normAt(vb), w: normAt(wb), moving: true}
}

// normAt is spatial.Vec3.Norm, the same expression, of a vector read in
// place: Norm's value receiver made bodySpeed copy each vector three
// times (sixteen moves) before the three products.
func normAt(a *spatial.Vec3) float64 { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }

// speculativeAt returns speculative's margin for a geometry reaching r
// from the origin of the body of speeds sp.
func (sim *Simulator) speculativeAt(sp *bodySpeed, r float64) float64 {
	if !sp.moving {
		return 0
	}
	return min(sim.cfg.Contact.SpeculativeMax, (sp.v+sp.w*r)*sim.cfg.DT)
}

// reach returns how far geometry g reaches from its body's origin: the
// distance of its shape's origin plus the radius of the shape's bounding
// box about it (+Inf for a half-space, which is only on welded bodies).
func reach(g *geometry.Shape, x spatial.Pose) float64 {
	box := g.AABB(spatial.PoseIdentity())
	r := 0.0
	for k := range 3 {
		e := max(math.Abs(box.Min[k]), math.Abs(box.Max[k]))
		r += e * e
	}
	return x.P.Norm() + math.Sqrt(r)
}
