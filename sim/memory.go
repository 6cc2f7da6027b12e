package sim

import (
	"cmp"
	"math"
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
	shift    spatial.Vec3 // the slip accumulated since sticking began, world frame
	rolled   bool         // rolling friction holds and has an anchor
	roll     spatial.Vec3 // the relative rotation about tangent axes accumulated since, world frame
	spun     bool         // spin friction holds and has an anchor
	spin     float64      // the relative rotation about the normal accumulated since
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
// An anchored contact's AnchorShift is the slip it accumulated since it
// began to stick, projected on the current tangent plane.
func (sim *Simulator) recallContacts() {
	mem := &sim.mem
	for i := range sim.ws.pairs {
		pr := &sim.ws.pairs[i]
		pr.Age, pr.PrevImpulse, pr.Anchored, pr.AnchorShift, pr.GapError = 0, [3]float64{}, false, spatial.Vec3{}, 0
		pr.RollAnchored, pr.RollShift, pr.SpinAnchored, pr.SpinShift = false, spatial.Vec3{}, false, 0
		k := keyOf(pr)
		j, ok := slices.BinarySearchFunc(mem.memos, k, func(m contactMemo, k contactKey) int { return m.key.compare(k) })
		if !ok {
			continue
		}
		mm := &mem.memos[j]
		pr.Age, pr.PrevImpulse = mm.age+1, mm.impulse
		pr.GapError = min(0, pr.Phi-mm.phiEnd)
		if mm.anchored {
			pr.Anchored = true
			pr.AnchorShift = mm.shift.Sub(pr.Normal.Scale(mm.shift.Dot(pr.Normal)))
		}
		if mm.rolled {
			pr.RollAnchored = true
			pr.RollShift = mm.roll.Sub(pr.Normal.Scale(mm.roll.Dot(pr.Normal)))
		}
		pr.SpinAnchored, pr.SpinShift = mm.spun, mm.spin
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
// none when the contact carries no load; otherwise the slip accumulated
// since the anchor was set, Δx ← Δx + δt v_t (v_t the solve's tangential
// contact velocity, in the world frame). The slip is the displacement of
// B's material point relative to A's at the contact point: a rolling or
// spinning contact does not slip and accumulates nothing. When the contact
// slides (its friction is on the bound), Δx is cut to the largest
// displacement its friction holds (contact.Assembler.AnchorCap), so that
// the anchor is dragged along behind the slip, as in elasto-plastic
// friction models: sliding stops into a stick without a jump, and a load
// just inside the friction bound is held (dropping the anchor there would
// let the contact ratchet forward). A displacement beyond
// Contact.AnchorRadius drops the anchor.
func (sim *Simulator) anchor(mm *contactMemo, pr *contact.Pair, i int) {
	sim.anchorRotation(mm, pr, i)
	w := &sim.ws
	if !(w.result.Gamma[3*i+2] > 0) {
		return
	}
	t1, t2 := spatial.Orthonormal(pr.Normal)
	vc := w.result.VC[3*i : 3*i+2]
	shift := t1.Scale(sim.cfg.DT * vc[0]).Add(t2.Scale(sim.cfg.DT * vc[1]))
	if pr.Anchored {
		shift = shift.Add(pr.AnchorShift)
	}
	if !w.assemble.Sticking(i, w.result.Gamma, &w.problem) {
		shift = capNorm(shift, w.assemble.AnchorCap(i, w.result.Gamma, &w.problem))
	}
	if shift.Norm() > sim.cfg.Contact.AnchorRadius {
		return
	}
	mm.anchored, mm.shift = true, shift
}

// capNorm returns x scaled down to norm c if it is longer.
func capNorm(x spatial.Vec3, c float64) spatial.Vec3 {
	if n := x.Norm(); n > c {
		return x.Scale(c / n)
	}
	return x
}

// export returns the memory as checkpoint records.
func (mem *contactMemory) export() []ContactMemo {
	if len(mem.memos) == 0 {
		return nil // as gob decodes an empty list
	}
	out := make([]ContactMemo, len(mem.memos))
	for i, m := range mem.memos {
		out[i] = ContactMemo{GeomA: m.key.a, GeomB: m.key.b, Feature: m.key.feature, Age: m.age, Impulse: m.impulse,
			PhiEnd: m.phiEnd, Anchored: m.anchored, Shift: m.shift, Rolled: m.rolled, Roll: m.roll, Spun: m.spun, Spin: m.spin}
	}
	return out
}

// restore replaces the memory with checkpoint records (in key order).
func (mem *contactMemory) restore(c []ContactMemo) {
	mem.memos = mem.memos[:0]
	for _, m := range c {
		mem.memos = append(mem.memos, contactMemo{key: contactKey{a: m.GeomA, b: m.GeomB, feature: m.Feature}, age: m.Age,
			impulse: m.Impulse, phiEnd: m.PhiEnd, anchored: m.Anchored, shift: m.Shift, rolled: m.Rolled, roll: m.Roll, spun: m.Spun, spin: m.Spin})
	}
	slices.SortFunc(mem.memos, func(x, y contactMemo) int { return x.key.compare(y.key) })
}

// anchorRotation sets the rolling and spin friction anchors of memo mm of
// pair i after the solve, as anchor does for sliding: the relative
// rotation about the tangent axes (the normal) accumulates, Δθ ← Δθ +
// δt ω_rel, and is fed back as the block's v̂ = −Δθ/(δt + τd) next step;
// while the block is on its bound (rolling, spinning) Δθ is cut to
// Assembler.RotationCap, the anchor dragged along. Without anchors,
// regularized rolling friction (R = σw) lets a sphere resting in a dip
// roll away slowly, as sliding friction creeps. An accumulated rotation
// beyond Contact.AnchorRadius radians drops the anchor.
func (sim *Simulator) anchorRotation(mm *contactMemo, pr *contact.Pair, i int) {
	w := &sim.ws
	p, gamma, dt, lim := &w.problem, w.result.Gamma, sim.cfg.DT, sim.cfg.Contact.AnchorRadius
	if c := w.assemble.RollingBlock(i); c >= 0 {
		t1, t2 := spatial.Orthonormal(pr.Normal)
		row := p.Constraints[c].Row
		d := t1.Scale(dt * w.result.VC[row]).Add(t2.Scale(dt * w.result.VC[row+1]))
		if pr.RollAnchored {
			d = d.Add(pr.RollShift)
		}
		if !contact.Holds(p, c, gamma) {
			d = capNorm(d, w.assemble.RotationCap(i, c, p))
		}
		if d.Norm() <= lim {
			mm.rolled, mm.roll = true, d
		}
	}
	if c := w.assemble.SpinBlock(i); c >= 0 {
		d := dt * w.result.VC[p.Constraints[c].Row]
		if pr.SpinAnchored {
			d += pr.SpinShift
		}
		if !contact.Holds(p, c, gamma) {
			cp := w.assemble.RotationCap(i, c, p)
			d = max(-cp, min(d, cp))
		}
		if math.Abs(d) <= lim {
			mm.spun, mm.spin = true, d
		}
	}
}
