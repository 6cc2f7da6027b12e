package sim

import (
	"cmp"
	"slices"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/spatial"
)

// contactKey identifies a contact point across steps: the two geometries
// and the point's feature within their manifold (geometry.Contact.Feature).
type contactKey struct {
	a, b    int32
	feature uint32
}

func (k contactKey) compare(o contactKey) int {
	if c := cmp.Compare(k.a, o.a); c != 0 {
		return c
	}
	if c := cmp.Compare(k.b, o.b); c != 0 {
		return c
	}
	return cmp.Compare(k.feature, o.feature)
}

// contactMemo is what the simulator remembers of one contact point from one
// step to the next.
type contactMemo struct {
	key      contactKey
	age      int          // consecutive steps the point has existed
	impulse  [3]float64   // γ of the step, contact frame (t1, t2, n)
	phiEnd   float64      // the gap predicted for the end of the step, φ0 + δt v_n
	anchored bool         // the contact sticks and has a friction anchor
	anchorA  spatial.Vec3 // the anchored material point of body A, in A's frame
	anchorB  spatial.Vec3 // the anchored material point of body B, in B's frame
}

// contactMemory holds the contacts of the last step, sorted by key. It is
// part of the simulator's state (the next step depends on it), not scratch.
type contactMemory struct {
	memos []contactMemo // the last step's contacts, sorted by key
	next  []contactMemo // being built for the current step
}

// keyOf returns the persistent key of a pair.
func keyOf(pr *contact.Pair) contactKey {
	return contactKey{a: int32(pr.GeomA), b: int32(pr.GeomB), feature: pr.Feature}
}

// recallContacts sets the Age, PrevImpulse and friction anchor of every
// pair of the step from the contact of the previous step with the same key.
// An anchor is kept while the contact point stays within
// Contact.AnchorRadius of the anchored points' midpoint (a rolling contact
// moves away from its anchor and is re-anchored; a creeping one does not).
func (sim *Simulator) recallContacts() {
	mem := &sim.mem
	for i := range sim.ws.pairs {
		pr := &sim.ws.pairs[i]
		pr.Age, pr.PrevImpulse, pr.Anchored, pr.AnchorShift, pr.GapError = 0, [3]float64{}, false, spatial.Vec3{}, 0
		pr.AnchorA, pr.AnchorB = spatial.Vec3{}, spatial.Vec3{}
		k := keyOf(pr)
		j, ok := slices.BinarySearchFunc(mem.memos, k, func(m contactMemo, k contactKey) int { return m.key.compare(k) })
		if !ok {
			continue
		}
		mm := &mem.memos[j]
		pr.Age, pr.PrevImpulse = mm.age+1, mm.impulse
		pr.GapError = min(0, pr.Phi-mm.phiEnd)
		if !mm.anchored {
			continue
		}
		pa := sim.ws.kin0.Pose(pr.BodyA).Apply(mm.anchorA)
		pb := sim.ws.kin0.Pose(pr.BodyB).Apply(mm.anchorB)
		if pa.Add(pb).Scale(0.5).Sub(pr.Point).Norm() <= sim.cfg.Contact.AnchorRadius {
			pr.Anchored, pr.AnchorShift = true, pb.Sub(pa)
			pr.AnchorA, pr.AnchorB = mm.anchorA, mm.anchorB
		}
	}
}

// rememberContacts records the step's contacts and their impulses for the
// next step.
func (sim *Simulator) rememberContacts() {
	mem := &sim.mem
	gamma := sim.ws.result.Gamma
	mem.next = mem.next[:0]
	for i := range sim.ws.pairs {
		pr := &sim.ws.pairs[i]
		mm := contactMemo{key: keyOf(pr), age: pr.Age, impulse: [3]float64(gamma[3*i : 3*i+3])}
		mm.phiEnd = pr.Phi + sim.cfg.DT*sim.ws.result.VC[3*i+2]
		sim.anchor(&mm, pr, i)
		mem.next = append(mem.next, mm)
	}
	slices.SortFunc(mem.next, func(x, y contactMemo) int { return x.key.compare(y.key) })
	mem.memos, mem.next = mem.next, mem.memos
}

// anchor sets the friction anchor of memo mm of pair i after the solve:
// none when the contact does not stick; the anchor the pair already had
// when it still holds; else the pair's contact point at q0, as a material
// point of each body (sticking begins).
func (sim *Simulator) anchor(mm *contactMemo, pr *contact.Pair, i int) {
	w := &sim.ws
	if !w.assemble.Sticking(i, w.result.Gamma, &w.problem) {
		return
	}
	mm.anchored = true
	if pr.Anchored { // keep the anchor: the material points of the stick's start
		mm.anchorA, mm.anchorB = pr.AnchorA, pr.AnchorB
		return
	}
	mm.anchorA = w.kin0.Pose(pr.BodyA).ApplyInv(pr.Point)
	mm.anchorB = w.kin0.Pose(pr.BodyB).ApplyInv(pr.Point)
}

// export returns the memory as checkpoint records.
func (mem *contactMemory) export() []ContactMemo {
	if len(mem.memos) == 0 {
		return nil // as gob decodes an empty list
	}
	out := make([]ContactMemo, len(mem.memos))
	for i, m := range mem.memos {
		out[i] = ContactMemo{GeomA: m.key.a, GeomB: m.key.b, Feature: m.key.feature, Age: m.age, Impulse: m.impulse,
			PhiEnd: m.phiEnd, Anchored: m.anchored, AnchorA: m.anchorA, AnchorB: m.anchorB}
	}
	return out
}

// restore replaces the memory with checkpoint records (in key order).
func (mem *contactMemory) restore(c []ContactMemo) {
	mem.memos = mem.memos[:0]
	for _, m := range c {
		mem.memos = append(mem.memos, contactMemo{key: contactKey{a: m.GeomA, b: m.GeomB, feature: m.Feature}, age: m.Age,
			impulse: m.Impulse, phiEnd: m.PhiEnd, anchored: m.Anchored, anchorA: m.AnchorA, anchorB: m.AnchorB})
	}
	slices.SortFunc(mem.memos, func(x, y contactMemo) int { return x.key.compare(y.key) })
}
