package sim

import (
	"slices"
	"unsafe"

	"github.com/stiction-sim/stiction/contact"
)

// A step of MuJoCo's integrators asks for a contact pair's combined
// material (contact.Combine of its two geometries' materials, mujocoSoft)
// up to three times: substeps, to leave out MuJoCo's row pairs
// (muJoCoRowPair); softTouching, to keep MuJoCo's touching pairs; and the
// contact assembler, for the pair's rows. The material depends on the two
// geometries alone, so the step combines it once: substeps keeps what it
// combined (stepMaterials), softTouching takes it from there, and the
// assembler takes softTouching's (contact.Assembler.Combined). The same
// Combine of the same two materials gives the same bits.

// pairMemo is the combined material of one contact pair of the step, by
// its index in the cache (pairMatCache.entries: softTouching copies it
// from there once, where a copy into the memo made two copies of its 168
// bytes a pair), with the pair's geometries, which softTouching checks
// before using it. A memo holds no pointer: substeps writes it without a
// write barrier.
type pairMemo struct {
	geomA, geomB int
	entry        int
}

// rememberMaterial appends pair pr to the step's materials
// (sim.ws.mj.staged.known), which substeps fills in the order of the
// step's pairs and detectContacts empties, with its combined material
// (combinedMaterial), and returns that material in place.
func (sim *Simulator) rememberMaterial(pr *contact.Pair) *pairMaterial {
	st := &sim.ws.mj.staged
	e := sim.combinedEntry(pr)
	n := len(st.known)
	st.known = slices.Grow(st.known, 1)[:n+1]
	st.known[n] = pairMemo{pr.GeomA, pr.GeomB, e}
	return &st.matCache.entries[e].pm
}

// knownMaterial returns the combined material that substeps found for
// pair pr, the j-th of the step's pairs before softTouching dropped any,
// in place in the cache, or nil when it has none (or the cache has
// replaced it since: pairMatCache.add).
func (sim *Simulator) knownMaterial(j int, pr *contact.Pair) *pairMaterial {
	st := &sim.ws.mj.staged
	known := st.known
	if j >= len(known) || known[j].geomA != pr.GeomA || known[j].geomB != pr.GeomB {
		return nil
	}
	return &st.matCache.entries[known[j].entry].pm
}

// combinedMaterials returns, in dst's storage, pointers to the materials
// of mats by pair, for contact.Assembler.Combined, which reads them in
// place: mats stays as it is until the assembly is done (softTouching
// sets it before). The copy of each 160-byte material that it made
// before was 7 of assembleContacts' 17 instruction-cache lines on
// half_cheetah (BENCHMARKS.md, hundred-and-ninety-fifth pass).
func combinedMaterials(mats []pairMaterial, dst []*contact.Material) []*contact.Material {
	dst = dst[:0]
	for i := range mats {
		dst = append(dst, &mats[i].mat)
	}
	return dst
}

// The combined material of a pair also stays the same from step to step
// as long as its geometries' two materials do: mujocoSoft keeps it
// (pairMatCache) and combines again only when one of the two materials of
// Config.Materials changed since, bit for bit (a caller may change them in
// place between steps), or for a pair of materials it has not seen.

// pairMatCacheSize bounds the kept combinations; past it, the oldest are
// replaced.
const pairMatCacheSize = 32

// pairMatCache is the combined materials kept across steps (mujocoSoft),
// by the two geometries' material indices.
type pairMatCache struct {
	entries []pairMatEntry
	next    int // the entry the next new combination replaces once full
}

// pairMatEntry is the combination of materials ia and ib: the materials
// it was combined from, and the result.
type pairMatEntry struct {
	ia, ib int
	a, b   contact.Material
	pm     pairMaterial
}

// combinedMaterial returns the combined material of pair pr's geometries
// (contact.Combine of their Config.Materials) and whether it is MuJoCo's
// soft contact, from the cache when the same two materials were combined
// before: the same Combine of the same bits gives the same bits. It
// points to the cache's entry, for the caller to copy before the next
// call (which may replace it): returned by value, the 168 bytes were
// copied twice on their way to muJoCoRowPair's slot, four
// instruction-cache lines of this function (BENCHMARKS.md,
// two-hundredth pass).
func (sim *Simulator) combinedMaterial(pr *contact.Pair) *pairMaterial {
	return &sim.ws.mj.staged.matCache.entries[sim.combinedEntry(pr)].pm
}

// combinedEntry returns the index of pair pr's combined material in the
// cache (combinedMaterial), combining it there on a miss.
func (sim *Simulator) combinedEntry(pr *contact.Pair) int {
	m, mats := sim.Model, sim.cfg.Materials
	ia, ib := m.Geometries[pr.GeomA].Material, m.Geometries[pr.GeomB].Material
	st := &sim.ws.mj.staged
	c := &st.matCache
	for i := range c.entries {
		e := &c.entries[i]
		if e.ia == ia && e.ib == ib && sameMaterial(&e.a, &mats[ia]) && sameMaterial(&e.b, &mats[ib]) {
			return i
		}
	}
	return c.add(ia, ib, mats, st.known)
}

// add combines materials ia and ib of mats, keeps the result and returns
// its index: combinedEntry's miss, out of its line (once per pair of
// materials, or after a change of one). An entry it replaces is no longer
// the material of the step's pairs known refers to it for: their memos
// lose it (knownMaterial then finds none, and softTouching combines the
// pair's material again).
//
//go:noinline
func (c *pairMatCache) add(ia, ib int, mats []contact.Material, known []pairMemo) int {
	mat := contact.Combine(mats[ia], mats[ib])
	e := pairMatEntry{ia: ia, ib: ib, a: mats[ia], b: mats[ib], pm: pairMaterial{mat, mat.MuJoCoSoft()}}
	if c.entries == nil {
		c.entries = make([]pairMatEntry, 0, pairMatCacheSize) // a pair first seen later allocates nothing
	}
	k := len(c.entries)
	if k < pairMatCacheSize {
		c.entries = append(c.entries, e)
		return k
	}
	k = c.next
	c.entries[k] = e
	c.next = (c.next + 1) % pairMatCacheSize
	for i := range known {
		if known[i].entry == k {
			known[i].geomA = -1 // no pair's geometry
		}
	}
	return k
}

// sameMaterial reports whether a and b hold the same bytes, which proves
// that every field holds the same bits (the same Foundation pointer): one
// memory compare of the whole struct (runtime memequal), where comparing
// field by field cost 1–2.2k instructions a step on dm walker and
// humanoid (BENCHMARKS.md, sixty-fifth pass). The compare covers the
// struct's padding too, so it may only ever say "different" for two
// materials of the same fields, which costs combinedMaterial one
// contact.Combine again and never a stale result; the cache's copy of a
// material is a copy of all of its bytes. TestSameMaterialEveryField
// checks that it tells apart any change of any field.
func sameMaterial(a, b *contact.Material) bool {
	return *(*materialBytes)(unsafe.Pointer(a)) == *(*materialBytes)(unsafe.Pointer(b))
}

// materialBytes is the memory of one contact.Material, for sameMaterial.
type materialBytes [unsafe.Sizeof(contact.Material{})]byte
