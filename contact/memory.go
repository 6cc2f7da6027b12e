package contact

import (
	"cmp"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Memo is what the Memory keeps of one contact point from one step to the
// next, and what a checkpoint saves of it. A contact point is identified
// by its two geometries and its feature within their manifold
// (geometry.Contact.Feature).
type Memo struct {
	GeomA, GeomB int32
	Feature      uint32
	Age          int        // consecutive steps the point has existed (0: its first)
	Impulse      [3]float64 // γ of the step, contact frame (t1, t2, n)
	PhiEnd       float64    // the gap predicted for the end of the step, φ0 + δt v_n
	Anchored     bool       // the contact sticks and has a friction anchor
	Shift        [3]float64 // slip accumulated since the stick began, world frame
	Rolled, Spun bool       // whether rolling and spin friction keep an anchor
	Roll         [3]float64 // rotation about the tangent axes since rolling stopped, world frame
	Spin         float64    // rotation about the normal since spinning stopped
}

// memoKey is the identity of a contact point across steps.
type memoKey struct {
	a, b    int32
	feature uint32
}

func (m *Memo) key() memoKey { return memoKey{a: m.GeomA, b: m.GeomB, feature: m.Feature} }

func pairKey(pr *Pair) memoKey {
	return memoKey{a: int32(pr.GeomA), b: int32(pr.GeomB), feature: pr.Feature}
}

func (k memoKey) compare(o memoKey) int {
	if c := cmp.Compare(k.a, o.a); c != 0 {
		return c
	}
	if c := cmp.Compare(k.b, o.b); c != 0 {
		return c
	}
	return cmp.Compare(k.feature, o.feature)
}

// less reports whether k.compare(o) < 0. The signed a and b, their sign
// bits flipped, order as unsigned numbers, so the pair (a, b) is compared
// as one uint64: small enough to be inlined into the searches, which ask
// it for every pair of every step.
func (k memoKey) less(o memoKey) bool {
	x, y := k.ab(), o.ab()
	return x < y || x == y && k.feature < o.feature
}

// ab returns a and b as one uint64 whose unsigned order is that of (a, b)
// (a first, both signed).
func (k memoKey) ab() uint64 {
	return uint64(uint32(k.a)^1<<31)<<32 | uint64(uint32(k.b)^1<<31)
}

func compareMemos(x, y Memo) int { return x.key().compare(y.key()) }

// Memory is the memory of persistent contacts: the contact points of the
// last step, by identity, with their impulses, predicted gaps and friction
// anchors. It is state, not scratch (the next step depends on it, and
// checkpoints save it). A step calls Recall on its new pairs before it
// assembles them and Remember after the solve. The zero Memory is empty
// and ready; once warmed up, neither call allocates.
type Memory struct {
	memos []Memo  // the last step's contacts, sorted by key
	next  []Memo  // being built by Remember
	dt    float64 // the time step of the memos' impulses (0: none yet)
	// Keep marks, per geometry, those whose contacts Remember keeps when
	// the step did not detect them: a remembered contact between two kept
	// geometries (sim's sleeping bodies and the world's) is carried over
	// unchanged, so that an island that wakes finds its contacts' impulses
	// and anchors as they were when it fell asleep. nil keeps none.
	Keep []bool
}

// Recall sets what the previous step knew of each pair (the Pair fields
// Age, PrevImpulse, GapError and the friction, rolling and spin anchors)
// from the remembered contact with the same identity, and clears them for
// a new contact. An anchored contact's shifts are projected on the current
// tangent plane.
func (mem *Memory) Recall(pairs []Pair) {
	guess := 0 // where pair i's memo is when the pairs come in the memos' order (findFrom)
	for i := range pairs {
		pr := &pairs[i]
		k, j := pairKey(pr), guess
		if !mem.guessed(k, j) { // findFrom, its guess in line
			var ok bool
			if j, ok = mem.find(k); !ok {
				fresh(pr)
				continue
			}
		}
		guess = j + 1
		mm := &mem.memos[j]
		// Set from the memo, not all cleared first and then set (the
		// shifts excepted): the same values.
		// The impulse element by element: the array was copied through
		// a temporary on the stack.
		pr.Age, pr.PrevImpulse[0], pr.PrevImpulse[1], pr.PrevImpulse[2] = mm.Age+1, mm.Impulse[0], mm.Impulse[1], mm.Impulse[2]
		pr.GapError = min(0, pr.Phi-mm.PhiEnd)
		pr.Anchored, pr.RollAnchored = mm.Anchored, mm.Rolled
		if pr.AnchorShift = (spatial.Vec3{}); mm.Anchored {
			pr.AnchorShift = onPlane((*spatial.Vec3)(&mm.Shift), &pr.Normal)
		}
		if pr.RollShift = (spatial.Vec3{}); mm.Rolled {
			recallRoll(pr, mm)
		}
		pr.SpinAnchored, pr.SpinShift = mm.Spun, mm.Spin
	}
}

// recallRoll sets pr's rolling shift from memo mm, projected on pr's
// tangent plane: out of Recall's line, which most contacts (no rolling
// friction anchor) skip.
//
//go:noinline
func recallRoll(pr *Pair, mm *Memo) {
	pr.RollShift = onPlane((*spatial.Vec3)(&mm.Roll), &pr.Normal)
}

// fresh clears what Recall sets of pair pr, a contact new at this step:
// out of Recall's loop, which mostly finds its pairs remembered.
//
//go:noinline
func fresh(pr *Pair) {
	pr.Age, pr.PrevImpulse, pr.Anchored, pr.AnchorShift, pr.GapError = 0, [3]float64{}, false, spatial.Vec3{}, 0
	pr.RollAnchored, pr.RollShift, pr.SpinAnchored, pr.SpinShift = false, spatial.Vec3{}, false, 0
}

// find returns the index of the first memo whose key is not below k and
// whether its key is k, as slices.BinarySearchFunc does, reading the
// memos in place rather than copying each one it compares.
func (mem *Memory) find(k memoKey) (int, bool) {
	lo, hi := 0, len(mem.memos)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if mem.memos[mid].key().less(k) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < len(mem.memos) && mem.memos[lo].key() == k
}

// findFrom is find, trying the index guess first: a step's pairs mostly
// come in key order and are the last step's contacts, so the memo of the
// pair after the one found at j is usually at j + 1. The guess is the
// answer when its key is k and the memo before it (if any) is below k,
// which is what find's search would establish, so the answer is find's.
func (mem *Memory) findFrom(k memoKey, guess int) (int, bool) {
	if mem.guessed(k, guess) {
		return guess, true
	}
	return mem.find(k)
}

// guessed reports whether memo guess is the one find would answer for k
// (findFrom's test): its key is k and the memo before it (if any) is
// below k, which in the sorted memos is its key not being k. Small
// enough to be inlined in Recall's loop, which calls find only when it
// fails.
func (mem *Memory) guessed(k memoKey, guess int) bool {
	ms := mem.memos
	if guess >= len(ms) || ms[guess].key() != k {
		return false
	}
	return guess == 0 || ms[guess-1].key() != k
}

// sortMemos sorts memos by key, unless their keys already increase
// strictly (a step's pairs usually come in key order): then every sort
// leaves them as they are, and the check, which reads them in place,
// saves the sort's copies of each memo it compares.
func sortMemos(memos []Memo) {
	for i := 1; i < len(memos); i++ {
		if !memos[i-1].key().less(memos[i].key()) {
			slices.SortFunc(memos, compareMemos)
			return
		}
	}
}

// onPlane returns x less its component along the unit normal n,
// x.Sub(n.Scale(x.Dot(n))) element by element (the same operations,
// without the method chain's temporaries), read in place.
func onPlane(x, n *spatial.Vec3) spatial.Vec3 {
	d := x[0]*n[0] + x[1]*n[1] + x[2]*n[2]
	return spatial.Vec3{x[0] - d*n[0], x[1] - d*n[1], x[2] - d*n[2]}
}

// Remember replaces the memory with the step's contacts: pairs as given to
// a.Assemble, the step's problem p and its solution res (impulses γ and
// contact velocities v_c). It records each contact's impulse, the gap
// predicted for the end of the step, φ0 + δt v_n, and its anchors
// (anchor, anchorRotation), with the δt and Params of that Assemble.
func (mem *Memory) Remember(pairs []Pair, a *Assembler, p *solver.Problem, res *solver.Result) {
	if cap(mem.next) < len(pairs) {
		mem.next = growMemos(mem.next, len(pairs))
	}
	mem.next = mem.next[:len(pairs)] // its length alone: the whole slice stored back had a write barrier in line
	for i := range pairs {
		pr, mm := &pairs[i], &mem.next[i] // built in place: a Memo is 128 bytes
		row := p.Constraints[a.base+i].Row
		// Cleared in place, then set field by field: the literal was
		// built in a temporary and copied, 128 bytes.
		*mm = Memo{}
		mm.GeomA, mm.GeomB, mm.Feature, mm.Age = int32(pr.GeomA), int32(pr.GeomB), pr.Feature, pr.Age
		mm.Impulse = [3]float64(res.Gamma[row : row+3])
		mm.PhiEnd = pr.Phi + a.dt*res.VC[row+2]
		a.anchor(mm, pr, i, row, p, res)
		if len(a.extra) > 0 { // else no pair has a rolling or spin block (every pair state's roll and spin are −1)
			a.anchorRotation(mm, pr, i, p, res)
		}
	}
	if mem.Keep != nil {
		mem.keepAsleep()
	}
	sortMemos(mem.next)
	mem.memos, mem.next = mem.next, mem.memos
	mem.dt = a.dt
}

// keepAsleep appends to mem.next the remembered contacts between two
// geometries that mem.Keep keeps (asleep: not detected, kept as they
// were). It is out of Remember's line: a scene without sleeping bodies
// never runs it, and inlined, its loop and append's growth sat between
// Remember's hot blocks (BENCHMARKS.md, the hundred-and-sixty-fifth pass).
//
//go:noinline
func (mem *Memory) keepAsleep() {
	for _, mm := range mem.memos {
		if mem.Keep[mm.GeomA] && mem.Keep[mm.GeomB] {
			mem.next = append(mem.next, mm)
		}
	}
}

// growMemos returns storage for n memos (contents not kept) when m's is
// too short: Remember's allocation, out of its line.
//
//go:noinline
func growMemos(m []Memo, n int) []Memo {
	return make([]Memo, n, max(n, 2*cap(m)))
}

// Rescale makes the remembered impulses those of a step of dt: a step
// split into substeps remembers a substep's impulses, which bound the next
// (sub)step's Lagged friction and estimate its load, so they are scaled by
// dt over the step they were taken over. Nothing changes when dt is that
// step (or unknown).
func (mem *Memory) Rescale(dt float64) {
	if mem.dt == 0 || mem.dt == dt {
		mem.dt = dt
		return
	}
	f := dt / mem.dt
	for i := range mem.memos {
		for k := range 3 {
			mem.memos[i].Impulse[k] *= f
		}
	}
	mem.dt = dt
}

// Len returns how many contacts mem remembers.
func (mem *Memory) Len() int { return len(mem.memos) }

// CopyFrom makes mem a copy of src, reusing mem's storage.
func (mem *Memory) CopyFrom(src *Memory) {
	mem.memos = append(mem.memos[:0], src.memos...)
	mem.dt = src.dt
}

// Memos returns a copy of the remembered contacts in key order (nil when
// there are none, as encoding/gob decodes an empty list). Between steps
// their impulses are those of a whole step (Rescale).
func (mem *Memory) Memos() []Memo {
	if len(mem.memos) == 0 {
		return nil
	}
	return slices.Clone(mem.memos)
}

// Restore replaces the memory with memos (a checkpoint's, in any order),
// whose impulses are those of steps of dt.
func (mem *Memory) Restore(memos []Memo, dt float64) {
	mem.memos, mem.dt = append(mem.memos[:0], memos...), dt
	slices.SortFunc(mem.memos, compareMemos)
}

// anchor sets the friction anchor of memo mm of pair i after the solve:
// none when the contact carries no load; otherwise the slip accumulated
// since the anchor was set, Δx ← Δx + δt v_t (v_t the solve's tangential
// contact velocity, in the world frame). The slip is the displacement of
// B's material point relative to A's at the contact point: a rolling or
// spinning contact does not slip and accumulates nothing. When the contact
// slides (its friction is on the bound), Δx is cut to the largest
// displacement its friction holds (anchorCap), so that the anchor is
// dragged along behind the slip, as in elasto-plastic friction models:
// sliding stops into a stick without a jump, and a load just inside the
// friction bound is held (dropping the anchor there would let the contact
// ratchet forward). A displacement beyond Params.AnchorRadius drops the
// anchor. row is the contact's first row (Remember has it).
func (a *Assembler) anchor(mm *Memo, pr *Pair, i, row int, p *solver.Problem, res *solver.Result) {
	if !(res.Gamma[row+2] > 0) {
		return
	}
	vc := res.VC[row : row+2]
	shift := tangentSum(a.frameOf(i, pr), a.dt*vc[0], a.dt*vc[1])
	if pr.Anchored {
		shift[0], shift[1], shift[2] = shift[0]+pr.AnchorShift[0], shift[1]+pr.AnchorShift[1], shift[2]+pr.AnchorShift[2]
	}
	// sticking and anchorCap of the same bound, asked of the problem once
	// (γ_n > 0 here).
	if bound := p.FrictionBound(a.base+i, res.Gamma); !inBound(res.Gamma[row:row+3], bound) {
		a.capShift(&shift, i, bound, p)
	}
	if norm3(&shift) > a.anchorRadius {
		return
	}
	// Element by element: the array went through a temporary on the stack.
	mm.Anchored, mm.Shift[0], mm.Shift[1], mm.Shift[2] = true, shift[0], shift[1], shift[2]
}

// capShift cuts the slip of a sliding contact i (friction bound bound) to
// anchorCap: out of anchor's line, which a sticking contact skips.
//
//go:noinline
func (a *Assembler) capShift(shift *spatial.Vec3, i int, bound float64, p *solver.Problem) {
	capNorm(shift, a.anchorCap(i, bound, p))
}

// anchorRotation sets the rolling and spin friction anchors of memo mm of
// pair i after the solve, as anchor does for sliding: the relative
// rotation about the tangent axes (the normal) accumulates, Δθ ← Δθ +
// δt ω_rel, and is fed back as the block's v̂ = −Δθ/(δt + τd) next step;
// while the block is on its bound (rolling, spinning) Δθ is cut to
// rotationCap, the anchor dragged along. Without anchors, regularized
// rolling friction (R = σw) lets a sphere resting in a dip roll away
// slowly, as sliding friction creeps. An accumulated rotation beyond
// Params.AnchorRadius radians drops the anchor.
func (a *Assembler) anchorRotation(mm *Memo, pr *Pair, i int, p *solver.Problem, res *solver.Result) {
	gamma, dt, lim := res.Gamma, a.dt, a.anchorRadius
	if c := a.per[i].roll; c >= 0 {
		row := p.Constraints[c].Row
		d := tangentSum(a.frameOf(i, pr), dt*res.VC[row], dt*res.VC[row+1])
		if pr.RollAnchored {
			d = d.Add(pr.RollShift)
		}
		if !holds(p, c, gamma) {
			capNorm(&d, a.rotationCap(i, c, p))
		}
		if norm3(&d) <= lim {
			mm.Rolled, mm.Roll = true, d
		}
	}
	if c := a.per[i].spin; c >= 0 {
		d := dt * res.VC[p.Constraints[c].Row]
		if pr.SpinAnchored {
			d += pr.SpinShift
		}
		if !holds(p, c, gamma) {
			cp := a.rotationCap(i, c, p)
			d = max(-cp, min(d, cp))
		}
		if math.Abs(d) <= lim {
			mm.Spun, mm.Spin = true, d
		}
	}
}

// tangentSum returns s1 t1 + s2 t2 for the tangents t1, t2 of frame f:
// t1.Scale(s1).Add(t2.Scale(s2)), the same operations element by element,
// which the method chain formed through two temporaries on the stack
// (eight instruction-cache lines of anchor).
func tangentSum(f *frame, s1, s2 float64) spatial.Vec3 {
	t1, t2 := &f[0], &f[1]
	return spatial.Vec3{s1*t1[0] + s2*t2[0], s1*t1[1] + s2*t2[1], s1*t1[2] + s2*t2[2]}
}

// capNorm scales x down to norm c if it is longer: x.Scale(c/‖x‖), the
// same operations, in place.
func capNorm(x *spatial.Vec3, c float64) {
	if n := norm3(x); n > c {
		s := c / n
		x[0], x[1], x[2] = s*x[0], s*x[1], s*x[2]
	}
}

// norm3 returns ‖x‖, spatial.Vec3.Norm's operations, read in place (the
// method's copies of the vector were two instruction-cache lines at each
// of anchor's calls).
func norm3(x *spatial.Vec3) float64 { return math.Sqrt(x[0]*x[0] + x[1]*x[1] + x[2]*x[2]) }

// dot3 returns x·y in spatial.Vec3.Dot's order, read through pointers:
// the inlined Dot copied both vectors to the stack first.
func dot3(x, y *spatial.Vec3) float64 { return x[0]*y[0] + x[1]*y[1] + x[2]*y[2] }
